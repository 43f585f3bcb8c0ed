"""Time controls and the other time options of a game, in the one notation every game uses
(RULINGS T1-T5; docs/rules.md and docs/planets.md, "Time"; PROTOCOL.md, "Clocks").

A game is untimed unless it is created with ``clock=``:

- ``clock=5m+3s``: a bank of 5 minutes and an increment of 3 seconds added after each of the
  seat's decisions (Fischer); ``clock=5m`` has no increment;
- ``clock=30s/move``: no bank, at most 30 seconds for each decision;
- ``clock=3d/move``: the same in days (correspondence);
- ``clock=5m+3s,30s/move``: a bank and increment, and at most 30 seconds per decision besides.

A duration is a number and a unit, ``s`` (seconds), ``m`` (minutes), ``h`` (hours) or ``d``
(days), with up to three decimals (``0.5s``, ``1.5h``). Every quantity is kept as whole
milliseconds, so that the arithmetic of :mod:`.clock` is exact.

Three more options govern what happens when time runs out or a seat goes away:
``timeout=resign|autoplay`` (T2), ``absence=<duration>|off`` (the absence grace, T4) and
``first_move=<duration>|off`` (the first-move limit, T5, for timed games). :func:`split_options`
reads all four from a game's ``new`` options into :class:`TimeRules` and leaves the game's own
options to its kind.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from typing import Final

import attrs

#: Milliseconds in each unit of the notation.
UNITS: Final = {"s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000}
#: The longest duration the notation accepts (100 days, in milliseconds).
MAX_MS: Final = 100 * UNITS["d"]
#: The shortest bank or per-decision cap (0.1 s): less could not be answered over a network.
MIN_MS: Final = 100
#: The first-move limit of a timed game with a bank, unless ``first_move=`` says otherwise (T5).
FIRST_MOVE_MS: Final = 30_000
#: The absence grace of a timed game (T4) unless ``absence=`` says otherwise: a minute.
ABSENCE_TIMED_MS: Final = 60_000
#: The absence grace of an untimed game unless ``absence=`` says otherwise: five minutes.
ABSENCE_UNTIMED_MS: Final = 300_000

#: The keys of the time options, which every game kind takes besides its own.
TIME_KEYS: Final = ("clock", "timeout", "absence", "first_move")

_DURATION = re.compile(r"(?P<whole>[0-9]{1,10})(?:\.(?P<fraction>[0-9]{1,3}))?(?P<unit>[smhd])")


class Timeout(enum.Enum):
    """What a seat's running out of time does (RULINGS T2)."""

    #: It loses as if it had resigned at that moment (Hipparchus's default).
    RESIGN = "resign"
    #: The server decides for it with the engine's heuristic level, and the game goes on
    #: (planets' default).
    AUTOPLAY = "autoplay"


class Absence(enum.Enum):
    """What the absence of a seat past the absence grace allows (RULINGS T4)."""

    #: The other seat may ``claim`` the game: the absent seat resigns (Hipparchus).
    CLAIM = "claim"
    #: The engine decides for the absent seat when it must move, until its holder resumes it
    #: (planets).
    ENGINE = "engine"


