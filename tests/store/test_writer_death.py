"""The store's writer process dies (the OOM killer, ``kill -9``): a new one takes over with no
acknowledged move lost, the database being the truth; and when none can be started the
daemon stops its watchdog pings and exits with an error, so that systemd restarts it (issue 16
item 4)."""

from __future__ import annotations

import importlib
import os
import random
import signal
import sys
from pathlib import Path
from typing import Any

import pytest
import trio
from store_helpers import serve_sqlite

from hipparchusd.games.hipparchus import HipparchusGame
from hipparchusd.games.hipparchus.codec import converter
from hipparchusd.settings import Settings
from hipparchusd.store import sqlite as sqlite_module
from hipparchusd.store import writer_link
from hipparchusd.store.base import StoreError
from hipparchusd.store.sqlite import SqliteStore
from hipparchusd.systemd.notify import Notifier

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the daemon tests' client
from daemon.client import Client

#: The module, not the function ``hipparchusd.server.run`` that the package exports.
run_module = importlib.import_module("hipparchusd.server.run")


def _view(game: HipparchusGame, seat: int) -> Any:
    return converter.unstructure(game.view(seat))


async def _restarted(store: SqliteStore, count: int = 1) -> None:
    with trio.fail_after(10):
        while store.restarts < count:
            await trio.sleep(0.02)


async def test_a_killed_writer_is_replaced_and_nothing_acknowledged_is_lost(
    state_dir: Path,
) -> None:
    engine = HipparchusGame(seed=7, first_leader=0)
    engine.start()
    rng = random.Random(2)
    acknowledged: list[tuple[int, str]] = []
    async with trio.open_nursery() as nursery:
        server = await serve_sqlite(state_dir, nursery)
        store = server.store
        assert isinstance(store, SqliteStore)
        a, b = await Client.connect(server.ports[0]), await Client.connect(server.ports[0])
        game = (await a.ok("new hipparchus seed=7 leader=0")).fields()["game"]
        tokens = [(await a.ok(f"join {game} 0")).fields()["token"]]
        tokens.append((await b.ok(f"join {game} 1")).fields()["token"])
        clients = [a, b]

        async def play(count: int) -> None:
            for _ in range(count):
                (seat,) = engine.seats_to_move()
                move = rng.choice(engine.legal_moves(seat))
                text = engine.format_move(move)
                await clients[seat].ok(f"play {game} {text}")
                engine.play(seat, move)
                acknowledged.append((seat, text))

        await play(3)
        # 1. Killed between calls: the next calls go to a new writer.
        first = store.writer_pid
        os.kill(first, signal.SIGKILL)
        await _restarted(store)
        assert store.writer_pid != first
        await play(3)

        # 2. Killed with a move in its hands: that move is answered '? internal' (it may or
        # may not be stored), the game is reloaded from the database, and play goes on from
        # what the database holds.
        os.kill(store.writer_pid, signal.SIGSTOP)
        (seat,) = engine.seats_to_move()
        move = rng.choice(engine.legal_moves(seat))
        await clients[seat].send(f"play {game} {engine.format_move(move)}\n")
        await trio.sleep(0.2)
        os.kill(store.writer_pid, signal.SIGKILL)
        reply = await clients[seat].read_reply()
        assert not reply.ok and reply.code == "internal", reply
        await _restarted(store, 2)
        with trio.fail_after(5):
            while game in server.lobby.tables:  # the sweep unloads it
                await trio.sleep(0.02)
        views = []
        for client, token in zip(clients, tokens, strict=True):
            await client.ok("format json")
            views.append((await client.ok(f"resume {token}")).json()["view"])
        # The database holds every acknowledged move, then at most the one in flight.
        with_move = engine.fork()
        with_move.play(seat, move)
        candidates = [g for g in (engine, with_move) if views == [_view(g, n) for n in (0, 1)]]
        truth = candidates[0] if candidates else None
        assert truth is not None, "the reloaded game is neither before nor after the move"
        engine = truth
        for client in clients:
            await client.ok("format text")
        await play(2)  # and play goes on
        await a.aclose()
        await b.aclose()
        server.shutdown()
    assert store.restarts == 2


class _CountingNotifier(Notifier):
    """A notifier with a watchdog every 0.05 s that counts its pings instead of sending them."""

    def __init__(self) -> None:
        super().__init__(None)
        self.watchdog_usec = 100_000
        self.pings: list[float] = []

    def watchdog(self) -> None:
        self.pings.append(trio.current_time())


async def test_a_writer_that_cannot_come_back_stops_the_watchdog_and_the_daemon(
    state_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    notifier = _CountingNotifier()
    settings = Settings(port=0, state_dir=str(state_dir), grace_period=0.1)
    failed_at: list[float] = []

    async def no_writer(*args: Any) -> Any:
        raise StoreError("cannot start the store's writer process: (test)")

    with pytest.raises(BaseException) as caught:
        async with trio.open_nursery() as nursery:
            server = await nursery.start(
                lambda task_status: run_module.run_async(
                    settings, notifier=notifier, task_status=task_status
                )
            )
            store = server.store
            assert isinstance(store, SqliteStore)
            await trio.sleep(0.2)
            assert notifier.pings  # pinging while all is well
            monkeypatch.setattr(sqlite_module, "start_writer", no_writer)
            monkeypatch.setattr(writer_link, "RESTART_DELAY", 0.01)
            os.kill(store.writer_pid, signal.SIGKILL)
            await store.failed.wait()
            failed_at.append(trio.current_time())
            await trio.sleep(5)  # run_async must end before this
    error = caught.value
    while isinstance(error, BaseExceptionGroup):
        error = error.exceptions[0]
    assert isinstance(error, StoreError) and "could not be restarted" in str(error)
    assert notifier.pings and all(ping <= failed_at[0] + 0.01 for ping in notifier.pings)
