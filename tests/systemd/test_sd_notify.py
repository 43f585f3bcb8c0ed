"""sd_notify(3) and sd_watchdog_enabled(3) as hipparchusd.systemd.notify implements them, against
a notification socket of the test's own."""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import statistics
import threading
import time

import pytest
import trio
from sd_helpers import NotifySocket

from hipparchusd.systemd.notify import Notifier, notify_address, watchdog_usec


def test_ready_status_stopping_reach_the_socket(notify_socket: NotifySocket) -> None:
    env = {"NOTIFY_SOCKET": notify_socket.env}
    notifier = Notifier.from_environment(env)
    assert notifier.enabled
    assert notifier.ready("accepting on 127.0.0.1:7460")
    assert notify_socket.receive() == "READY=1\nSTATUS=accepting on 127.0.0.1:7460"
    assert notifier.status("2 games, 3 connections")
    assert notify_socket.receive() == "STATUS=2 games, 3 connections"
    assert notifier.stopping()
    assert notify_socket.receive() == "STOPPING=1"
    assert notifier.watchdog()
    assert notify_socket.receive() == "WATCHDOG=1"


def test_variables_are_removed_after_reading(notify_socket: NotifySocket) -> None:
    env = {
        "NOTIFY_SOCKET": notify_socket.env,
        "WATCHDOG_USEC": "1000000",
        "WATCHDOG_PID": str(os.getpid()),
        "HOME": "/root",
    }
    notifier = Notifier.from_environment(env)
    assert env == {"HOME": "/root"}
    assert notifier.enabled and notifier.watchdog_usec == 1_000_000


def test_variables_can_be_kept(notify_socket: NotifySocket) -> None:
    env = {"NOTIFY_SOCKET": notify_socket.env}
    Notifier.from_environment(env, unset=False)
    assert env == {"NOTIFY_SOCKET": notify_socket.env}


def test_a_status_line_cannot_smuggle_another_variable(notify_socket: NotifySocket) -> None:
    notifier = Notifier(notify_socket.env)
    notifier.status("one\nREADY=1")
    assert notify_socket.receive() == "STATUS=one READY=1"


def test_reloading_carries_the_monotonic_clock(notify_socket: NotifySocket) -> None:
    notifier = Notifier(notify_socket.env)
    before = time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000
    notifier.reloading()
    after = time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000
    reloading, monotonic = notify_socket.receive().split("\n")
    assert reloading == "RELOADING=1"
    name, _, value = monotonic.partition("=")
    assert name == "MONOTONIC_USEC" and before <= int(value) <= after


def test_extend_timeout_in_microseconds(notify_socket: NotifySocket) -> None:
    Notifier(notify_socket.env).extend_timeout(2.5)
    assert notify_socket.receive() == "EXTEND_TIMEOUT_USEC=2500000"


def test_addresses() -> None:
    assert notify_address("/run/systemd/notify") == "/run/systemd/notify"
    assert notify_address("@abc") == b"\0abc"
    for bad in ("run/notify", "@", "", "vsock:2:1234"):
        with pytest.raises(ValueError, match="NOTIFY_SOCKET"):
            notify_address(bad)


def test_without_systemd_everything_is_a_no_op() -> None:
    notifier = Notifier.from_environment({})
    assert not notifier.enabled
    assert not notifier.ready() and not notifier.watchdog() and not notifier.stopping()


