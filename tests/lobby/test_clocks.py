"""Clocks in the lobby, on exact times (RULINGS T1-T6; PROTOCOL.md, "Clocks"): the time options
of ``new``, the clocks started with the game, each decision charged and stored with its move,
``to-move`` with the time left, a flag (a resignation in Hipparchus, the server's move in
planets), the lag allowance, the first-move limit, absent seats and ``claim``, ``time_left``,
the timing record, and the clocks brought back from the store. Time is what the test gives:
``Driver.now`` with each request, ``clock_due(game, now)`` for the deadlines."""

from __future__ import annotations

from typing import Any

import pytest

from hipparchusd.clocks import LAG_MS
from hipparchusd.games.base import MoveList
from hipparchusd.lobby import Lobby, Result
from hipparchusd.records import AddMove, Finish, StoredGame, StoredSeat

from .driver import Driver, store_calls

DEAL = "SMSMSMSMSMEEEE/EEESSSSMMMMEES/ME"


def started(options: str, *, at: float = 100.0) -> Driver:
    """A Hipparchus game ``g1`` with ``options`` (seat 0 leads a fixed deal), ann in seat 0 and
    bob in seat 1, started at ``at``."""
    d = Driver()
    d.now = at
    d.ok("ann", f"new hipparchus leader=0 deal={DEAL} {options}")
    d.ok("ann", "join g1 0")
    d.ok("bob", "join g1 1")
    return d


def timing_of(result: Result) -> Any:
    """The timing the move of ``result`` is stored with."""
    (move,) = [c for c in result.store_calls if isinstance(c, AddMove)]
    return move.timing


def finish_of(result: Result) -> Finish:
    (finish,) = [c for c in result.store_calls if isinstance(c, Finish)]
    return finish


def data(d: Driver, who: str, line: str) -> Any:
    response = d.ok(who, line).response
    assert response is not None and not callable(response.data)
    return response.data


def test_a_timed_game_shows_its_control_in_games_and_state() -> None:
    d = Driver()
    d.ok("ann", "new hipparchus clock=5m+3s,30s/move")
    d.ok("ann", "new hipparchus")
    games = data(d, "ann", "games")["games"]
    assert games[0]["clock"] == "5m+3s,30s/move"
    assert "clock" not in games[1]  # an untimed game's line is as it always was
    clock = data(d, "ann", "state g1")["clock"]
    assert clock == {
        "control": "5m+3s,30s/move",
        "timeout": "resign",
        "absence_ms": 60_000,
        "first_move_ms": 30_000,
        "running": [],
        "left_ms": [30_000, 30_000],
        "bank_ms": [300_000, 300_000],
        "lag_ms": [LAG_MS, LAG_MS],
    }
    assert "clock" not in data(d, "ann", "state g2")


@pytest.mark.parametrize(
    ("option", "why"),
    [
        ("clock=5", "bad clock '5'"),
        ("clock=5m,6m", "two banks"),
        ("timeout=resign", "timeout= is for timed games"),
        ("clock=1m absence=soon", "absence must be a duration or off"),
    ],
)
def test_bad_time_options_are_refused_and_change_nothing(option: str, why: str) -> None:
    d = Driver()
    result = d.fail("ann", f"new hipparchus {option}", "bad-option")
    assert result.response is not None and result.response.error is not None
    assert why in result.response.error.message
    assert d.lobby.tables == {}


