"""Where the daemon keeps its games: choosing the state directory and opening its store.

``--state-dir`` takes a directory, or ``none`` to keep nothing (a :class:`MemoryStore`, for
throwaway servers and tests). Without it: ``$STATE_DIRECTORY`` when systemd set one
(``StateDirectory=`` in the unit; the first path when it lists several), else the user's data
directory (``$XDG_DATA_HOME/hipparchusd``, by default ``~/.local/share/hipparchusd``).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator, Mapping
from pathlib import Path

import platformdirs

from .base import GameStore, MemoryStore
from .sqlite import SqliteStore

#: The ``--state-dir`` value that keeps everything in memory.
NO_STATE_DIR = "none"


def default_state_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The state directory when ``--state-dir`` is not given (see the module's docstring)."""
    env = os.environ if environ is None else environ
    systemd = env.get("STATE_DIRECTORY", "")
    if systemd:
        return Path(systemd.split(":")[0])
    return platformdirs.user_data_path("hipparchusd", appauthor=False)


def resolve_state_dir(value: str | None, environ: Mapping[str, str] | None = None) -> Path | None:
    """The state directory meant by a ``--state-dir`` value: ``None`` (keep nothing) for
    ``none``, the default for ``None`` or an empty value, else the path, ``~`` expanded.
    (A directory really called ``none`` is given as ``./none``.)"""
    if value is None or value == "":
        return default_state_dir(environ)
    if value == NO_STATE_DIR:
        return None
    return Path(value).expanduser()


@contextlib.asynccontextmanager
async def open_store(
    state_dir: Path | None, *, retention_days: float = 0
) -> AsyncIterator[GameStore]:
    """``async with open_store(state_dir) as store:``, the store for ``state_dir``: a
    :class:`SqliteStore` there, or a :class:`MemoryStore` when it is ``None``; closed when the
    block ends.

    Raises:
        StoreError: the state directory or its database is unusable (see
            :meth:`SqliteStore.open`); start-up must stop.
        ValueError: a negative ``retention_days``.
    """
    if state_dir is None:
        store = MemoryStore()
        try:
            yield store
        finally:
            await store.aclose()
        return
    async with SqliteStore.open(state_dir, retention_days=retention_days) as sqlite_store:
        yield sqlite_store
