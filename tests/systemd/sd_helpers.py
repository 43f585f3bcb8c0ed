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


class Client:
    """A blocking protocol-1 client for the daemon tests: :meth:`ask` sends a request and returns
    its response lines (events that arrive meanwhile are kept in :attr:`events`)."""

    def __init__(self, host: str, port: int, timeout: float = 10.0) -> None:
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.file = self.sock.makefile("rb")
        self.events: list[str] = []
        self.greeting = self.line()

    def line(self) -> str:
        """The next line, without its LF; '' at end of stream is reported as EOFError."""
        raw = self.file.readline()
        if not raw:
            raise EOFError("connection closed by the daemon")
        return raw.decode().rstrip("\n")

    def ask(self, request: str) -> list[str]:
        """Send ``request``; its response: the ``=``/``?`` line and the payload lines."""
        self.sock.sendall(request.encode() + b"\n")
        while (first := self.line()).startswith("*"):
            self.events.append(first)
        response = [first]
        while line := self.line():
            response.append(line)
        return response

    def event(self, prefix: str) -> str:
        """The first event (kept or still to come) that starts with ``prefix``."""
        for i, event in enumerate(self.events):
            if event.startswith(prefix):
                return self.events.pop(i)
        while not (line := self.line()).startswith(prefix):
            self.events.append(line)
        return line

    def close(self) -> None:
        self.file.close()
        self.sock.close()


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port
