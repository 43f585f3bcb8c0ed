"""Fixtures for the daemon tests: an in-process server on an ephemeral loopback port."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
import trio

from hipparchusd.server import Server, serve
from hipparchusd.settings import Settings
from hipparchusd.store.base import MemoryStore

from .client import Client

StartServer = Callable[..., Awaitable[Server]]


@pytest.fixture
async def start_server(nursery: trio.Nursery) -> AsyncIterator[StartServer]:
    """``await start_server(store=None, **settings)``: a server on 127.0.0.1 port 0 (with a
    :class:`MemoryStore` unless ``store`` is given), stopped at the end."""
    servers: list[Server] = []

    async def start(store: Any = None, **options: Any) -> Server:
        settings = Settings(**{"port": 0, "grace_period": 0.5, **options})
        server: Server = await nursery.start(serve, settings, store or MemoryStore())
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.shutdown()


@pytest.fixture
async def server(start_server: StartServer) -> Server:
    """One server with the default settings."""
    return await start_server()


@pytest.fixture
async def connect(server: Server) -> AsyncIterator[Callable[..., Awaitable[Client]]]:
    """``await connect()``: a client connected to ``server``, greeting read."""
    clients: list[Client] = []

    async def make(greet: bool = True) -> Client:
        client = await Client.connect(server.ports[0], greet=greet)
        clients.append(client)
        return client

    yield make
    for client in clients:
        await client.aclose()
