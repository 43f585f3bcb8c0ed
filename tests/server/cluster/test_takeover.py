"""A daemon killed (``kill -9``) in the middle of a match (issue 28): its clients resume their
seats through another daemon, which claims the game once the dead one's lease is over; no
acknowledged move is lost or written twice, and the match plays on to an end that replays.
Real daemon processes on a real PostgreSQL and Redis."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from typing import Any

import psycopg
import trio
from daemon.client import Client
from services import Redis

from hipparchusd.games.hipparchus import MatchRecord, replay
from hipparchusd.games.hipparchus.codec import converter

from .helpers import START_WAIT, a_match_on, node_args, play_on


def _moves(url: str, game: str) -> list[tuple[int, str]]:
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT seat, move FROM moves WHERE game_id = %s ORDER BY id", (game,)
        ).fetchall()
    return [(int(seat), str(move)) for seat, move in rows]


async def test_a_killed_daemons_game_is_resumed_through_another(
    daemon_factory: Callable[..., Any], pg_url: str, redis_server: Redis
) -> None:
    a = daemon_factory(*node_args(pg_url, redis_server.url, "a"), wait=START_WAIT)
    b = daemon_factory(*node_args(pg_url, redis_server.url, "b"), wait=START_WAIT)
    game, first, tokens = await a_match_on(a.port)
    played, movers = await play_on(game, first, 5)
    acknowledged = _moves(pg_url, game)
    assert played == 5 and len(acknowledged) >= 5

    os.kill(a.process.pid, signal.SIGKILL)
    a.process.wait()
    # Through b: the first resume waits out a's lease (the daemon is not on the bus any
    # more), then b claims the game; bounded by the forward timeout and the lease.
    seats = {}
    with trio.fail_after(60):
        for seat, token in enumerate(tokens):
            seats[seat] = await Client.connect(b.port)
            await seats[seat].ok(f"resume {token}")
    assert _moves(pg_url, game) == acknowledged  # nothing lost, nothing twice
    with psycopg.connect(pg_url, autocommit=True) as conn:
        owner = conn.execute("SELECT owner FROM games WHERE game_id = %s", (game,)).fetchone()
    assert owner == ("b",)
    more, _ = await play_on(game, seats, 10_000, movers)
    await seats[0].ok("format json")
    record = (await seats[0].ok(f"record {game}")).json()
    assert replay(converter.structure(record["record"], MatchRecord)).over
    # Every move acknowledged before and after the kill is in the record once.
    match = converter.structure(record["record"], MatchRecord)
    assert sum(len(r.plays) for r in match.rounds) == len(acknowledged) + more
    for client in (*first.values(), *seats.values()):
        await client.aclose()
