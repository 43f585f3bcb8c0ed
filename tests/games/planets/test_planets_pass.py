"""The pass (RULINGS P4, P12, P15): the cycle by hand number for every player count, the split
passes, the no-pass hands, the simultaneous choice and what each seat learns."""

from __future__ import annotations

import json

import pytest
from planets_positions import cards, full_deal, game, game_at_hand

from hipparchusd.games.base import EVERYONE, IllegalMove, NotYourTurn, Pick
from hipparchusd.games.planets import Card, HandState, Pass, Phase, cards_of, format_hand
from hipparchusd.games.planets.views import Passed, Received

# The cycles as RULINGS P4 and P15 state them: for each hand of the cycle, its name and, for
# each chosen card in order, how many seats clockwise it travels (left +1, right -1, across
# +n/2, "second on the left" +2, "second on the right" -2). An empty tuple: no pass.
CYCLES: dict[int, list[tuple[str, tuple[int, ...]]]] = {
    3: [("left", (1, 1, 1, 1)), ("right", (-1, -1, -1, -1)), ("split", (1, 1, -1, -1))],
    4: [
        ("left", (1, 1, 1)),
        ("right", (-1, -1, -1)),
        ("across", (2, 2, 2)),
        ("split", (1, 2, -1)),
    ],
    5: [
        ("left", (1, 1)),
        ("right", (-1, -1)),
        ("left2", (2, 2)),
        ("right2", (-2, -2)),
        ("none", ()),
    ],
    6: [
        ("left", (1, 1)),
        ("left2", (2, 2)),
        ("across", (3, 3)),
        ("right2", (-2, -2)),
        ("right", (-1, -1)),
        ("none", ()),
    ],
}

ALL_PASSES = [
    (players, number, name, travel)
    for players, cycle in CYCLES.items()
    for index, (name, travel) in enumerate(cycle)
    for number in (index + 1, index + 1 + len(cycle))  # the cycle repeats
]


@pytest.mark.parametrize(("players", "number", "name", "travel"), ALL_PASSES)
def test_p4_p15_each_pass_of_each_cycle(
    players: int, number: int, name: str, travel: tuple[int, ...]
) -> None:
    dealt = full_deal(players)
    state = HandState.start(number, (number - 1) % players, dealt)
    assert state.kind.name == name and state.kind.count == len(travel)
    if not travel:
        # No pass: play starts at once, led by the holder of Venus 1 from the deal (P12).
        assert state.phase is Phase.PLAY and state.to_move == (players - 1,)
        assert state.legal_cards() == (Card.V1,)
        return
    assert state.phase is Phase.PASS and state.to_move == tuple(range(players))
    # Each seat passes its lowest cards, the i-th going to the i-th target.
    chosen = [cards_of(hand)[: len(travel)] for hand in dealt]
    for seat in range(players):
        state = state.pass_cards(seat, chosen[seat])
    for seat in range(players):
        expected = sorted(
            (card, giver)
            for giver in range(players)
            for card, step in zip(chosen[giver], travel, strict=True)
            if (giver + step) % players == seat
        )
        got, givers = state.received(seat)
        assert list(zip(got, givers, strict=True)) == expected
        kept = dealt[seat] & ~sum(1 << card for card in chosen[seat])
        assert state.hands[seat] == kept | sum(1 << card for card, _ in expected)


def test_p4_three_players_split_two_to_each_neighbour() -> None:
    state = HandState.start(3, 0, full_deal(3, "E1,E2,E3,E4", "J1,J2,J3,J4", "M1,M2,M3,M4"))
    assert state.kind.name == "split"
    for seat, text in enumerate(("E1,E2,E3,E4", "J1,J2,J3,J4", "M1,M2,M3,M4")):
        state = state.pass_cards(seat, cards(text))
    # Seat 0 gets seat 2's first two (seat 2's left is seat 0) and seat 1's last two.
    assert state.received(0) == (cards("J3,J4,M1,M2"), (1, 1, 2, 2))
    assert state.received(1) == (cards("E1,E2,M3,M4"), (0, 0, 2, 2))
    assert state.received(2) == (cards("E3,E4,J1,J2"), (0, 0, 1, 1))


def test_p4_four_players_split_one_to_each_other_player() -> None:
    state = HandState.start(4, 3, full_deal(4, "E1,E2,E3", "J1,J2,J3", "M1,M2,M3", "N1,N2,N3"))
    assert state.kind.name == "split"
    for seat, text in enumerate(("E1,E2,E3", "J1,J2,J3", "M1,M2,M3", "N1,N2,N3")):
        state = state.pass_cards(seat, cards(text))
    # The 1st card goes left, the 2nd across, the 3rd right.
    assert state.received(0) == (cards("J3,M2,N1"), (1, 2, 3))
    assert state.received(1) == (cards("E1,M3,N2"), (0, 2, 3))
    assert state.received(2) == (cards("E2,J1,N3"), (0, 1, 3))
    assert state.received(3) == (cards("E3,J2,M1"), (0, 1, 2))


