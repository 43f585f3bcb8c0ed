"""The clocks of a timed game as the terminal client shows them (issue 27, PROTOCOL.md section
10): what the server last said each seat had (``to-move``'s ``left_ms``, ``state``'s ``clock``),
run down from the moment it said so for the seats to move, and drawn as ``m:ss`` (tenths of a
second in the last ten), the seat to move's clock bold and a low one red. The server's clock
decides; this one only shows it."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any, Final

from rich.text import Text

#: Below this (milliseconds) a clock is drawn as low: red, with tenths.
LOW_MS: Final = 10_000


def clock_text(ms: int) -> str:
    """``ms`` milliseconds as a clock shows them: ``h:mm:ss`` from an hour, ``m:ss`` from ten
    seconds, ``s.t`` (tenths) below; ``d`` days and hours from a day (correspondence)."""
    ms = max(0, ms)
    if ms >= 86_400_000:
        days, rest = divmod(ms, 86_400_000)
        return f"{days}d {rest // 3_600_000}h"
    if ms < LOW_MS:
        return f"{ms // 1000}.{ms % 1000 // 100}"
    seconds = ms // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{minutes}:{seconds:02d}"


class Clocks:
    """Each seat's clock as the server last told it, run down for the seats deciding.

    ``now`` reads this process's monotonic clock (seconds); tests give their own."""

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self._now = now
        #: Seat to (milliseconds it had, when we were told), for the seats we were told of.
        self._told: dict[int, tuple[int, float]] = {}
        self.running: frozenset[int] = frozenset()
        #: Whether the game is timed (a clock was ever told).
        self.timed = False

    def from_state(self, clock: Mapping[str, Any] | None) -> None:
        """Take every seat's clock from ``state``'s ``clock`` (``None``: an untimed game)."""
        if not clock:
            return
        at = self._now()
        self.timed = True
        self.running = frozenset(int(seat) for seat in clock.get("running") or [])
        for seat, left in enumerate(clock.get("left_ms") or []):
            self._told[seat] = (int(left), at)

    def to_move(self, data: Mapping[str, Any]) -> None:
        """A ``to-move``: the seats named decide from now, with what ``left_ms`` says (an
        untimed game's has none); every other seat's clock stops where it stood."""
        seats = [int(seat) for seat in data.get("seats") or []]
        left = data.get("left_ms")
        at = self._now()
        for seat in self.running - set(seats):
            self._told[seat] = (self.left(seat) or 0, at)
        self.running = frozenset(seats)
        if left is None:
            return
        self.timed = True
        for seat, ms in zip(seats, left, strict=False):
            self._told[seat] = (int(ms), at)

    def stop(self) -> None:
        """The game is over: every clock stops where it stands."""
        at = self._now()
        for seat in self.running:
            self._told[seat] = (self.left(seat) or 0, at)
        self.running = frozenset()

    def left(self, seat: int) -> int | None:
        """The milliseconds ``seat`` has left now, as far as we know (``None``: never told)."""
        told = self._told.get(seat)
        if told is None:
            return None
        ms, at = told
        if seat in self.running:
            ms -= round((self._now() - at) * 1000)
        return max(0, ms)

    def text(self, seat: int) -> Text:
        """``seat``'s clock drawn: bold while it runs, red when low; empty untimed."""
        left = self.left(seat)
        if not self.timed or left is None:
            return Text("")
        style = "bold" if seat in self.running else "dim"
        if left < LOW_MS:
            style = "bold red" if seat in self.running else "red"
        return Text(f" {clock_text(left)}", style)
