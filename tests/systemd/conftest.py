"""Fixtures for the systemd integration tests: a notification socket like the one systemd
listens on."""

from __future__ import annotations

import os
import socket
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from sd_helpers import NotifySocket


@pytest.fixture(params=["path", "abstract"])
def notify_socket(request: pytest.FixtureRequest) -> Iterator[NotifySocket]:
    """A notification socket bound to a file system path, then to an abstract address."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        if request.param == "path":
            # A short directory: a unix socket path is limited to 107 bytes.
            with tempfile.TemporaryDirectory(prefix="hd-notify-") as directory:
                path = str(Path(directory) / "notify")
                sock.bind(path)
                yield NotifySocket(sock, path)
        else:
            name = f"hipparchusd-test-{os.getpid()}-{os.urandom(4).hex()}"
            sock.bind("\0" + name)
            yield NotifySocket(sock, "@" + name)
