"""The engine's worker processes (hipparchusd.server.workers.EnginePool): searches answered off
the trio thread, a stop that ends a search early with what it found, cancellation that gives
the worker back, a refused search and a dead worker reported as EngineError, never with the
view's contents in the message; workers started and ready (their engines loaded) before the
pool says it runs; a stopped (SIGSTOP) worker killed and replaced at its deadline, whatever
exchange it was in (issue 24 items 5 and 7); searches taken by turns across addresses."""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import AsyncIterator
from typing import Any

import pytest
import trio

from hipparchusd.engine.types import Analysis
from hipparchusd.games.registry import find_kind
from hipparchusd.server.workers import STOP_TIMEOUT, EngineError, EnginePool, within_deadline

HIPPARCHUS_ENGINE = "hipparchusd.games.hipparchus.engine"

#: Seconds a test waits for what takes a worker milliseconds, or one deadline of a second:
#: far more, so that only a search or a deadline that never ends fails it (a loaded machine
#: starts a worker in seconds).
GENEROUS = 60
#: The workers' deadline in the tests that stop one (seconds): a stopped worker must miss it,
#: a running one never, even niced on a machine loaded twenty times over (at 1 s, a search
#: starved of the CPU that long was taken for a stopped one).
DEADLINE = 5


def a_view(seat: int = 0) -> Any:
    game = find_kind("hipparchus").create({"seed": "4", "leader": "0"})
    game.start()
    return game.view_data(seat)


@contextlib.asynccontextmanager
async def running(pool: EnginePool) -> AsyncIterator[EnginePool]:
    """``pool`` running (its workers started and ready) for the block, ended after."""
    async with trio.open_nursery() as nursery:
        with trio.fail_after(GENEROUS):
            await nursery.start(pool.run)
        yield pool
        nursery.cancel_scope.cancel()


