"""Fixtures for the web tests: in-process daemons with a web listener (for the protocol over
WebSocket and the page over HTTP), as tests/daemon starts them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import trio
from daemon.helpers import StartServer, server_starter

from hipparchusd.server import Server
from hipparchusd.store.base import GameStore


@pytest.fixture
async def start_server(nursery: trio.Nursery) -> AsyncIterator[StartServer]:
    """``await start_server(store=None, **settings)``: a server on 127.0.0.1 port 0 with its
    web listener on port 0 too (``server.web_ports[0]``), stopped at the end."""
    with server_starter(nursery, grace_period=0.2) as start:

        async def start_web(store: GameStore | None = None, **settings: Any) -> Server:
            return await start(store, **{"ws_port": 0, **settings})

        yield start_web
