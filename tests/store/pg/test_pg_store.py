"""PostgresStore on a real PostgreSQL server: what goes in comes back out, a database it cannot
use is refused with the reason, and the node's games are fenced (issue 28)."""

from __future__ import annotations

import random
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager

import psycopg
import pytest
import trio
from services import Postgres

from hipparchusd.games.hipparchus import HipparchusGame, MatchRecord
from hipparchusd.games.hipparchus.codec import converter
from hipparchusd.records import StoredSeat
from hipparchusd.store.base import GameNotOwned, StoreError
from hipparchusd.store.codec import dump, dump_options
from hipparchusd.store.pg import schema
from hipparchusd.store.pg.store import PostgresStore


def seat(number: int, name: str, bot: str | None = None) -> StoredSeat:
    return StoredSeat(number, name, bytes([number]) * 32, bot)


def play_random(game: HipparchusGame, rng: random.Random, count: int) -> list[str]:
    """Up to ``count`` legal moves played on ``game``, as their canonical text."""
    moves: list[str] = []
    for _ in range(count):
        if game.outcome is not None:
            break
        (mover,) = game.seats_to_move()
        legal = game.legal(mover)
        move = rng.choice(legal.moves)
        game.play_word(mover, move)
        moves.append(move)
    return moves


def opener(url: str, **kwargs: object) -> Callable[..., AbstractAsyncContextManager[PostgresStore]]:
    def open_store(node: str, **more: object) -> AbstractAsyncContextManager[PostgresStore]:
        return PostgresStore.open(url, node=node, **{**kwargs, **more})  # type: ignore[arg-type]

    return open_store


async def test_a_game_round_trips_and_comes_back_to_its_node(pg_url: str) -> None:
    game = HipparchusGame(seed=4)
    open_store = opener(pg_url)
    async with open_store("a") as store:
        assert store.settings["synchronous_commit"] == "on"
        await store.create_game("g1", "hipparchus", {"seed": "4"}, 1000.5)
        await store.add_seat("g1", seat(1, "bob"))
        await store.add_seat("g1", seat(0, "ann"))
        game.start()
        await store.snapshot("g1", converter.unstructure(game.record()))
        moves = play_random(game, random.Random(4), 5)
        for ply, move in enumerate(moves):
            await store.add_move("g1", (ply + 1) % 2, move)
        await store.create_game("g2", "hipparchus", {}, 999.0)  # older, not started
        # A started game only the engine plays (issue 24 item 6: never restored at a start).
        await store.create_game("g3", "hipparchus", {"seed": "5"}, 1001.0)
        await store.add_seat("g3", seat(0, "bot-random", "random"))
        await store.add_seat("g3", seat(1, "bot-random-2", "random"))
        bots = HipparchusGame(seed=5)
        bots.start()
        await store.snapshot("g3", converter.unstructure(bots.record()))
        assert store.owned == {"g1", "g2", "g3"}
    async with open_store("a") as store:
        startup = await store.startup_games()
        # The game waiting for players comes back loaded; the ones in progress wait for a
        # seat (or a spectator) to need them, and are claimed then.
        assert [stored.game_id for stored in startup.loaded] == ["g2"]
        location = await store.locate("g1")
    assert location.state == "claimed" and location.game is not None
    loaded = location.game
    assert loaded.options == {"seed": "4"} and loaded.created_at == 1000.5
    assert loaded.seats == (seat(0, "ann"), seat(1, "bob"))
    assert loaded.moves == tuple(((ply + 1) % 2, move) for ply, move in enumerate(moves))
    snapshot = converter.structure(loaded.snapshot, MatchRecord)
    assert snapshot.rounds[0].deal == game.record().rounds[0].deal


