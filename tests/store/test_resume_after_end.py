"""``resume`` of a finished game's token answers its final view, the same before and after a
restart, for as long as the store keeps the game's record (issue 16 item 5): a player whose
last move was stored but whose answer never came can still learn the result."""

from __future__ import annotations

import contextlib
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

import trio
from store_helpers import serve_sqlite

from hipparchusd.store.sql import prune
from hipparchusd.store.sqlite import SqliteStore
from hipparchusd.store.startup import DB_NAME

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the daemon tests' client
from daemon.client import Client


def _final(state: dict[str, Any]) -> dict[str, Any]:
    """The answer to ``resume`` without ``seq``, which counts from 0 again after a restart
    (PROTOCOL.md section 7) like every resume after one."""
    return {key: value for key, value in state.items() if key != "seq"}


async def _resume(port: int, token: str) -> dict[str, Any]:
    client = await Client.connect(port)
    try:
        await client.ok("format json")
        state: dict[str, Any] = (await client.ok(f"resume {token}")).json()
        return state
    finally:
        await client.aclose()


async def test_a_finished_game_resumes_to_the_same_final_view_after_a_restart(
    state_dir: Path,
) -> None:
    async with trio.open_nursery() as nursery:
        server = await serve_sqlite(state_dir, nursery)
        a, b = await Client.connect(server.ports[0]), await Client.connect(server.ports[0])
        game = (await a.ok("new hipparchus seed=3 leader=0")).fields()["game"]
        tokens = [(await a.ok(f"join {game} 0")).fields()["token"]]
        tokens.append((await b.ok(f"join {game} 1")).fields()["token"])
        await a.ok(f"play {game} {(await a.ok(f'legal {game}')).text.split()[0]}")
        await b.ok(f"resign {game}")
        await a.aclose()
        await b.aclose()
        before = [await _resume(server.ports[0], token) for token in tokens]
        server.shutdown()
    assert [state["status"] for state in before] == ["over", "over"]
    assert before[0]["view"]["winner"] == 0 and before[1]["view"]["resigned"] == 1
    assert before[0]["view"] != before[1]["view"]  # each seat's own view

    async with trio.open_nursery() as nursery:
        server = await serve_sqlite(state_dir, nursery)
        assert game not in server.lobby.tables  # finished games are not loaded at start-up
        after = [await _resume(server.ports[0], token) for token in tokens]
        assert server.lobby.active_games == 0  # a finished game counts against no limit
        again = await _resume(server.ports[0], tokens[0])  # now loaded: the same again
        server.shutdown()
    assert [_final(state) for state in after] == [_final(state) for state in before]
    assert _final(again) == _final(before[0])
    # Resuming changed nothing stored (no second finish: retention is not restarted).
    async with SqliteStore.open(state_dir) as store:
        stored = await store.load_finished(game)
        assert stored is not None and stored.finished


async def test_a_game_past_retention_is_a_bad_token(state_dir: Path) -> None:
    async with trio.open_nursery() as nursery:
        server = await serve_sqlite(state_dir, nursery)
        a, b = await Client.connect(server.ports[0]), await Client.connect(server.ports[0])
        game = (await a.ok("new hipparchus")).fields()["game"]
        token = (await a.ok(f"join {game} 0")).fields()["token"]
        await b.ok(f"join {game} 1")
        await a.ok(f"resign {game}")
        await a.aclose()
        await b.aclose()
        server.shutdown()
    # What the retention rule does to a finished game past its days (RULINGS H14).
    with contextlib.closing(sqlite3.connect(state_dir / DB_NAME)) as db:
        db.execute("PRAGMA foreign_keys = ON")
        assert prune(db, time.time() + 1) == 1
        db.commit()
    async with trio.open_nursery() as nursery:
        server = await serve_sqlite(state_dir, nursery)
        client = await Client.connect(server.ports[0])
        await client.fail(f"resume {token}", "bad-token")
        await client.aclose()
        server.shutdown()
