"""Fixtures for the audit tests: in-process servers on ephemeral loopback ports (the same set-up
as tests/daemon, kept separate so that these tests do not depend on that package's fixtures)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
import trio

from hipparchusd.server import Server, serve
from hipparchusd.settings import Settings
from hipparchusd.store.base import GameStore, MemoryStore

StartServer = Callable[..., Awaitable[Server]]


@pytest.fixture
async def start_server(nursery: trio.Nursery) -> AsyncIterator[StartServer]:
    """``await start_server(store=None, **settings)``: a server on 127.0.0.1 port 0 (with a
    memory store unless ``store`` is given), stopped at the end."""
    servers: list[Server] = []

    async def start(store: GameStore | None = None, **options: Any) -> Server:
        settings = Settings(**{"port": 0, "grace_period": 0.2, **options})
        server: Server = await nursery.start(serve, settings, store or MemoryStore())
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.shutdown()
