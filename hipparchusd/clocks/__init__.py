"""Clocks, time controls and absent players (RULINGS T1-T6), pure and synchronous: the
notation of the time options (:mod:`.control`) and the clock arithmetic (:mod:`.clock`). Time
comes in as an argument; nothing here reads a clock."""

from .clock import (
    LAG_MS,
    LAG_REFILL_MS,
    Charge,
    Clocks,
    SeatClock,
    absence_at,
    absent,
    decision_budget,
    elapsed_ms,
    first_move_at,
)
from .control import (
    TIME_KEYS,
    Absence,
    TimeControl,
    Timeout,
    TimeRules,
    format_duration,
    parse_duration,
    split_options,
)

__all__ = [
    "LAG_MS",
    "LAG_REFILL_MS",
    "TIME_KEYS",
    "Absence",
    "Charge",
    "Clocks",
    "SeatClock",
    "TimeControl",
    "TimeRules",
    "Timeout",
    "absence_at",
    "absent",
    "decision_budget",
    "elapsed_ms",
    "first_move_at",
    "format_duration",
    "parse_duration",
    "split_options",
]