def process_gone(pid: int) -> bool:
    """Whether process ``pid`` is gone (killed and reaped: not even a zombie)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


async def test_workers_are_ready_with_their_engines_before_the_pool_runs() -> None:
    pool = EnginePool(2, engines=[HIPPARCHUS_ENGINE, "no_such_engine"])
    async with running(pool):
        # Both started, and each loaded the engine it can before any search (issue 24 item 7).
        assert pool.ready == 2 and len(pool.pids) == 2 and os.getpid() not in pool.pids
        assert pool.loaded == (HIPPARCHUS_ENGINE,)
        first = await pool.search("hipparchus", a_view(), "ismcts:300", seed=7)
        assert first.playouts == 300
    assert pool.pids == [] and pool.closed


async def test_on_demand_a_worker_starts_with_the_first_search() -> None:
    pool = EnginePool(1, on_demand=True)
    async with running(pool):
        assert pool.ready == 0 and pool.pids == []
        with trio.fail_after(GENEROUS):
            assert (await pool.search("hipparchus", a_view(), "random", seed=1)).best
        assert pool.ready == 1


async def test_searches_run_in_a_worker_and_are_reproducible_with_playouts() -> None:
    async with running(EnginePool(1)) as pool:
        view = a_view()
        first = await pool.search("hipparchus", view, "ismcts:300", seed=7)
        again = await pool.search("hipparchus", view, "ismcts:300", seed=7)
        assert first.playouts == 300 and first.moves == again.moves
        assert first.best == first.moves[0].move
        assert pool.searches == 0 and pool.restarts == 0


async def test_a_stop_ends_the_search_with_what_it_found() -> None:
    stop = trio.Event()
    reports: list[Analysis] = []

    def progress(analysis: Analysis) -> None:
        reports.append(analysis)
        stop.set()

    async with running(EnginePool(1)) as pool:
        with trio.fail_after(GENEROUS):
            found = await pool.search(
                "hipparchus", a_view(), "ismcts:9000ms", seed=1, interval_ms=50,
                on_progress=progress, stop=stop,
            )  # fmt: skip
        assert reports and found.playouts >= reports[0].playouts and found.elapsed_ms < 9000
        assert pool.restarts == 0


async def test_a_cancelled_search_gives_its_worker_back() -> None:
    # A stop deadline no loaded machine misses: the test is of the worker's reuse.
    async with running(EnginePool(1, stop_timeout=GENEROUS)) as pool:
        (worker,) = pool.pids
        with trio.move_on_after(0.3):
            await pool.search("hipparchus", a_view(), "ismcts:9000ms", seed=1)
        assert pool.searches == 0
        with trio.fail_after(GENEROUS):
            await pool.search("hipparchus", a_view(), "random", seed=2)
        assert pool.pids == [worker]  # the same process, stopped in time and reused


async def test_a_refused_search_names_no_card() -> None:
    async with running(EnginePool(1)) as pool:
        view = a_view()
        with pytest.raises(EngineError, match="no game kind 'nonesuch' is served"):
            await pool.search("nonesuch", view, "random", seed=1)
        # A view the engine refuses: seat 1's, which need not move (seat 0 leads).
        other = a_view(1)
        with pytest.raises(EngineError) as refused:
            await pool.search("hipparchus", other, "random", seed=1)
        assert str(refused.value) == "the engine refused the search (ValueError)"
        assert "need not move" in refused.value.detail and not refused.value.lost
        hand = other["hand"] if isinstance(other, dict) and "hand" in other else None
        assert hand is not None and str(hand) not in str(refused.value)
        # The worker lives on.
        assert (await pool.search("hipparchus", view, "random", seed=1)).best
        assert pool.restarts == 0


async def test_a_dead_worker_is_an_engine_error_and_replaced() -> None:
    async with running(EnginePool(1)) as pool:
        (worker,) = pool.pids

        async def kill_soon() -> None:
            await trio.sleep(0.2)
            os.kill(worker, signal.SIGKILL)

        async with trio.open_nursery() as nursery:
            nursery.start_soon(kill_soon)
            with pytest.raises(EngineError, match="died") as died:
                await pool.search("hipparchus", a_view(), "ismcts:5000ms", seed=1)
        assert died.value.lost
        with trio.fail_after(GENEROUS):
            assert (await pool.search("hipparchus", a_view(), "random", seed=1)).best
        assert worker not in pool.pids and pool.restarts == 1


async def _searching(pool: EnginePool, reports: list[Analysis]) -> None:
    """Wait until the pool's worker has sent a report of the search under way."""
    with trio.fail_after(GENEROUS):
        while not reports:
            await trio.sleep(0.01)


async def test_a_stopped_worker_misses_its_deadline_and_is_replaced() -> None:
    async with running(EnginePool(1, timeout=DEADLINE)) as pool:
        (worker,) = pool.pids
        reports: list[Analysis] = []
        failure: list[EngineError] = []

        async def search() -> None:
            try:
                await pool.search(
                    "hipparchus", a_view(), "ismcts:60000ms", seed=1, interval_ms=50,
                    on_progress=reports.append,
                )  # fmt: skip
            except EngineError as error:
                failure.append(error)

        async with trio.open_nursery() as nursery:
            nursery.start_soon(search)
            await _searching(pool, reports)
            os.kill(worker, signal.SIGSTOP)  # wedged: alive, silent, never exits by itself
            with trio.fail_after(GENEROUS):
                while not failure:
                    await trio.sleep(0.01)
        (error,) = failure
        assert error.lost and f"did not send anything within {DEADLINE} s" in str(error)
        with trio.fail_after(GENEROUS):
            while not process_gone(worker):  # killed (a stopped process too) and reaped
                await trio.sleep(0.05)
            # Its replacement serves the next search.
            assert (await pool.search("hipparchus", a_view(), "random", seed=1)).best
        assert pool.restarts == 1 and worker not in pool.pids