def parse_duration(text: str) -> int:
    """The milliseconds a duration word means: ``30s``, ``5m``, ``1.5h``, ``3d``, ``0.1s``.

    Raises:
        ValueError: not a number (up to three decimals) followed by ``s``, ``m``, ``h`` or
            ``d``, or longer than 100 days; the message says which.
    """
    match = _DURATION.fullmatch(text) if text.isascii() else None
    if match is None:
        raise ValueError(
            f"{text[:20]!r} is not a duration (a number and s, m, h or d, e.g. 30s, 5m, 0.5s)"
        )
    unit = UNITS[match["unit"]]
    fraction = (match["fraction"] or "").ljust(3, "0")
    # Every unit is a whole number of seconds, so thousandths of one are whole milliseconds.
    ms = (int(match["whole"]) * 1000 + int(fraction)) * (unit // 1000)
    if ms > MAX_MS:
        raise ValueError(f"{text!r} is longer than 100 days")
    return ms


def format_duration(ms: int) -> str:
    """The canonical word for ``ms`` milliseconds: the largest unit that holds it whole
    (``300000`` is ``5m``, ``90000`` is ``90s``), else seconds with decimals (``0.1s``)."""
    for unit in ("d", "h", "m", "s"):
        size = UNITS[unit]
        if ms and ms % size == 0:
            return f"{ms // size}{unit}"
    seconds, thousandths = divmod(ms, 1000)
    if not thousandths:
        return f"{seconds}s"
    return f"{seconds}.{thousandths:03d}".rstrip("0") + "s"


@attrs.frozen
class TimeControl:
    """A time control (RULINGS T1), in milliseconds: a ``bank`` (``None``: none, only a cap),
    the ``increment`` added after each of the seat's decisions (Fischer), and a ``cap`` on
    each decision (``None``: none). :meth:`parse` reads the notation; ``str()`` writes it."""

    bank: int | None
    increment: int = 0
    cap: int | None = None

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """The control ``clock=`` names: ``<bank>[+<increment>]``, ``<cap>/move``, or both
        joined by ``,`` (``5m+3s,30s/move``).

        Raises:
            ValueError: anything else, saying why (a bad duration, two banks or two caps, a
                bank or cap below 0.1 s).
        """
        bank: int | None = None
        increment = 0
        cap: int | None = None
        parts = text.split(",")
        if len(parts) > 2:
            raise ValueError("a clock is a bank, a cap per move, or both joined by ','")
        for part in parts:
            if part.endswith("/move"):
                if cap is not None:
                    raise ValueError("two caps per move")
                cap = parse_duration(part.removesuffix("/move"))
                if cap < MIN_MS:
                    raise ValueError("a cap per move is at least 0.1s")
                continue
            if bank is not None:
                raise ValueError("two banks (a cap per move is written <time>/move)")
            bank_text, plus, increment_text = part.partition("+")
            bank = parse_duration(bank_text)
            if bank < MIN_MS:
                raise ValueError("a bank is at least 0.1s")
            increment = parse_duration(increment_text) if plus else 0
        return cls(bank, increment, cap)

    def __str__(self) -> str:
        parts = []
        if self.bank is not None:
            parts.append(format_duration(self.bank))
            if self.increment:
                parts[-1] += "+" + format_duration(self.increment)
        if self.cap is not None:
            parts.append(format_duration(self.cap) + "/move")
        return ",".join(parts)

    @property
    def correspondence(self) -> bool:
        """A cap per move of a day or more and no bank (``3d/move``): players come and go."""
        return self.bank is None and self.cap is not None and self.cap >= UNITS["d"]


@attrs.frozen
class TimeRules:
    """A game's time options: its :class:`TimeControl` (``None``: untimed), what a flag does
    (:class:`Timeout`, T2), the absence grace in milliseconds (``None``: off, T4), what an
    absence allows (:class:`Absence`, the kind's), and the first-move limit in milliseconds
    (``None``: no abort; always ``None`` untimed, T5)."""

    control: TimeControl | None = None
    timeout: Timeout = Timeout.RESIGN
    absence: int | None = ABSENCE_UNTIMED_MS
    on_absence: Absence = Absence.CLAIM
    first_move: int | None = None

    @property
    def timed(self) -> bool:
        """Whether the game has a clock."""
        return self.control is not None

    def data(self) -> dict[str, str | int | None]:
        """The options as JSON data for a view: ``control`` (the notation, or ``None``),
        ``timeout``, ``absence_ms``, ``first_move_ms``."""
        return {
            "control": None if self.control is None else str(self.control),
            "timeout": self.timeout.value,
            "absence_ms": self.absence,
            "first_move_ms": self.first_move,
        }


def _off_or_duration(key: str, text: str) -> int | None:
    if text == "off":
        return None
    try:
        return parse_duration(text)
    except ValueError as error:
        raise ValueError(f"{key} must be a duration or off: {error}") from None


def split_options(
    options: Mapping[str, str], *, timeout: Timeout, on_absence: Absence
) -> tuple[TimeRules, dict[str, str]]:
    """Read the time options (:data:`TIME_KEYS`) out of a game's ``new`` options: the
    :class:`TimeRules` they give, with the kind's defaults ``timeout`` and ``on_absence``, and
    the options left for the game's kind.

    Defaults (RULINGS T4, T5): the absence grace is a minute for a timed game, five minutes
    untimed, and off for correspondence; the first-move limit is 30 s, or the bank if it is
    shorter (so that a seat that never moves aborts the game rather than losing it), or the
    cap per move for a control with no bank.

    Raises:
        ValueError: a bad value, or ``first_move`` or ``timeout`` without ``clock``... see the
            message (the lobby answers it as ``bad-option``).
    """
    rest = {key: value for key, value in options.items() if key not in TIME_KEYS}
    control: TimeControl | None = None
    if "clock" in options:
        try:
            control = TimeControl.parse(options["clock"])
        except ValueError as error:
            raise ValueError(f"bad clock {options['clock'][:40]!r}: {error}") from None
    if "timeout" in options:
        try:
            timeout = Timeout(options["timeout"])
        except ValueError:
            raise ValueError(
                f"timeout must be resign or autoplay, not {options['timeout'][:20]!r}"
            ) from None
        if control is None:
            raise ValueError("timeout= is for timed games (give clock= too)")
    if "absence" in options:
        absence = _off_or_duration("absence", options["absence"])
    elif control is None:
        absence = ABSENCE_UNTIMED_MS
    elif control.correspondence:
        absence = None
    else:
        absence = ABSENCE_TIMED_MS
    first_move: int | None = None
    if "first_move" in options:
        if control is None:
            raise ValueError("first_move= is for timed games (give clock= too)")
        first_move = _off_or_duration("first_move", options["first_move"])
    elif control is not None:
        if control.bank is None:
            first_move = control.cap
        else:
            first_move = min(FIRST_MOVE_MS, control.bank, control.cap or control.bank)
    return TimeRules(control, timeout, absence, on_absence, first_move), rest