async def test_another_live_node_owns_the_game_until_its_lease_ends(
    pg_url: str, postgres: Postgres
) -> None:
    open_store = opener(pg_url, lease=2.0)
    async with open_store("a") as a, open_store("b") as b:
        await a.create_game("g1", "hipparchus", {}, 1.0)
        await a.add_seat("g1", seat(0, "ann"))
        assert (await b.locate("g1")).state == "owned"
        assert (await b.locate("g1")).owner == "a"
        # Node a's lease ends, by the database's clock, as if it had been paused past it.
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute("UPDATE nodes SET lease_until = clock_timestamp() WHERE name = 'a'")
        location = await b.locate("g1")
        assert location.state == "claimed" and location.game is not None
        assert location.game.seats == (seat(0, "ann"),)
        await b.add_seat("g1", seat(1, "bob"))
        # a's write is refused by the database, and a gives the game up.
        with pytest.raises(GameNotOwned):
            await a.add_seat("g1", seat(1, "cyd"))
        assert "g1" in a.take_uncertain()
        assert "g1" not in a.owned
    with psycopg.connect(pg_url) as conn:
        rows = conn.execute("SELECT name FROM seats WHERE game_id = 'g1' ORDER BY seat").fetchall()
    assert rows == [("ann",), ("bob",)]


async def test_a_node_name_held_by_a_live_daemon_is_refused(pg_url: str) -> None:
    open_store = opener(pg_url, lease=1.0)
    async with open_store("a"):
        with psycopg.connect(pg_url, autocommit=True) as conn:
            # As if the name were another host's daemon.
            conn.execute("UPDATE nodes SET host = 'elsewhere' WHERE name = 'a'")
        with pytest.raises(StoreError, match="node a is in use by another hipparchusd"):
            async with open_store("a"):
                pass


async def test_moves_that_come_together_share_commits(pg_url: str) -> None:
    async with opener(pg_url)("a") as store:
        for number in range(20):
            await store.create_game(f"g{number}", "hipparchus", {}, float(number))
        before = store.transactions

        async def play(game_id: str) -> None:
            for index in range(10):
                await store.add_move(game_id, index % 2, f"m{index}")

        async with trio.open_nursery() as nursery:
            for number in range(20):
                nursery.start_soon(play, f"g{number}")
        commits = store._link.transactions - before
    assert commits < 200
    with psycopg.connect(pg_url) as conn:
        moves = conn.execute("SELECT game_id, move FROM moves ORDER BY id").fetchall()
    for number in range(20):
        assert [m for g, m in moves if g == f"g{number}"] == [f"m{i}" for i in range(10)]


async def test_an_unreachable_server_is_refused_with_the_reason(postgres: Postgres) -> None:
    url = f"postgresql://postgres@127.0.0.1:{postgres.port + 1}/nothing"  # no server there
    with pytest.raises(StoreError, match=r"cannot use postgresql://127.0.0.1:\d+/nothing: "):
        async with opener(url)("a"):
            pass


async def test_a_database_that_is_not_ours_or_is_newer_is_refused(pg_url: str) -> None:
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE customers (id int)")
    with pytest.raises(StoreError, match="is not a hipparchusd database"):
        async with opener(pg_url)("a"):
            pass
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("DROP TABLE customers")
    async with opener(pg_url)("a"):
        pass
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    with pytest.raises(StoreError, match="has schema version 99, newer than this hipparchusd"):
        async with opener(pg_url)("a"):
            pass


