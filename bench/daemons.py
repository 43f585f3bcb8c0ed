"""A ``hipparchusd`` subprocess for the trials under ``bench/`` (:func:`daemon`).

The daemon is the ``hipparchusd`` that the running interpreter imports, so a trial run with
another checkout's ``.venv/bin/python`` measures that checkout.
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator

import attrs


def free_port() -> int:
    """A TCP port free on loopback now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@attrs.frozen
class Daemon:
    """A running daemon: its protocol ``port``, its web listener's ``web_port`` (``None``
    without one), and the seconds from starting the process to its first greeting."""

    port: int
    web_port: int | None
    greeted: float


@contextlib.contextmanager
def daemon(*options: str, web: bool = False) -> Iterator[Daemon]:
    """A daemon (``--state-dir none``, no configuration file, in an empty folder, with the
    extra ``options``, and a web listener if ``web``) on free ports, once it has greeted a
    first client (at most 120 s); stopped at the end.

    Raises:
        AssertionError: it did not greet anyone within 120 s.
    """
    port = free_port()
    web_port = free_port() if web else None
    listener = ["--ws-port", str(web_port)] if web_port is not None else []
    with tempfile.TemporaryDirectory() as empty:
        start = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-m", "hipparchusd", "--config", "", "--state-dir", "none",
             "--port", str(port), *listener, *options],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=empty,
        )  # fmt: skip
        try:
            greeted = None
            deadline = time.monotonic() + 120
            while greeted is None and time.monotonic() < deadline:
                with (
                    contextlib.suppress(OSError),
                    socket.create_connection(("127.0.0.1", port), timeout=120) as sock,
                ):
                    if sock.makefile().readline().startswith("* server hello"):
                        greeted = time.perf_counter() - start
                time.sleep(0.02)
            assert greeted is not None, "the daemon did not start"
            yield Daemon(port, web_port, greeted)
        finally:
            process.terminate()
            process.wait(30)
