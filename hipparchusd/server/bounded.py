"""Serving a side listener (the metrics', the admin channel's) with at most so many
connections at once: one more is closed as soon as it is accepted, so that a flood of them
costs the daemon next to nothing and never delays its players."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import trio

StreamT = TypeVar("StreamT", bound=trio.abc.AsyncResource)


async def serve_bounded(
    listener: trio.abc.Listener[StreamT],
    most: int,
    handle: Callable[[StreamT], Awaitable[Any]],
) -> None:
    """Accept on ``listener`` until cancelled and ``handle`` each stream in a task of a
    nursery of its own (they end with it), at most ``most`` at once; each stream is closed
    once its handler returns."""
    slots = trio.Semaphore(most)

    async def served(stream: StreamT) -> None:
        try:
            await handle(stream)
        finally:
            slots.release()
            await trio.aclose_forcefully(stream)

    async with trio.open_nursery() as nursery:
        while True:
            stream = await listener.accept()
            try:
                slots.acquire_nowait()
            except trio.WouldBlock:
                await trio.aclose_forcefully(stream)
                continue
            nursery.start_soon(served, stream)
