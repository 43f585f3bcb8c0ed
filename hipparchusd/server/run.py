"""Starting and stopping a daemon: listeners, the store, SIGINT/SIGTERM."""

from __future__ import annotations

import logging
import signal
from collections.abc import Sequence
from typing import Any

import trio

from ..lobby import Lobby
from ..settings import Settings
from ..store.base import GameStore, MemoryStore
from .shell import Server

log = logging.getLogger("hipparchusd.server")


def open_store(settings: Settings) -> GameStore:
    """The store ``settings.state_dir`` names: for now only memory (``None``)."""
    if settings.state_dir is None:
        return MemoryStore()
    raise ValueError(f"unsupported state_dir {settings.state_dir!r}")  # pragma: no cover


async def serve(
    settings: Settings,
    store: GameStore,
    *,
    listeners: Sequence[trio.abc.Listener[Any]] | None = None,
    task_status: trio.TaskStatus[Server] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Run a daemon until its :meth:`Server.shutdown` is called (or the task is cancelled).

    Listens on ``settings.host``/``settings.port`` unless ``listeners`` are given (e.g. the
    sockets systemd passes). Calls ``task_status.started(server)`` once accepting: use
    ``server = await nursery.start(serve, settings, store)``. Takes ownership of ``store``
    (closes it at the end).

    Raises:
        OSError: the address cannot be bound.
    """
    if listeners is None:
        try:
            listeners = await trio.open_tcp_listeners(settings.port, host=settings.host)
        except BaseException:
            await store.aclose()
            raise
    server = Server(settings, store, Lobby(max_games=settings.max_games))
    for listener in listeners:
        sock = getattr(listener, "socket", None)
        if sock is not None:
            address = sock.getsockname()
            server.ports.append(address[1])
            log.info("listening on %s port %d", address[0], address[1])
    await server.serve(listeners, task_status=task_status)


async def run_async(
    settings: Settings,
    *,
    listeners: Sequence[trio.abc.Listener[Any]] | None = None,
    task_status: trio.TaskStatus[Server] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Open the store and serve until SIGINT or SIGTERM, then shut down gracefully.

    Raises:
        OSError: the address cannot be bound (raised as such, before anything starts).
    """
    if listeners is None:
        listeners = await trio.open_tcp_listeners(settings.port, host=settings.host)
    store = open_store(settings)
    with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async with trio.open_nursery() as nursery:
            server: Server = await nursery.start(
                lambda task_status: serve(
                    settings, store, listeners=listeners, task_status=task_status
                )
            )
            task_status.started(server)

            async def stop_on_signal() -> None:
                async for signum in signals:
                    log.info("received %s", signal.Signals(signum).name)
                    server.shutdown()

            nursery.start_soon(stop_on_signal)
            await server.stopped.wait()
            nursery.cancel_scope.cancel()


def run(settings: Settings) -> int:
    """Run the daemon in this process until it is stopped; the exit status (0)."""
    trio.run(run_async, settings)
    return 0
