"""What a match is: its players (:class:`Player`), what makes two runs the same match
(:class:`Config`), who holds each seat in a rotation, and one game's result
(:class:`GameResult`)."""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

import attrs

from ..clocks import TIME_KEYS
from ..engine.types import Level
from ..games.base import BadOption
from ..games.registry import KINDS


class MatchError(Exception):
    """The match cannot go on: a bad player, a daemon that refuses, a results file of another
    match (the message says which)."""


@attrs.frozen
class Player:
    """One side of the match: ``spec`` as given; ``level`` for a built-in level, else
    ``command``, an external program's argument list."""

    spec: str
    level: Level | None = None
    command: tuple[str, ...] = ()

    @classmethod
    def parse(cls, text: str) -> Player:
        """``random``, ``heuristic``, ``ismcts[:budget]`` or ``cmd:<command line>``.

        Raises:
            MatchError: anything else, naming what is wrong.
        """
        if text.startswith("cmd:"):
            command = tuple(shlex.split(text[4:]))
            if not command:
                raise MatchError(f"{text!r}: cmd: needs a command line")
            return cls(text, command=command)
        try:
            return cls(text, level=Level.parse(text))
        except ValueError as error:
            raise MatchError(f"player {text!r}: {error} (or cmd:<command line>)") from None


@attrs.frozen
class GameResult:
    """One game played: its ``deal`` and ``rotation``, which player held each seat
    (``players``), the ``winners`` (seats) and ``scores`` (per seat) of its ``game-over``, the
    hands played (planets; ``None`` for a game without hands) and the daemon's game id. In a
    timed match (``--tc``), ``flagged`` is the seat whose time ran out and lost it the game
    (its ``game-over``'s ``timeout``), and ``timeouts`` counts for each seat the decisions the
    server made for it, out of time, where the game goes on (RULINGS T2)."""

    deal: int
    rotation: int
    players: tuple[int, ...]
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    hands: int | None
    game: str
    flagged: int | None = None
    timeouts: tuple[int, ...] = ()

    def first_score(self) -> float:
        """The first player's result against the second: 1 (it alone holds a winning seat),
        0 (the second alone does), 1/2 otherwise."""
        holders = {self.players[seat] for seat in self.winners}
        first, second = 0 in holders, 1 in holders
        if first and not second:
            return 1.0
        if second and not first:
            return 0.0
        return 0.5


@attrs.frozen
class Config:
    """What makes two runs the same match (a results file resumes only its own): ``tc`` is its
    time control in the daemon's notation (``clock=``), empty for an untimed match."""

    kind: str
    players: tuple[str, ...]
    options: tuple[str, ...]
    seed: int
    seats: int
    tc: str = ""


_SECONDS = re.compile(r"[0-9]{1,7}(\.[0-9]{1,3})?")


def parse_tc(text: str) -> str:
    """The daemon's ``clock=`` for a cutechess-style time control: ``<time>[+<increment>]`` in
    seconds (``60+1``: a minute and a second a move; ``0.5+0.1``), or the daemon's own
    notation as it is (``1m+1s``, ``30s/move``).

    Raises:
        MatchError: a control neither is, or one the daemon does not serve (cutechess's
            ``moves/time``, a bank renewed every few moves), naming what is wrong.
    """
    from ..clocks import TimeControl

    bank, plus, increment = text.partition("+")
    if _SECONDS.fullmatch(bank) and (not plus or _SECONDS.fullmatch(increment)):
        clock = f"{bank}s+{increment}s" if plus else f"{bank}s"
    elif "/" in text and not text.endswith("/move"):
        raise MatchError(
            f"--tc {text!r}: moves/time controls are not served; give <seconds>[+<increment>]"
        )
    else:
        clock = text
    try:
        return str(TimeControl.parse(clock))
    except ValueError as error:
        raise MatchError(f"--tc {text!r}: {error} (e.g. --tc 60+1)") from None


def seats_of(kind: str, options: Sequence[str]) -> int:
    """The seats of a game of ``kind`` made with ``options`` (from the registry).

    Raises:
        MatchError: an unknown kind or bad options.
    """
    found = KINDS.get(kind)
    if found is None:
        raise MatchError(f"unknown kind {kind!r} ({', '.join(KINDS)})")
    given = dict(o.split("=", 1) for o in options)
    try:
        # The time options are every kind's, not the kind's own (RULINGS T1-T5).
        return found.create({k: v for k, v in given.items() if k not in TIME_KEYS}).seat_count
    except (BadOption, ValueError) as error:
        raise MatchError(f"options {' '.join(options)}: {error}") from None


def seating(seats: int, players: int, rotation: int) -> tuple[int, ...]:
    """The player of each seat in ``rotation``: seat ``s`` plays ``(s + rotation) mod players``."""
    return tuple((seat + rotation) % players for seat in range(seats))
