"""Real servers for the tests that need them (issue 28): a throwaway PostgreSQL cluster
(``initdb`` and ``pg_ctl`` from Debian's postgresql package, in a temporary folder, on a free
port) and ``redis-server`` (Debian's redis-server package) on a free port. Each says why it
cannot start (:func:`postgres_missing`, :func:`redis_missing`) so that a test skips with that
reason. The benchmarks under ``bench/`` start them the same way.

PostgreSQL refuses to run as root: as root, the cluster is made and run as the ``postgres``
user the package creates (through ``runuser``), in a folder that user owns.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import attrs

#: Where Debian's postgresql package puts its programs (the newest version found is used).
PG_BIN_GLOB = "/usr/lib/postgresql/*/bin"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def pg_bin() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``, or ``None``."""

    def version(folder: str) -> float:
        name = Path(folder).parent.name
        return float(name) if name.replace(".", "", 1).isdigit() else 0.0

    for folder in sorted(glob.glob(PG_BIN_GLOB), key=version, reverse=True):
        if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    return None


def postgres_missing() -> str | None:
    """Why a PostgreSQL cluster cannot be started here, or ``None``."""
    if pg_bin() is None:
        return f"no initdb/pg_ctl in {PG_BIN_GLOB} (apt-get install postgresql; .ci/run does)"
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install -e '.[test]')"
    if os.geteuid() == 0 and (shutil.which("runuser") is None or not _user_exists("postgres")):
        return "running as root without a postgres user and runuser to run PostgreSQL as"
    return None


def redis_missing() -> str | None:
    """Why ``redis-server`` cannot be started here, or ``None``."""
    if shutil.which("redis-server") is None:
        return "no redis-server (apt-get install redis-server; .ci/run does)"
    return None


def _user_exists(name: str) -> bool:
    import pwd

    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


@attrs.define
class Postgres:
    """A running throwaway PostgreSQL cluster: its folder, port and programs. The superuser
    is ``postgres``, trusted on the loopback address only."""

    folder: Path
    port: int
    bin: Path
    log: Path
    _count: int = 0

    @property
    def as_root(self) -> bool:
        return os.geteuid() == 0

    def _run(self, *command: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        prefix = ["runuser", "-u", "postgres", "--"] if self.as_root else []
        return subprocess.run(
            [*prefix, *command], check=check, capture_output=True, text=True, timeout=120
        )

    def url(self, database: str = "postgres") -> str:
        """The URL of ``database`` as the superuser."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, prefix: str = "test") -> str:
        """A new empty database; its URL."""
        import psycopg

        self._count += 1
        name = f"{prefix}_{os.getpid()}_{self._count}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def ctl(self, action: str, *extra: str) -> None:
        """``pg_ctl ACTION`` on this cluster (``start``, ``stop``, ``restart``), waiting."""
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.folder / "data"),
            "-o",
            options,
            "-l",
            str(self.log),
            "-w",
            "-t",
            "60",
            *extra,
            action,
        )

    def stop(self) -> None:
        """Stop the server at once (``immediate``: a throwaway cluster needs no checkpoint)
        and remove the folder."""
        self._run(
            str(self.bin / "pg_ctl"), "-D", str(self.folder / "data"), "-m", "immediate",
            "-w", "stop", check=False,
        )  # fmt: skip
        shutil.rmtree(self.folder, ignore_errors=True)


def start_postgres(base: Path | None = None) -> Postgres:
    """Make and start a cluster in a new folder under ``base`` (the temporary folder by
    default) on a free loopback port.

    Raises:
        RuntimeError: ``initdb`` or ``pg_ctl`` failed (with their output).
    """
    binaries = pg_bin()
    assert binaries is not None, postgres_missing()
    folder = Path(tempfile.mkdtemp(prefix="pg-", dir=base))
    folder.chmod(0o755)
    data = folder / "data"
    data.mkdir(mode=0o700)
    log = folder / "server.log"
    log.touch()
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
        shutil.chown(data, "postgres")
        shutil.chown(log, "postgres")
    cluster = Postgres(folder, _free_port(), binaries, log)
    try:
        # --no-sync: a throwaway cluster for tests; the server itself still syncs its log at
        # every COMMIT (fsync is on), as a real one does.
        cluster._run(
            str(binaries / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
            "-E", "UTF8", "--locale=C", "--no-sync",
        )  # fmt: skip
        cluster.ctl("start")
    except subprocess.CalledProcessError as error:
        text = f"{error.stdout}\n{error.stderr}\n{log.read_text(errors='replace')}"
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError(f"PostgreSQL did not start: {text}") from None
    return cluster


@attrs.define
class Redis:
    """A running ``redis-server`` on a free loopback port, keeping nothing on disk."""

    process: subprocess.Popen[bytes]
    port: int
    folder: Path

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def restart(self) -> None:
        """Stop it and start it again on the same port (nothing kept: pub/sub is not)."""
        self.stop()
        self.process = _redis_process(self.port, self.folder)
        _wait_port(self.port, self.process)


def _redis_process(port: int, folder: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip


def _wait_port(port: int, process: subprocess.Popen[bytes], wait: float = 20.0) -> None:
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"redis-server exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as conn:
                conn.sendall(b"PING\r\n")
                if conn.recv(16).startswith(b"+PONG"):
                    return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"redis-server did not answer within {wait} s")


def start_redis(base: Path | None = None) -> Redis:
    """Start ``redis-server`` on a free loopback port, its folder under ``base``."""
    folder = Path(tempfile.mkdtemp(prefix="redis-", dir=base))
    port = _free_port()
    process = _redis_process(port, folder)
    _wait_port(port, process)
    return Redis(process, port, folder)
