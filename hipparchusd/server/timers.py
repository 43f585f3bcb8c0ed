"""Every loaded game's next deadline, in one heap and one task (:class:`Timers`; RULINGS T2-T5,
issue 27): a flag, a first-move limit, the end of an absence grace.

No task per game and no polling: the task sleeps until the earliest deadline (or until an
earlier one is set), so ten thousand timed games waiting on their clocks cost nothing until one
is due (``bench/bench_clocks.py`` measures the daemon's CPU and the lateness of flags). When a
deadline comes, the game's callback runs in a task of this structure's nursery, which carries
out what is due in the game's order (:meth:`~.lifecycle.Server`'s ``_deadline``); the deadline
that follows is set again from the lobby once the game's result is carried out.

A deadline set again is pushed anew and the old entry is left in the heap, skipped when it
surfaces; the heap is rebuilt when stale entries outnumber live ones, so that it stays within
twice the number of games with a deadline.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Awaitable, Callable

import trio

#: Carries out what is due in a game (its id), in the game's order.
Fire = Callable[[str], Awaitable[None]]


class Timers:
    """One deadline per game (the server's monotonic seconds, :func:`trio.current_time`), and
    the task (:meth:`run`) that calls ``fire(game_id)`` once each is reached. A deadline is
    forgotten as it fires: the game's next one is set by whoever carries out its result."""

    def __init__(self, fire: Fire) -> None:
        self._fire = fire
        self._heap: list[tuple[float, int, str]] = []
        self._when: dict[str, float] = {}
        self._order = itertools.count()
        self._wake = trio.Event()
        #: Deadlines fired so far (for tests and benchmarks).
        self.fired = 0

    def __len__(self) -> int:
        """Games with a deadline."""
        return len(self._when)

    def when(self, game_id: str) -> float | None:
        """``game_id``'s deadline, if it has one."""
        return self._when.get(game_id)

    def set(self, game_id: str, when: float | None) -> None:
        """Make ``when`` the deadline of ``game_id`` (``None``: it has none); a deadline
        already past fires at once."""
        current = self._when.get(game_id)
        if when == current:
            return
        if when is None:
            del self._when[game_id]
            return
        self._when[game_id] = when
        heap = self._heap
        earliest = heap[0][0] if heap else None
        heapq.heappush(heap, (when, next(self._order), game_id))
        if len(heap) > 2 * len(self._when) + 64:
            self._compact()
        if earliest is None or when < earliest:
            self._wake.set()

    def _compact(self) -> None:
        """Rebuild the heap from the live deadlines alone."""
        order = self._order
        self._heap = [(when, next(order), game) for game, when in self._when.items()]
        heapq.heapify(self._heap)

    def _drop_stale(self) -> None:
        heap, when = self._heap, self._when
        while heap and when.get(heap[0][2]) != heap[0][0]:
            heapq.heappop(heap)

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Fire the deadlines as they come, until cancelled; each in a task of a nursery of
        this call (so none outlives it)."""
        async with trio.open_nursery() as nursery:
            task_status.started()
            while True:
                self._drop_stale()
                heap = self._heap
                if not heap:
                    await self._wake.wait()
                    self._wake = trio.Event()
                    continue
                earliest = heap[0][0]
                if earliest > trio.current_time():
                    with trio.move_on_at(earliest):
                        await self._wake.wait()
                    if self._wake.is_set():
                        self._wake = trio.Event()
                    continue
                now = trio.current_time()
                while heap and heap[0][0] <= now:
                    when, _, game_id = heapq.heappop(heap)
                    if self._when.get(game_id) == when:
                        del self._when[game_id]
                        self.fired += 1
                        nursery.start_soon(self._fire, game_id)
                # Let the fired games' tasks start before the next look.
                await trio.lowlevel.checkpoint()
