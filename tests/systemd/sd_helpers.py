"""Helpers for the systemd tests (a module of its own: test modules import it by name)."""

from __future__ import annotations

import socket

import attrs


@attrs.define
class NotifySocket:
    """A unix datagram socket standing in for systemd's: ``env`` is the ``NOTIFY_SOCKET`` value
    to give the notifier, ``sock`` receives the notifications."""

    sock: socket.socket
    env: str

    def receive(self, timeout: float = 5.0) -> str:
        """The next notification, as text; raises TimeoutError after ``timeout`` seconds."""
        self.sock.settimeout(timeout)
        return self.sock.recv(4096).decode()

    def messages_until(self, assignment: str, timeout: float = 10.0) -> list[str]:
        """Every notification up to and including the first that contains ``assignment``."""
        received = []
        while True:
            message = self.receive(timeout)
            received.append(message)
            if assignment in message.split("\n"):
                return received
