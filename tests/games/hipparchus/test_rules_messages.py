"""A refused play says why, for every rule that can refuse it (issue 17): the daemon sends the
message as its ``illegal-move`` reason. Each message speaks of the player's own hand and of the
lead, which is public, never of the opponent's cards (RULINGS H13)."""

from __future__ import annotations

import pytest

from hipparchusd.games.hipparchus.model import Play, Suit
from hipparchusd.games.hipparchus.notation import (
    NotationError,
    parse_deal,
    parse_hand,
    parse_play,
)
from hipparchusd.games.hipparchus.rules import GameOver, IllegalPlay, RoundState

S, M, E = Suit.SUN, Suit.MOON, Suit.EARTH

# Seat 0: Suns in a clump of 2 (positions 1-2) and of 4 (11-14), a clump of 3 Moons (3-5) and
# of 5 Earths (6-10). Seat 1: Suns only in clumps of 2 (1-2, 13-14), lone Moons and Earths.
LEADS = parse_deal("SSMMMEEEEESSSS/SSMEMEMEMEMESS/MM")
# Seat 1 here has lone Moons and a clump of two Moons (positions 7-8).
FOLLOWS = parse_deal("SSMMMEEEEESSSS/MEMSSSMMEEMEME/SM")


def refused(state: RoundState, play: Play) -> str:
    """The reason ``state`` gives for refusing ``play``; the state is left as it was."""
    before = (state.hands, state.lead, state.tricks, state.won)
    with pytest.raises(IllegalPlay) as caught:
        state.play(play)
    assert (state.hands, state.lead, state.tricks, state.won) == before
    assert state.why_illegal(play) == str(caught.value)
    return str(caught.value)


def test_h2_a_clump_of_one_to_three_is_played_whole() -> None:
    state = RoundState.start(LEADS, leader=0)
    assert refused(state, Play(1, S, 1)) == "a clump of 2 is played whole"
    assert refused(state, Play(3, S, 1)) == "a clump of 2 is played whole"
    assert refused(state, Play(2, M, 3)) == "a clump of 3 is played whole"
    assert refused(state, Play(1, M, 3)) == "a clump of 3 is played whole"
    # A clump of 4 or more gives 1, 2 or 3 cards (H2): no reason to refuse.
    assert state.why_illegal(Play(2, E, 6)) == ""
    assert state.why_illegal(Play(1, S, 11)) == ""


def test_h2_never_more_than_three_cards() -> None:
    state = RoundState.start(LEADS, leader=0)
    assert refused(state, Play(4, E, 6)) == "a play has 1 to 3 cards, not 4"


def test_a_play_must_name_a_card_of_its_suit_inside_the_hand() -> None:
    state = RoundState.start(LEADS, leader=0)
    assert refused(state, Play(1, S, 15)) == "position 15 is outside your hand of 14 cards"
    assert refused(state, Play(1, M, 1)) == "card 1 of your hand is Sun, not Moon"


def test_h5_the_lead_suit_is_followed_with_another_count_when_possible() -> None:
    # Seat 0 leads 3 Moons; seat 1 holds lone Moons and a clump of 2: it must follow Moon.
    state = RoundState.start(FOLLOWS, leader=0).play(Play(3, M, 3))
    expected = "you must follow Moon with a count other than 3 (the lead was 3 Moons)"
    assert refused(state, Play(1, E, 2)) == expected  # another suit
    assert refused(state, Play(3, S, 4)) == expected
    assert state.why_illegal(Play(2, M, 7)) == ""


def test_h5_the_lead_suit_is_not_followed_with_the_lead_count() -> None:
    # Seat 1 leads a lone Moon; seat 0's Moon clump of 3 plays only as 3, a count other
    # than the lead's: it must answer with it, not with another suit.
    state = RoundState.start(FOLLOWS, leader=1).play(Play(1, M, 1))
    expected = "you must follow Moon with a count other than 1 (the lead was 1 Moon)"
    assert refused(state, Play(1, S, 11)) == expected  # another suit while Moon can follow
    assert state.why_illegal(Play(3, M, 3)) == ""


def test_h5_fall_back_excludes_the_lead_suit_at_the_lead_count() -> None:
    # Seat 0 leads 2 Suns; seat 1's Suns are clumps of 2, playable only as 2, the lead's
    # count: it must play another suit (H5's fall-back), not 2 Suns.
    state = RoundState.start(LEADS, leader=0).play(Play(2, S, 1))
    assert refused(state, Play(2, S, 1)) == (
        "you must play another suit: no Sun play of yours has a count other than 2 "
        "(the lead was 2 Suns)"
    )
    assert state.why_illegal(Play(1, M, 3)) == ""


def test_malformed_plays_say_they_are_not_plays() -> None:
    state = RoundState.start(LEADS, leader=0)
    assert refused(state, Play("2", S, 1)) == "2S@1 is not a play"  # type: ignore[arg-type]


def test_no_reason_once_the_round_is_over() -> None:
    state = RoundState.start(LEADS, leader=0)
    while state.result is None:
        state = state.play(state.legal_plays()[0])
    with pytest.raises(GameOver):
        state.why_illegal(Play(1, S, 1))


def test_notation_errors_use_singular_and_plural() -> None:
    hand = RoundState.start(LEADS, leader=0).hands[0]
    with pytest.raises(NotationError, match="outside your hand of 14 cards"):
        parse_play("1S@15", hand)
    with pytest.raises(NotationError, match=r"outside your hand of 1 card$"):
        parse_play("1S@2", parse_hand("S"))
