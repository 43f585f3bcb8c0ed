"""The engine's levels that do not search, played in the daemon's own process
(:class:`InlineEngine`): ``random`` and ``heuristic`` seats never wait for a worker (issue 24
item 5), so that a stopped or busy worker holds up no game they play.

Why in-process: their move is one pass over the seat's view, measured in the daemon's process
(``bench/bench_engine_load.py``, its inline trial; the fastest of 100 runs): 0.1 to 0.2 ms for
a random move of either game and for a planets heuristic move, 1.1 to 1.4 ms for the Hipparchus
heuristic (it samples the opponent's hand), which is what a request costs; handing it to a
worker and back would cost about as much, and wait behind searches. The game's adapter is
loaded on first use (or at start-up, :meth:`InlineEngine.preload`), never by importing the
daemon (tests/engine/test_layering.py).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from typing import Final

from ..engine.position import Adapter, AdapterRef
from ..engine.types import Analysis, Level
from ..jsondata import JSON
from .workers import EngineError, engine_module

#: The levels played in the daemon's process.
INLINE_LEVELS: Final = frozenset({"random", "heuristic"})


class InlineEngine:
    """The ``random`` and ``heuristic`` levels of every kind, in this process: each kind's
    adapter loaded once."""

    def __init__(self) -> None:
        self._adapters: dict[str, Adapter] = {}

    def preload(self, kinds: Iterable[str]) -> None:
        """Load the adapters of ``kinds`` now (at start-up, rather than at a first move); one
        that does not load is left for its moves to report."""
        for kind in kinds:
            with contextlib.suppress(EngineError):
                self._adapter(kind)

    def _adapter(self, kind: str) -> Adapter:
        adapter = self._adapters.get(kind)
        if adapter is None:
            try:
                adapter = AdapterRef(engine_module(kind)).load()
            except ValueError as error:
                raise EngineError(f"the engine of {kind!r} does not load", str(error)) from None
            self._adapters[kind] = adapter
        return adapter

    def move(self, kind: str, view: JSON, level: str, seed: int) -> Analysis:
        """The move at ``level`` (one of :data:`INLINE_LEVELS`) for the seat whose ``view`` of
        a game of ``kind`` this is, from ``seed``, as a worker would find it.

        Raises:
            EngineError: the kind has no engine, or the engine refused the view (``detail``
                its message, which may quote the view: logged at debug level only).
        """
        # The search's module, loaded here only when a move is asked for: importing the
        # daemon loads no search.
        from ..engine.analysis import analyze

        parsed = Level.parse(level)
        if parsed.name not in INLINE_LEVELS:
            raise ValueError(f"{level!r} searches: it is a worker's")
        adapter = self._adapter(kind)
        try:
            return analyze(adapter, view, parsed, seed=seed)
        except ValueError as error:
            raise EngineError("the engine refused the move (ValueError)", str(error)) from None
