"""Shared fixtures: a real hipparchusd subprocess on a free loopback port."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import attrs
import pytest
from services import Postgres, Redis, postgres_missing, redis_missing, start_postgres, start_redis


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@attrs.define
class DaemonProcess:
    """A running ``python -m hipparchusd`` subprocess and where to reach it."""

    process: subprocess.Popen[bytes]
    host: str
    port: int
    log_path: Path

    def log(self) -> str:
        """Everything the daemon wrote to stderr so far."""
        return self.log_path.read_text(errors="replace")

    def stop(self, timeout: float = 10.0) -> int:
        """SIGTERM the daemon, wait for it, and return its exit status."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode


def start_daemon(
    tmp_path: Path, *args: str, env: dict[str, str] | None = None, wait: float = 15.0
) -> DaemonProcess:
    """Start a daemon on a free port with ``args`` (default ``--state-dir none``) and wait until
    it accepts connections (it has sent its greeting). Its runtime directory (the admin
    socket's) is a folder of the test's, ``run-<port>``, unless ``env`` says otherwise.

    Raises:
        RuntimeError: the daemon exited or did not answer within ``wait`` seconds (with its log).
    """
    port = free_port()
    log_path = tmp_path / f"hipparchusd-{port}.log"
    extra = list(args) or ["--state-dir", "none"]
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "hipparchusd",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                *extra,
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "RUNTIME_DIRECTORY": str(tmp_path / f"run-{port}"), **(env or {})},
        )
    daemon = DaemonProcess(process, "127.0.0.1", port, log_path)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"hipparchusd exited with {process.returncode}:\n{daemon.log()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as conn:
                if conn.makefile("rb").readline().startswith(b"* server hello"):
                    return daemon
        except OSError:
            time.sleep(0.05)
    daemon.stop()
    raise RuntimeError(f"hipparchusd did not start within {wait} s:\n{daemon.log()}")


@pytest.fixture
def daemon_factory(tmp_path: Path) -> Iterator[Callable[..., DaemonProcess]]:
    """Start daemons with ``daemon_factory(*args)`` (``wait``: seconds to wait for each to
    greet); all are stopped at the end of the test."""
    started: list[DaemonProcess] = []

    def factory(*args: str, env: dict[str, str] | None = None, wait: float = 15.0) -> DaemonProcess:
        daemon = start_daemon(tmp_path, *args, env=env, wait=wait)
        started.append(daemon)
        return daemon

    yield factory
    for daemon in started:
        daemon.stop()


@pytest.fixture
def daemon(daemon_factory: Callable[..., DaemonProcess]) -> DaemonProcess:
    """One in-memory daemon (``--state-dir none``) for the test."""
    return daemon_factory()


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    """A throwaway PostgreSQL cluster for the whole run (skips, saying why, where PostgreSQL
    cannot run here)."""
    why = postgres_missing()
    if why is not None:
        pytest.skip(why)
    cluster = start_postgres()
    yield cluster
    cluster.stop()


@pytest.fixture
def pg_url(postgres: Postgres) -> str:
    """The URL of a new, empty database of :func:`postgres`, for one test."""
    return postgres.create_database()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[Redis]:
    """A ``redis-server`` for the whole run (skips, saying why, where there is none)."""
    why = redis_missing()
    if why is not None:
        pytest.skip(why)
    server = start_redis()
    yield server
    server.stop()