def test_the_clocks_start_with_the_game_and_each_decision_is_charged() -> None:
    d = Driver()
    d.now = 100.0
    d.ok("ann", f"new hipparchus leader=0 deal={DEAL} clock=5m+3s")
    d.ok("ann", "join g1 0")
    start = d.ok("bob", "join g1 1")
    assert d.events_heard("ann", start)[-1][1:] == ("to-move", {"seats": [0], "left_ms": [300_000]})
    d.now = 112.5
    played = d.ok("ann", "play g1 1S@1")
    assert timing_of(played) == {
        "ply": 1,
        "seat": 0,
        "spent_ms": 12_500,
        "lag_ms": 0,
        "by": "player",
        "clocks": {
            "left": [300_000 - 12_500 + 3000, 300_000],
            "lag": [LAG_MS, LAG_MS],
            "decided": [True, False],
        },
    }
    assert d.events_heard("bob", played)[-1][1:] == (
        "to-move",
        {"seats": [1], "left_ms": [300_000]},
    )
    d.now = 115.0
    clock = data(d, "bob", "state g1")["clock"]
    assert clock["running"] == [1]
    assert clock["left_ms"] == [290_500, 297_500]
    d.now = 120.0
    played = d.ok("bob", "play g1 2S@4")
    assert timing_of(played)["spent_ms"] == 7500
    # Seat 1 won the trick and leads: its clock runs on from its new bank.
    assert d.events_heard("ann", played)[-1][1:] == (
        "to-move",
        {"seats": [1], "left_ms": [295_500]},
    )


def test_an_untimed_game_is_as_before() -> None:
    d = started("")
    d.now = 150.0
    played = d.ok("ann", "play g1 1S@1")
    assert timing_of(played) is None
    assert d.events_heard("bob", played)[-1][1:] == ("to-move", {"seats": [1]})
    assert d.lobby.deadline("g1") is None  # nothing is due: no clock, nobody away


def test_a_flag_in_hipparchus_loses_the_match_as_a_resignation() -> None:
    """T2: the seat out of time resigns at that moment (H12); the flag falls after its bank
    and its lag allowance (T3)."""
    d = started("clock=10s+1s", at=0.0)
    d.now = 2.0
    d.ok("ann", "play g1 1S@1")  # seat 0 has 10 - 2 + 1 = 9 s; seat 1's clock runs from 2.0
    lobby = d.lobby
    flag = 2.0 + 10.0 + LAG_MS / 1000
    # Seat 1's first decision: the first-move limit (its 10 s, no more) comes first (T5).
    assert lobby.deadline("g1") == 12.0
    d.now = 5.0
    d.ok("bob", "play g1 2S@4")  # seat 1 leads next, from 10 - 3 + 1 = 8 s
    flag = 5.0 + 8.0 + LAG_MS / 1000
    assert lobby.deadline("g1") == flag
    early = lobby.clock_due("g1", flag - 0.001)
    assert early.pending is None and not early.deliveries and not early.store_calls
    result = lobby.clock_due("g1", flag)
    finish = finish_of(result)
    assert finish.timing == {
        "control": "10s+1s",
        "decisions": [
            {"ply": 1, "seat": 0, "spent_ms": 2000, "lag_ms": 0, "by": "player"},
            {"ply": 2, "seat": 1, "spent_ms": 3000, "lag_ms": 0, "by": "player"},
            {"ply": None, "seat": 1, "spent_ms": 8000 + LAG_MS, "lag_ms": LAG_MS, "by": "timeout"},
        ],
        "timeout": 1,
    }
    result.commit()
    heard = d.events_heard("ann", result)
    assert [kind for _, kind, _ in heard] == ["match-over", "game-over"]
    assert heard[0][2]["resigned"] == 1 and heard[0][2]["winner"] == 0
    assert heard[1][2] == {"winners": [0], "scores": [0, 0], "resigned": 1, "timeout": 1}
    state = data(d, "ann", "state g1")
    assert state["status"] == "over" and state["timeout"] == 1
    assert lobby.deadline("g1") is None
    record = data(d, "ann", "record g1")
    assert record["timeout"] == 1 and record["timing"] == finish.timing


def test_a_late_decision_within_the_lag_allowance_is_taken_and_shows_its_use() -> None:
    """T3: one slow round trip does not flag."""
    d = started("clock=10s+1s first_move=off", at=0.0)
    d.now = 10.4
    played = d.ok("ann", "play g1 1S@1")
    timing = timing_of(played)
    assert (timing["spent_ms"], timing["lag_ms"]) == (10_400, 400)
    assert timing["clocks"]["left"][0] == 1000 and timing["clocks"]["lag"][0] == LAG_MS - 400


