"""The engine's worker processes (hipparchusd.server.workers.EnginePool): searches answered off
the trio thread, a stop that ends a search early with what it found, cancellation that gives
the worker back, a refused search and a dead worker reported as EngineError, never with the
view's contents in the message."""

from __future__ import annotations

import os
import signal
from typing import Any

import pytest
import trio

from hipparchusd.engine.types import Analysis
from hipparchusd.games.registry import find_kind
from hipparchusd.server.workers import EngineError, EnginePool


def a_view() -> Any:
    game = find_kind("hipparchus").create({"seed": "4", "leader": "0"})
    game.start()
    return game.view_data(0)


async def test_searches_run_in_a_worker_and_are_reproducible_with_playouts() -> None:
    pool = EnginePool(1)
    try:
        view = a_view()
        first = await pool.search("hipparchus", view, "ismcts:300", seed=7)
        again = await pool.search("hipparchus", view, "ismcts:300", seed=7)
        assert first.playouts == 300 and first.moves == again.moves
        assert first.best == first.moves[0].move
        (worker,) = pool._all
        assert worker.process.pid != os.getpid()
        assert pool.searches == 0
    finally:
        await pool.aclose()


async def test_a_stop_ends_the_search_with_what_it_found() -> None:
    pool = EnginePool(1)
    stop = trio.Event()
    reports: list[Analysis] = []
    try:

        def progress(analysis: Analysis) -> None:
            reports.append(analysis)
            stop.set()

        with trio.fail_after(5):
            found = await pool.search(
                "hipparchus", a_view(), "ismcts:9000ms", seed=1, interval_ms=50,
                on_progress=progress, stop=stop,
            )  # fmt: skip
        assert reports and found.playouts >= reports[0].playouts and found.elapsed_ms < 5000
    finally:
        await pool.aclose()


async def test_a_cancelled_search_gives_its_worker_back() -> None:
    pool = EnginePool(1)
    try:
        await pool.search("hipparchus", a_view(), "random", seed=1)
        (worker,) = pool._all
        with trio.move_on_after(0.3):
            await pool.search("hipparchus", a_view(), "ismcts:9000ms", seed=1)
        assert pool.searches == 0
        with trio.fail_after(3):
            await pool.search("hipparchus", a_view(), "random", seed=2)
        assert pool._all == {worker}  # the same process, stopped in time and reused
    finally:
        await pool.aclose()


async def test_a_refused_search_names_no_card(caplog: pytest.LogCaptureFixture) -> None:
    pool = EnginePool(1)
    try:
        view = a_view()
        with pytest.raises(EngineError, match="no game kind 'nonesuch' is served"):
            await pool.search("nonesuch", view, "random", seed=1)
        # A view the engine refuses: seat 1's, which need not move (seat 0 leads).
        game = find_kind("hipparchus").create({"seed": "4", "leader": "0"})
        game.start()
        other = game.view_data(1)
        with pytest.raises(EngineError) as refused:
            await pool.search("hipparchus", other, "random", seed=1)
        assert str(refused.value) == "the engine refused the search (ValueError)"
        assert "need not move" in refused.value.detail
        hand = other["hand"] if isinstance(other, dict) and "hand" in other else None
        assert hand is not None and str(hand) not in str(refused.value)
        # The worker lives on.
        assert (await pool.search("hipparchus", view, "random", seed=1)).best
    finally:
        await pool.aclose()


async def test_a_dead_worker_is_an_engine_error_and_replaced() -> None:
    pool = EnginePool(1)
    try:
        await pool.search("hipparchus", a_view(), "random", seed=1)
        (worker,) = pool._all

        async def kill_soon() -> None:
            await trio.sleep(0.2)
            os.kill(worker.process.pid, signal.SIGKILL)

        async with trio.open_nursery() as nursery:
            nursery.start_soon(kill_soon)
            with pytest.raises(EngineError, match="died"):
                await pool.search("hipparchus", a_view(), "ismcts:5000ms", seed=1)
        assert (await pool.search("hipparchus", a_view(), "random", seed=1)).best
        assert worker not in pool._all
    finally:
        await pool.aclose()
