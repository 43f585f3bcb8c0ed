"""One seat's move at a level, on a toy game (tests/engine/nim.py) so that the engine is tested
without any of the daemon's games: the search finds the move game theory names, every level
answers as documented, a playouts budget is deterministic, progress and stop work, and bad
input is refused."""

from __future__ import annotations

import time

import attrs
import pytest
from nim import ADAPTER

from hipparchusd.engine.analysis import analyze
from hipparchusd.engine.types import Analysis, Level


def _comparable(analysis: Analysis) -> Analysis:
    return attrs.evolve(analysis, elapsed_ms=0.0)


@pytest.mark.parametrize(("pile", "take"), [(1, "1"), (2, "2"), (4, "1"), (5, "2"), (7, "1")])
def test_the_search_finds_the_winning_take(pile: int, take: str) -> None:
    """Leaving a multiple of three wins (the module's doc): the search's best move does."""
    analysis = analyze(ADAPTER, {"pile": pile, "seat": 0}, Level.parse("ismcts:3000"), seed=1)
    assert analysis.best == take
    assert analysis.moves[0].move == take
    assert analysis.playouts == 3000
    assert sum(m.visits for m in analysis.moves) == 3000
    if pile > 2:
        # Against a random opponent the winning take wins more often than the other.
        assert analysis.moves[0].value > analysis.moves[1].value


def test_a_playouts_budget_is_deterministic() -> None:
    level = Level.parse("ismcts:500")
    one = analyze(ADAPTER, {"pile": 9, "seat": 1}, level, seed=5)
    two = analyze(ADAPTER, {"pile": 9, "seat": 1}, level, seed=5)
    assert _comparable(one) == _comparable(two)


@pytest.mark.parametrize("text", ["random", "heuristic"])
def test_levels_without_search_answer_with_neutral_stats(text: str) -> None:
    analysis = analyze(ADAPTER, {"pile": 5, "seat": 0}, Level.parse(text), seed=3)
    assert analysis.playouts == 0
    assert analysis.moves == (attrs.evolve(analysis.moves[0], visits=0, value=0.5),)
    assert analysis.best in ("1", "2")
    if text == "heuristic":
        assert analysis.best == "2"


def test_a_position_not_searched_plays_the_heuristic_at_the_search_level() -> None:
    view = {"pile": 4, "seat": 0, "searched": False}
    analysis = analyze(ADAPTER, view, Level.parse("ismcts:1000"), seed=2)
    assert (analysis.best, analysis.playouts, analysis.moves[0].visits) == ("1", 0, 0)


def test_progress_and_stop() -> None:
    seen: list[Analysis] = []
    calls = 0

    def stop() -> bool:
        nonlocal calls
        calls += 1
        return calls > 3

    analysis = analyze(
        ADAPTER,
        {"pile": 30, "seat": 0},
        Level.parse("ismcts:100000"),
        seed=1,
        on_progress=seen.append,
        interval_ms=1,
        should_stop=stop,
    )
    # The fourth poll stopped the search, long before its playouts budget.
    assert calls == 4 and analysis.playouts < 100000
    assert all(a.playouts <= analysis.playouts for a in seen)


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="not a level"):
        analyze(ADAPTER, {"pile": 3, "seat": 0}, "random", seed=0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="interval"):
        analyze(ADAPTER, {"pile": 3, "seat": 0}, Level.parse("random"), seed=0, interval_ms=0)
    with pytest.raises(ValueError, match="over"):
        analyze(ADAPTER, {"pile": 0, "seat": 0}, Level.parse("random"), seed=0)


def test_a_cpu_budget_ends_the_search_after_that_much_cpu_time() -> None:
    """``ismcts:30cpu`` searches until this thread has spent 30 ms of CPU time: the thread's
    own clock (not the wall clock, which the machine's load moves) is at least that much on,
    and the playout budget that comes with it, far beyond what 30 ms can do, is not reached."""
    started = time.thread_time()
    analysis = analyze(
        ADAPTER, {"pile": 30, "seat": 0}, Level.parse("ismcts:30cpu,10000000"), seed=1
    )
    spent = time.thread_time() - started
    assert spent >= 0.030
    assert 0 < analysis.playouts < 10_000_000
