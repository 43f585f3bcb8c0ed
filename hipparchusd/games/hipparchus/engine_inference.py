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

A second model (:func:`random_likelihood`) is the ``random`` level's: every legal move alike,
leads and follows. Its weight is the chance itself that such a player made the plays seen and
holds the hand, summed over the hand's histories, not a ratio within one history's hands: a
hand of many legal moves, under which the plays seen were less likely, weighs less than one of
few (the first model's uniform part cancels that), and one that more dealt hands lead to
weighs more (the sampler's draws, uniform over the hands that fit, count neither).
"""

from __future__ import annotations

from collections.abc import Sequence

from . import core
from .engine_heuristic import best_follow
from .engine_history import Seen, predecessors

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


#: Predecessor steps one :func:`random_likelihood` may take; beyond them the histories not yet
#: summed are left out (the sum is then a lower bound).
LIKELIHOOD_STEPS = 2_000


def random_likelihood(cards: tuple[int, ...], seen: Sequence[Seen]) -> float:
    """How likely a player choosing uniformly among its legal moves (the ``random`` level; a
    move is a count and a clump of the hand, H2) makes the ``seen`` plays of the round
    (:data:`.engine_history.Seen`) and holds ``cards`` (left to right) after them, up to a
    factor the same for every hand: the sum, over every history that leads from a hand it
    could have been dealt to ``cards`` (:func:`.engine_history.predecessors`), of the
    product over its plays of 1 / the number of legal moves then (H4 for a lead, H5 for a
    follow). Every dealt order being equally likely, this is the posterior weight of
    ``cards`` among the hands that fit, for such a player; hands that many dealt hands lead
    to weigh more. Within :data:`LIKELIHOOD_STEPS` steps (then a lower bound)."""
    memo: dict[tuple[int, tuple[int, ...]], float] = {}
    steps = 0

    def total(after: tuple[int, ...], depth: int) -> float:
        nonlocal steps
        if depth < 0:
            return 1.0
        found = memo.get((depth, after))
        if found is not None:
            return found
        _, _, lead_count, lead_suit = play = seen[depth]
        value = 0.0
        for before in predecessors(after, play):
            steps += 1
            if steps > LIKELIHOOD_STEPS:
                break
            hand = core.hand_of(before)
            if lead_suit < 0:
                moves = len(core.lead_moves(hand))
            else:
                moves = len(core.follow_moves(hand, lead_count << 2 | lead_suit))
            value += total(before, depth - 1) / moves
        memo[(depth, after)] = value
        return value

    return total(cards, len(seen) - 1)
