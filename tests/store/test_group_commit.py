"""Group commit: concurrent calls share transactions, and each returns only once committed."""

from __future__ import annotations

from pathlib import Path

import trio
import trio.testing
from store_helpers import held_writer, open_db, open_sqlite

from hipparchusd.store.sql import insert_moves
from hipparchusd.store.startup import DB_NAME


def _committed_moves(state_dir: Path) -> set[tuple[str, int, str]]:
    """The moves another connection sees committed (the store is still open)."""
    with open_db(state_dir / DB_NAME) as conn:
        return set(conn.execute("SELECT game_id, seat, move FROM moves").fetchall())


async def test_calls_waiting_together_commit_in_one_transaction(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    store = await open_sqlite(nursery, state_dir)
    try:
        for game in range(10):
            await store.create_game(f"g{game}", "hipparchus", {}, float(game))
        before = store.transactions
        returned: list[tuple[str, int, str]] = []

        async def move(game: int, ply: int) -> None:
            key = (f"g{game}", ply % 2, f"m{ply}")
            await store.add_move(*key)
            # Released only after the commit: another connection already sees the move.
            assert key in _committed_moves(state_dir)
            returned.append(key)

        async with trio.open_nursery() as tasks:
            with held_writer(store):  # the writer waits while 100 calls gather
                for game in range(10):
                    for ply in range(10):
                        tasks.start_soon(move, game, ply)
                await trio.testing.wait_all_tasks_blocked()
                assert returned == []
        assert store.transactions - before == 1
        assert len(returned) == 100
        assert _committed_moves(state_dir) == set(returned)
    finally:
        await store.aclose()


async def test_free_running_concurrent_moves_are_batched(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    """Without holding the writer: many games, each waiting for its move before the next, as
    the daemon does; the commits needed are fewer than the moves."""
    store = await open_sqlite(nursery, state_dir)
    games, plies = 50, 20
    try:
        for game in range(games):
            await store.create_game(f"g{game}", "hipparchus", {}, float(game))
        before = store.transactions

        async def play(game: int) -> None:
            for ply in range(plies):
                await store.add_move(f"g{game}", ply % 2, f"m{ply}")

        async with trio.open_nursery() as tasks:
            for game in range(games):
                tasks.start_soon(play, game)
        commits = store.transactions - before
        assert commits < games * plies / 2
        assert len(_committed_moves(state_dir)) == games * plies
        # Each game's moves are in the order they were made.
        loaded = await store.load_unfinished()
        assert all(g.moves == tuple((p % 2, f"m{p}") for p in range(plies)) for g in loaded)
    finally:
        await store.aclose()


async def test_callers_beyond_the_queue_bound_wait_their_turn(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    store = await open_sqlite(nursery, state_dir, max_pending=4)
    try:
        await store.create_game("g", "hipparchus", {}, 1.0)
        async with trio.open_nursery() as tasks:
            for ply in range(40):
                tasks.start_soon(store.add_move, "g", 0, f"m{ply}")
        [loaded] = await store.load_unfinished()
        assert sorted(loaded.moves) == sorted((0, f"m{ply}") for ply in range(40))
        assert store.requests / store.transactions <= 4
    finally:
        await store.aclose()


async def test_moves_inserted_together_keep_their_order(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    store = await open_sqlite(nursery, state_dir)
    try:
        await store.create_game("g", "hipparchus", {}, 1.0)
        await store.create_game("h", "hipparchus", {}, 1.0)
        moves: list[tuple[str, int, str, str | None]] = [
            ("h", 1, "x", None), ("g", 0, "a", "{}"), ("g", 1, "b", None), ("nope", 0, "?", None),
            ("g", 0, "c", None),
        ]  # fmt: skip
        with open_db(state_dir / DB_NAME) as conn:  # as the writer would
            errors = insert_moves(conn, moves, 5.0)
        assert errors == [
            None,
            None,
            None,
            "no unfinished game nope is stored",
            None,
        ]
        with open_db(state_dir / DB_NAME) as conn:
            rows = conn.execute(
                "SELECT game_id, seat, move, timing FROM moves ORDER BY id"
            ).fetchall()
        assert rows == [m for m in moves if m[0] != "nope"]  # each with its timing (issue 27)
    finally:
        await store.aclose()
