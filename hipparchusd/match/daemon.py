"""A daemon for a match that is not given one (``--connect``): served in a thread of this
process, on a free loopback port with a memory store."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

import trio

from ..server import Server, serve
from ..settings import Settings
from ..store.base import MemoryStore
from .config import MatchError


@contextlib.contextmanager
def local_daemon(workers: int, max_games: int) -> Iterator[tuple[str, int]]:
    """A daemon in a thread of this process (memory store, a free loopback port), for the
    block; its engine's workers are processes as ever."""
    settings = Settings(
        port=0,
        max_games=max_games,
        grace_period=0.5,
        engine_workers=workers,
        idle_timeout=0,
        abandon_timeout=0,
        adjourn_timeout=0,
        log_level="warning",
    )
    started = threading.Event()
    holder: dict[str, Any] = {}

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            server: Server = await nursery.start(serve, settings, MemoryStore())
            holder["server"] = server
            holder["token"] = trio.lowlevel.current_trio_token()
            started.set()
            await server.stopped.wait()

    def target() -> None:
        try:
            trio.run(main)
        except BaseException as error:  # reported to the waiting thread
            holder["error"] = error
            started.set()

    thread = threading.Thread(target=target, name="hipparchusd-match-daemon", daemon=True)
    thread.start()
    started.wait()
    if "error" in holder:
        raise MatchError(f"the daemon did not start: {holder['error']}")
    server = holder["server"]
    try:
        yield "127.0.0.1", server.ports[0]
    finally:
        trio.from_thread.run_sync(server.shutdown, trio_token=holder["token"])
        thread.join(30)
