"""One seat's move at a level (issue 18): :func:`analyze` turns a view into an
:class:`~.types.Analysis` through the game's adapter, searching with
:func:`hipparchusd.engine.ismcts.search` at the ``ismcts`` level.

The engine is pure and synchronous (no trio here): the daemon runs :func:`analyze` in worker
processes (:mod:`hipparchusd.engine.worker`). Its only input about a game is one seat's view, as
JSON, exactly as ``ServedGame.view_data(seat)`` makes it, so it cannot see another seat's cards
by construction (RULINGS H13).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable

from ..jsondata import JSON
from .ismcts import SearchResult, Tree, search
from .position import Adapter, Position, Tuning
from .sampler import sample
from .types import Analysis, Budget, Level

#: The trees a :class:`TreeMemory` keeps by default: a worker serving several games (or both
#: seats of one) keeps one for each of the last few searches.
MEMORY_SLOTS = 4


class TreeMemory:
    """The trees of the last ``slots`` searches whose tuning keeps them
    (:attr:`~.position.Tuning.reuse`), for the later searches that continue them (issue 29:
    the tree kept between moves).

    A search takes the kept tree whose decision the new one extends
    (:meth:`~.position.Position.path_from` of that decision's lineage, with the same tuning),
    descended by the moves made since; every other kept tree stays, and the oldest goes when
    a search keeps one more than ``slots``. The memory holds only what searches of the seats'
    views made (the lineage and tree of each), so a kept tree tells a search nothing that
    its own view does not. With it, an answer depends on the searches before it, not only on
    the view and seed.
    """

    def __init__(self, slots: int = MEMORY_SLOTS) -> None:
        if slots < 1:
            raise ValueError(f"a tree memory needs at least one slot, not {slots!r}")
        self.slots = slots
        self._kept: list[tuple[Hashable, Tuning, Tree]] = []

    def __len__(self) -> int:
        return len(self._kept)

    def take(self, position: Position, tuning: Tuning) -> Tree | None:
        """The kept tree below ``position``'s information set, if one of the kept searches
        (of the same ``tuning``) led to it, taken out of the memory; else ``None``."""
        for index, (lineage, kept_tuning, tree) in enumerate(self._kept):
            if kept_tuning != tuning:
                continue
            path = position.path_from(lineage)
            if path is None:
                continue
            del self._kept[index]
            return tree.subtree(path)
        return None

    def keep(self, lineage: Hashable, tuning: Tuning, tree: Tree) -> None:
        """Keep ``tree``, searched for the decision of ``lineage`` with ``tuning``."""
        self._kept.insert(0, (lineage, tuning, tree))
        del self._kept[self.slots :]

    def clear(self) -> None:
        """Drop every kept tree."""
        self._kept.clear()


def _search_seconds(millis: int) -> float:
    """The search time within a budget of ``millis``: a fifth (at most 20 ms) is kept back
    for the last iteration and the answer, so that a move stays within its budget also on a
    busy machine (with a tenth kept, moves of 100 ms took 110 ms on average at a load of 8
    on two cores)."""
    return (millis - min(20.0, millis / 5.0)) / 1000.0


def _cpu_deadline(budget: Budget) -> float | None:
    """The ``time.thread_time()`` reading at which a CPU-time budget ends, ``None`` without
    one. Nothing is kept back: the answer's own CPU time is small, and a CPU budget measures
    the search's work, not the time a move takes."""
    if budget.cpu_millis is None:
        return None
    return time.thread_time() + budget.cpu_millis / 1000.0


def scaled(budget: Budget, times: int) -> Budget:
    """``budget`` with each of its limits ``times`` as large (``times`` at least 1)."""
    if times == 1:
        return budget

    def times_of(limit: int | None) -> int | None:
        return None if limit is None else limit * times

    return Budget(
        millis=times_of(budget.millis),
        playouts=times_of(budget.playouts),
        cpu_millis=times_of(budget.cpu_millis),
    )


def _analysis(position: Position, result: SearchResult) -> Analysis:
    """The search's ``result`` as the position's move words and stats, best first; each
    move's equivalents (:meth:`~.position.Position.equivalents`) right after it, with its
    stats."""
    moves = tuple(
        position.stats(key, edge.visits, edge.mean)
        for edge in result.edges
        for key in (edge.key, *position.equivalents(edge.key))
    )
    return Analysis(moves[0].move, moves, result.playouts, result.elapsed * 1000.0)


def _search_position(
    position: Position,
    level: Level,
    rng: random.Random,
    *,
    on_progress: Callable[[Analysis], None] | None,
    interval_ms: int,
    should_stop: Callable[[], bool] | None,
    started: float,
    memory: TreeMemory | None,
) -> Analysis:
    """Search ``position`` at ``level`` (``ismcts``, or ``sampler``: flat sampling, no
    progress reports) within its budget (time measured from ``started``, a
    ``time.perf_counter()`` reading; CPU time from now, in this thread) and give its analysis,
    best move first; where the position is not searched
    (:meth:`~.position.Position.searched`), the heuristic's move. With a ``memory`` and a
    tuning that reuses trees, the search continues a kept tree where one leads here, and its
    tree is kept."""
    if not position.searched():
        return position.fixed_answer(position.heuristic_move(rng), started)
    budget = (
        level.budget if level.name == "sampler" else scaled(level.budget, position.budget_scale())
    )
    deadline = None if budget.millis is None else started + _search_seconds(budget.millis)

    def report(result: SearchResult) -> None:
        if on_progress is not None:
            on_progress(_analysis(position, result))

    if level.name == "sampler":
        result = sample(
            position.information_set(),
            rng,
            worlds=budget.playouts,
            deadline=deadline,
            cpu_deadline=_cpu_deadline(budget),
            should_stop=should_stop,
            started=started,
        )
        return _analysis(position, result)
    tuning = position.tuning()
    lineage = position.lineage() if tuning.reuse and not tuning.shared_worlds else None
    tree = None
    if memory is not None and lineage is not None:
        tree = memory.take(position, tuning)
    result = search(
        position.information_set(),
        rng,
        playouts=budget.playouts,
        deadline=deadline,
        cpu_deadline=_cpu_deadline(budget),
        on_progress=report if on_progress is not None else None,
        interval=interval_ms / 1000.0,
        should_stop=should_stop,
        started=started,
        tuning=tuning,
        tree=tree,
    )
    if memory is not None and lineage is not None and result.tree is not None:
        memory.keep(lineage, tuning, result.tree)
    return _analysis(position, result)


def analyze(
    adapter: Adapter,
    view: JSON,
    level: Level,
    *,
    seed: int,
    on_progress: Callable[[Analysis], None] | None = None,
    interval_ms: int = 500,
    should_stop: Callable[[], bool] | None = None,
    memory: TreeMemory | None = None,
) -> Analysis:
    """Search for the seat whose view this is, with the game's ``adapter``
    (``GameKind.engine.load()``).

    ``view`` is exactly what the daemon's ``state`` answers in its "view" field for that seat
    (``ServedGame.view_data(seat)``), i.e. only that seat's information; the legal moves are
    derived from it by the game's adapter. ``on_progress`` is called with the analysis so far
    about every ``interval_ms`` of search; ``should_stop`` is polled during the search, which
    ends early (with what it has) when it answers true. Deterministic for a given
    (view, level with a playouts budget and no time budget, seed), and, with a ``memory``
    (:class:`TreeMemory`: the trees of earlier searches, continued where the game's tuning
    says so), for a given sequence of them. With a kept tree, the moves' visits include the
    iterations it had; ``playouts`` counts this search's.

    Raises:
        ValueError: a view that is not valid for the game or where the seat need not move, a
            bad level or interval.
    """
    started = time.perf_counter()
    if not isinstance(level, Level):
        raise ValueError(f"not a level: {level!r}")
    if type(interval_ms) is not int or interval_ms < 1:
        raise ValueError(f"interval_ms must be a positive integer, not {interval_ms!r}")
    position = adapter.position(view)
    rng = random.Random(seed)
    if level.name == "random":
        return position.fixed_answer(position.random_move(rng), started)
    if level.name == "heuristic":
        return position.fixed_answer(position.heuristic_move(rng), started)
    return _search_position(
        position,
        level,
        rng,
        on_progress=on_progress,
        interval_ms=interval_ms,
        should_stop=should_stop,
        started=started,
        memory=memory,
    )