def test_a_move_past_the_flag_meets_the_flag() -> None:
    """The server's deadline came a moment before its move did: the flag falls, and the move
    is refused, changing nothing else."""
    d = started("clock=10s first_move=off", at=0.0)
    d.now = 11.5
    result = d.send("ann", "play g1 1S@1")
    assert result.response is not None and result.response.error is not None
    assert result.response.error.code == "game-over"
    assert "your time ran out" in result.response.error.message
    assert finish_of(result).timing["timeout"] == 0
    assert d.kinds_heard("bob", result) == ["match-over", "game-over"]


def test_a_seat_that_never_makes_its_first_decision_aborts_the_game() -> None:
    """T5: no result, no winner, recorded as aborted."""
    d = started("clock=5m+3s", at=50.0)
    assert d.lobby.deadline("g1") == 80.0  # 30 s, the default first-move limit
    result = d.lobby.clock_due("g1", 80.0)
    assert finish_of(result).timing == {"control": "5m+3s", "decisions": [], "aborted": True}
    result.commit()
    heard = d.events_heard("bob", result)
    assert heard == [
        (6, "game-over", {"winners": [], "scores": [], "resigned": None, "aborted": True})
    ]
    state = data(d, "bob", "state g1")
    assert state["status"] == "over" and state["aborted"] is True
    d.fail("ann", "play g1 1S@1", "game-over")


def test_no_abort_once_every_seat_has_decided_once() -> None:
    d = started("clock=5m first_move=10s", at=0.0)
    d.now = 1.0
    d.ok("ann", "play g1 1S@1")
    d.now = 2.0
    d.ok("bob", "play g1 2S@4")
    # Seat 1 leads again: only its flag is ahead, 298 s of bank and the allowance away.
    assert d.lobby.deadline("g1") == 2.0 + 299.0 + LAG_MS / 1000


def planets(options: str, *, at: float = 0.0) -> Driver:
    """A three-seat planets game ``g1`` (a fixed seed, seat 0 deals), seats 0-2 held by ann,
    bob and cat, started at ``at``."""
    d = Driver()
    d.now = at
    d.ok("ann", f"new planets players=3 seed=7 dealer=0 {options}")
    for number, who in enumerate(("ann", "bob", "cat")):
        d.ok(who, f"join g1 {number}")
    return d


def a_pass(d: Driver, seat: int) -> str:
    legal = d.lobby.tables["g1"].game.legal(seat)
    assert not isinstance(legal, MoveList)
    return ",".join(legal.items[: legal.count])


def test_a_flag_in_planets_has_the_server_play_for_the_seat_and_the_game_goes_on() -> None:
    """T2: the engine's heuristic move, recorded as a timeout; then only the increment."""
    d = planets("clock=20s+2s first_move=off")
    for seat, who in ((0, "ann"), (1, "bob")):
        d.now = 3.0
        d.ok(who, f"play g1 {a_pass(d, seat)}")
    lobby = d.lobby
    flag = 0.0 + 20.0 + LAG_MS / 1000
    assert lobby.deadline("g1") == flag
    result = lobby.clock_due("g1", flag)
    timing = timing_of(result)
    assert {k: timing[k] for k in ("ply", "seat", "spent_ms", "lag_ms", "by")} == {
        "ply": 3, "seat": 2, "spent_ms": 20_000 + LAG_MS, "lag_ms": LAG_MS, "by": "timeout",
    }  # fmt: skip
    assert timing["clocks"]["left"] == [17_000 + 2000, 17_000 + 2000, 0 + 2000]
    assert timing["clocks"]["lag"][2] == 0
    result.commit()
    assert d.kinds_heard("cat", result)[:2] == ["passed", "received"]
    game = lobby.tables["g1"].game
    assert game.outcome is None and lobby.tables["g1"].status == "playing"
    view = game.view_data(2)
    assert isinstance(view, dict) and view["phase"] == "play"  # every seat has passed
    # The seat whose time ran out still plays, with the increment for each decision.
    assert lobby.tables["g1"].clocks is not None
    assert lobby.tables["g1"].clocks.allowed(2) == 2000


