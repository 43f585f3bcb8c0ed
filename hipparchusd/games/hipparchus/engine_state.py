"""A determinization of a Hipparchus round as the engine's search plays it: a round of the
rules core (:mod:`.core`), its moves keyed as the searching seat sees them (RULINGS H13).
"""

from __future__ import annotations

import random
from collections.abc import Hashable

import attrs

from . import core
from .engine_heuristic import best_follow
from .engine_solver import Solver


@attrs.frozen
class Playout:
    """How a determinization plays on from a leaf (issue 29's A/B options; the default is the
    uniformly random playout).

    ``follows``: the chance in [0, 1] that a follow is the rule-based player's
    (:func:`.engine_heuristic.best_follow`, the best score lead after the trick: RULINGS H7,
    H8) rather than a uniformly random legal one; leads stay random. ``solve_nodes``: once
    the hands are few enough for the world's solver (:attr:`.engine_solver.Solver.cards`),
    the rest is solved exactly within this many positions (0: never), a random finish
    beyond them.
    """

    follows: float = 0.0
    solve_nodes: int = 0


#: The search's default playout: uniformly random moves to the round's end.
RANDOM_PLAYOUT = Playout()


class HipparchusState:
    """A determinization: a full round of the core (:data:`.core.Round`), as the search plays
    it (:class:`hipparchusd.engine.position.Determinization`).

    The searching seat's moves are keyed by the core's move, ``position << 4 | count << 2 |
    suit`` (its own hand is known, so the key names the play exactly); the opponent's by its
    public form ``count << 2 | suit`` (:func:`.core.public`), what the seat sees of them
    (RULINGS H13), one of the matching moves being made at random.
    """

    __slots__ = ("_options", "observer", "playout_policy", "round", "solver", "winner")

    def __init__(
        self,
        observer: int,
        round_: core.Round,
        solver: Solver | None = None,
        playout: Playout = RANDOM_PLAYOUT,
    ) -> None:
        self.observer = observer
        self.round = round_
        #: The exact solver of :meth:`solve`, whose table the worlds of one search share.
        self.solver = solver if solver is not None else Solver()
        #: How :meth:`playout` plays.
        self.playout_policy = playout
        self.winner = -1 if round_[6] else core.round_winner(round_[1], round_[4])[0]
        # keys() leaves the moves behind each key here for play(): key -> moves.
        self._options: dict[int, list[int]] = {}

    def copy(self) -> HipparchusState:
        """An independent copy (the round is immutable: copying costs nothing)
        (:class:`hipparchusd.engine.position.Copyable`)."""
        return HipparchusState(self.observer, self.round, self.solver, self.playout_policy)

    def solve(self, nodes: int) -> tuple[float, float] | None:
        """Each seat's reward with perfect play from here in this world
        (:class:`hipparchusd.engine.position.Solvable`), by :class:`.engine_solver.Solver`
        within ``nodes`` positions; ``None`` beyond them, or at once while the hands hold
        more cards than the solver tries. With the solver's :attr:`~.engine_solver.Solver.error`
        set, the searching seat's chance against an opponent who errs that often
        (:meth:`.engine_solver.Solver.chance`) instead."""
        solver = self.solver
        if solver.error:
            chance = solver.chance(self.round, nodes, self.observer)
            if chance is None:
                return None
            return (chance, 1.0 - chance) if self.observer == 0 else (1.0 - chance, chance)
        winner = solver.winner(self.round, nodes)
        if winner is None:
            return None
        return (1.0, 0.0) if winner == 0 else (0.0, 1.0)

    def to_move(self) -> int:
        """The seat to move, -1 once the round is over."""
        return core.to_move(self.round)

    def keys(self) -> list[int]:
        """The legal moves' keys (see the class)."""
        legal = self.round[6]
        if core.to_move(self.round) == self.observer:
            self._options = {move: [move] for move in legal}
            return list(legal)
        options: dict[int, list[int]] = {}
        for move in legal:
            key = move & 15  # core.public(), inlined: keys() runs at every node of the tree
            found = options.get(key)
            if found is None:
                options[key] = [move]
            else:
                found.append(move)
        self._options = options
        return list(options)

    def play(self, key: Hashable, rng: random.Random) -> None:
        """Make the move keyed ``key`` (a random one of those matching, for the opponent).
        The key must be one :meth:`keys` just gave."""
        assert isinstance(key, int)
        matching = self._options[key]
        move = matching[rng.randrange(len(matching))] if len(matching) > 1 else matching[0]
        after = self.round = core.play(self.round, move)
        if not after[6]:  # over (H6, H9)
            self.winner = core.round_winner(after[1], after[4])[0]

    def playout(self, rng: random.Random) -> None:
        """Finish the round as :attr:`playout_policy` says: by default with uniformly random
        legal moves (:func:`.core.random_finish`)."""
        policy = self.playout_policy
        if not policy.follows and not policy.solve_nodes:
            self.winner = core.random_finish(self.round, rng.random)
            return
        round_ = self.round
        greed = policy.follows
        while round_[6]:
            if policy.solve_nodes:
                winner = self.solver.winner(round_, policy.solve_nodes)
                if winner is not None:
                    self.winner = winner
                    return
            hands, won, leader, lead, _, _, legal = round_
            if lead and greed and rng.random() < greed:
                move = best_follow(hands[1 - leader], won, leader, lead)
                assert move is not None  # a trick in progress has a legal follow (H6)
            else:
                move = legal[rng.randrange(len(legal))]
            round_ = core.play(round_, move)
        self.winner = core.round_winner(round_[1], round_[4])[0]

    def reward(self, seat: int) -> float:
        """1 if ``seat`` won the round, else 0. (A share of score margin in the reward was
        tried: it lost more matches to random, 91% against 97.5% at 400 playouts.)"""
        return 1.0 if self.winner == seat else 0.0
