"""Scoring and the end (RULINGS P7, P8, P9, P13, P14, P16)."""

from __future__ import annotations

import pytest
from planets_positions import game_in_position, position

from hipparchusd.games.base import EVERYONE, GameFinished, IllegalMove, NotYourTurn, Outcome
from hipparchusd.games.planets import Card, Shoot
from hipparchusd.games.planets.codec import CODEC, load_payload
from hipparchusd.games.planets.game import PlanetsGame
from hipparchusd.games.planets.views import HandOver, HandStarted, ShootPending

# A last trick of three seats: seat 0 leads J2 and wins it (J2 over J1; Earth cannot win a
# Jupiter lead), taking its 2 points.
LAST = ["J2", "J1", "E1"]


def finish(totals: tuple[int, ...], taken: tuple[int, ...], *, exact100: bool = False):  # type: ignore[no-untyped-def]
    played = game_in_position(
        position(LAST, 0, taken=taken, broken=True), totals, exact100=exact100
    )
    events = played.play(0, Card.J2) + played.play(1, Card.J1) + played.play(2, Card.E1)
    return played, events


def test_p7_points_taken_are_added_to_the_totals() -> None:
    played, events = finish((10, 20, 30), (10, 5, 6))
    over = [e.payload for e in events if isinstance(e.payload, HandOver)]
    assert over == [HandOver(1, (12, 5, 6), None, None, (12, 5, 6), (22, 25, 36))]
    assert sum(over[0].points) == 23
    assert played.state.totals == (22, 25, 36)
    assert any(isinstance(e.payload, HandStarted) for e in events)  # the next hand is dealt
    assert played.outcome is None and played.state.hand_number == 2


def test_p8_taking_every_point_card_makes_the_shooter_choose() -> None:
    played, events = finish((10, 20, 30), (21, 0, 0))
    assert (events[-1].audience, events[-1].payload) == (EVERYONE, ShootPending(0))
    assert played.seats_to_move() == frozenset({0})
    assert played.legal_moves(0) == (Shoot.SELF, Shoot.OTHERS)
    assert played.legal_moves(1) == ()
    assert played.view(2).shoot_pending == 0
    with pytest.raises(NotYourTurn):
        played.play_word(1, "self")
    with pytest.raises(IllegalMove, match="choose self or others"):
        played.play_word(0, "E1")
    assert played.state.totals == (10, 20, 30)  # nothing is added before the choice


def test_p13_choosing_self_takes_23_off_and_gives_nobody_anything() -> None:
    played, _ = finish((10, 20, 30), (21, 0, 0))
    word, events = played.play_word(0, "SELF")
    assert word == "self"
    over = events[0].payload
    assert over == HandOver(1, (23, 0, 0), 0, Shoot.SELF, (-23, 0, 0), (-13, 20, 30))
    assert played.state.totals == (-13, 20, 30)  # totals may go below zero
    data = CODEC.dump_payload(over)
    assert data == {
        "kind": "hand-over", "hand_number": 1, "points": [23, 0, 0], "shooter": 0,
        "choice": "self", "added": [-23, 0, 0], "totals": [-13, 20, 30],
    }  # fmt: skip
    assert load_payload(data) == over


def test_p13_choosing_others_adds_23_to_every_opponent() -> None:
    played, events = finish((10, 20, 30), (21, 0, 0))
    events = played.play(0, Shoot.OTHERS)
    over = events[0].payload
    assert over == HandOver(1, (23, 0, 0), 0, Shoot.OTHERS, (0, 23, 23), (10, 43, 53))


def test_p14_exactly_100_stays_100_without_the_option_and_the_game_goes_on() -> None:
    played, _ = finish((88, 50, 40), (10, 5, 6))
    assert played.state.totals == (100, 55, 46)
    assert played.outcome is None  # 100 does not exceed 100 (P9)


def test_p14_exactly_100_drops_to_0_with_exact100_reset() -> None:
    played, _ = finish((88, 50, 40), (10, 5, 6), exact100=True)
    assert played.state.totals == (0, 55, 46)
    assert played.outcome is None


