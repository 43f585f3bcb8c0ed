"""What a game implements for the engine (issue 18): its adapter, the seat's position it builds
from one view, and the information set and determinizations the search plays.

An adapter (:class:`Adapter`) turns one seat's view (JSON, as ``ServedGame.view_data(seat)``
makes it) into a :class:`Position`: the seat's random and heuristic players, and an
:class:`InformationSet` for :func:`hipparchusd.engine.ismcts.search`. Each game keeps its
adapter in its own folder and names it in its kind (``GameKind.engine``, an
:class:`AdapterRef`), which the engine loads only when a search runs. Nothing here names a game,
and nothing here searches: the daemon may import this module without the search's code.
"""

from __future__ import annotations

import abc
import importlib
import random
import time
from collections.abc import Callable, Hashable, Sequence
from typing import Protocol, runtime_checkable

import attrs

from ..jsondata import JSON
from .types import Analysis, MoveStats


class Determinization(Protocol):
    """A mutable full game state sampled from the searching seat's information set."""

    def to_move(self) -> int:
        """The seat that moves now, or -1 once the game (the searched part of it) is over."""
        ...

    def keys(self) -> Sequence[Hashable]:
        """The distinct legal moves of the seat to move, as the searching seat observes them,
        in a deterministic order (never empty unless the game is over)."""
        ...

    def play(self, key: Hashable, rng: random.Random) -> None:
        """Make a legal move with that key (one of them at random if several share it): a
        key that :meth:`keys` gave for this state just before, since a game may keep for
        ``play`` what ``keys`` found."""
        ...

    def playout(self, rng: random.Random) -> None:
        """Play uniformly random legal moves until the game is over."""
        ...

    def reward(self, seat: int) -> float:
        """``seat``'s reward in [0, 1] once the game is over."""
        ...


@runtime_checkable
class Copyable(Protocol):
    """A determinization that can copy itself (optional: the engine deals the world again
    from the same seed for one that cannot, see :func:`copier`)."""

    def copy(self) -> Determinization:
        """An independent copy: playing on it leaves this state as it is."""
        ...


@runtime_checkable
class Solvable(Protocol):
    """A determinization that can be solved exactly (optional): the rest of the game as a
    perfect-information game, every seat playing its best in this world."""

    def solve(self, nodes: int) -> Sequence[float] | None:
        """Each seat's reward (0..1) with perfect play from here, or ``None`` when that takes
        more than ``nodes`` positions searched (or the game judges it out of reach at once)."""
        ...


class InformationSet(Protocol):
    """What the searching seat knows."""

    @property
    def observer(self) -> int:
        """The searching seat (it moves at the root)."""
        ...

    def determinize(self, rng: random.Random) -> Determinization:
        """A new full state agreeing with everything the seat has seen, drawn with ``rng``
        (never from the true hidden cards: the information set does not hold them)."""
        ...


#: UCB1's exploration constant for rewards in [0, 1] (the paper uses 0.7).
EXPLORATION = 0.7


@attrs.frozen
class Tuning:
    """How the search runs for a game (the defaults are the paper's SO-ISMCTS).

    ``exploration`` is UCB1's constant; ``opponent_exploration``, where given, is the constant
    of the other seats' choices in the searching seat's tree (smaller: greedier, a harder
    opponent to play against); ``opponent_error`` is the chance that one of their choices there
    (once every legal move has a node) is a uniformly random legal move instead: an opponent
    that errs, whose replies the values then average over. With ``shared_worlds`` the root plays
    each world for every root move in the race (see :mod:`hipparchusd.engine.ismcts`); a move
    leaves the race when, after at least ``race_after`` worlds, its mean paired difference from
    the best move is more than ``race_z`` standard errors below zero (``race_z`` 0: no racing).
    ``solve_nodes`` > 0 asks a :class:`Solvable` determinization for its exact value, within
    that many positions, at every leaf and at every root move's world. Without ``tree`` (and
    with ``shared_worlds``) a root move's world is played out at once, with no tree below
    the root: flat Monte Carlo, the sampling player of :mod:`hipparchusd.engine.sampler`.
    With ``reuse`` (and no shared worlds) a search continues the tree an earlier search of
    the same seat left, where the game says the new decision's information extends the
    earlier one's (:meth:`Position.path_from`; :class:`~.analysis.TreeMemory` keeps them).
    """

    exploration: float = EXPLORATION
    opponent_exploration: float | None = None
    opponent_error: float = 0.0
    shared_worlds: bool = False
    race_z: float = 2.0
    race_after: int = 8
    solve_nodes: int = 0
    tree: bool = True
    reuse: bool = False


#: The paper's search: a world per iteration, UCB1 at the root, playouts only.
PAPER = Tuning()


