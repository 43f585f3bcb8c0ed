"""An exact solver for the late part of a Hipparchus determinization (issue 29): the rest of the
round as a perfect-information game of two seats, each playing its best, within a node budget.

A determinization knows every hand, so the rest of the round is a game of perfect information
whose outcome is one bit: which seat wins the round (RULINGS H10, H11). The solver is a
memoized minimax on that bit (an alpha-beta search with the window closed to win or lose): the
seat to move wins if any of its moves leads to a position it wins, and the search stops at the
first such move. Positions are remembered by everything the rest of the round depends on (both
hands, the won counts, the leader, the lead in progress, the last trick's follower for H11's
tie-break), so transpositions, which are common (two plays in either order, two clumps giving
the same hand), are solved once; a table lives as long as one search's information set, so the
many worlds of one decision that share their late positions share its entries.

All moves come from the rules core (:mod:`.core`: :func:`.core.play`, its ``legal`` moves and
:func:`.core.round_winner`), so the solver plays by the one rules implementation.
"""

from __future__ import annotations

from . import core

#: Cards left in both hands at most for a position to be worth solving: above this a solve
#: usually overruns any node budget the search can afford, and the search judges it out of
#: reach at once (chosen by measurement: docs/engine.md, "Hipparchus determinizations").
SOLVE_CARDS = 12
#: The most positions a table keeps before it is cleared (about 100 bytes each).
TABLE_LIMIT = 400_000


class _OutOfNodes(Exception):
    """The node budget ran out: the position is not solved."""


class Solver:
    """Solves rounds of the rules core exactly, remembering what it solved.

    ``cards`` is the most cards left in both hands for :meth:`winner` to try at all
    (:data:`SOLVE_CARDS` by default).
    """

    __slots__ = ("_left", "cards", "chances", "error", "table")

    def __init__(self, cards: int = SOLVE_CARDS, error: float = 0.0) -> None:
        self.cards = cards
        #: The chance that the seat's opponent errs, for :meth:`chance`.
        self.error = error
        self.table: dict[tuple[object, ...], int] = {}
        #: :meth:`chance`'s values by position, for the one seat its searches are for.
        self.chances: dict[tuple[object, ...], float] = {}
        self._left = 0

    def winner(self, round_: core.Round, nodes: int) -> int | None:
        """The seat that wins ``round_`` (a :data:`.core.Round` of the core) when both seats
        play their best from here (RULINGS H2-H11), or ``None`` when that takes more than
        ``nodes`` positions not already in the table, or the hands hold more than
        :attr:`cards` cards together (out of reach: no position is searched).

        A round that is over gives its winner by :func:`.core.round_winner`.
        """
        if not round_[6]:
            return core.round_winner(round_[1], round_[4])[0]
        hands = round_[0]
        if core.size_of(hands[0]) + core.size_of(hands[1]) > self.cards:
            return None
        if len(self.table) > TABLE_LIMIT:
            self.table.clear()
        self._left = nodes
        try:
            return self._solve(round_)
        except _OutOfNodes:
            return None

    def chance(self, round_: core.Round, nodes: int, seat: int) -> float | None:
        """``seat``'s chance to win ``round_`` when it plays its best and its opponent makes,
        at each of its moves, its best move with probability 1 - :attr:`error` and a
        uniformly random legal move otherwise (an expectimax on the round's winner, RULINGS
        H2-H11); ``None`` beyond ``nodes`` positions not already in the tables, or with more
        than :attr:`cards` cards in both hands.

        A position the seat wins against every defence (:meth:`winner`) is worth 1 whatever
        the opponent does, so only the positions it loses against a perfect opponent are
        searched to the end. Every call on one solver must be for the same ``seat``.
        """
        if not round_[6]:
            return 1.0 if core.round_winner(round_[1], round_[4])[0] == seat else 0.0
        hands = round_[0]
        if core.size_of(hands[0]) + core.size_of(hands[1]) > self.cards:
            return None
        if len(self.table) > TABLE_LIMIT:
            self.table.clear()
        if len(self.chances) > TABLE_LIMIT:
            self.chances.clear()
        self._left = nodes
        try:
            return self._chance(round_, seat)
        except _OutOfNodes:
            return None

    def _chance(self, round_: core.Round, seat: int) -> float:
        if not round_[6]:
            return 1.0 if core.round_winner(round_[1], round_[4])[0] == seat else 0.0
        if self._solve(round_) == seat:
            return 1.0
        key = round_[:5]
        chances = self.chances
        found = chances.get(key)
        if found is not None:
            return found
        self._left -= 1
        if self._left < 0:
            raise _OutOfNodes
        leader, lead = round_[2], round_[3]
        mover = leader if not lead else 1 - leader
        play = core.play
        values = [self._chance(play(round_, move), seat) for move in round_[6]]
        if mover == seat:
            result = max(values)
        else:
            error = self.error
            result = (1.0 - error) * min(values) + error * sum(values) / len(values)
        chances[key] = result
        return result

    def _solve(self, round_: core.Round) -> int:
        # What the rest of the round depends on (its legal moves follow from these).
        key = round_[:5]
        table = self.table
        found = table.get(key)
        if found is not None:
            return found
        self._left -= 1
        if self._left < 0:
            raise _OutOfNodes
        won, leader, lead = round_[1], round_[2], round_[3]
        mover = leader if not lead else 1 - leader
        play = core.play
        result = 1 - mover
        for move in _ordered(round_[6], won, leader, lead):
            after = play(round_, move)
            winner = self._solve(after) if after[6] else core.round_winner(after[1], after[4])[0]
            if winner == mover:
                result = mover
                break
        table[key] = result
        return result


def _ordered(
    legal: tuple[core.Move, ...], won: core.Won, leader: int, lead: core.Move
) -> tuple[core.Move, ...] | list[core.Move]:
    """``legal`` in an order likely to find a winning move early: the follows that win the
    trick (H7) before those that lose it, each in the core's order; a lead's moves as
    listed."""
    if not lead or len(legal) < 2:
        return legal
    follower = 1 - leader
    winning: list[core.Move] = []
    losing: list[core.Move] = []
    for move in legal:
        if core.trick_winner(leader, lead, move, won) == follower:
            winning.append(move)
        else:
            losing.append(move)
    return winning + losing
