"""Where the daemon keeps its games: the state directory (chosen as
:mod:`hipparchusd.directories` says, whose functions this module also offers) and its store.

``--state-dir none`` keeps nothing: a :class:`MemoryStore`, for throwaway servers and tests.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from ..directories import NO_STATE_DIR, default_state_dir, resolve_state_dir
from .base import GameStore, MemoryStore
from .sqlite import SqliteStore

__all__ = ["NO_STATE_DIR", "default_state_dir", "open_store", "resolve_state_dir"]


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
