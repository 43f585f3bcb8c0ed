"""The lobby's operator part (issue 26), pure: an operator's end changes nothing until it is
committed (the store has recorded it), then tells every follower; maintenance refuses new
games only; the overview names no card."""

from __future__ import annotations

import json

import pytest

from hipparchusd.games.base import Outcome
from hipparchusd.protocol import ErrorCode, ProtocolError
from hipparchusd.records import EndGame

from .driver import Driver, call_names, observable


def started(driver: Driver) -> str:
    game = driver.ok("ann", "new hipparchus seed=4").response.data["game"]  # type: ignore[union-attr,index]
    driver.ok("ann", f"join {game} name=ann")
    driver.ok("bea", f"join {game} name=bea")
    driver.ok("cy", f"watch {game}")
    return str(game)


def test_an_operators_end_changes_nothing_until_it_is_committed() -> None:
    driver = Driver()
    game = started(driver)
    before = observable(driver.lobby)
    result = driver.lobby.end_by_operator(game, "reported")
    assert call_names(result) == ["end_game"]
    assert result.store_calls[0].reason == "reported"  # type: ignore[union-attr]
    assert observable(driver.lobby) == before and not result.deliveries
    result.commit()
    table = driver.lobby.tables[game]
    assert table.status == "over" and table.outcome == Outcome.operator_end()
    for who in ("ann", "bea", "cy"):
        (event,) = driver.events_heard(who, result)
        assert event[1:] == (
            "game-over",
            {"winners": [], "scores": [], "resigned": None, "operator": True},
        )
    driver.fail("ann", f"play {game} 1S@1", "game-over")
    with pytest.raises(ProtocolError) as caught:
        driver.lobby.end_by_operator(game, "")
    assert caught.value.code is ErrorCode.GAME_OVER


def test_a_waiting_or_unknown_game_cannot_be_ended() -> None:
    driver = Driver()
    waiting = driver.ok("ann", "new hipparchus").response.data["game"]  # type: ignore[union-attr,index]
    for game, code in ((waiting, ErrorCode.NOT_STARTED), ("g99", ErrorCode.UNKNOWN_GAME)):
        with pytest.raises(ProtocolError) as caught:
            driver.lobby.end_by_operator(str(game), "")
        assert caught.value.code is code


def test_maintenance_refuses_new_games_and_nothing_else() -> None:
    driver = Driver()
    game = started(driver)
    driver.lobby.set_maintenance("back soon")
    refused = driver.fail("dan", "new hipparchus", "maintenance")
    assert refused.response.error.message == "back soon"  # type: ignore[union-attr]
    (seat,) = driver.lobby.tables[game].game.seats_to_move()
    mover = ("ann", "bea")[seat]
    table = driver.lobby.tables[game]
    move = table.game.format_move(table.game.legal_moves(seat)[0])
    driver.ok(mover, f"play {game} {move}")
    driver.lobby.set_maintenance(None)
    driver.ok("dan", "new hipparchus")


def test_the_overview_names_no_card_and_show_every_hand() -> None:
    driver = Driver()
    game = started(driver)
    table = driver.lobby.tables[game]
    (listed,) = driver.lobby.overview()
    assert listed["spectators"] == 1 and listed["status"] == "playing"
    assert [seat["presence"] for seat in listed["seats"]] == ["here", "here"]  # type: ignore[index,union-attr]
    hands = [json.dumps(table.game.view_data(seat)) for seat in (0, 1)]
    shown = driver.lobby.show(game)
    assert [json.dumps(view) for view in shown["views"]] == hands  # type: ignore[union-attr]
    assert shown["record"] == table.game.record_data()
    assert "views" not in listed and "record" not in listed


def test_an_operators_end_of_a_timed_game_keeps_its_timing_and_stops_its_clocks() -> None:
    """A timed game the operator ends (issue 26 on issue 27's clocks): its timing record is
    stored with the end, as a finished game's is, its clocks stop, and no deadline is left."""
    driver = Driver()
    driver.now = 0.0
    # The fixed deal of the clocks' tests (tests/lobby/test_clocks.py), whose seat 0 leads 1S.
    deal = "SMSMSMSMSMEEEE/EEESSSSMMMMEES/ME"
    new = driver.ok("ann", f"new hipparchus leader=0 deal={deal} clock=1m+1s")
    game = new.response.data["game"]  # type: ignore[union-attr,index]
    driver.ok("ann", f"join {game} 0")
    driver.ok("bea", f"join {game} 1")
    driver.now = 2.0
    driver.ok("ann", f"play {game} 1S@1")
    lobby = driver.lobby
    assert lobby.deadline(str(game)) is not None  # seat 1's clock runs
    result = lobby.end_by_operator(str(game), "server move")
    (end,) = result.store_calls
    assert isinstance(end, EndGame)
    assert end.timing == {
        "control": "1m+1s",
        "decisions": [{"ply": 1, "seat": 0, "spent_ms": 2000, "lag_ms": 0, "by": "player"}],
    }
    result.commit()
    table = lobby.tables[str(game)]
    assert table.clocks is not None and table.clocks.running() == ()
    assert lobby.deadline(str(game)) is None
    state = driver.ok("ann", f"state {game}").response.data  # type: ignore[union-attr]
    assert state["operator"] is True and state["status"] == "over"  # type: ignore[index,call-overload]