def test_a_bad_address_is_logged_and_disables(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        notifier = Notifier.from_environment({"NOTIFY_SOCKET": "relative/path"})
    assert not notifier.enabled
    assert "neither an absolute path nor an '@' address" in caplog.text


def test_a_failing_notify_is_logged_never_raised(
    tmp_path: os.PathLike[str], caplog: pytest.LogCaptureFixture
) -> None:
    notifier = Notifier(f"{tmp_path}/nobody-listens-here")
    with caplog.at_level(logging.DEBUG, logger="hipparchusd.systemd.notify"):
        assert notifier.ready() is False
        assert notifier.watchdog() is False
    levels = [record.levelno for record in caplog.records if "cannot notify" in record.message]
    # Warned once, then quieter, so that a broken socket does not flood the log.
    assert levels == [logging.WARNING, logging.DEBUG]


def test_watchdog_usec_follows_sd_watchdog_enabled() -> None:
    pid = os.getpid()
    assert watchdog_usec({}) is None
    assert watchdog_usec({"WATCHDOG_USEC": "30000000"}) == 30_000_000
    assert watchdog_usec({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(pid)}) == 30_000_000
    # Meant for another process (inherited from a parent): not ours to ping.
    assert watchdog_usec({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(pid + 1)}) is None
    for bad in ({"WATCHDOG_USEC": "0"}, {"WATCHDOG_USEC": "-5"}, {"WATCHDOG_USEC": "1.5"}):
        with pytest.raises(ValueError, match="WATCHDOG_USEC"):
            watchdog_usec(bad)
    with pytest.raises(ValueError, match="WATCHDOG_PID"):
        watchdog_usec({"WATCHDOG_USEC": "1000", "WATCHDOG_PID": "x"})


def test_a_malformed_watchdog_leaves_it_off(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        notifier = Notifier.from_environment({"NOTIFY_SOCKET": "/x", "WATCHDOG_USEC": "soon"})
    assert notifier.watchdog_usec is None
    assert "WATCHDOG_USEC='soon'" in caplog.text


async def test_no_watchdog_task_returns_at_once() -> None:
    with trio.fail_after(1):
        await Notifier("/x").run_watchdog()


async def test_watchdog_pings_at_half_the_interval(notify_socket: NotifySocket) -> None:
    interval = 0.4  # seconds: WATCHDOG_USEC=400000, so a ping every 0.2 s
    env = {
        "NOTIFY_SOCKET": notify_socket.env,
        "WATCHDOG_USEC": str(int(interval * 1e6)),
        "WATCHDOG_PID": str(os.getpid()),
    }
    notifier = Notifier.from_environment(env)
    pings: list[float] = []
    notify_socket.sock.setblocking(False)
    async with trio.open_nursery() as nursery:
        start = trio.current_time()
        nursery.start_soon(notifier.run_watchdog)
        while len(pings) < 5:
            await trio.lowlevel.wait_readable(notify_socket.sock)
            assert notify_socket.sock.recv(4096) == b"WATCHDOG=1"
            pings.append(trio.current_time() - start)
        nursery.cancel_scope.cancel()
    half = interval / 2
    # Ping k is due k half-intervals after the start: never before (that would mean a wrong
    # unit), and on average every half interval even on a loaded machine.
    assert all(ping >= (k + 1) * half - 0.005 for k, ping in enumerate(pings)), pings
    gaps = [b - a for a, b in itertools.pairwise([0.0, *pings])]
    assert statistics.mean(gaps) == pytest.approx(half, rel=0.25), gaps


async def test_status_is_sent_when_it_changes(notify_socket: NotifySocket) -> None:
    notifier = Notifier(notify_socket.env)
    counts = iter(["1 game", "1 game", "1 game", "2 games", "2 games"])
    last = "2 games"

    def describe() -> str:
        return next(counts, last)

    notify_socket.sock.setblocking(False)
    received = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(notifier.run_status, describe, 0.01)
        with trio.move_on_after(0.3):
            while True:
                await trio.lowlevel.wait_readable(notify_socket.sock)
                received.append(notify_socket.sock.recv(4096).decode())
        nursery.cancel_scope.cancel()
    assert received == ["STATUS=1 game", "STATUS=2 games"]


async def test_a_blocked_event_loop_stops_the_pings(notify_socket: NotifySocket) -> None:
    # The point of pinging from the event loop: while it is stuck, systemd hears nothing.
    notifier = Notifier(notify_socket.env, watchdog_usec=100_000)  # a ping every 0.05 s
    arrivals: list[float] = []
    done = threading.Event()

    def listen() -> None:
        notify_socket.sock.settimeout(0.02)
        while not done.is_set():
            with contextlib.suppress(TimeoutError):
                if notify_socket.sock.recv(4096) == b"WATCHDOG=1":
                    arrivals.append(time.monotonic())

    listener = threading.Thread(target=listen)
    listener.start()
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(notifier.run_watchdog)
            await trio.sleep(0.3)
            blocked_at = time.monotonic()
            time.sleep(0.6)  # a hung handler: no await, so the loop cannot run
            unblocked_at = time.monotonic()
            await trio.sleep(0.3)
            nursery.cancel_scope.cancel()
    finally:
        done.set()
        listener.join()
    before = [t for t in arrivals if t < blocked_at]
    during = [t for t in arrivals if blocked_at + 0.01 < t < unblocked_at]
    after = [t for t in arrivals if t > unblocked_at]
    assert len(before) >= 3 and len(after) >= 3, arrivals
    assert during == []
