"""The daemon asks any store, through the ``GameStore`` interface alone, what a durable store
adds to its life: which games start loaded and which stay adjourned, the adjournment's expiry,
the games a failure left in doubt, and a failure that ends the daemon. The store here is no
SQLite store: whatever implements the interface gets the same treatment."""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import AsyncIterator, Sequence
from typing import Any

import pytest
import trio

from hipparchusd.games.hipparchus import HipparchusGame
from hipparchusd.games.hipparchus.codec import converter
from hipparchusd.lobby import token_digest
from hipparchusd.records import StoredGame, StoredSeat
from hipparchusd.settings import Settings
from hipparchusd.store.base import MemoryStore, StartupGames, StoreError
from hipparchusd.systemd.notify import Notifier

from .client import Client
from .conftest import StartServer
from .helpers import seated_game

#: The module, not the function ``hipparchusd.server.run`` that the package exports.
run_module = importlib.import_module("hipparchusd.server.run")

#: Seconds since the epoch at which the stored games were made.
CREATED = 1_800_000_000.0


class CapableStore(MemoryStore):
    """A durable store that keeps nothing itself but answers the durable capabilities as it
    is told, and records how the daemon used them."""

    durable = True

    def __init__(
        self,
        startup: StartupGames | None = None,
        expired: Sequence[tuple[StoredGame, float]] = (),
    ) -> None:
        self.startup = startup or StartupGames(loaded=())
        self.expired = list(expired)
        self.marked: list[list[str]] = []
        self.abandoned: list[tuple[str, float]] = []
        self.uncertain: set[str] = set()
        self.failure = trio.Event()

    async def startup_games(self) -> StartupGames:
        return self.startup

    async def mark_adjourned(self, game_ids: Sequence[str]) -> None:
        self.marked.append(list(game_ids))

    async def expired_games(self, days: float, limit: int) -> list[tuple[StoredGame, float]]:
        found, self.expired = self.expired[:limit], self.expired[limit:]
        return found

    async def abandon(self, game_id: str, record: Any, last_active: float) -> None:
        self.abandoned.append((game_id, last_active))

    def take_uncertain(self) -> set[str]:
        games, self.uncertain = self.uncertain, set()
        return games

    async def wait_failed(self) -> str:
        await self.failure.wait()
        return "the test's store cannot record anything any more"


def _seat(seat: int, name: str) -> StoredSeat:
    return StoredSeat(seat, name, token_digest(f"{seat:02x}" * 16))


async def test_the_store_says_which_games_start_loaded_and_which_stay_adjourned(
    start_server: StartServer,
) -> None:
    waiting = StoredGame(
        "g3", "hipparchus", {"leader": "0"}, CREATED, (_seat(0, "ann"),), None, (), False
    )
    store = CapableStore(StartupGames(loaded=(waiting,), adjourned=("g7",)))
    server = await start_server(store)
    assert "g3" in server.lobby.tables and "g7" not in server.lobby.tables
    client = await Client.connect(server.ports[0])
    message = (await client.fail("state g7", "unknown-game")).text
    assert "adjourned" in message and "resume" in message
    # New games are numbered after the adjourned ones as well.
    assert (await client.ok("new hipparchus")).fields()["game"] == "g8"
    await client.aclose()


async def test_a_game_the_sweep_adjourns_is_marked_so_in_the_store(
    start_server: StartServer,
) -> None:
    store = CapableStore()
    server = await start_server(store, adjourn_timeout=0.1)
    a, b = await Client.connect(server.ports[0]), await Client.connect(server.ports[0])
    game = await seated_game(a, b)
    await a.aclose()
    await b.aclose()
    # Bounded by progress, generously: a sweep runs every 25 ms at this timeout.
    with trio.fail_after(10):
        while not store.marked:
            await trio.sleep(0.02)
    assert store.marked == [[game]] and game not in server.lobby.tables


async def test_the_expired_games_the_store_names_are_ended_as_abandoned(
    start_server: StartServer,
) -> None:
    engine = HipparchusGame(seed=3, first_leader=0)
    engine.start()
    stored = StoredGame(
        "g5", "hipparchus", {"seed": "3", "leader": "0"}, CREATED,
        (_seat(0, "ann"), _seat(1, "bob")), converter.unstructure(engine.record()), (), False,
    )  # fmt: skip
    store = CapableStore(StartupGames(loaded=(), adjourned=("g5",)), [(stored, CREATED + 60)])
    await start_server(store)
    # The first look for expired games is at start-up (generous bound, as above).
    with trio.fail_after(10):
        while not store.abandoned:
            await trio.sleep(0.02)
    assert store.abandoned == [("g5", CREATED + 60)]


async def test_the_games_the_store_left_in_doubt_are_unloaded(start_server: StartServer) -> None:
    store = CapableStore()
    server = await start_server(store)
    a, b = await Client.connect(server.ports[0]), await Client.connect(server.ports[0])
    game = await seated_game(a, b)
    other = await seated_game(a, b)
    store.uncertain = {game}
    # Bounded by progress, generously: the sweep runs every second.
    with trio.fail_after(10):
        while game in server.lobby.tables:
            await trio.sleep(0.02)
    assert other in server.lobby.tables
    message = (await a.fail(f"state {game}", "unknown-game")).text
    assert "adjourned" in message
    await a.aclose()
    await b.aclose()


async def test_a_store_that_fails_for_good_ends_the_daemon_with_its_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store = CapableStore()

    @contextlib.asynccontextmanager
    async def open_store(settings: Settings) -> AsyncIterator[CapableStore]:
        yield store

    monkeypatch.setattr(run_module, "open_store", open_store)
    settings = Settings(port=0, grace_period=0.1)
    with pytest.raises(BaseException) as caught:
        with trio.fail_after(10):  # generous: the daemon ends as soon as the store fails
            async with trio.open_nursery() as nursery:
                await nursery.start(
                    lambda task_status: run_module.run_async(
                        settings, notifier=Notifier(None), task_status=task_status
                    )
                )
                store.failure.set()
                await trio.sleep_forever()
    error = caught.value
    while isinstance(error, BaseExceptionGroup):
        error = error.exceptions[0]
    assert isinstance(error, StoreError)
    assert str(error) == "the test's store cannot record anything any more"
