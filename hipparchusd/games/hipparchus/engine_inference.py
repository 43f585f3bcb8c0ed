"""Inference from the opponent's follows (issue 29): how likely a sampled opponent hand makes the
follows the seat saw, under a cheap model of the opponent, for the engine's Hipparchus
determinizations (:mod:`.engine_information`).

The model: with probability ``trust`` the opponent follows as the rule-based player would
(:func:`.engine_heuristic.best_follow`: the best score lead after the trick, RULINGS H7-H8),
otherwise with any public form (count and suit, H13) of its legal follows (H5) alike. A hand's
weight is the product, over the opponent's follows of this round, of the seen follow's chance
under the model divided by the likeliest form's chance: 1 for a hand that explains every
follow, less for one under which the opponent often played against the model. Leads are not
weighed. The hands before each follow are those of the history that
:class:`.engine_history.HistoryCheck` found (one witness: a hand has few others, and they
differ only in where the played clumps sat). Only the seat's view is used: its plays seen, the
won counts before each trick, the hand being weighed.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import core
from .engine_heuristic import best_follow

#: One of the opponent's plays as the model weighs it: ``None`` for a lead (not weighed), else
#: (the won counts before the trick, the leader, the lead as a move in public form).
Context = tuple[core.Won, int, core.Move] | None


def hand_weight(
    witness: Sequence[tuple[int, ...]],
    seen: Sequence[tuple[int, int, int, int]],
    contexts: Sequence[Context],
    trust: float,
) -> float:
    """The weight (0..1] of an opponent hand whose history is ``witness`` (the hands before
    each of the ``seen`` plays, cards left to right, then the hand now), with the model
    trusting the rule-based follow with probability ``trust`` (0..1; see the module)."""
    weight = 1.0
    for index, context in enumerate(contexts):
        if context is None:
            continue
        won, leader, lead = context
        hand = core.hand_of(witness[index])
        legal = core.follow_moves(hand, lead)
        forms = {move & 15 for move in legal}
        if len(forms) < 2:  # one public form (or none, H6): the follow says nothing
            continue
        model = best_follow(hand, won, leader, lead)
        assert model is not None, "a hand with legal follows has a best one"
        count, suit = seen[index][0], seen[index][1]
        spread = (1.0 - trust) / len(forms)
        if model & 15 != (count << 2 | suit):
            weight *= spread / (trust + spread)
    return weight
