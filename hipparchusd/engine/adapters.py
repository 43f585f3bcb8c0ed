"""Game adapters: how the generic engine reaches each game, keyed by the game kind's name.

An adapter turns one seat's view (JSON, as ``ServedGame.view_data(seat)`` makes it) into a
:class:`Position`: the seat's legal moves, its random and heuristic players, and an
information set for :func:`hipparchusd.engine.ismcts.search`. Each game keeps its adapter in
its own folder (``hipparchusd/games/<kind>/engine.py``); this module only lists them.
"""

from __future__ import annotations

import abc
import random
import time
from collections.abc import Callable, Hashable
from typing import Protocol

from ..jsondata import JSON
from .api import Analysis, Budget, MoveStats
from .ismcts import InformationSet, SearchResult, search


def _search_seconds(millis: int) -> float:
    """The search time within a budget of ``millis``: a fifth (at most 20 ms) is kept back
    for the last iteration and the answer, so that a move stays within its budget also on a
    busy machine (with a tenth kept, moves of 100 ms took 110 ms on average at a load of 8
    on two cores)."""
    return (millis - min(20.0, millis / 5.0)) / 1000.0


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

    @abc.abstractmethod
    def neutral_stats(self, move: str) -> MoveStats:
        """The stats given for a move chosen without search (0 visits, a neutral estimate)."""

    def fixed_answer(self, move: str, started: float) -> Analysis:
        """The answer of a level that does not search: ``move`` with neutral stats."""
        elapsed = (time.perf_counter() - started) * 1000.0
        return Analysis(move, (self.neutral_stats(move),), 0, elapsed)

    def search(
        self,
        budget: Budget,
        rng: random.Random,
        *,
        on_progress: Callable[[Analysis], None] | None,
        interval_ms: int,
        should_stop: Callable[[], bool] | None,
        started: float,
    ) -> Analysis:
        """Run ISMCTS from this position within ``budget`` (measured from ``started``, a
        ``time.perf_counter()`` reading) and give its analysis, best move first."""

        def report(result: SearchResult) -> None:
            if on_progress is not None:
                on_progress(self._analysis(result))

        result = search(
            self.information_set(),
            rng,
            playouts=budget.playouts,
            deadline=None if budget.millis is None else started + _search_seconds(budget.millis),
            on_progress=report if on_progress is not None else None,
            interval=interval_ms / 1000.0,
            should_stop=should_stop,
            started=started,
        )
        return self._analysis(result)

    def _analysis(self, result: SearchResult) -> Analysis:
        moves = tuple(self.stats(edge.key, edge.visits, edge.mean) for edge in result.edges)
        return Analysis(moves[0].move, moves, result.playouts, result.elapsed * 1000.0)


class Adapter(Protocol):
    """A game's engine adapter."""

    def position(self, view: JSON) -> Position:
        """The position of the seat whose view this is.

        Raises:
            ValueError: ``view`` is not a valid view of this game for a seat, or that seat
                need not move now.
        """
        ...


def _hipparchus() -> Adapter:
    from ..games.hipparchus.engine import ADAPTER

    return ADAPTER


def _planets() -> Adapter:
    from ..games.planets.engine import ADAPTER

    return ADAPTER


# Factories, so that importing the engine does not import every game.
_ADAPTERS: dict[str, Callable[[], Adapter]] = {"hipparchus": _hipparchus, "planets": _planets}


def adapter_kinds() -> tuple[str, ...]:
    """The game kinds the engine can play."""
    return tuple(_ADAPTERS)


def find_adapter(kind: str) -> Adapter:
    """The adapter of the game kind ``kind``.

    Raises:
        ValueError: the engine does not know that kind.
    """
    factory = _ADAPTERS.get(kind) if isinstance(kind, str) else None
    if factory is None:
        known = ", ".join(_ADAPTERS)
        raise ValueError(f"the engine does not play {kind!r} (it plays {known})")
    return factory()
