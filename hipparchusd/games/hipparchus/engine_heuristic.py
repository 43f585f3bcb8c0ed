"""The engine's rule-based Hipparchus player (issue 18, "Levels"): the ``heuristic`` level, and
a baseline for the search.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from . import core
from .model import Play, play_of_move
from .views import View

if TYPE_CHECKING:  # the sampler imports the inference, which imports this module
    from .engine_information import HipparchusInformation

#: Determinizations the heuristic player's lead looks at.
HEURISTIC_SAMPLES = 8
#: Cards in both hands at most for the end of a round to be played by exact solving (more
#: cards overrun :data:`ENDGAME_NODES` too often to pay: measured in docs/engine.md).
ENDGAME_CARDS = 18
#: The positions each of those solves may take (about 9 microseconds each).
ENDGAME_NODES = 20_000


def _margin(won: core.Won, seat: int) -> float:
    """``seat``'s score lead if the round ended with these won counts (RULINGS H10)."""
    each = core.scores(won)
    lead = each[0] + each[1] + each[2] - each[3] - each[4] - each[5]
    return float(lead if seat == 0 else -lead)


def _after(won: core.Won, leader: int, lead: core.Move, follow: core.Move) -> core.Won:
    """The won counts after the trick of ``lead`` and ``follow`` (H7 its winner, H8 what it
    takes)."""
    winner = core.trick_winner(leader, lead, follow, won)
    after = list(won)
    after[winner * 3 + (lead & 3)] += lead >> 2 & 3
    after[winner * 3 + (follow & 3)] += follow >> 2 & 3
    return (after[0], after[1], after[2], after[3], after[4], after[5])


def _torn(hand: core.Hand, move: core.Move) -> bool:
    """Whether ``move`` tears a clump of four or more of ``hand`` (H2)."""
    index, _ = core.clump_at(hand, move >> 4)
    return hand[index] >= core.TEARABLE


def _follow_value(won: core.Won, leader: int, lead: core.Move, move: core.Move, big: bool) -> float:
    """The follower's value of answering ``lead`` with ``move``: its score lead after the trick
    (who wins it by H7, what both plays add by H8), less a little for tearing a clump of four
    or more (``big``): a long clump beats shorter plays of its suit (H7), keep it."""
    after = _after(won, leader, lead, move)
    return _margin(after, 1 - leader) - (0.25 if big else 0.0) - 0.05 * (move >> 2 & 3)


def best_follow(hand: core.Hand, won: core.Won, leader: int, lead: core.Move) -> core.Move | None:
    """The follow with the best :func:`_follow_value` (leftmost on ties), ``None`` under H6."""
    best: core.Move | None = None
    best_value = -math.inf
    for move in core.follow_moves(hand, lead):
        value = _follow_value(won, leader, lead, move, _torn(hand, move))
        if value > best_value:
            best, best_value = move, value
    return best


def _final(won: core.Won, seat: int, last_follower: int) -> float:
    """``seat``'s score lead if the round ended now, a tie counted as half a point for the
    last trick's follower, who wins it (RULINGS H10, H11)."""
    lead = _margin(won, seat)
    if lead:
        return lead
    return 0.5 if last_follower == seat else -0.5


def _endgame_play(information: HipparchusInformation, rng: random.Random) -> core.Move | None:
    """The play that wins the round in the most of :data:`HEURISTIC_SAMPLES` sampled deals
    with both seats playing perfectly from there (:class:`.engine_solver.Solver`), the first
    listed on ties; ``None`` when some deal cannot be solved within :data:`ENDGAME_NODES`
    positions."""
    me = information.observer
    worlds = [information.determinize(rng).round for _ in range(HEURISTIC_SAMPLES)]
    solver = information.solver
    best: core.Move | None = None
    best_wins = -1
    for move in worlds[0][6]:  # the seat's own moves: the same in every world
        wins = 0
        for world in worlds:
            winner = solver.winner(core.play(world, move), ENDGAME_NODES)
            if winner is None:
                return None
            wins += winner == me
        if wins > best_wins:
            best, best_wins = move, wins
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
    sampler as the search) and leads what scores best on average, a lead that ends the
    round at once (H6) scored as the round ends, the tie to the last follower (H11). Once
    both hands hold :data:`ENDGAME_CARDS` cards or fewer it plays what wins the most of a
    few determinizations solved exactly (:func:`_endgame_play`), as the rules reward it: the
    round's winner, not the trick's margin.
    """
    me = view.seat
    assert me is not None
    hand = view.hand.core if view.hand is not None else ()
    won: core.Won = (*view.won[0], *view.won[1])
    sampler = information()
    if core.size_of(hand) + sampler.opponent_size <= ENDGAME_CARDS:
        solved = _endgame_play(sampler, rng)
        if solved is not None:
            return play_of_move(solved)
    if view.lead is not None:
        lead = view.lead.count << 2 | int(view.lead.suit)
        choice = best_follow(hand, won, view.leader, lead)
        assert choice is not None
        return play_of_move(choice)
    opponents = [core.hand_of(sampler.opponent_cards(rng)) for _ in range(HEURISTIC_SAMPLES)]
    best_value = -math.inf
    choice = 0
    for move in core.lead_moves(hand):
        value = -0.25 if _torn(hand, move) else 0.0
        for opponent in opponents:
            answer = best_follow(opponent, won, me, move)
            if answer is None:  # H6 ends the round now: score as it stands
                value += _final(won, me, sampler.last)
                continue
            value += _margin(_after(won, me, move, answer), me)
        value /= len(opponents)
        if value > best_value:
            choice, best_value = move, value
    return play_of_move(choice)
