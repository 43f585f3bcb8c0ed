"""Fixtures for the daemon tests: an in-process server on an ephemeral loopback port."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
import trio

from hipparchusd.server import Server

from .client import Client
from .helpers import StartServer, server_starter


@pytest.fixture
async def start_server(nursery: trio.Nursery) -> AsyncIterator[StartServer]:
    """``await start_server(store=None, **settings)``: a server on 127.0.0.1 port 0 (with a
    :class:`MemoryStore` unless ``store`` is given), stopped at the end."""
    with server_starter(nursery, grace_period=0.5) as start:
        yield start


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
