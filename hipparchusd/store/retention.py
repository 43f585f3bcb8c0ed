"""When a store prunes its finished games (the retention rule, ``--retention-days``): at
start-up, then at most every :data:`PRUNE_INTERVAL` seconds, with the finishing call that
comes due (:class:`Retention`). Both stores keep it so."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

#: Seconds between prunings of finished games past retention (also done at start-up).
PRUNE_INTERVAL: Final = 3600.0
_DAY: Final = 86400.0


class Retention:
    """The retention rule of one store: finished games are kept ``days`` days (0: forever), by
    ``clock`` (seconds since the epoch)."""

    def __init__(self, days: float, clock: Callable[[], float]) -> None:
        self.days = days
        self.clock = clock
        self.last_prune = clock()

    def before(self, now: float) -> float | None:
        """The finish time before which finished games are past retention (None: keep all)."""
        return now - self.days * _DAY if self.days else None

    def due(self, now: float) -> float | None:
        """The ``prune_before`` of a finishing call made at ``now``: a time when a pruning is
        due (at most every :data:`PRUNE_INTERVAL` seconds), else ``None``."""
        if now - self.last_prune < PRUNE_INTERVAL:
            return None
        self.last_prune = now
        return self.before(now)

    def now(self) -> float | None:
        """The ``prune_before`` of a pruning made now (start-up), whenever the last was."""
        self.last_prune = now = self.clock()
        return self.before(now)
