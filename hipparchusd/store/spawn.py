"""Starting a store's writer process (:func:`spawn_writer`): a child ``python -m MODULE``
given one end of a Unix socket pair, which says ``ready`` (with its settings) or ``failed``
(with why) in its first frame (:mod:`.frames`). SQLite's writer (:mod:`.writer`) and
PostgreSQL's (:mod:`.pg.writer`) both start so; the database is the child's business.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final, TypeAlias

import trio

from .base import StoreError
from .frames import FrameReader

#: Bytes read from the writer at a time while it starts.
_RECEIVE_SIZE: Final = 1 << 16

#: A writer process that said it is ready: the process, our end of its socket (non-blocking),
#: and the settings it reported (e.g. ``journal_mode``), for tests and monitoring.
Writer: TypeAlias = tuple[subprocess.Popen[bytes], socket.socket, dict[str, Any]]


def _writer_environment() -> dict[str, str]:
    """The daemon's environment, with the directory this ``hipparchusd`` package was imported
    from first on ``PYTHONPATH`` (and ``-P`` keeps the working directory off the path): the
    writer always runs the same code as the daemon, wherever either was started from."""
    package_root = str(Path(__file__).resolve().parents[2])
    inherited = os.environ.get("PYTHONPATH")
    return {
        **os.environ,
        "PYTHONPATH": package_root + (os.pathsep + inherited if inherited else ""),
    }


async def spawn_writer(
    module: str,
    arguments: Sequence[str],
    *,
    what: str,
    timeout: float,
    pass_fds: Sequence[int] = (),
    env: Mapping[str, str] | None = None,
) -> Writer:
    """Start ``python -m module --fd N *arguments`` (``N``: its end of a new socket pair, with
    ``pass_fds`` passed too, and ``env`` added to its environment) and wait up to ``timeout``
    seconds for its first frame; the process, our end of its socket (non-blocking) and the
    settings it reported. ``what`` names the process in errors.

    Started from the trio thread itself (not a worker thread, as ``trio.run_process`` would):
    nothing about the child may depend on a thread that can end.

    Raises:
        StoreError: the process could not start, or said it failed (its message), or said
            nothing within ``timeout``.
    """
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    process: subprocess.Popen[bytes] | None = None
    try:
        try:
            process = subprocess.Popen(
                [sys.executable, "-P", "-m", module, "--fd", str(theirs.fileno()), *arguments],
                stdin=subprocess.DEVNULL,
                pass_fds=(theirs.fileno(), *pass_fds),
                env={**_writer_environment(), **(env or {})},
            )
        except OSError as error:
            raise StoreError(f"cannot start {what}: {error}") from None
        finally:
            theirs.close()
        ours.setblocking(False)
        frames = FrameReader()
        messages: list[Any] = []
        with trio.move_on_after(timeout):
            while not messages:
                await trio.lowlevel.wait_readable(ours)
                data = ours.recv(_RECEIVE_SIZE)
                if not data:
                    code = await trio.to_thread.run_sync(process.wait)
                    raise StoreError(f"{what} exited at start ({code})")
                messages = frames.feed(data)
        if not messages:
            raise StoreError(f"{what} did not start within {timeout:g} s")
        status, detail = messages[0]
        if status != "ready":
            await trio.to_thread.run_sync(process.wait)
            raise StoreError(str(detail))
    except BaseException:
        ours.close()
        if process is not None and process.returncode is None:
            # Stopped before the writer was ready (cancelled, say): end it and reap it rather
            # than leave it holding a copy of the lock, which an open tried again at once
            # would find held under our own pid. It has been sent nothing to write.
            process.kill()
            with trio.CancelScope(shield=True):
                await trio.to_thread.run_sync(process.wait)
        raise
    return process, ours, detail