def test_p14_the_reset_comes_after_the_shooting_choice() -> None:
    played, _ = finish((50, 77, 10), (21, 0, 0), exact100=True)
    events = played.play(0, Shoot.OTHERS)
    assert events[0].payload.totals == (50, 0, 33)
    played, _ = finish((50, 77, 10), (21, 0, 0))
    played.play(0, Shoot.OTHERS)
    assert played.state.totals == (50, 100, 33)


def test_p9_the_game_ends_when_a_total_exceeds_100_and_the_lowest_wins() -> None:
    played, events = finish((95, 50, 40), (10, 5, 6))
    assert played.state.totals == (107, 55, 46)
    assert played.outcome == Outcome((2,), (107, 55, 46))
    assert not any(isinstance(e.payload, HandStarted) for e in events)
    assert played.seats_to_move() == frozenset()
    assert played.view(None).winners == (2,)
    with pytest.raises(GameFinished):
        played.play(0, Card.E1)


def test_p9_equal_lowest_totals_share_the_win() -> None:
    played, _ = finish((95, 50, 51), (10, 6, 5))
    assert played.state.totals == (107, 56, 56)
    assert played.outcome == Outcome((1, 2), (107, 56, 56))


def test_p9_p14_a_total_reset_to_0_can_win() -> None:
    played, _ = finish((88, 99, 98), (10, 5, 6), exact100=True)
    assert played.state.totals == (0, 104, 104)
    assert played.outcome == Outcome((0,), (0, 104, 104))


def test_p16_a_resigning_seat_ends_the_game_and_is_ranked_last() -> None:
    played = game_in_position(position(LAST, 0, broken=True), (5, 40, 30))
    assert played.resign(0) == []
    # Seat 0 had the lowest total but resigned: of the others, the lowest wins.
    assert played.outcome == Outcome((2,), (5, 40, 30), 0)
    assert played.seats_to_move() == frozenset()
    view = played.view(1)
    assert view.resigned == 0 and view.winners == (2,) and view.to_move == ()
    with pytest.raises(GameFinished):
        played.resign(1)
    with pytest.raises(GameFinished):
        played.play(0, Card.J2)


def test_p16_a_resigned_game_is_over_in_every_view_and_keeps_the_trick_it_interrupted() -> None:
    """protocol/games/planets.md, "Views": a game ended by a resignation shows phase ``over``
    (as any finished game), not the hand's own phase; the trick in progress stays on view."""
    played = game_in_position(position(LAST, 0, broken=True), (5, 40, 30))
    played.play(0, Card.J2)
    played.resign(1)
    for seat in (0, 1, 2, None):
        view = played.view(seat)
        assert view.phase.value == "over" and view.to_move == ()
        assert view.trick is not None
        assert (view.trick.leader, view.trick.cards) == (0, (Card.J2,))
    assert CODEC.unstructure(played.view(None))["phase"] == "over"


def test_p16_a_game_resigned_during_the_pass_is_over_with_no_trick() -> None:
    played = PlanetsGame(players=3, seed=5)
    played.start()
    assert played.view(0).phase.value == "pass"
    played.resign(2)
    view = played.view(0)
    assert view.phase.value == "over" and view.trick is None and view.to_move == ()
    assert view.resigned == 2


def test_p16_other_seats_with_equal_lowest_totals_share_the_win() -> None:
    played = game_in_position(position(LAST, 0, broken=True), (5, 30, 30))
    played.resign(0)
    assert played.outcome == Outcome((1, 2), (5, 30, 30), 0)
    record = played.record()
    assert record.resigned == 0 and record.winners == (1, 2)


def test_resign_by_a_seat_that_is_not_at_the_table() -> None:
    played = game_in_position(position(LAST, 0, broken=True), (5, 30, 30))
    with pytest.raises(IllegalMove, match="no seat 3"):
        played.resign(3)
    assert played.outcome is None
