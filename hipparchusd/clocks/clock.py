"""The clock arithmetic of a timed game, pure and exact (RULINGS T1-T5; PROTOCOL.md, "Clocks").

Time comes in as an argument, never from a clock read here: ``now`` is a monotonic time in
seconds that the caller gives (the server's, at the moment a request or a deadline came). Every
amount of time kept is whole milliseconds; a decision's length is the milliseconds from its
start to ``now``, rounded to the nearest.

A seat's clock (:class:`SeatClock`) runs while the seat must decide (T1): from the moment it
must move (:meth:`Clocks.run`) to its decision (:meth:`Clocks.decide`), for several seats at
once in a simultaneous move. A decision may take what the seat :meth:`~Clocks.allowed`: its
bank, or the cap per move if that is less. Past it, the seat's **lag allowance** (T3) is drawn
on: a reserve of :data:`LAG_MS` per seat from which the overrun of a late decision is taken, so
that one slow round trip never flags; a decision made in time gives back :data:`LAG_REFILL_MS`,
up to :data:`LAG_MS`. A seat whose decision outlasts what it is allowed and its lag allowance
is out of time (:meth:`~Clocks.flag_at`, :meth:`~Clocks.time_out`). After each decision, its
own or the server's, the increment is added to the bank (Fischer).

Besides, the deadlines of a seat that never makes its first decision (T5,
:func:`first_move_at`) and of an absent seat (T4, :func:`absence_at`), and the time an engine
may spend on a decision (:func:`decision_budget`).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Final

import attrs

from ..jsondata import JSON, JSONObject
from .control import TimeControl

#: Each seat's lag allowance at the start, and the most it holds (milliseconds, T3).
LAG_MS: Final = 1000
#: What a decision made within its time gives back to the seat's lag allowance (milliseconds).
LAG_REFILL_MS: Final = 100


def elapsed_ms(since: float, now: float) -> int:
    """Whole milliseconds from ``since`` to ``now`` (seconds on one monotonic clock), rounded
    to the nearest; 0 when ``now`` is not later (a request that came before its turn)."""
    return max(0, round((now - since) * 1000))


@attrs.frozen
class SeatClock:
    """One seat's clock: the milliseconds ``left`` in its bank (``None`` for a control with no
    bank), its ``lag`` allowance left, whether it has ``decided`` once (T5), and ``since``, the
    monotonic time its current decision started (``None`` while it need not decide)."""

    left: int | None
    lag: int = LAG_MS
    decided: bool = False
    since: float | None = None


@attrs.frozen
class Charge:
    """What one decision of ``seat`` cost: ``spent`` milliseconds from its start, of which
    ``lag_used`` came from the lag allowance; ``timeout`` when the seat ran out and the server
    acted for it (then ``spent`` is all it had, its allowance included)."""

    seat: int
    spent: int
    lag_used: int = 0
    timeout: bool = False


@attrs.frozen
class Clocks:
    """The clocks of every seat of a timed game under ``control``: an immutable value, each
    change a new one."""

    control: TimeControl
    seats: tuple[SeatClock, ...]

    @classmethod
    def start(cls, control: TimeControl, seat_count: int) -> Clocks:
        """Every seat with a full bank and lag allowance, none deciding."""
        return cls(control, (SeatClock(control.bank),) * seat_count)

    def allowed(self, seat: int) -> int:
        """The milliseconds ``seat`` has for its current (or next) decision, its lag
        allowance not counted: its bank, or the cap per move if that is less."""
        left = self.seats[seat].left
        cap = self.control.cap
        if left is None:
            assert cap is not None, "a control has a bank or a cap"
            return cap
        return left if cap is None else min(left, cap)

    def running(self) -> tuple[int, ...]:
        """The seats whose clocks run, in seat order."""
        return tuple(n for n, seat in enumerate(self.seats) if seat.since is not None)

    def run(self, seats: Collection[int], now: float) -> Clocks:
        """The clocks once exactly ``seats`` must decide, at ``now``: a seat among them whose
        clock does not run yet starts its decision now; one that runs already goes on; any
        other stops, charged nothing (the game ended, or its move was made)."""
        changed = False
        clocks = list(self.seats)
        for number, seat in enumerate(clocks):
            deciding = number in seats
            if deciding and seat.since is None:
                clocks[number] = attrs.evolve(seat, since=now)
                changed = True
            elif not deciding and seat.since is not None:
                clocks[number] = attrs.evolve(seat, since=None)
                changed = True
        return attrs.evolve(self, seats=tuple(clocks)) if changed else self

    def stop(self) -> Clocks:
        """Every clock stopped (the game is over)."""
        return self.run((), 0.0)

    def elapsed(self, seat: int, now: float) -> int:
        """Milliseconds ``seat``'s current decision has taken by ``now`` (0 when it need not
        decide)."""
        since = self.seats[seat].since
        return 0 if since is None else elapsed_ms(since, now)

    def left_at(self, seat: int, now: float) -> int:
        """Milliseconds ``seat`` has left for its current decision at ``now``, its lag
        allowance not counted (never below 0); what it has for its next one when its clock
        does not run."""
        return max(0, self.allowed(seat) - self.elapsed(seat, now))

    def flag_at(self, seat: int) -> float | None:
        """When ``seat`` runs out of time (monotonic seconds): its decision's start plus what
        it is allowed and its lag allowance; ``None`` while its clock does not run."""
        clock = self.seats[seat]
        if clock.since is None:
            return None
        return clock.since + (self.allowed(seat) + clock.lag) / 1000

    def out_of_time(self, seat: int, now: float) -> bool:
        """Whether ``seat``'s running decision has outlasted what it is allowed and its lag
        allowance by ``now``."""
        clock = self.seats[seat]
        return clock.since is not None and (
            self.elapsed(seat, now) > self.allowed(seat) + clock.lag
        )

    def decide(self, seat: int, now: float) -> tuple[Clocks, Charge]:
        """``seat`` decided at ``now``, within its time and lag allowance: its bank loses the
        decision's length (never below 0) and gains the increment; an overrun of what it was
        allowed comes off its lag allowance, and a decision in time gives back
        :data:`LAG_REFILL_MS` of it. Its clock stops.

        Raises:
            ValueError: its clock does not run, or it is out of time (:meth:`time_out`).
        """
        clock = self.seats[seat]
        if clock.since is None:
            raise ValueError(f"seat {seat} is not deciding")
        if self.out_of_time(seat, now):
            raise ValueError(f"seat {seat} is out of time")
        spent = self.elapsed(seat, now)
        over = max(0, spent - self.allowed(seat))
        lag = clock.lag - over if over else min(LAG_MS, clock.lag + LAG_REFILL_MS)
        after = SeatClock(self._banked(clock, spent), lag, True, None)
        return self._with(seat, after), Charge(seat, spent, over)

    def time_out(self, seat: int) -> tuple[Clocks, Charge]:
        """``seat`` ran out of time: its decision is charged all it had (what it was allowed
        and its lag allowance), which leaves its bank and allowance empty before the increment
        (T2: from then on it has the increment, or the cap, for each decision). Its clock
        stops.

        Raises:
            ValueError: its clock does not run.
        """
        clock = self.seats[seat]
        if clock.since is None:
            raise ValueError(f"seat {seat} is not deciding")
        spent = self.allowed(seat) + clock.lag
        after = SeatClock(self._banked(clock, spent), 0, True, None)
        return self._with(seat, after), Charge(seat, spent, clock.lag, timeout=True)

    def _banked(self, clock: SeatClock, spent: int) -> int | None:
        if clock.left is None:
            return None
        return max(0, clock.left - spent) + self.control.increment

    def _with(self, seat: int, clock: SeatClock) -> Clocks:
        seats = list(self.seats)
        seats[seat] = clock
        return attrs.evolve(self, seats=tuple(seats))

    # -- as JSON ----------------------------------------------------------------------------

    def stored(self) -> JSONObject:
        """What is stored with a decision (T6): each seat's bank (``null`` with no bank), lag
        allowance and whether it has decided once. Not when a clock started: the time a game
        is not loaded is charged to nobody."""
        return {
            "left": [seat.left for seat in self.seats],
            "lag": [seat.lag for seat in self.seats],
            "decided": [seat.decided for seat in self.seats],
        }

    @classmethod
    def from_stored(cls, control: TimeControl, seat_count: int, data: JSON) -> Clocks:
        """The clocks :meth:`stored` wrote, none running.

        Raises:
            ValueError: ``data`` is not such a value for ``seat_count`` seats.
        """
        if not isinstance(data, dict):
            raise ValueError("stored clocks are an object")
        left, lag, decided = data.get("left"), data.get("lag"), data.get("decided")
        if not (
            isinstance(left, list)
            and isinstance(lag, list)
            and isinstance(decided, list)
            and len(left) == len(lag) == len(decided) == seat_count
        ):
            raise ValueError(f"stored clocks need left, lag and decided for {seat_count} seats")
        seats = []
        for bank, allowance, once in zip(left, lag, decided, strict=True):
            if bank is not None and not (type(bank) is int and bank >= 0):
                raise ValueError("stored clocks hold milliseconds")
            if not (type(allowance) is int and allowance >= 0 and type(once) is bool):
                raise ValueError("stored clocks hold milliseconds and booleans")
            if (bank is None) != (control.bank is None):
                raise ValueError("stored clocks do not fit the control")
            seats.append(SeatClock(bank, allowance, once))
        return cls(control, tuple(seats))

    def view(self, now: float) -> JSONObject:
        """The clocks at ``now`` for a view (``state``, ``time_left``): the ``control``, the
        seats whose clocks are ``running``, the milliseconds each seat has ``left`` for its
        current or next decision (:meth:`left_at`), each seat's ``bank_ms`` (``null`` with no
        bank) and ``lag_ms`` (its lag allowance left)."""
        seats = range(len(self.seats))
        return {
            "control": str(self.control),
            "running": list(self.running()),
            "left_ms": [self.left_at(n, now) for n in seats],
            "bank_ms": [seat.left for seat in self.seats],
            "lag_ms": [seat.lag for seat in self.seats],
        }


def first_move_at(clock: SeatClock, limit_ms: int | None) -> float | None:
    """When a seat that has never decided aborts the game (T5): its decision's start plus the
    first-move limit; ``None`` once it has decided, while it need not decide, or with no
    limit."""
    if limit_ms is None or clock.decided or clock.since is None:
        return None
    return clock.since + limit_ms / 1000


def absence_at(away_since: float, grace_ms: int, deciding_since: float) -> float:
    """When the engine takes a seat that went away at ``away_since`` and must decide since
    ``deciding_since`` (T4): once the absence grace has passed, and never before the decision
    is due (nothing happens while the absent seat need not move)."""
    return max(away_since + grace_ms / 1000, deciding_since)


def absent(away_since: float | None, grace_ms: int | None, now: float) -> bool:
    """Whether a seat that went away at ``away_since`` (``None``: it is here) is absent at
    ``now``: away for the whole absence grace (``None``: absence never counts)."""
    if away_since is None or grace_ms is None:
        return False
    return elapsed_ms(away_since, now) >= grace_ms


#: The decisions an engine plans for when the game cannot say how many are left (as UCI
#: engines assume ``movestogo`` 30 when told none).
DEFAULT_HORIZON: Final = 30
#: Milliseconds an engine keeps back from what a decision is allowed: the time the answer
#: takes to reach the server, and the slack of a busy machine.
ENGINE_RESERVE_MS: Final = 50


def decision_budget(
    bank_ms: int | None, cap_ms: int | None, increment_ms: int, decisions_left: int | None
) -> int:
    """The milliseconds an engine may spend on its next decision, with ``bank_ms`` left in
    its bank (``None``: no bank), at most ``cap_ms`` per decision (``None``: no cap),
    ``increment_ms`` added after each decision, and ``decisions_left`` decisions still to make
    in the hand or round, this one included (``None``: unknown, :data:`DEFAULT_HORIZON`).

    The bank's share for each decision left plus three quarters of the increment, and the cap;
    less :data:`ENGINE_RESERVE_MS` of either, so that an engine that keeps to its budget never
    runs out of time. At least 1 (the caller plays a cheap move then)."""
    limits = []
    if bank_ms is not None:
        usable = bank_ms - ENGINE_RESERVE_MS
        horizon = max(1, DEFAULT_HORIZON if decisions_left is None else decisions_left)
        limits += [usable, usable // horizon + increment_ms * 3 // 4]
    if cap_ms is not None:
        limits.append(cap_ms - ENGINE_RESERVE_MS)
    return max(1, min(limits)) if limits else 1