async def test_a_timed_games_move_timing_and_timing_record_come_back(pg_url: str) -> None:
    # Issue 27 through the PostgreSQL store: each move's timing, and a finished game's timing
    # record, come back as stored (the clocks survive the owner's failure).
    game = HipparchusGame(seed=5)
    open_store = opener(pg_url)
    timings = [{"spent_ms": 1200, "left_ms": [58800, 60000]}, None, {"spent_ms": 7}]
    async with open_store("a") as store:
        await store.create_game("g1", "hipparchus", {"seed": "5"}, 1000.0)
        game.start()
        await store.snapshot("g1", converter.unstructure(game.record()))
        moves = play_random(game, random.Random(5), 3)
        for ply, (move, timing) in enumerate(zip(moves, timings, strict=True)):
            await store.add_move("g1", (ply + 1) % 2, move, timing=timing)
        await store.create_game("g2", "hipparchus", {}, 1001.0)
        await store.finish("g2", {"done": True}, timing={"moves": [1, 2]})
    async with open_store("b") as store:
        location = await store.locate("g1")
        assert location.game is not None and location.game.move_timing == tuple(timings)
        finished = await store.load_finished("g2")
    assert finished is not None and finished.timing == {"moves": [1, 2]}


async def test_an_operators_end_is_stored_fenced_and_comes_back(pg_url: str) -> None:
    # Issue 26 through the PostgreSQL store: the operator's end (no winner, the record as the
    # game stood, its timing record) comes back as such; a finished game's operator_end stays
    # None; and a node that does not own the game cannot end it.
    game = HipparchusGame(seed=6)
    open_store = opener(pg_url)
    async with open_store("a") as store:
        await store.create_game("g1", "hipparchus", {"seed": "6"}, 1000.0)
        await store.add_seat("g1", seat(0, "ann"))
        await store.add_seat("g1", seat(1, "bob"))
        game.start()
        await store.snapshot("g1", converter.unstructure(game.record()))
        for ply, move in enumerate(play_random(game, random.Random(6), 3)):
            await store.add_move("g1", (ply + 1) % 2, move)
        await store.create_game("g2", "hipparchus", {}, 1001.0)
        await store.finish("g2", {"done": True})
        # Another node claimed it meanwhile (its fence moved on): the database refuses the end.
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute("UPDATE games SET fence = fence + 1 WHERE game_id = 'g1'")
        with pytest.raises(GameNotOwned):
            await store.end_game("g1", {"stood": True}, "fenced off")
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute("UPDATE games SET fence = fence - 1 WHERE game_id = 'g1'")
            assert conn.execute(
                "SELECT finished_at, operator_end FROM games WHERE game_id = 'g1'"
            ).fetchone() == (None, None)
        await store.locate("g1")  # claimed again, with the fence it has now
        record = converter.unstructure(game.record())
        await store.end_game("g1", record, "reported cheating", timing={"moves": [3]})
        assert "g1" not in store.owned
        with pytest.raises(GameNotOwned):  # ended: nobody owns it, nothing more is written
            await store.end_game("g1", record, "again")
    async with open_store("b") as store:
        ended = await store.load_finished("g1")
        won = await store.load_finished("g2")
        location = await store.locate("g1")
    assert ended is not None and ended.finished and not ended.abandoned
    assert ended.operator_end == "reported cheating" and ended.timing == {"moves": [3]}
    assert ended.snapshot == record and ended.moves == ()
    assert won is not None and won.operator_end is None
    assert location.state == "finished"  # no longer an unfinished game to claim
    assert location.game is not None and location.game.operator_end == "reported cheating"


async def test_a_version_2_database_gains_operator_end(pg_url: str) -> None:
    # Layout version 3 (as SQLite's 6): a database a version-2 daemon wrote migrates, and its
    # finished games read as not ended by the operator.
    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert schema.migrate(conn, "test", schema.MIGRATIONS[:2]) == 0
        conn.execute(
            "INSERT INTO games (game_id, kind, options, created_at, finished_at, record) "
            "VALUES ('old', 'hipparchus', %s, 1.0, 2.0, %s)",
            (dump_options({}), dump("record", {"done": True})),
        )
    async with opener(pg_url)("a") as store:
        old = await store.load_finished("old")
    assert old is not None and old.operator_end is None and old.snapshot == {"done": True}
    with psycopg.connect(pg_url, autocommit=True) as conn:
        version = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    assert version == (str(schema.latest_version()),) == ("3",)
