"""The start-up of the SQLite store: the checks made in the daemon's process before its
writer process starts (:func:`open_database`), then the start of that process
(:func:`start_writer`). The checks stop with a
:class:`~hipparchusd.store.base.StoreError` rather than drop or overwrite anything: a state
directory that cannot be created or written, a second daemon on the same directory, a file that
is not a SQLite database, a database that fails ``PRAGMA quick_check``, or one whose schema is
newer than this program. An older schema is migrated, after a backup.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from . import schema
from .base import StoreError
from .spawn import Writer, spawn_writer

#: The database file inside the state directory.
DB_NAME: Final = "games.sqlite3"
#: The lock file that keeps a second daemon off the same state directory.
LOCK_NAME: Final = "lock"
#: The first bytes of every SQLite 3 database file.
_SQLITE_MAGIC: Final = b"SQLite format 3\x00"
#: Seconds the writer process may take to open the database and say it is ready (it waits up
#: to 30 s for a SQLite lock another program holds).
_WRITER_START_TIMEOUT: Final = 45.0
#: Seconds to wait for the state directory's lock while its holder may be the writer of a
#: daemon that was just killed (it exits when it sees its parent gone).
_LOCK_WAIT: Final = 2.0


async def start_writer(path: Path, lock_fd: int) -> Writer:
    """Start the SQLite writer process on the checked database ``path``, handing it a copy of
    the state directory's lock (:func:`~.spawn.spawn_writer`); the process, our end of its
    socket (non-blocking) and the settings it reported.

    Raises:
        StoreError: the process could not start or could not open the database.
    """
    return await spawn_writer(
        "hipparchusd.store.writer",
        [str(path)],
        what=f"the store's writer process for {path}",
        timeout=_WRITER_START_TIMEOUT,
        pass_fds=(lock_fd,),
    )


def open_database(state_dir: Path, migrations: Sequence[schema.Migration] | None) -> int:
    """Check ``state_dir`` and its database and make them ready for the writer process
    (blocking: run it off the trio thread); the held lock's file descriptor, which the caller
    closes to release the directory.

    Checks, in order: the directory can be created and written; no other process holds its
    lock (waiting up to 2 s for the writer of a daemon just killed to exit); the database
    file, if any, is a SQLite database that passes ``PRAGMA quick_check`` and is a
    hipparchusd store of a schema version this program knows. An older schema is migrated
    (:mod:`hipparchusd.store.schema`) after copying the file to
    ``games.sqlite3.v<N>-<unix time>.bak``.

    Raises:
        StoreError: a check failed; the message names the path and the problem.
    """
    _check_writable(state_dir)
    lock_fd = _lock(state_dir)
    try:
        _connect(state_dir / DB_NAME, migrations).close()
        _sync_directory(state_dir)
    except BaseException:
        os.close(lock_fd)
        raise
    return lock_fd


def _sync_directory(state_dir: Path) -> None:
    """Make the directory entries of the files just created durable (SQLite syncs the
    directory for its log files, not for the database file it creates)."""
    fd = os.open(state_dir, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _check_writable(state_dir: Path) -> None:
    try:
        state_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as error:
        raise StoreError(
            f"cannot create the state directory {state_dir}: {error.strerror or error}"
        ) from None
    probe = state_dir / f".probe-{os.getpid()}"
    try:
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, b"hipparchusd")
            os.fsync(fd)
        finally:
            os.close(fd)
        os.unlink(probe)
    except OSError as error:
        raise StoreError(
            f"the state directory {state_dir} cannot be written: {error.strerror or error}"
        ) from None


def _lock(state_dir: Path) -> int:
    """Take the state directory's lock for the life of the process (or until close); write
    our pid in it for the message a second daemon would see."""
    path = state_dir / LOCK_NAME
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as error:
        raise StoreError(f"cannot open the lock file {path}: {error.strerror or error}") from None
    deadline = time.monotonic() + _LOCK_WAIT
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except OSError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
            # A daemon that was killed leaves its writer process to finish its last batch and
            # exit, the lock with it: wait for that, but not for a daemon that is running.
            if running(holder) or time.monotonic() >= deadline:
                os.close(fd)
                raise StoreError(
                    f"the state directory {state_dir} is in use by another hipparchusd "
                    f"(pid {holder})"
                ) from None
            time.sleep(0.02)
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return fd


def running(pid: object) -> bool:
    """Whether process ``pid`` (a number, or text from a lock file) exists on this host, as far
    as we can tell: a process of another user, or a value that is no pid, counts as running."""
    try:
        os.kill(int(str(pid)), 0)
    except ProcessLookupError:
        return False
    except (ValueError, OSError):
        return True  # not a pid, or someone else's process: assume it runs
    return True


def _connect(path: Path, migrations: Sequence[schema.Migration] | None) -> sqlite3.Connection:
    damaged = "move it aside or restore it from a backup; hipparchusd will not overwrite it"
    if path.exists() and path.stat().st_size > 0:
        with path.open("rb") as file:
            if file.read(len(_SQLITE_MAGIC)) != _SQLITE_MAGIC:
                raise StoreError(f"{path} is not a SQLite database (damaged?); {damaged}")
    elif not path.exists():
        # Readable by the daemon's user alone: snapshots hold the hands of games in progress
        # (RULINGS H13). SQLite gives its log files the database file's mode.
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except OSError as error:
            raise StoreError(f"cannot create {path}: {error.strerror or error}") from None
    try:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=30)
    except sqlite3.Error as error:
        raise StoreError(f"cannot open {path}: {error}") from None
    try:
        problems = [row[0] for row in conn.execute("PRAGMA quick_check").fetchall()]
        if problems != ["ok"]:
            raise StoreError(f"{path} is damaged ({'; '.join(problems[:3])}); {damaged}")
        version = schema.read_version(conn, str(path))
        schema.check_version(version, str(path), migrations)  # before changing anything
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if mode != "wal":
            raise StoreError(f"{path}: cannot use write-ahead logging there (mode {mode})")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        if 0 < version < schema.latest_version(migrations):
            _back_up(conn, path, version)
        schema.migrate(conn, str(path), migrations)
        try:  # SQLite opens a file it may not write read-only, silently: write now to know
            conn.execute(
                "INSERT INTO meta (key, value) VALUES ('last_opened', ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (f"{time.time():.0f} pid {os.getpid()}",),
            )
        except sqlite3.OperationalError as error:
            raise StoreError(f"{path} cannot be written ({error})") from None
    except sqlite3.DatabaseError as error:
        conn.close()
        raise StoreError(f"{path} cannot be read ({error}); {damaged}") from None
    except BaseException:
        conn.close()
        raise
    return conn


def _back_up(conn: sqlite3.Connection, path: Path, version: int) -> None:
    """Copy the database aside before migrating it: ``<name>.v<version>-<unix time>.bak``."""
    target = path.with_name(f"{path.name}.v{version}-{int(time.time())}.bak")
    try:
        os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        raise StoreError(f"a backup {target} already exists; try again in a second") from None
    copy = sqlite3.connect(target)
    try:
        conn.backup(copy)
    finally:
        copy.close()
