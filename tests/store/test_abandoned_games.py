"""Dropping games nobody joined: ``SqliteStore.drop_game``, and a daemon with a SQLite store
whose dropped waiting game does not come back after a restart (PROTOCOL.md section 7)."""

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


async def test_drop_game_forgets_a_waiting_game_and_its_seats(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    store = await open_sqlite(nursery, state_dir)
    try:
        await store.create_game("g1", "hipparchus", {"seed": "1"}, 1.0)
        await store.create_game("g2", "hipparchus", {}, 2.0)
        await store.add_seat("g2", stored_seat(0, "ann"))
        await store.drop_game("g2")
        assert [g.game_id for g in await store.load_unfinished()] == ["g1"]
        assert await store.load_finished("g2") is None
        # The newest id stays taken, so that a restarted daemon never hands it out again.
        assert await store.latest_game_id() == "g2"
        # Its id is free for the store itself (a later create is not refused).
        await store.create_game("g3", "hipparchus", {}, 3.0)
        assert await store.latest_game_id() == "g3"
    finally:
        await store.aclose()
    store = await open_sqlite(nursery, state_dir)
    try:
        assert [g.game_id for g in await store.load_unfinished()] == ["g1", "g3"]
        assert await store.latest_game_id() == "g3"
    finally:
        await store.aclose()


async def test_drop_game_refuses_started_finished_and_unknown_games(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    game = HipparchusGame(seed=2)
    game.start()
    store = await open_sqlite(nursery, state_dir)
    try:
        await store.create_game("started", "hipparchus", {}, 1.0)
        await store.snapshot("started", converter.unstructure(game.record()))
        await store.create_game("over", "hipparchus", {}, 2.0)
        await store.finish("over", converter.unstructure(game.record()))
        for game_id in ("started", "over", "nope"):
            with pytest.raises(StoreError, match=f"no unstarted game {game_id}"):
                await store.drop_game(game_id)
        assert [g.game_id for g in await store.load_unfinished()] == ["started"]
        assert await store.load_finished("over") is not None
    finally:
        await store.aclose()


async def test_a_dropped_waiting_game_is_gone_after_a_restart(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    async with trio.open_nursery() as tasks:
        server = await serve_sqlite(state_dir, tasks, abandon_timeout=0.2)
        client = await Client.connect(server.ports[0])
        dropped = (await client.ok("new hipparchus")).fields()["game"]
        kept = (await client.ok("new hipparchus")).fields()["game"]
        await client.ok(f"join {kept} name=ann")  # a connected seat keeps this one
        await trio.sleep(0.5)
        await client.fail(f"state {dropped}", "unknown-game")
        await client.aclose()
        server.shutdown()
    store = await open_sqlite(nursery, state_dir)
    try:
        (left,) = await store.load_unfinished()
        assert left.game_id == kept
        assert await store.latest_game_id() == kept
    finally:
        await store.aclose()
    async with trio.open_nursery() as tasks:
        server = await serve_sqlite(state_dir, tasks, abandon_timeout=0.2)
        assert dropped not in server.lobby.tables and kept in server.lobby.tables
        client = await Client.connect(server.ports[0])
        await client.fail(f"watch {dropped}", "unknown-game")
        await client.fail(f"record {dropped}", "unknown-game")
        assert (await client.ok("new hipparchus")).fields()["game"] == "g3"
        await client.aclose()
        server.shutdown()