async def test_a_stop_to_a_stopped_worker_is_answered_within_its_deadline() -> None:
    async with running(EnginePool(1, timeout=30)) as pool:
        (worker,) = pool.pids
        reports: list[Analysis] = []
        stop = trio.Event()
        failure: list[EngineError] = []

        async def search() -> None:
            try:
                await pool.search(
                    "hipparchus", a_view(), "ismcts:60000ms", seed=1, interval_ms=50,
                    on_progress=reports.append, stop=stop,
                )  # fmt: skip
            except EngineError as error:
                failure.append(error)

        async with trio.open_nursery() as nursery:
            nursery.start_soon(search)
            await _searching(pool, reports)
            os.kill(worker, signal.SIGSTOP)
            stop.set()
            # The stop's deadline, not the search's (30 s), ends it.
            with trio.fail_after(GENEROUS):
                while not failure:
                    await trio.sleep(0.01)
        assert f"did not answer a stop within {STOP_TIMEOUT:g} s" in str(failure[0])
        assert failure[0].lost and pool.restarts <= 1
        with trio.fail_after(GENEROUS):
            assert (await pool.search("hipparchus", a_view(), "random", seed=1)).best
        assert pool.restarts == 1 and worker not in pool.pids


async def test_a_worker_stopped_while_idle_fails_only_the_next_search() -> None:
    async with running(EnginePool(1, timeout=DEADLINE)) as pool:
        (worker,) = pool.pids
        os.kill(worker, signal.SIGSTOP)
        with trio.fail_after(GENEROUS), pytest.raises(EngineError) as lost:
            await pool.search("hipparchus", a_view(), "ismcts:300", seed=1)
        assert lost.value.lost
        with trio.fail_after(GENEROUS):
            assert (await pool.search("hipparchus", a_view(), "ismcts:300", seed=1)).best
        assert pool.restarts == 1


async def test_searches_take_turns_across_addresses() -> None:
    """One address's searches queued first do not all go before another address's: with one
    worker, the other's comes next, once the one running ends (a first come, first served
    queue ran it last)."""
    order: list[str] = []
    async with running(EnginePool(1)) as pool:

        async def search(name: str, address: str) -> None:
            await pool.search(
                "hipparchus", a_view(), "ismcts:200", seed=len(order), owner=(address, name)
            )
            order.append(name)

        async with trio.open_nursery() as nursery:
            for number in range(1, 6):
                nursery.start_soon(search, f"a{number}", "10.0.0.1")
                await trio.sleep(0)  # put in this order
            with trio.fail_after(GENEROUS):
                while pool.waiting < 4:  # a1 runs; a2-a5 wait
                    await trio.sleep(0.001)
            nursery.start_soon(search, "b1", "10.0.0.2")
    assert order == ["a1", "b1", "a2", "a3", "a4", "a5"]


def test_a_deadline_cuts_the_time_budget_only() -> None:
    assert within_deadline("ismcts:5000ms", 2.0) == "ismcts:2000ms"
    assert within_deadline("ismcts:500ms", 2.0) == "ismcts:500ms"
    assert within_deadline("ismcts:300", 2.0) == "ismcts:2000ms,300"
    assert within_deadline("ismcts:5000ms", -1.0) == "ismcts:1ms"  # at least a millisecond
    assert within_deadline("random", 2.0) == "random"
    assert within_deadline("ismcts:5000ms", None) == "ismcts:5000ms"


async def test_a_decision_given_several_moves_budgets_still_ends_by_its_deadline() -> None:
    """A planets pass may search five moves' budgets (its position's budget scale), which a
    deadline (or a clock's share) must still bound: the pool stops the search when the time
    it was given is up, and the search answers with what it found. Held to 1 s, the pass's
    own budget would be 5 s; 4.5 s leaves a loaded machine 3.5 s to deliver the stop."""
    game = find_kind("planets").create({"players": "4", "seed": "4"})
    game.start()
    view = game.view_data(0)
    assert view["phase"] == "pass"
    async with running(EnginePool(1)) as pool:
        with trio.fail_after(GENEROUS):
            analysis = await pool.search(
                "planets", view, "ismcts:30000ms", seed=1, deadline=trio.current_time() + 1
            )
    assert analysis.best.count(",") == 2  # a pass of three cards, as the game asks
    assert analysis.elapsed_ms < 4500, analysis.elapsed_ms
