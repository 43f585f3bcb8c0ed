"""The one structure of every game's next deadline (issue 27): deadlines fire once each, in
order, at their time and not before; one set earlier wakes the task, one taken back never
fires; the heap stays within twice the deadlines however often they change; and while nothing
is due the task sleeps (on trio's virtual clock, no time passes without a deadline). The
daemon's CPU with ten thousand games waiting, and the lateness of their flags, are measured by
bench/bench_clocks.py."""

from __future__ import annotations

import trio
import trio.testing

from hipparchusd.server.timers import Timers


async def test_deadlines_fire_once_each_in_order_at_their_time(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    fired: list[tuple[str, float]] = []

    async def fire(game_id: str) -> None:
        fired.append((game_id, trio.current_time()))

    timers = Timers(fire)
    await nursery.start(timers.run)
    start = trio.current_time()
    timers.set("g2", start + 20)
    timers.set("g1", start + 10)
    timers.set("g3", start + 30)
    timers.set("g3", None)  # taken back
    timers.set("g4", start + 40)
    timers.set("g4", start + 5)  # set earlier: it wakes the task
    await trio.sleep(60)
    assert fired == [("g4", start + 5), ("g1", start + 10), ("g2", start + 20)]
    assert len(timers) == 0 and timers.fired == 3


async def test_a_deadline_already_past_fires_at_once(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    fired: list[float] = []

    async def fire(game_id: str) -> None:
        fired.append(trio.current_time())

    timers = Timers(fire)
    await nursery.start(timers.run)
    now = trio.current_time()
    timers.set("g1", now - 100)
    await trio.sleep(0.001)
    assert fired == [now]


async def test_the_heap_stays_small_however_often_deadlines_change(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    async def fire(game_id: str) -> None:
        pass

    timers = Timers(fire)
    await nursery.start(timers.run)
    now = trio.current_time()
    for move in range(10_000):
        timers.set(f"g{move % 100}", now + 1000 + move)
    assert len(timers) == 100
    assert len(timers._heap) <= 2 * 100 + 64 + 1


async def test_a_thousand_deadlines_wait_without_waking(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    """With nothing due, the task sleeps: the virtual clock jumps straight to each deadline
    (autojump moves it only when every task sleeps), and they all fire at their times."""
    fired: list[tuple[str, float]] = []

    async def fire(game_id: str) -> None:
        fired.append((game_id, trio.current_time()))

    timers = Timers(fire)
    await nursery.start(timers.run)
    start = trio.current_time()
    for number in range(1000):
        timers.set(f"g{number}", start + 3600 + number * 0.01)
    await trio.sleep(3600 + 11)
    assert len(fired) == 1000
    assert all(at == start + 3600 + int(game[1:]) * 0.01 for game, at in fired)
