"""Schema versions: a new database gets the latest, a newer one is refused, an older one is
migrated (after a backup), and a failed migration leaves the database as it was."""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

import pytest
import trio
from store_helpers import open_db, open_sqlite, stored_seat

from hipparchusd.store import schema
from hipparchusd.store.base import StoreError
from hipparchusd.store.sqlite import SqliteStore
from hipparchusd.store.startup import DB_NAME


def _meta(path: Path) -> dict[str, str]:
    with open_db(path) as conn:
        return dict(conn.execute("SELECT key, value FROM meta").fetchall())


async def _make_v1_store_with_a_game(state_dir: Path) -> None:
    async with SqliteStore.open(state_dir, migrations=schema.MIGRATIONS[:1]) as store:
        await store.create_game("g", "hipparchus", {"seed": "3"}, 10.0)
        await store.add_move("g", 0, "1S@1")


async def test_a_new_database_is_at_the_latest_version(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    store = await open_sqlite(nursery, state_dir)
    await store.aclose()
    meta = _meta(state_dir / DB_NAME)
    assert meta["application"] == "hipparchusd"
    assert meta["schema_version"] == str(schema.latest_version())
    assert meta["last_opened"].endswith(f" pid {os.getpid()}")
    assert schema.latest_version() == len(schema.MIGRATIONS) == 2


async def test_a_newer_schema_is_refused_and_left_alone(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    await _make_v1_store_with_a_game(state_dir)
    path = state_dir / DB_NAME
    with open_db(path) as conn:
        conn.execute("UPDATE meta SET value = '7' WHERE key = 'schema_version'")
    before = path.read_bytes()
    with pytest.raises(
        StoreError, match=r"schema version 7, newer than this hipparchusd.*\(up to 2\)"
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
    store = await open_sqlite(nursery, state_dir, migrations=schema.MIGRATIONS[:1])
    await store.create_game("g", "hipparchus", {}, 1.0)
    await store.add_seat("g", stored_seat(0, "ann"))
    await store.aclose()
    store = await open_sqlite(nursery, state_dir)
    try:
        found = await store.find_by_token(stored_seat(0, "ann").token_hash)
        assert found is not None and found.game_id == "g"
    finally:
        await store.aclose()
    path = state_dir / DB_NAME
    assert _meta(path)["schema_version"] == "2"
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
