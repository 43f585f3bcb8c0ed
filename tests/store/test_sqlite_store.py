"""SqliteStore: what goes in comes back out, across a close or a crash, and errors are per call."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import trio
from store_helpers import held_writer, open_db, open_sqlite, play_random, stored_seat

from hipparchusd.games.hipparchus import HipparchusGame, MatchRecord, replay
from hipparchusd.games.hipparchus.codec import converter
from hipparchusd.store.base import StoreError, StoreUnreachable
from hipparchusd.store.sqlite import SqliteStore
from hipparchusd.store.startup import DB_NAME


def _crash_copy(state_dir: Path, into: Path) -> Path:
    """The state directory's files as a crash would leave them: copied while the store is
    open (database and write-ahead log, no checkpoint, no close)."""
    into.mkdir()
    for path in state_dir.iterdir():
        if path.name.startswith(DB_NAME):
            shutil.copy(path, into / path.name)
    return into


async def test_a_game_round_trips_through_close_and_open(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    game = HipparchusGame(seed=4)
    store = await open_sqlite(nursery, state_dir)
    await store.create_game("g1", "hipparchus", {"seed": "4"}, 1000.5)
    await store.add_seat("g1", stored_seat(1, "bob"))
    await store.add_seat("g1", stored_seat(0, "ann"))
    game.start()
    await store.snapshot("g1", converter.unstructure(game.record()))
    moves = play_random(game, random.Random(4), 5)
    for ply, move in enumerate(moves):
        await store.add_move("g1", (ply + 1) % 2, move)
    await store.create_game("g2", "hipparchus", {}, 999.0)  # older, not started
    await store.aclose()

    store = await open_sqlite(nursery, state_dir)
    try:
        older, loaded = await store.load_unfinished()
        assert await store.latest_game_id() == "g2"  # created last, though older
    finally:
        await store.aclose()
    assert older.game_id == "g2" and older.snapshot is None and older.seats == ()
    assert loaded.game_id == "g1"
    assert loaded.kind == "hipparchus"
    assert loaded.options == {"seed": "4"}
    assert loaded.created_at == 1000.5
    assert loaded.seats == (stored_seat(0, "ann"), stored_seat(1, "bob"))
    assert loaded.finished is False
    assert loaded.moves == tuple(((ply + 1) % 2, move) for ply, move in enumerate(moves))
    snapshot = converter.structure(loaded.snapshot, MatchRecord)
    assert snapshot.rounds[0].deal == game.record().rounds[0].deal
    assert snapshot.rounds[0].plays == ()


async def test_moves_after_the_latest_snapshot_are_the_ones_loaded(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    store = await open_sqlite(nursery, state_dir)
    await store.create_game("g", "hipparchus", {}, 1.0)
    await store.snapshot("g", {"n": 0})
    await store.add_move("g", 0, "a")
    await store.add_move("g", 1, "b")
    await store.snapshot("g", {"n": 2})
    await store.add_move("g", 0, "c")
    [loaded] = await store.load_unfinished()
    await store.aclose()
    assert loaded.snapshot == {"n": 2}
    assert loaded.moves == ((0, "c"),)
    # Every move stays in the store until the game finishes.
    with open_db(state_dir / DB_NAME) as conn:
        rows = conn.execute("SELECT seat, move FROM moves ORDER BY id").fetchall()
    assert rows == [(0, "a"), (1, "b"), (0, "c")]


async def test_a_deal_is_stored_with_the_seat_or_move_that_makes_it(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    store = await open_sqlite(nursery, state_dir)
    try:
        await store.create_game("g", "hipparchus", {}, 1.0)
        await store.add_seat("g", stored_seat(0, "ann"))
        await store.add_seat("g", stored_seat(1, "bob"), {"round": 1})
        [loaded] = await store.load_unfinished()
        assert (loaded.snapshot, loaded.moves) == ({"round": 1}, ())
        await store.add_move("g", 0, "a")
        await store.add_move("g", 1, "b", {"round": 2})
        await store.add_move("g", 0, "c")
        [loaded] = await store.load_unfinished()
        assert (loaded.snapshot, loaded.moves) == ({"round": 2}, ((0, "c"),))
        # A snapshot that cannot be stored takes its move (or seat) with it.
        with pytest.raises(StoreError, match="cannot store this snapshot"):
            await store.add_move("g", 1, "d", {"x": object()})
        with pytest.raises(StoreError, match="no unfinished game h"):
            await store.add_move("h", 1, "d", {"round": 3})
        [loaded] = await store.load_unfinished()
        assert (loaded.snapshot, loaded.moves) == ({"round": 2}, ((0, "c"),))
    finally:
        await store.aclose()


async def test_committed_calls_survive_a_crash(
    state_dir: Path, tmp_path: Path, nursery: trio.Nursery
) -> None:
    store = await open_sqlite(nursery, state_dir)
    await store.create_game("g", "hipparchus", {"seed": "1"}, 5.0)
    await store.add_seat("g", stored_seat(0, "ann"))
    await store.snapshot("g", {"deal": 1})
    for ply in range(30):
        await store.add_move("g", ply % 2, f"m{ply}")
    crashed = _crash_copy(state_dir, tmp_path / "crashed")
    await store.aclose()

    reopened = await open_sqlite(nursery, crashed)
    try:
        [loaded] = await reopened.load_unfinished()
    finally:
        await reopened.aclose()
    assert loaded.snapshot == {"deal": 1}
    assert loaded.seats == (stored_seat(0, "ann"),)
    assert loaded.moves == tuple((ply % 2, f"m{ply}") for ply in range(30))


async def test_the_database_is_in_wal_mode_with_full_sync(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    store = await open_sqlite(nursery, state_dir)
    try:
        await store.create_game("g", "hipparchus", {}, 1.0)
        assert store.settings == {"journal_mode": "wal", "synchronous": 2}  # 2 = FULL
        # Hands of games in progress are in there: for the daemon's user alone.
        for name in (DB_NAME, f"{DB_NAME}-wal", f"{DB_NAME}-shm"):
            assert (state_dir / name).stat().st_mode & 0o777 == 0o600, name
    finally:
        await store.aclose()
    assert state_dir.stat().st_mode & 0o777 == 0o700


async def test_the_database_is_private_in_an_open_state_directory(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    state_dir.mkdir(mode=0o755)  # as systemd's StateDirectory= makes it by default
    store = await open_sqlite(nursery, state_dir)
    await store.create_game("g", "hipparchus", {}, 1.0)
    await store.aclose()
    assert (state_dir / DB_NAME).stat().st_mode & 0o777 == 0o600
    assert state_dir.stat().st_mode & 0o777 == 0o755  # the operator's choice, left alone


async def test_a_finished_game_keeps_its_record_and_leaves_the_unfinished(
    state_dir: Path,
    nursery: trio.Nursery,
) -> None:
    game = HipparchusGame()
    game.start()
    store = await open_sqlite(nursery, state_dir)
    await store.create_game("g", "hipparchus", {}, 1.0)
    await store.snapshot("g", converter.unstructure(game.record()))
    for move in play_random(game, random.Random(8)):
        await store.add_move("g", 0, move)
    await store.finish("g", converter.unstructure(game.record()))
    assert await store.load_unfinished() == []
    stored = await store.load_finished("g")
    assert await store.load_finished("nope") is None
    assert await store.latest_game_id() == "g"
    with pytest.raises(StoreError, match="no unfinished game g"):
        await store.add_move("g", 0, "1S@1")
    with pytest.raises(StoreError, match="no unfinished game g"):
        await store.finish("g", {})
    await store.aclose()
    assert stored is not None and stored.finished and stored.moves == ()
    assert replay(converter.structure(stored.snapshot, MatchRecord)) == game.state
    with open_db(state_dir / DB_NAME) as conn:
        assert conn.execute("SELECT count(*) FROM moves").fetchone() == (0,)


async def test_values_are_stored_in_the_versioned_envelope(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    store = await open_sqlite(nursery, state_dir)
    await store.create_game("g", "hipparchus", {"seed": "7"}, 1.0)
    await store.snapshot("g", {"a": [1, 2]})
    await store.aclose()
    with open_db(state_dir / DB_NAME) as conn:
        options, snapshot = conn.execute("SELECT options, snapshot FROM games").fetchone()
    assert options == '{"version":1,"kind":"options","data":{"seed":"7"}}'
    assert snapshot == '{"version":1,"kind":"snapshot","data":{"a":[1,2]}}'


async def test_a_value_from_a_newer_serialization_is_refused_at_load(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    store = await open_sqlite(nursery, state_dir)
    await store.create_game("g", "hipparchus", {}, 1.0)
    await store.aclose()
    with open_db(state_dir / DB_NAME) as conn:
        conn.execute("""UPDATE games SET options = '{"version":9,"kind":"options","data":{}}'""")
    store = await open_sqlite(nursery, state_dir)
    try:
        with pytest.raises(StoreError, match="schema version 9 is newer than this program"):
            await store.load_unfinished()
    finally:
        await store.aclose()


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ('["seed","7"]', "options are not a JSON object"),
        ('{"seed":7}', "option 'seed' is not text"),
    ],
)
async def test_stored_options_that_are_not_a_table_of_text_are_refused_at_load(
    state_dir: Path, nursery: trio.Nursery, data: str, problem: str
) -> None:
    # A game's options are what ``new`` was given: names to values, all text.
    store = await open_sqlite(nursery, state_dir)
    await store.create_game("g", "hipparchus", {}, 1.0)
    await store.aclose()
    with open_db(state_dir / DB_NAME) as conn:
        conn.execute(
            "UPDATE games SET options = ?",
            (f'{{"version":1,"kind":"options","data":{data}}}',),
        )
    store = await open_sqlite(nursery, state_dir)
    try:
        with pytest.raises(StoreError, match=f"game g: the stored {problem}"):
            await store.load_unfinished()
    finally:
        await store.aclose()


async def test_bad_calls_fail_alone_and_change_nothing(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    store = await open_sqlite(nursery, state_dir)
    await store.create_game("g", "hipparchus", {}, 1.0)
    await store.add_seat("g", stored_seat(0, "ann"))
    with pytest.raises(StoreError, match="already stored"):
        await store.create_game("g", "hipparchus", {"x": "y"}, 2.0)
    await store.add_seat("g", stored_seat(1, "eve"))
    await store.add_seat("g", stored_seat(1, "bob"))  # seat 1 freed before the start, taken again
    with pytest.raises(StoreError, match="no unfinished game h"):
        await store.add_seat("h", stored_seat(0, "eve"))
    with pytest.raises(StoreError, match="no unfinished game h"):
        await store.snapshot("h", {})
    with pytest.raises(StoreError, match="cannot store this snapshot"):
        await store.snapshot("g", {"x": object()})

    # In one batch, the move for an unknown game fails and the others commit.
    results: dict[str, Any] = {}

    async def move(game_id: str, text: str) -> None:
        try:
            await store.add_move(game_id, 0, text)
            results[text] = "ok"
        except StoreError as error:
            results[text] = str(error)

    async with trio.open_nursery() as tasks:
        with held_writer(store):  # so that all three calls form one batch
            for game_id, text in (("g", "a"), ("nope", "b"), ("g", "c")):
                tasks.start_soon(move, game_id, text)
            await trio.testing.wait_all_tasks_blocked()
    assert results == {"a": "ok", "b": "no unfinished game nope is stored", "c": "ok"}
    [loaded] = await store.load_unfinished()
    await store.aclose()
    assert loaded.options == {}
    assert loaded.seats == (stored_seat(0, "ann"), stored_seat(1, "bob"))
    assert sorted(loaded.moves) == [(0, "a"), (0, "c")]  # trio starts tasks in any order


async def test_a_closed_store_refuses_calls(state_dir: Path, nursery: trio.Nursery) -> None:
    store = await open_sqlite(nursery, state_dir)
    await store.aclose()
    await store.aclose()  # idempotent
    with pytest.raises(StoreError, match="closed"):
        await store.create_game("g", "hipparchus", {}, 1.0)


async def test_a_cancelled_caller_still_waits_for_its_commit(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    store = await open_sqlite(nursery, state_dir)
    await store.create_game("g", "hipparchus", {}, 1.0)
    returned = []

    async def cancelled_move() -> None:
        with trio.CancelScope() as scope:
            scope.cancel()
            await store.add_move("g", 0, "a")
            returned.append(True)

    async with trio.open_nursery() as tasks:
        with held_writer(store):
            tasks.start_soon(cancelled_move)
            await trio.testing.wait_all_tasks_blocked()
            assert returned == []  # sent, cancelled, and still waiting for the commit
    assert returned == [True]
    [loaded] = await store.load_unfinished()
    await store.aclose()
    assert loaded.moves == ((0, "a"),)


async def test_the_writer_ignores_the_signals_a_terminal_or_systemd_sends(
    state_dir: Path,
    nursery: trio.Nursery,
) -> None:
    """Ctrl-C and `systemctl stop` reach the whole process group: the daemon decides when
    writing ends, so the writer carries on."""
    store = await open_sqlite(nursery, state_dir)
    try:
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            os.kill(store.writer_pid, signum)
        await trio.sleep(0.1)
        await store.create_game("g", "hipparchus", {}, 1.0)
        assert [game.game_id for game in await store.load_unfinished()] == ["g"]
    finally:
        await store.aclose()


async def test_a_dead_writer_fails_every_call_instead_of_hanging(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    store = await open_sqlite(nursery, state_dir)
    await store.create_game("g", "hipparchus", {}, 1.0)
    os.kill(store.writer_pid, signal.SIGKILL)
    with trio.fail_after(10):
        # Sent to the writer, or sending failed midway (the kill may land before or after the
        # send): whether it was committed is unknown to the store either way.
        with pytest.raises(
            StoreUnreachable,
            match=r"store's writer process (stopped|failed).*; restart the daemon",
        ):
            await store.add_move("g", 0, "1S")
        # Never sent, once the store knows the writer is gone: certainly not committed.
        with pytest.raises(StoreError, match="restart the daemon") as later:
            await store.add_move("g", 0, "1S")
        assert not isinstance(later.value, StoreUnreachable)
        await store.aclose()
    # Nothing was lost: the committed game is there for the next daemon.
    reopened = await open_sqlite(nursery, state_dir)
    try:
        [loaded] = await reopened.load_unfinished()
    finally:
        await reopened.aclose()
    assert (loaded.game_id, loaded.moves) == ("g", ())


def test_the_writer_runs_the_daemons_code_wherever_it_was_started(tmp_path: Path) -> None:
    """A directory holding another ``hipparchusd`` (an old checkout, say) as the working
    directory does not change the code the writer process runs."""
    other = tmp_path / "elsewhere" / "hipparchusd"
    (other / "store").mkdir(parents=True)
    (other / "__init__.py").write_text("raise SystemExit('the wrong hipparchusd')\n")
    (other / "store" / "__init__.py").write_text("")
    script = (
        "import pathlib, sys, trio\n"
        "from hipparchusd.store.sqlite import SqliteStore\n"
        "async def main():\n"
        "    async with SqliteStore.open(pathlib.Path(sys.argv[1])) as store:\n"
        "        await store.create_game('g', 'hipparchus', {}, 1.0)\n"
        "trio.run(main)\n"
    )
    # -P: the daemon itself imports the installed package, not the one in its directory.
    done = subprocess.run(
        [sys.executable, "-P", "-c", script, str(tmp_path / "state")],
        cwd=other.parent,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    with open_db(tmp_path / "state" / DB_NAME) as conn:
        assert conn.execute("SELECT game_id FROM games").fetchall() == [("g",)]


async def test_the_store_lives_in_its_block_and_lets_its_errors_out_as_they_are(
    state_dir: Path,
) -> None:
    """``async with SqliteStore.open(...)``: an error in the block comes out as it is (not in
    an exception group from the reader's nursery), after the store is closed: the writer has
    exited and the state directory is free again."""
    with pytest.raises(KeyError, match="from the block"):
        async with SqliteStore.open(state_dir) as store:
            await store.create_game("g", "hipparchus", {}, 1.0)
            writer = store.writer_pid
            raise KeyError("from the block")
    with pytest.raises(ProcessLookupError):  # exited and reaped
        os.kill(writer, 0)
    async with SqliteStore.open(state_dir) as again:
        assert await again.latest_game_id() == "g"
        await again.aclose()  # closing early is allowed; the block's end then does nothing
