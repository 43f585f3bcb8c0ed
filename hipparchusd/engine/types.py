"""The engine's words (issue 18): the levels and budgets a search is asked for, and the
:class:`Analysis` it answers with (:class:`MoveStats` per move).

What the daemon's lobby and server know of the engine is this module: they name searches with
levels and read analyses, and never import a search or a game's engine (those run in worker
processes, :mod:`hipparchusd.engine.worker`).
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Literal

import attrs

from ..jsondata import JSON

#: The level names :meth:`Level.parse` accepts.
LEVEL_NAMES: tuple[str, ...] = ("random", "heuristic", "ismcts")
LevelName = Literal["random", "heuristic", "ismcts"]

#: The default search budget: at most 100 ms per move (issue 18, "Strength").
DEFAULT_MILLIS = 100


def _check_budget(instance: Budget, attribute: attrs.Attribute[int | None], value: object) -> None:
    if value is None:
        return
    if type(value) is not int or value < 1:
        raise ValueError(f"budget {attribute.name} must be a positive integer, not {value!r}")


@attrs.frozen
class Budget:
    """How long a search may run: ``millis`` of wall-clock time, ``playouts`` iterations, or
    both (the search stops at whichever comes first).

    Raises:
        ValueError: neither is set, or one is not a positive integer.
    """

    millis: int | None = attrs.field(default=None, validator=_check_budget)
    playouts: int | None = attrs.field(default=None, validator=_check_budget)

    def __attrs_post_init__(self) -> None:
        if self.millis is None and self.playouts is None:
            raise ValueError("a budget needs millis, playouts or both")

    def __str__(self) -> str:
        parts = []
        if self.millis is not None:
            parts.append(f"{self.millis}ms")
        if self.playouts is not None:
            parts.append(str(self.playouts))
        return ",".join(parts)


_BUDGET_PART = re.compile(r"(?P<number>[1-9][0-9]{0,8})(?P<unit>ms)?")


def _check_name(instance: Level, attribute: attrs.Attribute[str], value: object) -> None:
    if value not in LEVEL_NAMES:
        raise ValueError(f"unknown level {value!r} (expected one of {', '.join(LEVEL_NAMES)})")


@attrs.frozen
class Level:
    """A player strength: ``random`` (a uniformly random legal move), ``heuristic`` (the game's
    rule-based player) or ``ismcts`` (information-set Monte Carlo tree search within
    ``budget``; the other levels ignore the budget).

    Raises:
        ValueError: an unknown name.
    """

    name: LevelName = attrs.field(validator=_check_name)
    budget: Budget = Budget(millis=DEFAULT_MILLIS)

    @classmethod
    def parse(cls, text: str) -> Level:
        """Read a level word: ``random``, ``heuristic``, ``ismcts`` (100 ms), ``ismcts:200ms``
        (a time budget), ``ismcts:5000`` (a playout budget) or ``ismcts:200ms,5000`` (both).

        Raises:
            ValueError: naming what is wrong with ``text``.
        """
        if not isinstance(text, str):
            raise ValueError(f"a level is a word, not {text!r}")
        name, colon, rest = text.partition(":")
        if name not in LEVEL_NAMES:
            raise ValueError(
                f"unknown level {name!r} in {text!r} (expected one of {', '.join(LEVEL_NAMES)})"
            )
        if not colon:
            return cls(name)  # type: ignore[arg-type]  # checked against LEVEL_NAMES above
        if name != "ismcts":
            raise ValueError(f"level {name!r} takes no budget (in {text!r})")
        millis: int | None = None
        playouts: int | None = None
        for part in rest.split(","):
            match = _BUDGET_PART.fullmatch(part)
            if match is None:
                raise ValueError(
                    f"bad budget {part!r} in {text!r} (expected e.g. 200ms or 5000 playouts)"
                )
            number = int(match["number"])
            if match["unit"]:
                if millis is not None:
                    raise ValueError(f"two time budgets in {text!r}")
                millis = number
            else:
                if playouts is not None:
                    raise ValueError(f"two playout budgets in {text!r}")
                playouts = number
        return cls("ismcts", Budget(millis=millis, playouts=playouts))

    def __str__(self) -> str:
        if self.name != "ismcts" or self.budget == Budget(millis=DEFAULT_MILLIS):
            return self.name
        return f"{self.name}:{self.budget}"


@attrs.frozen
class MoveStats:
    """What the search found for one legal move.

    ``move`` is the canonical move word; ``visits`` the search iterations through it;
    ``value`` the estimate for the searching seat: in Hipparchus the chance to win the round
    (0..1), in planets the expected points this hand. ``match_value`` is the chance to win
    the match (Hipparchus), ``None`` where the game has no such measure. The ``random`` and
    ``heuristic`` levels do not search: they give their move with 0 visits and the game's
    neutral estimate.
    """

    move: str
    visits: int
    value: float
    match_value: float | None = None


@attrs.frozen
class Analysis:
    """A search's answer: ``best``, the move word the engine plays; ``moves``, the stats of
    each move considered, best first; the ``playouts`` (search iterations) made and the
    ``elapsed_ms`` of wall-clock time."""

    best: str
    moves: tuple[MoveStats, ...]
    playouts: int
    elapsed_ms: float


def view_seed(view: JSON) -> int:
    """The seed of a search of ``view`` (one seat's view): a digest of it, so that a search with
    a playouts budget is reproducible (the same position, the same answer: transcripts and bug
    reports can rely on it). The view is the seat's own, so the seed tells nothing of anyone
    else's cards."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":")).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 2


def within(level: Level, millis: int) -> Level:
    """``level`` with its search budget held to ``millis`` of time at most (a clock's share
    for a decision): an ``ismcts`` level's time budget lowered to it, or given it when the
    level counts playouts only; the other levels do not search, and stay as they are.

    Raises:
        ValueError: ``millis`` below 1.
    """
    if level.name != "ismcts":
        return level
    budget = level.budget
    held = millis if budget.millis is None else min(budget.millis, millis)
    return Level("ismcts", Budget(millis=held, playouts=budget.playouts))