def test_p4_the_split_pass_through_the_game_with_targets() -> None:
    played = game_at_hand(4, 4, "E1,E2,E3")
    legal = played.legal_moves(0)
    assert legal == Pick(3, tuple(c.name for c in cards_of(played.state.hand.dealt[0])), (1, 2, 3))
    word, _ = played.play_word(0, "e3,E1,e2")
    assert word == "E3,E1,E2"  # one card per target: the order is the choice itself


def test_p4_the_pass_is_simultaneous_and_secret_until_every_seat_has_passed() -> None:
    played = game(4, "V1,JS,M7", "E1,E2,E3", "J1,J2,J3", "N1,N2,N3")
    assert played.seats_to_move() == frozenset(range(4))
    before = played.view(1)
    events = played.play(0, Pass(cards("V1,JS,M7")))
    assert [(e.audience, e.payload) for e in events] == [(EVERYONE, Passed(0))]
    assert played.seats_to_move() == frozenset({1, 2, 3})
    # Nothing moved: seat 1 sees the same hand; everyone sees only that seat 0 has passed.
    after = played.view(1)
    assert after.hand == before.hand and after.passed == (0,) and after.my_pass is None
    assert played.view(None).passed == (0,) and played.view(None).my_pass is None
    assert played.view(0).my_pass == cards("JS,M7,V1")
    assert played.view(0).hand == cards_of(played.state.hand.dealt[0])
    for seat in (None, 1, 2, 3):
        assert "V1" not in json.dumps(played.view_data(seat))
    # A second pass by the same seat is refused, and changes nothing.
    state = played.state
    with pytest.raises(NotYourTurn, match="you have already passed this hand"):
        played.play(0, Pass(cards("E4,E5,E6")))
    assert played.state == state
    assert played.legal_moves(0) == ()
    played.play(1, Pass(cards("E1,E2,E3")))
    played.play(2, Pass(cards("J1,J2,J3")))
    events = played.play(3, Pass(cards("N1,N2,N3")))
    assert (events[0].audience, events[0].payload) == (EVERYONE, Passed(3))
    received = [(e.audience, e.payload) for e in events[1:]]
    assert received == [
        (0, Received(1, 0, cards("N1,N2,N3"), (3, 3, 3))),
        (1, Received(1, 1, cards("JS,M7,V1"), (0, 0, 0))),
        (2, Received(1, 2, cards("E1,E2,E3"), (1, 1, 1))),
        (3, Received(1, 3, cards("J1,J2,J3"), (2, 2, 2))),
    ]
    assert played.view(1).received == cards("JS,M7,V1")
    assert played.view(None).received is None
    assert played.view(None).passed == (0, 1, 2, 3)


def test_p12_venus_1_may_be_passed_and_its_new_holder_leads() -> None:
    played = game(4, "V1,JS,M7", "E1,E2,E3", "J1,J2,J3", "N1,N2,N3")
    for seat, text in enumerate(("V1,JS,M7", "E1,E2,E3", "J1,J2,J3", "N1,N2,N3")):
        played.play(seat, Pass(cards(text)))
    assert played.seats_to_move() == frozenset({1})
    assert played.legal_moves(1) == (Card.V1,)
    with pytest.raises(IllegalMove, match="V1 leads the first trick"):
        played.play(1, Card.JS)


@pytest.mark.parametrize(
    ("word", "message"),
    [
        ("V1,JS", "pass exactly 3 cards"),
        ("V1,JS,M7,E1", "pass exactly 3 cards"),
        ("V1", "pass exactly 3 cards, in one word, their names joined by commas$"),
        ("-", "pass exactly 3 cards"),
        ("V1,JS,J1", "you do not hold J1"),
        ("V1,JS,v1", "V1 is named twice"),
        ("V1,JS,ZZ", "is not a card"),
        ("self", "no shooting choice is pending"),
    ],
)
def test_bad_passes_are_refused_and_change_nothing(word: str, message: str) -> None:
    played = game(4, "V1,JS,M7", "E1,E2,E3", "J1,J2,J3")
    state, view = played.state, played.view(0)
    with pytest.raises(IllegalMove, match=message):
        played.play_word(0, word)
    assert played.state == state and played.view(0) == view
    assert played.seats_to_move() == frozenset(range(4))


def test_no_pass_hand_has_no_pass_phase() -> None:
    state = HandState.start(5, 2, full_deal(5, "", "", "", "V1,E1"))
    assert state.kind.name == "none" and state.phase is Phase.PLAY
    assert state.to_move == (3,)
    assert format_hand(state.legal_cards()) == "V1"


@pytest.mark.parametrize(("players", "number", "name", "travel"), ALL_PASSES)
def test_legal_describes_each_pass_with_its_targets(
    players: int, number: int, name: str, travel: tuple[int, ...]
) -> None:
    played = game_at_hand(players, number, dealer=1)
    for seat in range(players):
        legal = played.legal_moves(seat)
        if not travel:
            assert legal == () or seat == played.state.hand.player
            continue
        assert legal == Pick(
            len(travel),
            tuple(card.name for card in cards_of(played.state.hand.dealt[seat])),
            tuple((seat + step) % players for step in travel),
        )
    assert played.view(None).pass_name == name
    assert played.view(None).pass_count == len(travel)
