"""The Hipparchus screen's parts without a screen (hipparchusd/games/hipparchus/tui/): hands and
clumps as shown, the view followed from events, and the explanations of tricks and rounds
(docs/rules.md)."""

from __future__ import annotations

import pytest

from hipparchusd.games.hipparchus.model import Play, Suit
from hipparchusd.games.hipparchus.notation import format_hand, parse_deal
from hipparchusd.games.hipparchus.rules import RoundState, trick_winner
from hipparchusd.games.hipparchus.tui.follow import follow, round_lines, trick_reason, without_play
from hipparchusd.games.hipparchus.tui.look import (
    HipparchusLook,
    clump_letter,
    clumps,
    hand_text,
    play_labels,
)

NAMES = {0: "you", 1: "bob"}


def label(seat: int) -> str:
    return NAMES[seat]


# --- Hipparchus: hands, tricks, rounds ---------------------------------------------------------


def test_clumps_keep_the_hand_order() -> None:
    # RULINGS H1, H2: maximal runs of one suit, in the order dealt.
    assert clumps("SSMEEES") == [(1, "SS"), (3, "M"), (4, "EEE"), (7, "S")]
    assert clumps("-") == []
    assert hand_text("SSM", HipparchusLook(symbols=False)).plain == "1 SS  3 M"
    assert hand_text("SSM", HipparchusLook(symbols=True)).plain == "1 ☉☉  3 ☽"


def test_a_play_leaves_the_hand_as_the_rules_say() -> None:
    # H1, H3: cards close up and neighbours of one suit merge.
    state = RoundState.start(parse_deal("SMSMSMSMSMEEEE/EEESSSSMMMMEES/ME"), leader=0)
    for play, text in ((Play(1, Suit.MOON, 2), "1M@2"), (Play(2, Suit.EARTH, 11), "2E@11")):
        after = state.hands[0].without(play)
        assert without_play(format_hand(state.hands[0]), text) == format_hand(after)


def test_trick_reasons_follow_h7() -> None:
    won_before = ((0, 0, 3), (2, 0, 0))  # seat 0 had won 3 Earths, seat 1 two Suns
    # Different suits: seat 0 led Earth (3 won), seat 1 followed Sun (2 won): the lower wins.
    lead, follow = Play(1, Suit.EARTH, 1), Play(3, Suit.SUN, 1)
    winner = trick_winner(0, lead, follow, won_before)
    after = [list(won_before[0]), list(won_before[1])]
    after[winner][2] += 1
    after[winner][0] += 3
    trick = {"leader": 0, "lead": "1E", "follow": "3S", "winner": winner}
    assert trick_reason(trick, after, label) == (
        "different suits: you had won 3 Earths, bob 2 Suns before this trick; "
        "the lower count wins, so bob takes it"
    )
    # Equal counts go to the follower.
    trick = {"leader": 1, "lead": "2S", "follow": "1M", "winner": 0}
    after = [[2, 1, 0], [2, 0, 0]]  # you took 2S and 1M; bob had won 2 Suns before
    assert trick_reason(trick, after, label).endswith(
        "bob had won 2 Suns, you 0 Moons before this trick; the lower count wins, so you take it"
    )
    # Same suit: more cards win.
    trick = {"leader": 0, "lead": "1M", "follow": "3M", "winner": 1}
    assert trick_reason(trick, [[0, 0, 0], [0, 4, 0]], label) == (
        "same suit: 3 Moons beat 1 Moon (more cards win): bob takes it"
    )
    # H6: no legal answer, no winner.
    trick = {"leader": 0, "lead": "2S", "follow": None, "winner": None}
    assert "set aside" in trick_reason(trick, [[0, 0, 0], [0, 0, 0]], label)


def test_equal_counts_go_to_the_follower() -> None:
    trick = {"leader": 0, "lead": "1E", "follow": "1S", "winner": 1}
    after = [[0, 0, 1], [2, 0, 1]]  # each had won one card of the suit it played
    assert trick_reason(trick, after, label) == (
        "different suits: you had won 1 Earth, bob 1 Sun before this trick; "
        "equal counts go to the follower, so bob takes it"
    )


def test_round_lines_score_each_suit_as_h10() -> None:
    # The worked example of docs/rules.md: won (2, 1, 6) against (5, 3, 4): 4 to 3.
    data = {
        "won": [[2, 1, 6], [5, 3, 4]],
        "result": {
            "scores": [[0, 0, 4], [2, 1, 0]],
            "totals": [4, 3],
            "winner": 0,
            "by_tie_break": False,
        },
    }
    assert round_lines(data, label) == [
        "Sun: you won 2, bob won 5; bob won more and scores 2 (your 2 Suns)",
        "Moon: you won 1, bob won 3; bob won more and scores 1 (your 1 Moon)",
        "Earth: you won 6, bob won 4; you won more and score 4 (bob's 4 Earths)",
        "Totals: you 4, bob 3: you win the round",
    ]


def test_a_spectator_follows_a_round_from_its_events() -> None:
    view = follow(None, "round-started", {"leader": 1, "round_number": 2})
    assert view is not None and view["hand"] is None and view["hand_sizes"] == [14, 14]
    view = follow(view, "played", {"seat": 1, "play": "2E", "hand_size": 12})
    assert view is not None and view["lead"] == "2E" and view["hand_sizes"] == [14, 12]
    trick = {"leader": 1, "lead": "2E", "follow": "1E", "winner": 1}
    view = follow(view, "trick", {"trick": trick, "won": [[0, 0, 0], [0, 0, 3]]})
    assert view is not None and view["lead"] is None and view["leader"] == 1
    assert view["won"] == [[0, 0, 0], [0, 0, 3]] and len(view["tricks"]) == 1


def test_plays_are_labelled_by_the_clump_shown_and_the_count() -> None:
    # SS M EEEE S: clumps a (1), b (3), c (4), d (8); a play's label never depends on the
    # list of legal plays, only on the clump it takes from as the hand is shown.
    hand = "SSMEEEES"
    assert play_labels(hand, [(4, 3), (1, 2), (8, 1), (4, 1)]) == ["c3", "a2", "d1", "c1"]
    assert play_labels(hand, []) == []
    # After b's Moon is played the hand is SSEEEES: the Earths are now clump b.
    assert play_labels(without_play(hand, "1M@3"), [(3, 2)]) == ["b2"]
    assert [clump_letter(i) for i in range(3)] == ["a", "b", "c"]
    with pytest.raises(ValueError, match="no clump starts at position 2"):
        play_labels(hand, [(2, 1)])
    with pytest.raises(ValueError, match="at most 14 clumps"):
        clump_letter(14)
