"""Seats freed before the start: ``SqliteStore.remove_seat``, and a daemon with a SQLite store
that does not give a left seat back to its former holder after a restart."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import trio
from store_helpers import open_sqlite, serve_sqlite, stored_seat

from hipparchusd.games.hipparchus import HipparchusGame
from hipparchusd.games.hipparchus.codec import converter
from hipparchusd.store.base import StoreError

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the daemon tests' client
from daemon.client import Client


async def test_remove_seat_forgets_one_seat_of_a_waiting_game(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    store = await open_sqlite(nursery, state_dir)
    try:
        await store.create_game("g1", "hipparchus", {}, 1.0)
        await store.add_seat("g1", stored_seat(0, "ann"))
        await store.add_seat("g1", stored_seat(1, "bob"))
        await store.remove_seat("g1", 0)
    finally:
        await store.aclose()
    store = await open_sqlite(nursery, state_dir)
    try:
        (game,) = await store.load_unfinished()
        assert game.seats == (stored_seat(1, "bob"),)
        # The freed seat can be taken again.
        await store.add_seat("g1", stored_seat(0, "cid"))
        (game,) = await store.load_unfinished()
        assert game.seats == (stored_seat(0, "cid"), stored_seat(1, "bob"))
    finally:
        await store.aclose()


async def test_remove_seat_refuses_started_unknown_games_and_free_seats(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    game = HipparchusGame(seed=2)
    game.start()
    store = await open_sqlite(nursery, state_dir)
    try:
        await store.create_game("started", "hipparchus", {}, 1.0)
        await store.add_seat("started", stored_seat(0, "ann"))
        await store.add_seat("started", stored_seat(1, "bob"))
        await store.snapshot("started", converter.unstructure(game.record()))
        await store.create_game("waiting", "hipparchus", {}, 2.0)
        for game_id, seat in (("started", 0), ("waiting", 0), ("nope", 0)):
            with pytest.raises(StoreError, match=f"no seat {seat} of an unstarted game {game_id}"):
                await store.remove_seat(game_id, seat)
        started, waiting = await store.load_unfinished()
        assert (
            started.seats == (stored_seat(0, "ann"), stored_seat(1, "bob")) and waiting.seats == ()
        )
    finally:
        await store.aclose()


async def test_a_seat_left_before_the_start_stays_free_after_a_restart(state_dir: Path) -> None:
    async with trio.open_nursery() as tasks:
        server = await serve_sqlite(state_dir, tasks)
        a, b, w = [await Client.connect(server.ports[0]) for _ in range(3)]
        game = (await a.ok("new hipparchus")).fields()["game"]
        await w.ok(f"watch {game}")  # keeps the game followed
        token_a = (await a.ok(f"join {game} 0 name=ann")).fields()["token"]
        await a.ok(f"leave {game}")
        token_b = (await b.ok(f"join {game} 1 name=bob")).fields()["token"]
        await b.aclose()
        await w.events_until(["left"])
        await w.events_until(["left"])
        for client in (a, w):
            await client.aclose()
        server.shutdown()
    async with trio.open_nursery() as tasks:
        server = await serve_sqlite(state_dir, tasks)
        assert server.lobby.tables[game].names == [None, None]
        c = await Client.connect(server.ports[0])
        for token in (token_a, token_b):
            await c.fail(f"resume {token}", "bad-token")
        assert (await c.ok(f"join {game} name=cid")).fields()["seat"] == "0"
        await c.aclose()
        server.shutdown()
