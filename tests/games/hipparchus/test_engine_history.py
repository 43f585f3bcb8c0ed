"""The engine's Hipparchus history check (issue 18): a play is put back as the rules allow
(RULINGS H2, H5), and a search cut short by its budget finds no fit rather than a wrong one."""

from __future__ import annotations

import random

from hipparchus_positions import cards, random_position

from hipparchusd.games.hipparchus.engine_history import HistoryCheck, predecessors
from hipparchusd.games.hipparchus.engine_information import HipparchusInformation
from hipparchusd.games.hipparchus.model import Suit


def test_predecessors_put_a_play_back_as_the_rules_allow() -> None:
    """Undoing a play: the cards go back as part of a clump that could give them (H2); a follow
    in another suit needs a hand with no lead-suit play of another count (H5)."""
    sun, moon = int(Suit.SUN), int(Suit.MOON)
    # 1 Moon followed a lead of 1 Sun: only lone Suns before it.
    assert predecessors(cards("SSE"), (1, moon, 1, sun)) == [cards("SMSE")]
    assert predecessors(cards("SSSE"), (1, moon, 1, sun)) == []
    # 2 Suns (following 1 Sun): from a clump of exactly 2, or of 4 or more; never of 3.
    assert predecessors(cards("SM"), (2, sun, 1, sun)) == [cards("SMSS")]
    assert predecessors(cards("SSM"), (2, sun, 0, -1)) == [cards("SSSSM"), cards("SSMSS")]
    assert len(predecessors(cards("MEM"), (2, sun, 1, sun))) == 4


def test_a_history_search_over_budget_counts_as_no_fit() -> None:
    """The sampler stays sound when a search is cut short: no witness, no hand."""
    game, seat = random_position(60, 9)
    information = HipparchusInformation(game.view(seat))
    seen = information.check.seen
    assert len(seen) >= 2
    hand = information.opponent_cards(random.Random(1))
    assert HistoryCheck(seen).history(hand) is not None
    assert HistoryCheck(seen, budget=1).history(hand) is None