def test_timeout_autoplay_makes_a_hipparchus_flag_play_on() -> None:
    d = started("clock=10s timeout=autoplay first_move=off", at=0.0)
    result = d.lobby.clock_due("g1", 11.0)
    timing = timing_of(result)
    assert timing["by"] == "timeout" and timing["seat"] == 0
    result.commit()
    assert d.lobby.tables["g1"].game.outcome is None
    assert d.kinds_heard("bob", result)[-1] == "to-move"


def test_an_absent_seat_is_announced_and_its_opponent_may_claim() -> None:
    """T4 (Hipparchus, untimed too): after the absence grace the opponent may claim."""
    d = started("absence=10s", at=0.0)
    d.now = 5.0
    gone = d.lobby.disconnect(d["bob"], 5.0)
    assert d.kinds_heard("ann", gone) == ["disconnected"]
    assert data(d, "ann", "state g1")["presence"] == ["here", "away"]
    d.now = 14.0
    refused = d.fail("ann", "claim g1", "illegal-move")
    assert refused.response is not None and refused.response.error is not None
    assert "away for 9 seconds; a claim needs 10 seconds" in refused.response.error.message
    assert d.lobby.deadline("g1") == 15.0
    result = d.lobby.clock_due("g1", 15.0)
    assert not result.store_calls  # presence is not stored
    result.commit()
    assert d.events_heard("ann", result)[0][1:] == ("absent", {"seat": 1})
    assert data(d, "ann", "state g1")["presence"] == ["here", "absent"]
    assert d.lobby.deadline("g1") is None  # nothing else happens by itself
    d.now = 20.0
    claimed = d.ok("ann", "claim g1")
    assert claimed.response is not None and claimed.response.data == {"game": "g1", "resigned": 1}
    heard = d.events_heard("ann", claimed)
    assert heard[-1][1:] == (
        "game-over",
        {"winners": [0], "scores": [0, 0], "resigned": 1, "claimed": True},
    )
    assert finish_of(claimed).timing == {"control": None, "decisions": [], "claimed": True}


def test_a_seat_that_comes_back_is_no_longer_absent() -> None:
    d = Driver()
    d.ok("ann", f"new hipparchus leader=0 deal={DEAL} absence=10s")
    d.ok("ann", "join g1 0")
    token = data(d, "bob", "join g1 1")["token"]
    d.lobby.disconnect(d["bob"], 1.0)
    d.lobby.clock_due("g1", 11.0).commit()
    assert d.lobby.tables["g1"].seats[1].absent
    d.now = 12.0
    resumed = d.ok("bea", f"resume {token}")
    assert d.kinds_heard("ann", resumed) == ["resumed"]
    assert data(d, "ann", "state g1")["presence"] == ["here", "here"]
    d.fail("ann", "claim g1", "illegal-move")
    assert d.lobby.deadline("g1") is None


def test_claims_are_refused_where_the_rules_do_not_allow_them() -> None:
    d = started("absence=off", at=0.0)
    d.lobby.disconnect(d["bob"], 1.0)
    assert d.lobby.deadline("g1") is None
    d.now = 1e6
    d.fail("ann", "claim g1", "illegal-move")
    d = started("", at=0.0)
    d.fail("ann", "claim g1", "illegal-move")  # nobody is away
    d.fail("carl", "claim g1", "not-seated")
    p = planets("absence=10s")
    p.lobby.disconnect(p["cat"], 0.0)
    p.now = 100.0
    p.fail("ann", "claim g1", "illegal-move")  # planets: the engine plays for an absent seat


