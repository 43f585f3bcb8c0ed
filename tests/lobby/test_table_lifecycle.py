"""A table's lifecycle facts, kept by ``Table.enter()`` rather than derived on each read:
``started`` and ``finished`` follow the lifecycle state, and ``bot_seats`` (the seats the
daemon's engine plays) is known once the game starts, after a ``bot`` command or a restore from
the store alike. A stale value would show as a game that never asks for the engine's move, or
one whose requests are answered as if it had not started (or had ended)."""

from __future__ import annotations

from hipparchusd.lobby import Lobby, Table
from hipparchusd.lobby.results import BotTurn
from hipparchusd.lobby.tables import Lifecycle
from hipparchusd.records import StoredGame, StoredSeat

from .driver import Driver

# With these fixed deals the seat that leads the first trick is known (hipparchus ``seed=``).
SEAT_1_LEADS = 3
SEAT_0_LEADS = 2


def _game_with_engine_seat(seed: int) -> tuple[Driver, Table]:
    """``ann`` creates and takes seat 0 of g1; the engine (``bot``) takes the other seat."""
    d = Driver()
    d.ok("ann", f"new hipparchus seed={seed}")
    d.ok("ann", "join g1")
    table = d.lobby.tables["g1"]
    assert not table.started and table.bot_seats == frozenset()
    result = d.ok("ann", "bot g1 level=random name=engine")
    assert result.response is not None
    assert result.response.data["seat"] == 1  # type: ignore[index]
    return d, table


def test_bot_seats_are_the_engines_once_the_game_starts() -> None:
    _, table = _game_with_engine_seat(SEAT_1_LEADS)
    assert table.started
    assert table.bot_seats == frozenset({1})


def test_an_engine_seat_taken_first_is_known_once_the_last_human_joins() -> None:
    d = Driver()
    d.ok("ann", f"new hipparchus seed={SEAT_1_LEADS}")
    d.ok("ann", "bot g1 level=random")  # seat 0: the game still waits for its other seat
    table = d.lobby.tables["g1"]
    assert not table.started and table.bot_seats == frozenset()
    d.ok("bob", "join g1")
    assert table.started and table.bot_seats == frozenset({0})


def test_a_game_without_an_engine_seat_has_no_bot_seats() -> None:
    d = Driver()
    d.ok("ann", f"new hipparchus seed={SEAT_1_LEADS}")
    d.ok("ann", "join g1")
    d.ok("bob", "join g1")
    table = d.lobby.tables["g1"]
    assert table.started
    assert table.bot_seats == frozenset()
    assert d.lobby.bot_turns("g1") == []


def _stored(seed: int) -> StoredGame:
    """g1 as the store keeps it once ann (seat 0) and the engine (seat 1, level ``random``)
    took their seats: the start snapshot, no move after it."""
    _, table = _game_with_engine_seat(seed)
    seats = tuple(
        StoredSeat(number, seat.name, seat.token_digest, seat.bot)  # type: ignore[arg-type]
        for number, seat in enumerate(table.seats)
    )
    assert [seat.bot for seat in seats] == [None, "random"]
    return StoredGame(
        game_id="g1",
        kind="hipparchus",
        options={"seed": str(seed)},
        created_at=1.0,
        seats=seats,
        snapshot=table.game.record_data(),
        moves=(),
        finished=False,
    )


def test_a_restored_game_knows_its_engine_seat_and_asks_for_its_search() -> None:
    lobby = Lobby(clock=lambda: 1000.0)
    table = lobby.restore(_stored(SEAT_1_LEADS))
    assert table.started and not table.finished
    assert table.bot_seats == frozenset({1})
    assert table.game.seats_to_move() == frozenset({1})
    view = table.game.view_data(1)
    assert lobby.bot_turns("g1") == [BotTurn("g1", 1, "hipparchus", view, "random")]
    # The seat is searching now: asking again starts no second search.
    assert lobby.bot_turns("g1") == []


def test_a_restored_game_asks_no_search_while_the_human_seat_moves() -> None:
    lobby = Lobby(clock=lambda: 1000.0)
    table = lobby.restore(_stored(SEAT_0_LEADS))
    assert table.bot_seats == frozenset({1})
    assert table.game.seats_to_move() == frozenset({0})
    assert lobby.bot_turns("g1") == []


def test_started_and_finished_from_waiting_through_playing_to_over() -> None:
    d = Driver()
    d.ok("ann", f"new hipparchus seed={SEAT_1_LEADS}")
    table = d.lobby.tables["g1"]
    assert (table.lifecycle, table.started, table.finished) == (Lifecycle.WAITING, False, False)
    d.ok("ann", "join g1")
    assert (table.started, table.finished) == (False, False)
    d.fail("ann", "legal g1", "not-started")
    d.ok("bob", "join g1")
    assert (table.lifecycle, table.started, table.finished) == (Lifecycle.PLAYING, True, False)
    d.ok("bob", "legal g1")
    d.ok("ann", "resign g1")
    assert (table.lifecycle, table.started, table.finished) == (Lifecycle.OVER, True, True)
    d.fail("bob", "play g1 1S", "game-over")


def test_started_and_finished_from_playing_through_adjourned_to_playing() -> None:
    d = Driver()
    d.ok("ann", f"new hipparchus seed={SEAT_1_LEADS}")
    joined = d.ok("ann", "join g1").response
    assert joined is not None
    token = joined.data["token"]  # type: ignore[index]
    d.ok("bob", "join g1")
    table = d.lobby.tables["g1"]
    stored = StoredGame(
        game_id="g1",
        kind="hipparchus",
        options={"seed": str(SEAT_1_LEADS)},
        created_at=1.0,
        seats=tuple(
            StoredSeat(n, seat.name, seat.token_digest)  # type: ignore[arg-type]
            for n, seat in enumerate(table.seats)
        ),
        snapshot=table.game.record_data(),
        moves=(),
        finished=False,
    )
    d.lobby.adjourn("g1")
    assert (table.lifecycle, table.started, table.finished) == (Lifecycle.ADJOURNED, True, False)
    back = d.lobby.bring_back(stored)
    assert (back.lifecycle, back.started, back.finished) == (Lifecycle.PLAYING, True, False)
    d.ok("ann", f"resume {token}")
    d.ok("ann", "legal g1")  # answered as for a game in progress, not "not-started"
    # The same table object through the same steps (enter() is the only way they change).
    table.enter(Lifecycle.PLAYING)
    assert (table.started, table.finished) == (True, False)
    table.enter(Lifecycle.ADJOURNED)
    table.enter(Lifecycle.OVER)
    assert (table.started, table.finished) == (True, True)
