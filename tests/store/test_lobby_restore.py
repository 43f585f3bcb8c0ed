"""Restoring the lobby from the store at start-up (hipparchusd.server.restore_games)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from hipparchusd.games.hipparchus import HipparchusGame
from hipparchusd.games.hipparchus import game as game_module
from hipparchusd.games.hipparchus.dealing import shuffled_deal
from hipparchusd.lobby import Lobby, Result, Session, token_digest
from hipparchusd.protocol import parse_request
from hipparchusd.serialization import converter
from hipparchusd.server import restore_games
from hipparchusd.store.base import StoredSeat, StoreError
from hipparchusd.store.sqlite import SqliteStore


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
    state_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Deals "from the system's randomness" (an unfixed game) that this test can know, so the
    # game is still under way after 40 plays, past its first round.
    rng = random.Random(1)
    monkeypatch.setattr(game_module, "system_deal", lambda: shuffled_deal(rng))
    store = await SqliteStore.open(state_dir)
    original = await _started_game(store, "g7", 40, first_leader=0)
    assert original.outcome is None and original.state.round_number > 1
    await store.aclose()

    store = await SqliteStore.open(state_dir)
    lobby = Lobby()
    try:
        assert await restore_games(lobby, store) == 1
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


async def test_a_game_not_yet_started_comes_back_with_its_seats_free(state_dir: Path) -> None:
    store = await SqliteStore.open(state_dir)
    await store.create_game("g1", "hipparchus", {"seed": "3"}, 1.0)
    await store.add_seat("g1", StoredSeat(0, "ann", token_digest("t0")))
    await store.aclose()

    store = await SqliteStore.open(state_dir)
    try:
        lobby = Lobby()
        await restore_games(lobby, store)
        table = lobby.tables["g1"]
        assert not table.started and table.names == [None, None]
        assert ask(lobby, lobby.connect(), "resume t0").response.error.code == "bad-token"
        # Both seats can be taken again (the store replaces the stale seat), and it starts.
        first, second = lobby.connect(), lobby.connect()
        for session, line in ((first, "join g1 0 name=cy"), (second, "join g1 1 name=di")):
            result = ask(lobby, session, line)
            answer(result)
            for call in result.store_calls:
                await call.apply(store)
        assert table.started
        [stored] = await store.load_unfinished()
    finally:
        await store.aclose()
    assert [seat.name for seat in stored.seats] == ["cy", "di"]
    assert stored.snapshot is not None
    assert table.game.record() == HipparchusGame(seed=3).record()


async def test_a_game_its_stored_moves_ended_is_finished(state_dir: Path) -> None:
    store = await SqliteStore.open(state_dir)
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

    store = await SqliteStore.open(state_dir)
    try:
        lobby = Lobby()
        await restore_games(lobby, store)
        assert lobby.tables["g1"].finished
        assert await store.load_unfinished() == []
        stored = await store.load_finished("g1")
    finally:
        await store.aclose()
    assert stored is not None and stored.snapshot == converter.unstructure(game.record())


async def test_a_stored_game_that_does_not_replay_stops_start_up(state_dir: Path) -> None:
    store = await SqliteStore.open(state_dir)
    await _started_game(store, "g1", 3, seed=1)
    await store.add_move("g1", 0, "3S@99")
    try:
        with pytest.raises(StoreError, match="cannot restore a stored game: game g1"):
            await restore_games(Lobby(), store)
    finally:
        await store.aclose()