def test_the_engine_plays_for_an_absent_planets_seat_until_it_comes_back() -> None:
    """T4: once absent, whenever it must move, so that the others can finish."""
    d = planets("absence=10s")
    lobby = d.lobby
    lobby.disconnect(d["cat"], 2.0)
    d.now = 3.0
    d.ok("ann", f"play g1 {a_pass(d, 0)}")
    assert lobby.deadline("g1") == 12.0
    lobby.clock_due("g1", 12.0).commit()  # absent
    assert lobby.deadline("g1") == 12.0  # at once: it must pass
    result = lobby.clock_due("g1", 12.0)
    assert timing_of(result) == {"ply": 2, "seat": 2, "by": "absent"}
    result.commit()
    assert 2 not in lobby.tables["g1"].game.seats_to_move()
    record_decisions = lobby.tables["g1"].decisions
    assert record_decisions == [{"ply": 2, "seat": 2, "by": "absent"}]


def test_the_engine_does_not_play_out_a_game_nobody_is_left_in() -> None:
    d = planets("absence=10s")
    for who in ("ann", "bob", "cat"):
        d.lobby.disconnect(d[who], 0.0)
    for _ in range(3):
        d.lobby.clock_due("g1", 10.0).commit()  # each seat's absent event
    assert d.lobby.deadline("g1") is None


def test_time_left_answers_every_seats_clock() -> None:
    d = started("clock=1m+1s", at=10.0)
    d.now = 13.25
    assert data(d, "bob", "time_left g1") == {
        "game": "g1",
        "control": "1m+1s",
        "running": [0],
        "left_ms": [56_750, 60_000],
        "bank_ms": [60_000, 60_000],
        "lag_ms": [LAG_MS, LAG_MS],
    }
    d.ok("carl", "new hipparchus")
    assert data(d, "carl", "time_left g2") == {
        "game": "g2",
        "control": None,
        "running": [],
        "left_ms": [],
        "bank_ms": [],
        "lag_ms": [],
    }


def test_the_clocks_come_back_where_the_last_stored_move_left_them() -> None:
    """T6: nothing is charged for the time the game was not loaded; the seats to move run again
    from when it is loaded."""
    d = started("clock=5m+3s", at=100.0)
    d.now = 112.5
    first = d.ok("ann", "play g1 1S@1")
    table = d.lobby.tables["g1"]
    stored = StoredGame(
        game_id="g1",
        kind="hipparchus",
        options=dict(table.options),
        created_at=table.created_at,
        seats=tuple(
            StoredSeat(n, seat.name or "", seat.token_digest or b"")
            for n, seat in enumerate(table.seats)
        ),
        snapshot=store_calls(first)[0][1][3] or d.lobby.tables["g1"].game.record_data(),
        moves=(),
        finished=False,
        move_timing=(timing_of(first),),
    )
    later = Lobby(clock=lambda: 1000.0)
    back = later.restore(stored, 5000.0)
    assert back.clocks is not None
    assert back.clocks.view(5001.0)["left_ms"] == [290_500, 299_000]
    assert back.clocks.running() == (1,)
    assert back.plies == 1 and back.decisions[0]["spent_ms"] == 12_500
    assert back.presence() == ["away", "away"]
    # Seat 1 has not decided yet: its first-move limit counts from the restore too, before
    # the absence grace of either seat, away from then.
    assert later.deadline("g1") == 5000.0 + 30.0


def test_the_engines_seats_search_within_their_share_of_the_clock() -> None:
    d = Driver()
    d.now = 7.0
    d.ok("ann", f"new hipparchus leader=0 deal={DEAL} clock=10s+0.1s")
    d.ok("ann", "bot g1 0 level=ismcts:5000ms")
    result = d.ok("ann", "bot g1 1")
    (turn,) = result.engine
    # 14 decisions at most this round: (10000 - 50) // 14 + 75 ms, the whole decision (its
    # wait for a worker too) within that share.
    assert (turn.level, turn.until) == ("ismcts:785ms", 7.785)  # type: ignore[union-attr]


def test_no_deadline_while_the_server_stops() -> None:
    d = started("clock=10s", at=0.0)
    d.lobby.begin_shutdown(5.0)
    assert d.lobby.deadline("g1") is None
    assert not d.lobby.clock_due("g1", 100.0).store_calls
