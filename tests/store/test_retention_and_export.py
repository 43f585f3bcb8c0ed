"""Finished games: kept for the retention period, and exported as JSON that replays exactly."""

from __future__ import annotations

import json
import random
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
import trio
from store_helpers import open_sqlite, play_random

from hipparchusd.games.hipparchus import HipparchusGame, MatchRecord, replay
from hipparchusd.games.hipparchus.codec import converter
from hipparchusd.records import StoredSeat
from hipparchusd.store import schema
from hipparchusd.store.base import StoreError
from hipparchusd.store.export import export_games, export_main, parse_since
from hipparchusd.store.sqlite import PRUNE_INTERVAL, SqliteStore

DAY = 86400.0
#: 2026-11-01T00:00:00Z
NOV_1 = datetime(2026, 11, 1, tzinfo=UTC).timestamp()


class Clock:
    """A settable clock for the store."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def _finish_game(store: SqliteStore, game_id: str, created_at: float) -> None:
    await store.create_game(game_id, "hipparchus", {}, created_at)
    await store.finish(game_id, {"game": game_id})


async def _record(store: SqliteStore, game_id: str) -> object:
    stored = await store.load_finished(game_id)
    assert stored is not None
    return stored.snapshot


async def _finished_ids(state_dir: Path) -> list[str]:
    return [game["game_id"] for game in export_games(state_dir)["data"]]


async def test_finished_games_past_retention_are_pruned_at_start_up(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    clock = Clock(NOV_1)
    store = await open_sqlite(nursery, state_dir, retention_days=30, clock=clock)
    await store.create_game("unfinished", "hipparchus", {}, clock.now)
    for day in (0, 10, 20):
        clock.now = NOV_1 + day * DAY
        await _finish_game(store, f"day-{day}", clock.now)
    await store.aclose()

    clock.now = NOV_1 + 35 * DAY  # only day 0's game is more than 30 days old
    store = await open_sqlite(nursery, state_dir, retention_days=30, clock=clock)
    await store.aclose()
    assert await _finished_ids(state_dir) == ["day-10", "day-20"]

    clock.now = NOV_1 + 1000 * DAY  # 0 keeps them forever
    store = await open_sqlite(nursery, state_dir, retention_days=0, clock=clock)
    await store.aclose()
    assert await _finished_ids(state_dir) == ["day-10", "day-20"]

    store = await open_sqlite(nursery, state_dir, retention_days=30, clock=clock)
    [unfinished] = await store.load_unfinished()  # unfinished games are never pruned
    await store.aclose()
    assert unfinished.game_id == "unfinished"
    assert await _finished_ids(state_dir) == []


async def test_a_running_store_prunes_when_a_game_finishes_hourly(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    clock = Clock(NOV_1)
    retention = 0.01  # days: 864 seconds, less than the pruning interval
    store = await open_sqlite(nursery, state_dir, retention_days=retention, clock=clock)
    try:
        await _finish_game(store, "old", clock.now)
        clock.now = NOV_1 + 1000  # "old" is past retention, but a prune is not due yet
        await _finish_game(store, "a", clock.now)
        assert await _record(store, "old") == {"game": "old"}
        clock.now = NOV_1 + PRUNE_INTERVAL + 1  # due: "old" and "a" are past retention
        await _finish_game(store, "b", clock.now)
        assert await store.load_finished("old") is None
        assert await store.load_finished("a") is None
        assert await _record(store, "b") == {"game": "b"}
    finally:
        await store.aclose()


async def test_negative_retention_is_refused(state_dir: Path, nursery: trio.Nursery) -> None:
    with pytest.raises(ValueError, match="retention"):
        await open_sqlite(nursery, state_dir, retention_days=-1)
    assert not state_dir.exists()


async def test_export_replays_exactly_through_the_rules(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    clock = Clock(NOV_1)
    store = await open_sqlite(nursery, state_dir, clock=clock)
    games = {}
    for number, game in enumerate(
        [HipparchusGame(), HipparchusGame(seed=12), HipparchusGame(first_leader=1)]
    ):
        game_id = f"g{number}"
        await store.create_game(game_id, "hipparchus", {"n": str(number)}, clock.now)
        await store.add_seat(game_id, StoredSeat(0, "ann", b"\x01" * 32))
        await store.add_seat(game_id, StoredSeat(1, "bob", b"\x02" * 32))
        game.start()
        await store.snapshot(game_id, converter.unstructure(game.record()))
        for seat_move in play_random(game, random.Random(number), 12):
            await store.add_move(game_id, 0, seat_move)
        if number == 2 and game.outcome is None:  # (random deals: it could be over already)
            game.resign(0)
        else:
            play_random(game, random.Random(number))
        clock.now += DAY
        await store.finish(game_id, converter.unstructure(game.record()))
        games[game_id] = game
    await store.create_game("unfinished", "hipparchus", {}, clock.now)
    await store.aclose()

    exported = json.loads(json.dumps(export_games(state_dir)))  # through JSON text
    assert exported["version"] == 1 and exported["kind"] == "games"
    assert [item["game_id"] for item in exported["data"]] == ["g0", "g1", "g2"]
    first = exported["data"][0]
    assert first["kind"] == "hipparchus"
    assert first["options"] == {"n": "0"}
    assert first["created_at"] == "2026-11-01T00:00:00+00:00"
    assert first["finished_at"] == "2026-11-02T00:00:00+00:00"
    assert first["seats"] == [{"seat": 0, "name": "ann"}, {"seat": 1, "name": "bob"}]
    assert "token" not in json.dumps(exported)
    for item in exported["data"]:
        game = games[item["game_id"]]
        record = converter.structure(item["record"], MatchRecord)
        assert record == game.record()
        assert replay(record) == game.state
        assert HipparchusGame.restore(record).outcome == game.outcome

    by_id = export_games(state_dir, game_id="g1")["data"]
    assert [item["game_id"] for item in by_id] == ["g1"]
    assert export_games(state_dir, game_id="unfinished")["data"] == []
    since = export_games(state_dir, since=parse_since("2026-11-03"))["data"]
    assert [item["game_id"] for item in since] == ["g1", "g2"]
    since = export_games(state_dir, since=date(2026, 11, 4))["data"]
    assert [item["game_id"] for item in since] == ["g2"]
    since = export_games(state_dir, since=parse_since("2026-11-04T00:59:59+01:00"))["data"]
    assert [item["game_id"] for item in since] == ["g2"]


async def test_export_works_while_the_daemon_has_the_store_open(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    store = await open_sqlite(nursery, state_dir)
    try:
        await store.create_game("g", "hipparchus", {}, 1.0)
        await store.finish("g", {"r": 1})
        [item] = export_games(state_dir)["data"]
        assert item["record"] == {"r": 1}
    finally:
        await store.aclose()


def test_parse_since() -> None:
    assert parse_since("2026-11-30") == datetime(2026, 11, 30, tzinfo=UTC)
    assert parse_since("2026-11-30T18:05").hour == 18
    with pytest.raises(ValueError, match="ISO 8601"):
        parse_since("yesterday")


async def test_export_refuses_what_it_cannot_read(
    state_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, nursery: trio.Nursery
) -> None:
    with pytest.raises(StoreError, match="there is no game database"):
        export_games(tmp_path / "empty")
    store = await open_sqlite(nursery, state_dir)
    await store.aclose()
    # As the next version of the program would see this database: it must migrate it first,
    # and an export only reads.
    current = schema.latest_version()
    monkeypatch.setattr(schema, "MIGRATIONS", (*schema.MIGRATIONS, lambda conn: None))
    with pytest.raises(StoreError, match=f"schema version {current}; start hipparchusd on it"):
        export_games(state_dir)
    # And a newer database is refused.
    monkeypatch.setattr(schema, "MIGRATIONS", ())
    with pytest.raises(StoreError, match="newer than this hipparchusd"):
        export_games(state_dir)


async def test_the_export_command(
    state_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], nursery: trio.Nursery
) -> None:
    game = HipparchusGame()
    game.start()
    play_random(game, random.Random(5))
    store = await open_sqlite(nursery, state_dir)
    await store.create_game("g1", "hipparchus", {}, NOV_1)
    await store.finish("g1", converter.unstructure(game.record()))
    await store.aclose()

    assert export_main(["--state-dir", str(state_dir), "--game", "g1"]) == 0
    out = capsys.readouterr().out
    assert out.endswith("}\n") and out.count("\n") == 1
    [item] = json.loads(out)["data"]
    assert replay(converter.structure(item["record"], MatchRecord)) == game.state

    output = tmp_path / "out.json"
    assert (
        export_main(["--state-dir", str(state_dir), "--since", "2026-11-01", "-o", str(output)])
        == 0
    )
    assert json.loads(output.read_text()) == json.loads(out)

    assert export_main(["--state-dir", str(state_dir), "--game", "g2"]) == 1
    assert "no finished game g2" in capsys.readouterr().err
    assert export_main(["--state-dir", str(tmp_path / "nothing")]) == 1
    assert "there is no game database" in capsys.readouterr().err
    for bad in (["--since", "soon"], ["--state-dir", "none"], ["--bogus"]):
        with pytest.raises(SystemExit) as exit_info:
            export_main(bad)
        assert exit_info.value.code == 2
