"""The engine's rule-based Hipparchus player (issue 18, "Levels"): the ``heuristic`` level, and
a baseline for the search.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from .compact import (
    CHand,
    CPlay,
    compact_hand,
    follow_plays,
    hand_from_cards,
    lead_plays,
    position_of,
    totals,
    trick_winner,
)
from .engine_information import HipparchusInformation
from .model import Play, Suit, play_of
from .views import View

#: Determinizations the heuristic player's lead looks at.
HEURISTIC_SAMPLES = 8


def _margin(won: list[int], seat: int) -> float:
    """``seat``'s score lead if the round ended with these won counts (RULINGS H10)."""
    t0, t1 = totals(won)
    return float(t0 - t1 if seat == 0 else t1 - t0)


def _follow_value(
    won: list[int], leader: int, lead_suit: int, lead_count: int, suit: int, count: int, big: bool
) -> float:
    """The follower's value of answering with ``count`` ``suit``: its score lead after the trick
    (who wins it by H7, what both plays add by H8), less a little for tearing a clump of four
    or more (``big``): a long clump beats shorter plays of its suit (H7), keep it."""
    follower = 1 - leader
    winner = trick_winner(leader, lead_suit, lead_count, suit, count, won)
    after = won[:]
    after[winner * 3 + lead_suit] += lead_count
    after[winner * 3 + suit] += count
    return _margin(after, follower) - (0.25 if big else 0.0) - 0.05 * count


def _best_follow(hand: CHand, won: list[int], leader: int, suit: int, count: int) -> CPlay | None:
    """The follow with the best :func:`_follow_value` (leftmost on ties), ``None`` under H6."""
    best: CPlay | None = None
    best_value = -math.inf
    for index, n in follow_plays(hand, suit, count):
        value = _follow_value(won, leader, suit, count, hand[index] & 3, n, hand[index] >= 16)
        if value > best_value:
            best, best_value = (index, n), value
    return best


def heuristic_play(
    view: View, information: Callable[[], HipparchusInformation], rng: random.Random
) -> Play:
    """The rule-based baseline player (issue 18, "Levels").

    Following, it answers with the play that leaves it the best score lead after the trick:
    it wins a trick when that pays (cheaply: fewer cards on equal value), gives it up when
    winning would only feed the opponent's majorities, and knows which suit wins an off-suit
    trick (H7, "suit power"); it tears a long clump only when that pays. Leading, it tries
    each lead against the opponent's best such answer in a few determinizations (the same
    sampler as the search) and leads what scores best on average.
    """
    me = view.seat
    assert me is not None
    hand = compact_hand(view.hand) if view.hand is not None else []
    won = [*view.won[0], *view.won[1]]
    if view.lead is not None:
        choice = _best_follow(hand, won, view.leader, int(view.lead.suit), view.lead.count)
        assert choice is not None
    else:
        sampler = information()
        opponents = [hand_from_cards(sampler.opponent_cards(rng)) for _ in range(HEURISTIC_SAMPLES)]
        best_value = -math.inf
        choice = (0, 0)
        for index, n in lead_plays(hand):
            suit = hand[index] & 3
            value = -0.25 if hand[index] >= 16 else 0.0
            for opponent in opponents:
                answer = _best_follow(opponent, won, me, suit, n)
                if answer is None:  # H6 ends the round now: score as it stands
                    value += _margin(won, me)
                    continue
                their = opponent[answer[0]] & 3
                winner = trick_winner(me, suit, n, their, answer[1], won)
                after = won[:]
                after[winner * 3 + suit] += n
                after[winner * 3 + their] += answer[1]
                value += _margin(after, me)
            value /= len(opponents)
            if value > best_value:
                choice, best_value = (index, n), value
    index, count = choice
    return play_of(count, Suit(hand[index] & 3), position_of(hand, index))
