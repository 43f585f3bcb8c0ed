"""The server awaits the store: a play is answered only once it is stored, a game's events
keep their order while a store call is slow, and a failing store is an ``internal`` error."""

from __future__ import annotations

from typing import Any

import trio

from hipparchusd.store.base import MemoryStore

from .client import Client, event_fields
from .conftest import StartServer
from .helpers import seated_game


class GatedStore(MemoryStore):
    """A store whose ``add_move`` waits for ``gate`` and can be told to fail."""

    def __init__(self) -> None:
        self.gate = trio.Event()
        self.gate.set()
        self.calls: list[tuple[str, Any]] = []
        self.fail = False
        self.closed = False

    async def create_game(self, game_id: str, *args: Any) -> None:
        self.calls.append(("create_game", game_id))

    async def add_seat(self, game_id: str, seat: Any) -> None:
        self.calls.append(("add_seat", seat.seat))

    async def snapshot(self, game_id: str, snapshot: Any) -> None:
        self.calls.append(("snapshot", game_id))

    async def add_move(self, game_id: str, seat: int, move: str) -> None:
        await self.gate.wait()
        if self.fail:
            raise OSError("disk full")
        self.calls.append(("add_move", move))

    async def finish(self, game_id: str, record: Any) -> None:
        self.calls.append(("finish", game_id))

    async def aclose(self) -> None:
        self.closed = True


async def test_a_play_is_answered_only_once_stored(start_server: StartServer) -> None:
    store = GatedStore()
    server = await start_server(store)
    a = await Client.connect(server.ports[0])
    b = await Client.connect(server.ports[0])
    game = await seated_game(a, b)
    assert store.calls == [("create_game", game), ("add_seat", 0), ("add_seat", 1),
                           ("snapshot", game)]  # fmt: skip
    await b.events_until(["turn"])
    store.gate = trio.Event()
    await a.send(f"play {game} 1S@1\n")
    await b.send(f"state {game}\n")
    with trio.move_on_after(0.3) as waited:
        await a.read_reply()
    assert waited.cancelled_caught, "answered before the move was stored"
    with trio.move_on_after(0.1) as waited:
        await b.read_reply()
    assert waited.cancelled_caught, "state answered ahead of the pending move's events"
    store.gate.set()
    reply = await a.read_reply()
    assert reply.ok and reply.lines == ["1S@1"]
    assert store.calls[-1] == ("add_move", "1S@1")
    # b hears of the move before its state answer, whose seq counts it.
    state = await b.read_reply()
    played = [e for e in b.events if " played " in e]
    assert played and event_fields(played[-1])[3]["play"] == "1S@1"
    assert state.fields()["seq"] == str(event_fields(b.events[-1])[1])


async def test_a_failing_store_is_an_internal_error(start_server: StartServer) -> None:
    store = GatedStore()
    server = await start_server(store)
    a = await Client.connect(server.ports[0])
    b = await Client.connect(server.ports[0])
    game = await seated_game(a, b)
    store.fail = True
    await a.fail(f"play {game} 1S@1", "internal")
    assert (await a.ok("name")).lines == ["hipparchusd"]
    server.shutdown()
    with trio.fail_after(5):
        await server.stopped.wait()
    assert store.closed
