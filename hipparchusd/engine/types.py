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
LEVEL_NAMES: tuple[str, ...] = ("random", "heuristic", "sampler", "ismcts")
LevelName = Literal["random", "heuristic", "sampler", "ismcts"]
#: The levels that search, within a budget (the others answer at once).
SEARCHING: tuple[str, ...] = ("sampler", "ismcts")
#: The levels offered to people, weakest first (``kinds`` lists them; each one's strength
#: against ``random`` and against the next is measured by bench/bench_strength.py and stated
#: in docs/engine.md).
LADDER: tuple[str, ...] = ("random", "heuristic", "sampler", "ismcts")

#: The default search budget: at most 100 ms per move (issue 18, "Strength").
DEFAULT_MILLIS = 100
#: The worlds (sampled deals) a move of the ``sampler`` level looks at by default (issue 29:
#: "deals the unseen cards at random about 160 times a move").
SAMPLER_WORLDS = 160


def _check_budget(instance: Budget, attribute: attrs.Attribute[int | None], value: object) -> None:
    if value is None:
        return
    if type(value) is not int or value < 1:
        raise ValueError(f"budget {attribute.name} must be a positive integer, not {value!r}")


@attrs.frozen
class Budget:
    """How long a search may run: ``millis`` of wall-clock time, ``cpu_millis`` of the
    searching thread's CPU time, ``playouts`` iterations, or any of them together (the search
    stops at whichever comes first).

    A CPU-time budget makes a level as strong on a busy machine as on an idle one (the search
    does the same work, and takes longer by the clock): the strength figures of
    docs/engine.md are measured with it, so that the machine's load does not decide them.

    Raises:
        ValueError: none is set, or one is not a positive integer.
    """

    millis: int | None = attrs.field(default=None, validator=_check_budget)
    playouts: int | None = attrs.field(default=None, validator=_check_budget)
    cpu_millis: int | None = attrs.field(default=None, validator=_check_budget, kw_only=True)

    def __attrs_post_init__(self) -> None:
        if self.millis is None and self.playouts is None and self.cpu_millis is None:
            raise ValueError("a budget needs millis, cpu_millis, playouts or some of them")

    def __str__(self) -> str:
        parts = []
        if self.millis is not None:
            parts.append(f"{self.millis}ms")
        if self.cpu_millis is not None:
            parts.append(f"{self.cpu_millis}cpu")
        if self.playouts is not None:
            parts.append(str(self.playouts))
        return ",".join(parts)


_BUDGET_PART = re.compile(r"(?P<number>[1-9][0-9]{0,8})(?P<unit>ms|cpu)?")


#: A budget part's unit as an error message names it.
_UNIT_WORDS = {"ms": "time", "cpu": "CPU time", "": "playout"}


def _check_name(instance: Level, attribute: attrs.Attribute[str], value: object) -> None:
    if value not in LEVEL_NAMES:
        raise ValueError(f"unknown level {value!r} (expected one of {', '.join(LEVEL_NAMES)})")


def default_budget(name: str) -> Budget:
    """The budget of a level named without one: ``sampler`` looks at
    :data:`SAMPLER_WORLDS` worlds, ``ismcts`` searches :data:`DEFAULT_MILLIS` ms (the levels
    that do not search ignore theirs)."""
    if name == "sampler":
        return Budget(playouts=SAMPLER_WORLDS)
    return Budget(millis=DEFAULT_MILLIS)


@attrs.frozen
class Level:
    """A player strength: ``random`` (a uniformly random legal move), ``heuristic`` (the game's
    rule-based player), ``sampler`` (flat Monte Carlo over sampled deals, every move played
    out in each: :mod:`hipparchusd.engine.sampler`; its ``budget``'s playouts count deals) or
    ``ismcts`` (information-set Monte Carlo tree search within ``budget``). The levels that do
    not search ignore the budget; without one, a level has :func:`default_budget`.

    Raises:
        ValueError: an unknown name.
    """

    name: LevelName = attrs.field(validator=_check_name)
    budget: Budget = attrs.field(
        default=attrs.Factory(lambda self: default_budget(self.name), takes_self=True)
    )

    @classmethod
    def parse(cls, text: str) -> Level:
        """Read a level word: ``random``, ``heuristic``, ``sampler`` (160 deals),
        ``ismcts`` (100 ms), or a searching level with a budget: ``ismcts:200ms`` (a time
        budget), ``ismcts:100cpu`` (100 ms of CPU time), ``ismcts:5000`` (a playout budget;
        ``sampler:80``, 80 deals) or several of them, ``ismcts:200ms,5000`` (whichever comes
        first).

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
        if name not in SEARCHING:
            raise ValueError(f"level {name!r} takes no budget (in {text!r})")
        found: dict[str, int] = {}
        for part in rest.split(","):
            match = _BUDGET_PART.fullmatch(part)
            if match is None:
                raise ValueError(
                    f"bad budget {part!r} in {text!r} "
                    "(expected e.g. 200ms, 100cpu or 5000 playouts)"
                )
            unit = match["unit"] or ""
            if unit in found:
                raise ValueError(f"two {_UNIT_WORDS[unit]} budgets in {text!r}")
            found[unit] = int(match["number"])
        budget = Budget(millis=found.get("ms"), playouts=found.get(""), cpu_millis=found.get("cpu"))
        return cls(name, budget)  # type: ignore[arg-type]  # checked against LEVEL_NAMES above

    def __str__(self) -> str:
        if self.name not in SEARCHING or self.budget == default_budget(self.name):
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
