"""The daemon process refuses to start on a state directory it cannot use, with a message that
says which file and why; and ``hipparchusd export`` runs from the command line."""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import trio
from store_helpers import open_sqlite, without_root_privileges

from hipparchusd.store.sqlite import SqliteStore
from hipparchusd.store.startup import DB_NAME


def _serve(state_dir: Path, *prefix: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            *prefix,
            sys.executable,
            "-m",
            "hipparchusd",
            "--port",
            "0",
            "--state-dir",
            str(state_dir),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )


async def _make_store(state_dir: Path) -> Path:
    async with SqliteStore.open(state_dir) as store:
        await store.create_game("g1", "hipparchus", {}, 1.0)
    return state_dir / DB_NAME


async def test_a_damaged_database_stops_start_up(state_dir: Path) -> None:
    path = await _make_store(state_dir)
    garbage = random.Random(3).randbytes(path.stat().st_size)
    path.write_bytes(garbage)
    result = _serve(state_dir)
    assert result.returncode == 1
    assert f"cannot serve: {path} is not a SQLite database" in result.stderr
    assert path.read_bytes() == garbage


async def test_a_newer_schema_stops_start_up(state_dir: Path) -> None:
    path = await _make_store(state_dir)
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    conn.close()
    result = _serve(state_dir)
    assert result.returncode == 1
    assert "has schema version 99, newer than this hipparchusd understands" in result.stderr


def test_a_state_directory_that_cannot_be_written_stops_start_up(state_dir: Path) -> None:
    prefix = without_root_privileges()
    state_dir.mkdir(mode=0o500)
    try:
        result = _serve(state_dir, *prefix)
    finally:
        state_dir.chmod(0o700)
    assert result.returncode == 1
    assert f"the state directory {state_dir} cannot be written: Permission denied" in (
        result.stderr
    )


async def test_hipparchusd_export_from_the_command_line(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    store = await open_sqlite(nursery, state_dir)
    await store.create_game("g1", "hipparchus", {}, 1.0)
    await store.finish("g1", {"first_leader": 0})
    await store.aclose()
    result = subprocess.run(
        [sys.executable, "-m", "hipparchusd", "export", "--state-dir", str(state_dir)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    [game] = json.loads(result.stdout)["data"]
    assert game["game_id"] == "g1" and game["record"] == {"first_leader": 0}


async def test_a_stored_game_the_daemon_cannot_read_stops_start_up(state_dir: Path) -> None:
    path = await _make_store(state_dir)
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("""UPDATE games SET options = '{"version":9,"kind":"options","data":{}}'""")
    conn.close()
    result = _serve(state_dir)
    assert result.returncode == 1
    assert "cannot serve: " in result.stderr
    assert "the stored options cannot be read: $.version: schema version 9 is newer" in (
        result.stderr
    )
    assert "Traceback" not in result.stderr


def test_a_second_daemon_on_the_same_state_directory_is_refused(
    daemon_factory: Any, state_dir: Path
) -> None:
    first = daemon_factory("--state-dir", str(state_dir))
    result = _serve(state_dir)
    assert result.returncode == 1
    assert (
        f"the state directory {state_dir} is in use by another hipparchusd "
        f"(pid {first.process.pid})"
    ) in result.stderr
