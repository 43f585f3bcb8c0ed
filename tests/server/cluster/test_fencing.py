"""A daemon paused past its lease (issue 28): another daemon claims its games, and once the
paused one goes on its writes are refused and it acknowledges nothing. Real daemon processes
(``SIGSTOP``/``SIGCONT``) on a real PostgreSQL and Redis."""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Callable
from typing import Any

import psycopg
import trio
from daemon.client import Client, Reply
from services import Redis

from .helpers import START_WAIT, a_match_on, node_args, play_on

#: Seconds to wait for a lease of 2 s to run out on the database's clock, or for a paused
#: daemon to answer once it goes on: generous, since a loaded machine may be slow to
#: schedule it; the waits end as soon as what they wait for happens.
PATIENCE = 60.0


def _query(url: str, sql: str, *args: object) -> list[tuple[object, ...]]:
    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute(sql, args).fetchall()


async def _until(url: str, sql: str, *args: object) -> None:
    """Wait until ``sql`` answers a true first value (polled on the database)."""
    with trio.fail_after(PATIENCE):
        while not (await trio.to_thread.run_sync(_query, url, sql, *args))[0][0]:
            await trio.sleep(0.1)


async def test_a_paused_daemon_past_its_lease_acknowledges_nothing(
    daemon_factory: Callable[..., Any], pg_url: str, redis_server: Redis
) -> None:
    a = daemon_factory(*node_args(pg_url, redis_server.url, "a"), wait=START_WAIT)
    b = daemon_factory(*node_args(pg_url, redis_server.url, "b"), wait=START_WAIT)
    game, seats, tokens = await a_match_on(a.port)
    _, movers = await play_on(game, seats, 2)
    (mover,) = movers  # a lead after the first trick: more than one card to choose from
    choices = (await seats[mover].ok(f"legal {game}")).lines[0].split()
    stale, fresh = choices[0], choices[1]
    moves = "SELECT seat, move FROM moves WHERE game_id = %s ORDER BY id"
    before = _query(pg_url, moves, game)

    os.kill(a.process.pid, signal.SIGSTOP)
    try:
        # Sent while a is paused: it reads the request only when it goes on.
        await seats[mover].send(f"play {game} {stale}\n")
        await _until(pg_url, "SELECT lease_until < clock_timestamp() FROM nodes WHERE name = 'a'")
        # The seat is resumed through b, which claims the game (a's lease is over), and b
        # plays the other card for it.
        again = await Client.connect(b.port)
        await again.ok(f"resume {tokens[mover]}")
        owner = _query(pg_url, "SELECT owner FROM games WHERE game_id = %s", game)
        assert owner == [("b",)]
        assert (await again.ok(f"play {game} {fresh}")).lines == [fresh]
    finally:
        os.kill(a.process.pid, signal.SIGCONT)

    # a goes on with the play it was sent: refused (it no longer owns the game) or the
    # connection closed; never an '='.
    reply: Reply | None = None
    with trio.fail_after(PATIENCE):
        with contextlib.suppress(EOFError):  # (closed: nothing acknowledged either)
            reply = await seats[mover].read_reply()
    assert reply is None or not reply.ok, reply
    # The database holds b's move, once, and never a's.
    after = _query(pg_url, moves, game)
    assert after[: len(before)] == before
    assert after[len(before) :] == [(mover, fresh)], after
    # a, registered again, serves the game through its new owner: with the other seat
    # resumed through a, the game plays on, and its next move is stored once, after b's.
    other = 1 - mover
    late = await Client.connect(a.port)
    with trio.fail_after(PATIENCE):
        # Until a has registered again it answers that nothing was changed (its old lease
        # cannot locate the game): a client tries again.
        while not (resumed := await late.request(f"resume {tokens[other]}")).ok:
            assert "nothing was changed" in resumed.text, resumed
            await trio.sleep(0.2)
    for client, seat in ((late, other), (again, mover)):  # noqa: B007 (seat: used after)
        legal = (await client.ok(f"legal {game}")).lines
        if legal:  # (the seat to move)
            card = legal[0].split()[0]
            assert (await client.ok(f"play {game} {card}")).lines == [card]
            break
    else:
        raise AssertionError("no seat may move: a served the game as it held it, not as b has")
    assert _query(pg_url, moves, game)[len(before) :] == [(mover, fresh), (seat, card)]
    assert _query(pg_url, "SELECT owner FROM games WHERE game_id = %s", game) == [("b",)]
    for client in (*seats.values(), again, late):
        await client.aclose()
    assert a.process.poll() is None, a.log()