def copier(
    information: InformationSet, world: Determinization, seed: int
) -> Callable[[], Determinization]:
    """A maker of fresh copies of ``world``, which ``information`` dealt from
    ``random.Random(seed)``: its :meth:`Copyable.copy` when it has one, else the same deal
    again (an information set's ``determinize`` depends only on its random numbers)."""
    if isinstance(world, Copyable):
        return world.copy
    return lambda: information.determinize(random.Random(seed))


class Position(abc.ABC):
    """One seat's decision, built from its view alone.

    Subclasses give the moves (:meth:`random_move`, :meth:`heuristic_move`), the information
    set to search, and how a move key and a mean reward read as :class:`MoveStats`."""

    @abc.abstractmethod
    def random_move(self, rng: random.Random) -> str:
        """A uniformly random legal move word (for a choice of several items, a uniformly
        random choice)."""

    @abc.abstractmethod
    def heuristic_move(self, rng: random.Random) -> str:
        """The game's rule-based player's move word."""

    @abc.abstractmethod
    def information_set(self) -> InformationSet:
        """What the seat knows, as the search samples it (determinizations)."""

    @abc.abstractmethod
    def stats(self, key: Hashable, visits: int, mean_reward: float) -> MoveStats:
        """The stats of the root move ``key`` (a key of the information set's seat) whose
        iterations averaged ``mean_reward`` (0..1, the search's reward for this seat)."""

    def equivalents(self, key: Hashable) -> Sequence[Hashable]:
        """The root moves equivalent to ``key`` that the search left out (a game may search
        one move of each set of moves that lead to the same outcomes in every world): the
        analysis gives them ``key``'s stats, after it. None unless a game says otherwise."""
        return ()

    @abc.abstractmethod
    def neutral_stats(self, move: str) -> MoveStats:
        """The stats given for a move chosen without search (0 visits, a neutral estimate)."""

    def tuning(self) -> Tuning:
        """How the ``ismcts`` level searches this decision (the game's choice; by default
        the paper's SO-ISMCTS)."""
        return PAPER

    def budget_scale(self) -> int:
        """How many moves' budgets the ``ismcts`` level may spend on this decision (1 unless
        a game says otherwise): a decision made once in many moves, such as a pass before a
        hand's tricks, may be given several."""
        return 1

    def lineage(self) -> Hashable | None:
        """What a later decision of this seat needs to tell whether its information extends
        this one's (:meth:`path_from` gets it), built from this seat's view alone; ``None``
        (the default) when the game keeps no tree between moves. It should be small: a
        :class:`~.analysis.TreeMemory` keeps it with the tree."""
        return None

    def path_from(self, earlier: Hashable) -> Sequence[Hashable] | None:
        """The moves made from the decision whose :meth:`lineage` is ``earlier`` to this one,
        keyed as the seat observes them (its own moves as :meth:`information_set`'s
        determinizations key them, the others' as far as it sees them), in order; ``None``
        when this decision's information does not extend that one's (another seat, game or
        round, a move taken back, a view that does not follow from it), so the search starts
        a fresh tree. An empty path is the same information set. ``None`` by default."""
        return None

    def searched(self) -> bool:
        """Whether the ``ismcts`` level searches this decision; where it does not, it plays
        :meth:`heuristic_move` (every decision is searched unless a game says otherwise)."""
        return True

    def fixed_answer(self, move: str, started: float) -> Analysis:
        """The answer of a level that does not search: ``move`` with neutral stats, timed
        from ``started`` (a ``time.perf_counter()`` reading)."""
        elapsed = (time.perf_counter() - started) * 1000.0
        return Analysis(move, (self.neutral_stats(move),), 0, elapsed)


@runtime_checkable
class Adapter(Protocol):
    """A game's engine adapter."""

    def position(self, view: JSON) -> Position:
        """The position of the seat whose view this is.

        Raises:
            ValueError: ``view`` is not a valid view of this game for a seat, or that seat
                need not move now.
        """
        ...


@attrs.frozen
class AdapterRef:
    """Where a game's adapter lives: the module ``module`` (a dotted name) defines it as
    ``ADAPTER``. A game's kind carries this rather than the adapter, so that naming a game's
    engine imports neither the game's engine module nor the search; :meth:`load` imports it,
    in the process that searches."""

    module: str

    def load(self) -> Adapter:
        """The adapter, the module imported if it was not already.

        Raises:
            ValueError: the module cannot be imported, or its ``ADAPTER`` is not an adapter.
        """
        try:
            found = importlib.import_module(self.module)
        except ImportError as error:
            raise ValueError(f"no engine module {self.module!r}: {error}") from None
        adapter = getattr(found, "ADAPTER", None)
        if not isinstance(adapter, Adapter):
            raise ValueError(f"{self.module}.ADAPTER is not an engine adapter")
        return adapter
