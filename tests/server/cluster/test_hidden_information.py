"""Hidden information across daemons (issue 28, RULINGS H13): the audited matches of
tests/audit, their connections spread over two daemons sharing one PostgreSQL store and one
Redis bus, so that most requests and events go through forwarding: every byte each connection
received is checked against the rules replaying the match, as through one daemon."""

from __future__ import annotations

import pytest
import trio
from audit.test_hidden_information import play_audited_match
from services import Redis

from .helpers import start_node


@pytest.mark.parametrize("seed", [3, 12, 41])
async def test_no_connection_learns_a_hidden_card_through_two_daemons(
    nursery: trio.Nursery, pg_url: str, redis_server: Redis, seed: int
) -> None:
    a = await start_node(nursery, pg_url, redis_server.url, "a")
    b = await start_node(nursery, pg_url, redis_server.url, "b")
    # Generous: forwarded requests on a loaded machine; the match ends by itself.
    with trio.fail_after(180):
        await play_audited_match([a.ports[0], b.ports[0]], seed, json_seat=seed % 2)
