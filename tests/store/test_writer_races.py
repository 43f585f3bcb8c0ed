"""SqliteStore against its writer process at awkward moments: answers that arrive while their
caller is still sending, a writer that dies while calls are being sent, an open that stops
half-way."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import trio
import trio.testing
from store_helpers import held_writer, open_sqlite

from hipparchusd.store import startup
from hipparchusd.store.base import StoreError
from hipparchusd.store.sqlite import SqliteStore

#: A snapshot far larger than a Unix socket's buffer (about 200 KB): sending it blocks.
_BIG = "x" * (4 << 20)


async def test_an_answer_that_comes_while_its_caller_still_sends_waits_for_it(
    state_dir: Path,
    nursery: trio.Nursery,
) -> None:
    """The task that sends a round's calls may still be sending later rounds (their bytes join
    its send) when its own call is answered: it must not be woken in the middle of its send,
    which would break trio's wait for the socket (BusyResourceError, then a stale wake-up)."""
    store = await open_sqlite(nursery, state_dir)
    try:
        await store.create_game("g", "hipparchus", {}, 1.0)
        done: list[str] = []

        async def call(name: str, snapshot: object = None) -> None:
            if snapshot is None:
                await store.add_move("g", 0, name)
            else:
                await store.snapshot("g", snapshot)
            done.append(name)

        async with trio.open_nursery() as tasks:
            with held_writer(store):
                # One round: a small move (its task sends the round) and a big snapshot, so
                # that the sender blocks on the full socket...
                tasks.start_soon(call, "a")
                await trio.testing.wait_all_tasks_blocked()
                tasks.start_soon(call, "b", {"big": _BIG})
                await trio.testing.wait_all_tasks_blocked()
                # ...then another big call, whose bytes the same task sends after the first
                # round's: it is still sending them when the first round is answered.
                tasks.start_soon(call, "c", {"big": _BIG})
                await trio.testing.wait_all_tasks_blocked()
        assert sorted(done) == ["a", "b", "c"]
        [loaded] = await store.load_unfinished()
        assert loaded.snapshot == {"big": _BIG}
    finally:
        await store.aclose()


async def test_a_writer_that_dies_while_a_call_is_sent_fails_it_cleanly(
    state_dir: Path,
    nursery: trio.Nursery,
) -> None:
    """The writer dies while a big call is blocked on the full socket: the sending task and the
    answer-reading task wake in the same round, in either order (trio picks at random, hence
    several tries); the call fails with the store's error, and nothing else breaks."""
    for attempt in range(8):
        store = await open_sqlite(nursery, state_dir / str(attempt))
        await store.create_game("g", "hipparchus", {}, 1.0)
        failures: list[StoreError] = []
        with trio.fail_after(10):
            async with trio.open_nursery() as tasks:
                os.kill(store.writer_pid, signal.SIGSTOP)
                tasks.start_soon(_big_snapshot, store, failures)
                await trio.testing.wait_all_tasks_blocked()  # blocked on the full socket
                os.kill(store.writer_pid, signal.SIGKILL)
            await store.aclose()
        assert len(failures) == 1 and "restart the daemon" in str(failures[0])


async def _big_snapshot(store: SqliteStore, failures: list[StoreError]) -> None:
    """Store a big snapshot of game ``g``; add the error to ``failures`` if it fails."""
    try:
        await store.snapshot("g", {"big": _BIG})
    except StoreError as error:
        failures.append(error)


async def test_a_writer_that_dies_before_a_round_is_sent_fails_its_calls_cleanly(
    state_dir: Path,
    nursery: trio.Nursery,
) -> None:
    """The writer's end of the socket closes in the round where a call waits its turn to send
    (the store has not seen it yet): in either order of the two tasks, the call fails with the
    store's error."""
    for attempt in range(8):
        store = await open_sqlite(nursery, state_dir / str(attempt))
        await store.create_game("g", "hipparchus", {}, 1.0)
        os.kill(store.writer_pid, signal.SIGKILL)
        # Wait for it without a checkpoint: the store learns of its end in the next round.
        store._link.process.wait()
        with trio.fail_after(10):
            try:
                await store.add_move("g", 0, "a")
            except StoreError as error:
                assert "restart the daemon" in str(error)
            else:
                raise AssertionError("a call to a dead writer succeeded")
            await store.aclose()


async def test_an_open_stopped_while_the_writer_starts_leaves_no_process_behind(
    state_dir: Path, monkeypatch: pytest.MonkeyPatch, nursery: trio.Nursery
) -> None:
    """An open cancelled (or failing) after the writer process started: the process is ended
    and reaped, not left holding the state directory's lock, so that opening again at once
    works."""
    started: list[subprocess.Popen[bytes]] = []
    real_popen = subprocess.Popen

    with trio.CancelScope() as scope:

        def popen_then_cancel(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
            process = real_popen(*args, **kwargs)
            started.append(process)
            scope.cancel()  # as a Ctrl-C or a timeout would, while the writer starts
            return process

        monkeypatch.setattr(subprocess, "Popen", popen_then_cancel)
        await open_sqlite(nursery, state_dir)
    monkeypatch.undo()
    assert scope.cancelled_caught
    [process] = started
    with pytest.raises(ProcessLookupError):  # gone, and reaped (a zombie would still answer)
        os.kill(process.pid, 0)
    store = await open_sqlite(nursery, state_dir)
    await store.aclose()


async def test_a_writer_that_never_says_ready_stops_the_open_with_a_clear_error(
    state_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, nursery: trio.Nursery
) -> None:
    """A writer stuck at start (here: a "Python" that only sleeps) does not hang start-up: the
    open fails after the time limit, naming the problem, and leaves no process behind."""
    stuck = tmp_path / "stuck-python"
    stuck.write_text("#!/bin/sh\nexec sleep 60\n")
    stuck.chmod(0o755)
    started: list[subprocess.Popen[bytes]] = []
    real_popen = subprocess.Popen

    def recording_popen(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        process = real_popen(*args, **kwargs)
        started.append(process)
        return process

    monkeypatch.setattr(subprocess, "Popen", recording_popen)
    monkeypatch.setattr(sys, "executable", str(stuck))
    monkeypatch.setattr(startup, "_WRITER_START_TIMEOUT", 0.5)
    with pytest.raises(StoreError, match=r"writer process for .* did not start within 0\.5 s"):
        await open_sqlite(nursery, state_dir)
    monkeypatch.undo()
    [process] = started
    assert process.returncode is not None  # killed and reaped
    store = await open_sqlite(nursery, state_dir)
    await store.aclose()
