"""The omniscient Hipparchus player of issue 29's ceiling (``bench/bench_ceiling.py``): the
``ismcts`` level's search told every hidden card. Bench-only: it reads the true deal, which
no seat may see (RULINGS H13), so it lives here and is never reachable from the daemon, the
protocol, the worker or a level a user can pick.

An honest seat's search samples determinizations of the opponent's hand
(:class:`~hipparchusd.games.hipparchus.engine_information.HipparchusInformation`); the
cheater's information set always "samples" the true round (:class:`TrueInformation`), and its
states key the opponent's moves fully (:class:`TrueState`: the opponent's hand is known, so
two plays of one public form are two moves), so the same SO-ISMCTS becomes a
perfect-information MCTS of the true deal at the same tuning (the exact solver at leaves of
at most :data:`~hipparchusd.games.hipparchus.engine_solver.SOLVE_CARDS` cards, within
:data:`~hipparchusd.games.hipparchus.engine.SOLVE_NODES` positions), with an opponent that
never errs in the tree (:data:`CHEAT_TUNING`). Before it searches, a
late position is solved exactly at the root (:func:`cheat_move`): a move that wins the round
against every defence (RULINGS H2-H11) is played at once.
"""

from __future__ import annotations

import random
import time

import attrs

from hipparchusd.engine.ismcts import search
from hipparchusd.games.hipparchus import core
from hipparchusd.games.hipparchus.engine import TUNING
from hipparchusd.games.hipparchus.engine_solver import Solver
from hipparchusd.games.hipparchus.engine_state import HipparchusState

#: The ``ismcts`` level's tuning as the ceiling was measured (docs/engine.md, "The ceiling"):
#: the opponent in the tree never errs (``opponent_error`` 0; the level's is 0.2 since).
CHEAT_TUNING = attrs.evolve(TUNING, opponent_error=0.0)
#: Cards in both hands at most for the root to be solved exactly before the search.
ROOT_CARDS = 20
#: The positions one root move's solve may take (the solver's table is kept for the match,
#: so later decisions of a round find most of their positions solved already).
ROOT_NODES = 20_000
#: The share of the move's CPU budget the root's solves may take before the search starts.
ROOT_SHARE = 0.5


class TrueState(HipparchusState):
    """A Hipparchus round of the core with every hand known: the searching seat's and the
    opponent's moves are both keyed by the core's move (``position << 4 | count << 2 |
    suit``), since in the true deal two plays of one public form may leave different hands."""

    __slots__ = ()

    def copy(self) -> TrueState:
        """An independent copy (the round is immutable)."""
        return TrueState(self.observer, self.round, self.solver)

    def keys(self) -> list[int]:
        """Every legal move of the seat to move, as the core lists them."""
        legal = self.round[6]
        self._options = {move: [move] for move in legal}
        return list(legal)


class TrueInformation:
    """The cheater's information set: every determinization is the true round ``round_``
    (a :data:`.core.Round`), seen by ``observer``, the worlds sharing ``solver``'s table."""

    def __init__(self, observer: int, round_: core.Round, solver: Solver) -> None:
        self._observer = observer
        self.round = round_
        self.solver = solver

    @property
    def observer(self) -> int:
        """The searching seat."""
        return self._observer

    def determinize(self, rng: random.Random) -> TrueState:
        """The true round, whatever ``rng`` says."""
        return TrueState(self._observer, self.round, self.solver)


def root_solve(
    round_: core.Round, seat: int, solver: Solver, cpu_deadline: float
) -> tuple[int | None, int]:
    """A move of ``seat`` (to move in ``round_``) that wins the round against every defence,
    by the exact solver (RULINGS H2-H11) within :data:`ROOT_NODES` positions a move while
    the thread's CPU clock is before ``cpu_deadline``; ``None`` if none is found. Also the
    number of moves proved lost (every legal move when the round is lost against best play)."""
    lost = 0
    for move in round_[6]:
        if time.thread_time() >= cpu_deadline:
            break
        after = core.play(round_, move)
        winner = solver.winner(after, ROOT_NODES)
        if winner == seat:
            return move, lost
        if winner is not None:
            lost += 1
    return None, lost


class Cheater:
    """The omniscient player of one match: a solver whose table lasts the match (cleared by
    the solver past its limit) and a CPU budget of ``cpu_millis`` a move."""

    def __init__(self, cpu_millis: int, root: bool = True) -> None:
        self.cpu_millis = cpu_millis
        self.root = root
        self.solver = Solver(cards=2 * core.HAND_SIZE)
        self.leaf_solver = Solver()
        #: Decisions settled by the root's solve, proved lost there, and searched.
        self.solved = 0
        self.lost = 0
        self.searched = 0
        self.iterations = 0

    def move(self, round_: core.Round, seat: int, seed: int) -> int:
        """The core move ``seat`` (to move in the true ``round_``) makes: a proved win from
        the root's solve when both hands hold at most :data:`ROOT_CARDS` cards, else the
        most visited root move of the search of the true round, both within the budget
        (the thread's CPU time from the call)."""
        started = time.thread_time()
        legal = round_[6]
        if len(legal) == 1:
            return legal[0]
        deadline = started + self.cpu_millis / 1000.0
        cards = core.size_of(round_[0][0]) + core.size_of(round_[0][1])
        if self.root and cards <= ROOT_CARDS:
            share = started + ROOT_SHARE * self.cpu_millis / 1000.0
            found, lost = root_solve(round_, seat, self.solver, share)
            if found is not None:
                self.solved += 1
                return found
            if lost == len(legal):
                self.lost += 1  # lost against best play: the search looks for the errors
        information = TrueInformation(seat, round_, self.leaf_solver)
        result = search(
            information, random.Random(seed), cpu_deadline=deadline, tuning=CHEAT_TUNING
        )
        self.searched += 1
        self.iterations += result.playouts
        best = result.edges[0].key
        assert isinstance(best, int)
        return best
