"""Restoring the daemon's games from the SQLite store at start-up (``Server.restore``), and
what the restore stores back."""

from __future__ import annotations

import logging
import random
from pathlib import Path
from typing import Any

import pytest
import trio
from store_helpers import open_sqlite

from hipparchusd.games.hipparchus import HipparchusGame
from hipparchusd.games.hipparchus import game as game_module
from hipparchusd.games.hipparchus.codec import converter
from hipparchusd.games.hipparchus.dealing import shuffled_deal
from hipparchusd.lobby import Lobby, Result, Session, token_digest
from hipparchusd.protocol import parse_request
from hipparchusd.records import StoredSeat
from hipparchusd.server import Server
from hipparchusd.server.storage import execute
from hipparchusd.settings import Settings
from hipparchusd.store.sqlite import SqliteStore


async def restore(store: SqliteStore) -> Lobby:
    """A lobby with the store's games restored: as the daemon does at start-up (games not
    started), then as a seat's ``resume`` does for each started one, which start-up leaves
    adjourned (issue 16 item 3), logging one that cannot be restored as the daemon does."""
    server = Server(Settings(port=0), store, Lobby())
    await server.restore()
    for stored in await store.load_unfinished(started=True):
        try:
            await server.pipeline.load(stored)
        except ValueError as error:
            logging.getLogger("hipparchusd.server").error(
                "cannot restore game %s: %s", stored.game_id, error
            )
    return server.lobby


def ask(lobby: Lobby, session: Session, line: str) -> Result:
    request = parse_request(line)
    assert request is not None
    return lobby.handle(session, request)


def answer(result: Result) -> Any:
    assert result.response is not None and result.response.error is None, result.response
    return result.response.data


async def _started_game(store: SqliteStore, game_id: str, plays: int, **kwargs: Any) -> Any:
    """A game stored as the daemon stores it: created, two seats, a snapshot at the start,
    then ``plays`` random moves; returns the game."""
    game = HipparchusGame(**kwargs)
    options = {"seed": str(kwargs["seed"])} if "seed" in kwargs else {}
    await store.create_game(game_id, "hipparchus", options, 1.0)
    for seat, name in enumerate(("ann", "bob")):
        await store.add_seat(game_id, StoredSeat(seat, name, token_digest(f"{game_id}-{seat}")))
    game.start()
    await store.snapshot(game_id, converter.unstructure(game.record()))
    rng = random.Random(plays)
    for _ in range(plays):
        (seat,) = game.seats_to_move()
        play = rng.choice(game.legal_moves(seat))
        events = game.play(seat, play)
        await store.add_move(game_id, seat, game.format_move(play))
        if any(type(event.payload).kind == "round-started" for event in events):
            await store.snapshot(game_id, converter.unstructure(game.record()))
    return game


async def test_started_games_come_back_and_seats_resume_by_token(
    state_dir: Path, monkeypatch: pytest.MonkeyPatch, nursery: trio.Nursery
) -> None:
    # Deals "from the system's randomness" (an unfixed game) that this test can know, so the
    # game is still under way after 40 plays, past its first round.
    rng = random.Random(1)
    monkeypatch.setattr(game_module, "system_deal", lambda: shuffled_deal(rng))
    store = await open_sqlite(nursery, state_dir)
    original = await _started_game(store, "g7", 40, first_leader=0)
    assert original.outcome is None and original.state.round_number > 1
    await store.aclose()

    store = await open_sqlite(nursery, state_dir)
    try:
        lobby = await restore(store)
        assert list(lobby.tables) == ["g7"]
        [stored] = await store.load_unfinished()
    finally:
        await store.aclose()
    assert lobby.tables["g7"].game.record() == original.record()
    assert lobby.tables["g7"].game.fixed_deal is False
    # The restore stored a fresh snapshot: it covers every move so far.
    assert stored.moves == ()

    session = lobby.connect()
    state = answer(ask(lobby, session, "resume g7-1"))
    assert state["game"] == "g7" and state["status"] == "playing"
    assert state["view"] == converter.unstructure(original.view(1))
    assert ask(lobby, lobby.connect(), "resume wrong-token").response.error.code == "bad-token"
    # New games are numbered after the stored ones.
    assert answer(ask(lobby, lobby.connect(), "new hipparchus"))["game"] == "g8"


async def test_a_game_not_yet_started_keeps_its_seat_and_starts_when_full(
    state_dir: Path,
    nursery: trio.Nursery,
) -> None:
    store = await open_sqlite(nursery, state_dir)
    await store.create_game("g1", "hipparchus", {"seed": "3"}, 1.0)
    await store.add_seat("g1", StoredSeat(0, "ann", token_digest("t0")))
    await store.aclose()

    store = await open_sqlite(nursery, state_dir)
    try:
        lobby = await restore(store)
        table = lobby.tables["g1"]
        assert not table.started and table.names == ["ann", None]
        answer(ask(lobby, lobby.connect(), "resume t0"))
        result = ask(lobby, lobby.connect(), "join g1 1 name=di")
        answer(result)
        for call in result.store_calls:
            await execute(store, call)
        assert table.started
        [stored] = await store.load_unfinished()
    finally:
        await store.aclose()
    assert [seat.name for seat in stored.seats] == ["ann", "di"]
    assert stored.snapshot == converter.unstructure(HipparchusGame(seed=3).record())


async def test_new_games_are_numbered_after_every_stored_one(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    store = await open_sqlite(nursery, state_dir)
    await store.create_game("g4", "hipparchus", {}, 1.0)
    await store.create_game("g5", "hipparchus", {}, 1.0)
    await store.finish("g5", {"first_leader": 0})
    try:
        lobby = await restore(store)
    finally:
        await store.aclose()
    assert list(lobby.tables) == ["g4"]
    assert answer(ask(lobby, lobby.connect(), "new hipparchus"))["game"] == "g6"


async def test_a_game_its_stored_moves_ended_is_finished(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    store = await open_sqlite(nursery, state_dir)
    game = HipparchusGame(seed=8)
    await store.create_game("g1", "hipparchus", {"seed": "8"}, 1.0)
    game.start()
    await store.snapshot("g1", converter.unstructure(game.record()))
    rng = random.Random(8)
    while game.outcome is None:  # the crash came after the last move, before finish
        (seat,) = game.seats_to_move()
        play = rng.choice(game.legal_moves(seat))
        game.play(seat, play)
        await store.add_move("g1", seat, game.format_move(play))
    await store.aclose()

    store = await open_sqlite(nursery, state_dir)
    try:
        lobby = await restore(store)
        assert lobby.tables["g1"].finished
        assert await store.load_unfinished() == []
        stored = await store.load_finished("g1")
    finally:
        await store.aclose()
    assert stored is not None and stored.snapshot == converter.unstructure(game.record())


async def test_a_stored_game_that_does_not_replay_is_left_out_and_kept(
    state_dir: Path, caplog: pytest.LogCaptureFixture, nursery: trio.Nursery
) -> None:
    store = await open_sqlite(nursery, state_dir)
    await _started_game(store, "g1", 3, seed=1)
    await store.add_move("g1", 0, "3S@99")
    await _started_game(store, "g2", 3, seed=2)
    try:
        lobby = await restore(store)
        assert list(lobby.tables) == ["g2"]
        assert "cannot restore game g1: game g1:" in caplog.text
        [kept, _] = await store.load_unfinished()
    finally:
        await store.aclose()
    assert kept.game_id == "g1" and kept.moves[-1] == (0, "3S@99")
