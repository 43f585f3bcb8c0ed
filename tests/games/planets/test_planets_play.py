"""The play (RULINGS P5, P6, P10, P11): Venus 1 leads, follow suit, the highest card of the led
suit wins (a Galaxy above the Sun), the Jupiter lead restriction, its exception and its
breaking rule, point cards on the first trick."""

from __future__ import annotations

import pytest
from planets_positions import cards, game, position

from hipparchusd.games.base import EVERYONE, IllegalMove, NotYourTurn
from hipparchusd.games.planets import Card, IllegalPlay, Pass, format_hand
from hipparchusd.games.planets.views import Played, TrickTaken


def names(found: tuple[Card, ...]) -> str:
    return format_hand(found)


def play_all(state, *played: str):  # type: ignore[no-untyped-def]
    for text in played:
        state = state.play(cards(text)[0])
    return state


def test_p5_venus_1_leads_the_first_trick() -> None:
    state = position(["E1,V1,J2", "E2,E3,V2", "M7,S1,S2"], 0, first=True)
    assert state.to_move == (0,)
    assert names(state.legal_cards()) == "V1"
    with pytest.raises(IllegalPlay, match="V1 leads the first trick"):
        state.play(Card.E1)


def test_p5_followers_must_follow_the_led_suit() -> None:
    state = position(["E1,V1,J2", "E2,E3,V2", "M7,S1,S2"], 0, first=True).play(Card.V1)
    assert state.to_move == (1,)
    assert names(state.legal_cards()) == "V2"
    with pytest.raises(IllegalPlay, match="you must follow Venus"):
        state.play(Card.E2)
    with pytest.raises(IllegalPlay, match="you do not hold V3"):
        state.play(Card.V3)


def test_p5_p10_a_seat_that_cannot_follow_plays_any_card_points_on_the_first_trick() -> None:
    state = position(["E1,V1,J2", "E2,E3,V2", "M7,S1,S2"], 0, first=True)
    state = play_all(state, "V1", "V2")
    assert names(state.legal_cards()) == "M7,S1,S2"  # any card, Mars 7 included (P10)
    state = state.play(Card.M7)
    (trick,) = state.tricks
    # Highest Venus wins; the Mars 7 (7 points) goes to the winner.
    assert (trick.winner, trick.points, trick.cards) == (1, 7, cards("V1,V2,M7"))
    assert state.taken == (0, 7, 0) and state.to_move == (1,)


def test_p5_highest_of_led_suit_wins_and_leads_next() -> None:
    state = position(["E1,E2", "VS,J3", "E3,N1"], 0)
    state = play_all(state, "E1", "VS", "E3")
    trick = state.tricks[-1]
    assert trick.winner == 2 and state.to_move == (2,) and state.leader == 2


def test_p1_the_galaxy_ranks_above_the_sun() -> None:
    state = position(["VS,E1", "VG,E2", "V7,E3", "VM,E4"], 0)
    state = play_all(state, "VS", "VG", "V7", "VM")
    assert state.tricks[-1].winner == 1


def test_p6_jupiter_may_not_be_led_before_it_is_broken() -> None:
    state = position(["J1,J2,E5", "E1,J3,E2", "E3,E4,J4"], 0)
    assert names(state.legal_cards()) == "E5"
    with pytest.raises(IllegalPlay, match="Jupiter is not broken: lead another suit"):
        state.play(Card.J1)


def test_p6_exception_a_leader_with_only_jupiter_may_lead_it() -> None:
    state = position(["J1,J2,J5", "E1,J3,E2", "E3,E4,J4"], 0)
    assert names(state.legal_cards()) == "J1,J2,J5"
    state = play_all(state, "J2", "J3", "J4")
    assert state.broken and state.tricks[-1].winner == 2
    # Led under the exception, Jupiter is now broken for later leads (P11).
    assert names(state.legal_cards()) == "E3,E4"  # seat 2 holds no Jupiter any more
    assert state.tricks[-1].points == 3


