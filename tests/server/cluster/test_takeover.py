"""A daemon killed (``kill -9``) in the middle of a match (issue 28): its clients resume their
seats through another daemon, which claims the game once the dead one's lease is over; no
acknowledged move is lost or written twice, and the match plays on to an end that replays.
Real daemon processes on a real PostgreSQL and Redis."""

from __future__ import annotations

import contextlib
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


async def test_a_seat_forwarded_to_a_daemon_restarted_under_its_name_is_closed_not_unseated(
    daemon_factory: Callable[..., Any], pg_url: str, redis_server: Redis
) -> None:
    """A seat resumed through b holds its seat on a, through a proxy of b's session there.
    Killed and started again under its name, a is a new process with no such proxy. b's
    next request for the seat must not be answered as if it held none (``not-seated``, as
    the chaos run saw): the new a refuses it, b closes the connection, and the client
    resumes. b renews its lease, and so learns the live nodes, only once a minute here (a
    lease of 180 s), so that its request reaches the new a before b has seen the old one go,
    whatever the machine's load."""
    a_args = node_args(pg_url, redis_server.url, "a")
    a = daemon_factory(*a_args, wait=START_WAIT)
    b = daemon_factory(
        *node_args(pg_url, redis_server.url, "b", "--node-lease", "180"), wait=START_WAIT
    )
    game, first, tokens = await a_match_on(a.port)
    legal = (await first[0].ok(f"legal {game}")).text  # the leader's opening plays
    await first[0].aclose()
    carol = await Client.connect(b.port)
    await carol.ok(f"resume {tokens[0]}")
    assert (await carol.ok(f"legal {game}")).text == legal  # forwarded to a, the seat held

    os.kill(a.process.pid, signal.SIGKILL)
    a.process.wait()
    # The new a registers once the old one's lease (2 s) has lapsed, then greets, and then
    # listens on the bus (a request posted before would reach nobody, and b would wait for a
    # to be gone for good).
    restarted = daemon_factory(*a_args, wait=START_WAIT)
    with trio.fail_after(START_WAIT):
        while "node a listens on" not in restarted.log():
            await trio.sleep(0.1)
    with trio.fail_after(60):  # the forward timeout, generously
        try:
            reply = await carol.request(f"legal {game}")
        except EOFError:
            reply = None
    assert reply is None or (not reply.ok and reply.code != "not-seated"), reply
    if reply is not None:  # the answer may precede the closing
        with trio.fail_after(60), contextlib.suppress(EOFError):
            while True:
                await carol.read_line()
    assert carol.closed

    # Resumed again through b, the seat is the same seat of the same game, nothing played.
    again = await Client.connect(b.port)
    await again.ok(f"resume {tokens[0]}")
    assert (await again.ok(f"legal {game}")).text == legal
    for client in (first[1], again):
        await client.aclose()
