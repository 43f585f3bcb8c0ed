"""Fixtures for the audit tests: in-process servers on ephemeral loopback ports (set up as in
tests/daemon, with a shorter shutdown grace)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import trio
from daemon.helpers import StartServer, server_starter


@pytest.fixture
async def start_server(nursery: trio.Nursery) -> AsyncIterator[StartServer]:
    """``await start_server(store=None, **settings)``: a server on 127.0.0.1 port 0 (with a
    memory store unless ``store`` is given), stopped at the end."""
    with server_starter(nursery, grace_period=0.2) as start:
        yield start