def test_p11_a_discarded_jupiter_breaks_jupiter_from_the_next_trick() -> None:
    state = position(["E1,J1,J2", "E2,J3,N1", "V2,J4,J5"], 0)
    state = play_all(state, "E1", "E2", "J4")  # seat 2 cannot follow Earth: discards J4
    assert state.broken and state.tricks[-1].winner == 1
    assert names(state.legal_cards()) == "J3,N1"  # seat 1 may now lead Jupiter
    state = state.play(Card.J3)
    assert state.to_move == (2,) and names(state.legal_cards()) == "J5"


def test_p11_mars_7_and_neptune_7_do_not_break_jupiter() -> None:
    state = position(["E1,J1,E5", "E2,J3,N1", "M7,N7,J5"], 0)
    state = play_all(state, "E1", "E2", "M7")
    assert not state.broken and state.tricks[-1].points == 7
    assert state.to_move == (1,)
    assert names(state.legal_cards()) == "N1"
    with pytest.raises(IllegalPlay, match="Jupiter is not broken"):
        state.play(Card.J3)


def test_p11_the_jupiter_galaxy_breaks_jupiter_and_scores_nothing() -> None:
    state = position(["E1,J1", "E2,J2", "E3,J3", "E4,J4", "E5,J5", "JG,J6"], 0)
    state = play_all(state, "E1", "E2", "E3", "E4", "E5", "JG")
    trick = state.tricks[-1]
    assert state.broken and trick.points == 0 and trick.winner == 4
    assert names(state.legal_cards()) == "J5"  # seat 4 leads Jupiter now


def test_p6_p11_the_jupiter_galaxy_is_a_jupiter_card_for_the_lead() -> None:
    state = position(["JG,E1", "E2,E3", "E4,E5", "E6,E7", "EM,ES", "V1,V2"], 0)
    assert names(state.legal_cards()) == "E1"
    only_galaxy = position(["JG,JS", "E2,E3", "E4,E5", "E6,E7", "EM,ES", "V1,V2"], 0)
    assert names(only_galaxy.legal_cards()) == "JS,JG"


def test_p7_each_jupiter_one_point_mars_and_neptune_7_seven() -> None:
    state = position(["E1,J1", "E2,JS", "N7,V3", "M7,V4"], 0)
    state = play_all(state, "E1", "E2", "N7", "M7")
    assert state.tricks[-1].points == 14 and state.tricks[-1].winner == 1


def test_a_played_card_is_a_public_event_and_a_trick_names_its_winner() -> None:
    played = game(3, "V1,E1,E2,E3,E4", "V2,J1,J2,J3,J4", "V3,M1,M2,M3,M4")
    for seat, text in enumerate(("E1,E2,E3,E4", "J1,J2,J3,J4", "M1,M2,M3,M4")):
        played.play(seat, Pass(cards(text)))
    assert played.seats_to_move() == frozenset({0})
    with pytest.raises(NotYourTurn):
        played.play(1, Card.V2)
    events = played.play(0, Card.V1)
    assert [(e.audience, e.payload) for e in events] == [(EVERYONE, Played(0, Card.V1, 1))]
    played.play(1, Card.V2)
    events = played.play(2, Card.V3)
    assert [(e.audience, e.payload) for e in events] == [
        (EVERYONE, Played(2, Card.V3, 1)),
        (EVERYONE, TrickTaken(1, 0, cards("V1,V2,V3"), 2, 0, False)),
    ]
    view = played.view(None)
    assert view.trick is not None and view.trick.leader == 2 and view.trick.cards == ()
    assert [t.cards for t in view.tricks] == [cards("V1,V2,V3")]


@pytest.mark.parametrize(
    ("word", "message"),
    [
        ("V1,V2", "play one card"),
        ("ZZ", "is not a card"),
        ("others", "no shooting choice is pending"),
        ("E1", "you do not hold E1"),
    ],
)
def test_bad_plays_are_refused_and_change_nothing(word: str, message: str) -> None:
    played = game(3, "V1,E2,E3,E4,E5", "V2,J1,J2,J3,J4", "V3,M1,M2,M3,M4")
    for seat, text in enumerate(("E2,E3,E4,E5", "J1,J2,J3,J4", "M1,M2,M3,M4")):
        played.play(seat, Pass(cards(text)))
    played.play(0, Card.V1)
    state, view = played.state, played.view(1)
    with pytest.raises(IllegalMove, match=message):
        played.play_word(1, word)
    assert played.state == state and played.view(1) == view
