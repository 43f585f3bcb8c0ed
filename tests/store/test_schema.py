"""Schema versions: a new database gets the latest, a newer one is refused, an older one is
migrated (after a backup), and a failed migration leaves the database as it was."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from pathlib import Path

import pytest
import trio
from store_helpers import open_db, open_sqlite, stored_seat

from hipparchusd.records import StoredSeat
from hipparchusd.store import schema
from hipparchusd.store.base import StoreError
from hipparchusd.store.codec import dump
from hipparchusd.store.export import export_games
from hipparchusd.store.startup import DB_NAME


def _meta(path: Path) -> dict[str, str]:
    with open_db(path) as conn:
        return dict(conn.execute("SELECT key, value FROM meta").fetchall())


def _make_old_database(state_dir: Path, version: int) -> sqlite3.Connection:
    """A database at schema ``version``, made as that version's program made it: by its
    migrations (today's store writes columns an older layout lacks)."""
    state_dir.mkdir(mode=0o700, exist_ok=True)
    conn = sqlite3.connect(state_dir / DB_NAME, isolation_level=None)
    schema.migrate(conn, "old", schema.MIGRATIONS[:version])
    return conn


async def _make_v1_store_with_a_game(state_dir: Path) -> None:
    with contextlib.closing(_make_old_database(state_dir, 1)) as conn:
        conn.execute(
            "INSERT INTO games (game_id, kind, options, created_at) VALUES (?, ?, ?, ?)",
            ("g", "hipparchus", dump("options", {"seed": "3"}), 10.0),
        )
        conn.execute("INSERT INTO moves (game_id, seat, move) VALUES ('g', 0, '1S@1')")


async def test_a_new_database_is_at_the_latest_version(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    store = await open_sqlite(nursery, state_dir)
    await store.aclose()
    meta = _meta(state_dir / DB_NAME)
    assert meta["application"] == "hipparchusd"
    assert meta["schema_version"] == str(schema.latest_version())
    assert meta["last_opened"].endswith(f" pid {os.getpid()}")
    assert schema.latest_version() == len(schema.MIGRATIONS) == 6


async def test_a_newer_schema_is_refused_and_left_alone(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    await _make_v1_store_with_a_game(state_dir)
    path = state_dir / DB_NAME
    with open_db(path) as conn:
        conn.execute("UPDATE meta SET value = '7' WHERE key = 'schema_version'")
    before = path.read_bytes()
    with pytest.raises(
        StoreError, match=r"schema version 7, newer than this hipparchusd.*\(up to 6\)"
    ):
        await open_sqlite(nursery, state_dir)
    assert path.read_bytes() == before
    assert not list(state_dir.glob("*.bak"))


async def test_another_programs_database_is_refused(state_dir: Path, nursery: trio.Nursery) -> None:
    state_dir.mkdir()
    with open_db(state_dir / DB_NAME) as conn:
        conn.execute("CREATE TABLE accounts (id INTEGER)")
    with pytest.raises(StoreError, match="is not a hipparchusd database"):
        await open_sqlite(nursery, state_dir)


def _add_game_notes(conn: sqlite3.Connection) -> None:
    """A synthetic next step: a new column with a value computed from the old data."""
    conn.execute("ALTER TABLE games ADD COLUMN notes TEXT NOT NULL DEFAULT ''")
    conn.execute(
        "UPDATE games SET notes = "
        "'moves: ' || (SELECT count(*) FROM moves WHERE moves.game_id = games.game_id)"
    )


async def test_an_older_schema_is_backed_up_and_migrated(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    await _make_v1_store_with_a_game(state_dir)
    migrations = (*schema.MIGRATIONS, _add_game_notes)
    latest = len(migrations)

    store = await open_sqlite(nursery, state_dir, migrations=migrations)
    [loaded] = await store.load_unfinished()
    await store.aclose()

    assert loaded.options == {"seed": "3"}
    assert loaded.moves == ((0, "1S@1"),)
    path = state_dir / DB_NAME
    assert _meta(path)["schema_version"] == str(latest)
    with open_db(path) as conn:
        assert conn.execute("SELECT notes FROM games").fetchall() == [("moves: 1",)]
    [backup] = state_dir.glob(f"{DB_NAME}.v1-*.bak")
    assert backup.stat().st_mode & 0o777 == 0o600
    assert _meta(backup)["schema_version"] == "1"
    with open_db(backup) as conn:
        assert conn.execute("SELECT game_id, seat, move FROM moves").fetchall() == [
            ("g", 0, "1S@1")
        ]

    # Opening again finds nothing to migrate.
    store = await open_sqlite(nursery, state_dir, migrations=migrations)
    await store.aclose()
    assert len(list(state_dir.glob("*.bak"))) == 1


async def test_a_failed_migration_leaves_the_old_version(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    store = await open_sqlite(nursery, state_dir)
    await store.create_game("g", "hipparchus", {"seed": "3"}, 10.0)
    await store.add_move("g", 0, "1S@1")
    await store.aclose()
    latest = schema.latest_version()

    def broken(conn: sqlite3.Connection) -> None:
        conn.execute("ALTER TABLE games ADD COLUMN half_done TEXT")
        conn.execute("SELECT no_such_column FROM games")

    with pytest.raises(StoreError, match=f"from schema version {latest} to {latest + 1} failed"):
        await open_sqlite(nursery, state_dir, migrations=(*schema.MIGRATIONS, broken))
    path = state_dir / DB_NAME
    assert _meta(path)["schema_version"] == str(latest)
    with open_db(path) as conn:
        columns = [row[1] for row in conn.execute("PRAGMA table_info(games)")]
    assert "half_done" not in columns
    store = await open_sqlite(nursery, state_dir)  # the current program still opens it
    [loaded] = await store.load_unfinished()
    await store.aclose()
    assert loaded.moves == ((0, "1S@1"),)


def test_migrating_from_the_empty_database_runs_every_step(tmp_path: Path) -> None:
    with contextlib.closing(sqlite3.connect(tmp_path / "x.sqlite3", isolation_level=None)) as conn:
        assert schema.read_version(conn, "x") == 0
        assert schema.migrate(conn, "x", (*schema.MIGRATIONS, _add_game_notes)) == 0
        assert schema.read_version(conn, "x") == len(schema.MIGRATIONS) + 1
        assert {row[0] for row in conn.execute("SELECT name FROM sqlite_schema")} >= {
            "meta",
            "games",
            "seats",
            "moves",
        }


async def test_version_2_indexes_seats_by_token_digest(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    with contextlib.closing(_make_old_database(state_dir, 1)) as conn:
        conn.execute(
            "INSERT INTO games (game_id, kind, options, created_at) VALUES (?, ?, ?, ?)",
            ("g", "hipparchus", dump("options", {}), 1.0),
        )
        conn.execute(
            "INSERT INTO seats (game_id, seat, name, token_hash) VALUES ('g', 0, 'ann', ?)",
            (stored_seat(0, "ann").token_hash,),
        )
    store = await open_sqlite(nursery, state_dir)
    try:
        found = await store.find_by_token(stored_seat(0, "ann").token_hash)
        assert found is not None and found.game_id == "g"
        assert found.seats == (stored_seat(0, "ann"),)  # a person's seat: bot None
    finally:
        await store.aclose()
    path = state_dir / DB_NAME
    assert _meta(path)["schema_version"] == str(schema.latest_version())
    with open_db(path) as conn:
        plan = " ".join(
            row[3]
            for row in conn.execute(
                "EXPLAIN QUERY PLAN SELECT s.game_id FROM seats AS s JOIN games AS g "
                "USING (game_id) WHERE s.token_hash = ? AND g.finished_at IS NULL",
                (b"x",),
            )
        )
    # Found by the digest, not by reading the seats of every unfinished game.
    assert "seats_by_token" in plan, plan


async def test_version_3_keeps_the_engines_seats(state_dir: Path, nursery: trio.Nursery) -> None:
    """A version 2 database gains ``seats.bot`` (``NULL`` for its seats); a seat the engine
    plays keeps its level word across a reopening."""
    with contextlib.closing(_make_old_database(state_dir, 2)) as conn:
        conn.execute(
            "INSERT INTO games (game_id, kind, options, created_at) VALUES (?, ?, ?, ?)",
            ("g", "hipparchus", dump("options", {}), 1.0),
        )
        conn.execute(
            "INSERT INTO seats (game_id, seat, name, token_hash) VALUES ('g', 0, 'ann', ?)",
            (stored_seat(0, "ann").token_hash,),
        )
    path = state_dir / DB_NAME
    store = await open_sqlite(nursery, state_dir)
    bot = StoredSeat(1, "bot-ismcts", stored_seat(1, "bot").token_hash, "ismcts:50ms")
    await store.add_seat("g", bot)
    await store.aclose()
    assert _meta(path)["schema_version"] == str(schema.latest_version())
    assert list(state_dir.glob("*.v2-*.bak"))  # copied aside before migrating
    store = await open_sqlite(nursery, state_dir)
    try:
        (game,) = await store.load_unfinished()
        assert game.seats == (stored_seat(0, "ann"), bot)
    finally:
        await store.aclose()


async def test_versions_2_to_4_keep_every_game_and_time_expiry_from_the_upgrade(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    # A version 2 database as the previous program left it: a game waiting for players, one
    # in progress (a snapshot and a move after it) and a finished one.
    with contextlib.closing(_make_old_database(state_dir, 2)) as conn:
        for game_id, snapshot, finished_at, record in (
            ("g1", None, None, None),
            ("g2", dump("snapshot", {"deals": [1]}), None, None),
            ("g3", None, 30.0, dump("record", {"deals": [2]})),
        ):
            conn.execute(
                "INSERT INTO games (game_id, kind, options, created_at, snapshot, finished_at, "
                "record) VALUES (?, 'hipparchus', ?, 10.0, ?, ?, ?)",
                (game_id, dump("options", {"seed": "3"}), snapshot, finished_at, record),
            )
            conn.execute(
                "INSERT INTO seats (game_id, seat, name, token_hash) VALUES (?, 0, 'ann', ?)",
                (game_id, stored_seat(0, f"ann-{game_id}").token_hash),
            )
        conn.execute("INSERT INTO moves (game_id, seat, move) VALUES ('g2', 0, '1S@1')")
        before = {
            row[0]: row
            for row in conn.execute(
                "SELECT game_id, kind, options, created_at, snapshot, finished_at, record "
                "FROM games"
            )
        }

    upgrade_started = time.time()
    store = await open_sqlite(nursery, state_dir)
    try:
        unfinished = {game.game_id: game for game in await store.load_unfinished()}
        finished = await store.load_finished("g3")
        # Expiry counts from the upgrade (now), not from the games' creation long ago.
        assert await store.expired_games(1, 10) == []
    finally:
        await store.aclose()
    assert sorted(unfinished) == ["g1", "g2"]
    assert unfinished["g2"].snapshot == {"deals": [1]}
    assert unfinished["g2"].moves == ((0, "1S@1"),)
    assert not unfinished["g2"].abandoned
    assert finished is not None and finished.snapshot == {"deals": [2]}
    assert not finished.abandoned
    path = state_dir / DB_NAME
    assert _meta(path)["schema_version"] == str(schema.latest_version())
    with open_db(path) as conn:
        after = {
            row[0]: row
            for row in conn.execute(
                "SELECT game_id, kind, options, created_at, snapshot, finished_at, record "
                "FROM games"
            )
        }
        activity = dict(conn.execute("SELECT game_id, last_active FROM games").fetchall())
        assert conn.execute("SELECT count(*) FROM games WHERE abandoned != 0").fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM seats").fetchone() == (3,)
    assert after == before  # every game, unchanged
    assert activity["g3"] is None  # a finished game has nothing to expire
    for game_id in ("g1", "g2"):
        assert upgrade_started - 1 <= activity[game_id] <= time.time() + 1
    [backup] = state_dir.glob(f"{DB_NAME}.v2-*.bak")
    assert _meta(backup)["schema_version"] == "2"


async def test_version_5_keeps_every_game_untimed_and_stores_timing(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    """A version 4 database gains ``moves.timing`` and ``games.timing`` (issue 27), ``NULL``
    for what it holds: its games read back as before, with no timing; a move and a finished
    game stored after the upgrade keep theirs (RULINGS T6)."""
    with contextlib.closing(_make_old_database(state_dir, 4)) as conn:
        conn.execute(
            "INSERT INTO games (game_id, kind, options, created_at, snapshot, last_active) "
            "VALUES ('g', 'hipparchus', ?, 10.0, ?, 10.0)",
            (dump("options", {}), dump("snapshot", {"deals": [1]})),
        )
        conn.execute("INSERT INTO moves (game_id, seat, move) VALUES ('g', 0, '1S@1')")
    store = await open_sqlite(nursery, state_dir)
    try:
        (game,) = await store.load_unfinished()
        assert game.moves == ((0, "1S@1"),) and game.move_timing == (None,)
        await store.add_move("g", 1, "2S@4", timing={"ply": 2, "seat": 1, "spent_ms": 1500})
        (game,) = await store.load_unfinished()
        assert game.move_timing == (None, {"ply": 2, "seat": 1, "spent_ms": 1500})
        await store.finish("g", {"deals": [1]}, {"control": "5m", "decisions": []})
        finished = await store.load_finished("g")
        assert finished is not None and finished.timing == {"control": "5m", "decisions": []}
    finally:
        await store.aclose()
    assert _meta(state_dir / DB_NAME)["schema_version"] == str(schema.latest_version())
    [backup] = state_dir.glob(f"{DB_NAME}.v4-*.bak")
    assert _meta(backup)["schema_version"] == "4"


async def test_version_6_records_an_operators_end_apart_from_the_others(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    """A version 5 database gains ``games.operator_end``: ``NULL`` for its finished games (won,
    abandoned, or with a timing record, which it keeps); a game the operator ends is kept with
    the reason given and its timing record, and exported so."""
    with contextlib.closing(_make_old_database(state_dir, 5)) as conn:
        for game_id, finished_at, record, abandoned, timing in (
            ("g1", 30.0, dump("record", {"deals": [1]}), 0, dump("timing", {"control": "5m"})),
            ("g2", 31.0, dump("record", {"deals": [2]}), 1, None),
            ("g3", None, None, 0, None),
        ):
            conn.execute(
                "INSERT INTO games (game_id, kind, options, created_at, snapshot, finished_at, "
                "record, abandoned, timing) VALUES (?, 'hipparchus', ?, 10.0, ?, ?, ?, ?, ?)",
                (game_id, dump("options", {}), dump("snapshot", {"d": 3}), finished_at, record,
                 abandoned, timing),
            )  # fmt: skip
    store = await open_sqlite(nursery, state_dir)
    try:
        won, abandoned = await store.load_finished("g1"), await store.load_finished("g2")
        assert won is not None and won.operator_end is None and not won.abandoned
        assert won.timing == {"control": "5m"}
        assert abandoned is not None and abandoned.operator_end is None and abandoned.abandoned
        timing = {"control": "5m+3s", "decisions": [{"ply": 1, "seat": 0, "spent_ms": 800}]}
        await store.end_game("g3", {"deals": [3]}, "reported cheating", timing)
        ended = await store.load_finished("g3")
        assert ended is not None and ended.operator_end == "reported cheating"
        assert ended.snapshot == {"deals": [3]} and not ended.abandoned
        assert ended.timing == timing
        with pytest.raises(StoreError, match="no unfinished game g3"):
            await store.end_game("g3", {}, "")
    finally:
        await store.aclose()
    assert _meta(state_dir / DB_NAME)["schema_version"] == "6" == str(schema.latest_version())
    [backup] = state_dir.glob(f"{DB_NAME}.v5-*.bak")  # copied aside before migrating
    assert _meta(backup)["schema_version"] == "5"
    exported = export_games(state_dir)["data"]
    assert [(game["game_id"], game["operator_end"]) for game in exported] == [
        ("g1", None),
        ("g2", None),
        ("g3", "reported cheating"),
    ]


async def test_version_4_migrates_through_5_then_6(state_dir: Path, nursery: trio.Nursery) -> None:
    """A version 4 database takes both steps in order at one start: the timing columns of
    version 5 (issue 27), then the operator's end of version 6 (issue 26), and a game the
    operator ends is kept with both."""
    with contextlib.closing(_make_old_database(state_dir, 4)) as conn:
        conn.execute(
            "INSERT INTO games (game_id, kind, options, created_at, snapshot, last_active) "
            "VALUES ('g', 'hipparchus', ?, 10.0, ?, 10.0)",
            (dump("options", {}), dump("snapshot", {"deals": [1]})),
        )
    store = await open_sqlite(nursery, state_dir)
    try:
        await store.end_game("g", {"deals": [1]}, "", {"control": "1m", "decisions": []})
        ended = await store.load_finished("g")
        assert ended is not None and ended.operator_end == ""
        assert ended.timing == {"control": "1m", "decisions": []}
    finally:
        await store.aclose()
    with contextlib.closing(sqlite3.connect(state_dir / DB_NAME)) as conn:
        games = {row[1] for row in conn.execute("PRAGMA table_info(games)")}
        moves = {row[1] for row in conn.execute("PRAGMA table_info(moves)")}
    assert {"timing", "operator_end"} <= games and "timing" in moves
    assert _meta(state_dir / DB_NAME)["schema_version"] == "6"
    [backup] = state_dir.glob(f"{DB_NAME}.v4-*.bak")
    assert _meta(backup)["schema_version"] == "4"
