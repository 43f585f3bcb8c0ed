"""Engine levels and budgets parse as documented, and bad ones fail clearly (issue 18)."""

from __future__ import annotations

import pytest

from hipparchusd.engine.types import Budget, Level


@pytest.mark.parametrize(
    ("text", "level"),
    [
        ("random", Level("random")),
        ("heuristic", Level("heuristic")),
        ("ismcts", Level("ismcts", Budget(millis=100))),
        ("ismcts:200ms", Level("ismcts", Budget(millis=200))),
        ("ismcts:5000", Level("ismcts", Budget(playouts=5000))),
        ("ismcts:50ms,800", Level("ismcts", Budget(millis=50, playouts=800))),
        ("ismcts:100cpu", Level("ismcts", Budget(cpu_millis=100))),
        ("ismcts:800,40cpu,500ms", Level("ismcts", Budget(500, 800, cpu_millis=40))),
    ],
)
def test_levels_parse(text: str, level: Level) -> None:
    assert Level.parse(text) == level
    assert Level.parse(str(level)) == level


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "unknown level"),
        ("strong", "unknown level"),
        ("ISMCTS", "unknown level"),
        ("random:100ms", "takes no budget"),
        ("ismcts:", "bad budget"),
        ("ismcts:0", "bad budget"),
        ("ismcts:-5", "bad budget"),
        ("ismcts:100s", "bad budget"),
        ("ismcts:10ms,20ms", "two time budgets"),
        ("ismcts:10,20", "two playout budgets"),
        ("ismcts:10cpu,20cpu", "two CPU time budgets"),
        ("ismcts:10CPU", "bad budget"),
        ("ismcts:0cpu", "bad budget"),
    ],
)
def test_bad_levels_say_why(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Level.parse(text)


def test_a_budget_needs_a_limit() -> None:
    with pytest.raises(ValueError, match="needs millis"):
        Budget()
    with pytest.raises(ValueError, match="positive integer"):
        Budget(millis=0)
    with pytest.raises(ValueError, match="unknown level"):
        Level("nonsense")  # type: ignore[arg-type]
