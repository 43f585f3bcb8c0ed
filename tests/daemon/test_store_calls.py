"""The server awaits the store: a play is answered only once it is stored, a game's events
keep their order while a store call is slow, and a failing store is an ``internal`` error."""

from __future__ import annotations

from typing import Any

import trio

from hipparchusd.store.base import MemoryStore, StoreUnreachable

from .client import Client, event_fields
from .conftest import StartServer
from .helpers import seated_game


class GatedStore(MemoryStore):
    """A store whose ``add_move`` waits for ``gate`` and can be told to fail. A snapshot
    stored with a seat or a move is logged right after it. It stands in for a durable store,
    so the server hands it snapshots."""

    durable = True

    def __init__(self) -> None:
        self.gate = trio.Event()
        self.gate.set()
        self.calls: list[tuple[str, Any]] = []
        self.fail = False
        #: What a failing ``add_move`` raises.
        self.failure: OSError = OSError("disk full")
        self.fail_deals = False
        self.closed = False

    async def create_game(self, game_id: str, *args: Any) -> None:
        self.calls.append(("create_game", game_id))

    async def add_seat(self, game_id: str, seat: Any, snapshot: Any = None) -> None:
        self.calls.append(("add_seat", seat.seat))
        if snapshot is not None:
            self.calls.append(("snapshot", game_id))

    async def remove_seat(self, game_id: str, seat: int) -> None:
        if self.fail:
            raise OSError("disk full")
        self.calls.append(("remove_seat", seat))

    async def snapshot(self, game_id: str, snapshot: Any) -> None:
        self.calls.append(("snapshot", game_id))

    async def add_move(self, game_id: str, seat: int, move: str, snapshot: Any = None) -> None:
        await self.gate.wait()
        if self.fail or (snapshot is not None and self.fail_deals):
            raise self.failure
        self.calls.append(("add_move", move))
        if snapshot is not None:
            self.calls.append(("snapshot", game_id))

    async def finish(self, game_id: str, record: Any) -> None:
        self.calls.append(("finish", game_id))
        if record is not None:
            self.calls.append(("record", game_id))

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
    assert played and event_fields(played[-1])[3]["play"] == "1S"
    assert state.fields()["seq"] == str(event_fields(b.events[-1])[1])


class ForgetfulStore(GatedStore):
    """:class:`GatedStore` as a store that keeps nothing, as ``--state-dir none``'s."""

    durable = False


async def test_a_store_that_keeps_nothing_is_not_called(start_server: StartServer) -> None:
    for store, durable in ((GatedStore(), True), (ForgetfulStore(), False)):
        server = await start_server(store)
        a, b = [await Client.connect(server.ports[0]) for _ in range(2)]
        game = await seated_game(a, b)
        await a.ok(f"play {game} 1S@1")
        await a.ok(f"resign {game}")
        if not durable:
            assert store.calls == []
            continue
        snapshots = [name for name, _ in store.calls if name in ("snapshot", "record")]
        # The deal of round 1 with the second seat; the final record with the resignation.
        assert snapshots == ["snapshot", "record"]
        assert store.calls[-2] == ("finish", game)


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


async def test_a_play_the_store_refuses_changes_nothing(start_server: StartServer) -> None:
    store = GatedStore()
    server = await start_server(store)
    a, b, w = [await Client.connect(server.ports[0]) for _ in range(3)]
    game = await seated_game(a, b)
    await w.ok(f"watch {game}")
    await b.events_until(["to-move"])  # the last event of the start
    table = server.lobby.tables[game]
    before = (table.seq, table.game.record(), table.game.view(0), table.game.view(1))
    state_before = (await a.ok(f"state {game}")).fields()
    heard = (len(a.events), len(b.events), len(w.events))
    store.fail = True
    reply = await a.fail(f"play {game} 1S@1", "internal")
    # The message says what happened and nothing of the store's error or the game.
    assert reply.text == "internal the game store failed; nothing was changed"
    assert (table.seq, table.game.record(), table.game.view(0), table.game.view(1)) == before
    assert (await a.ok(f"state {game}")).fields() == state_before
    await b.ok("name")
    await w.ok("name")
    assert (len(a.events), len(b.events), len(w.events)) == heard, "a follower heard of it"
    assert ("add_move", "1S@1") not in store.calls
    # The same move goes through once the store works again, numbered with no gap.
    store.fail = False
    assert (await a.ok(f"play {game} 1S@1")).lines == ["1S@1"]
    played = (await b.events_until(["played"]))[-1]
    assert event_fields(played)[1] == before[0] + 1
    assert store.calls[-1] == ("add_move", "1S@1")


async def test_a_play_the_store_stopped_answering_about_says_it_may_be_kept(
    start_server: StartServer,
) -> None:
    # The writer died holding the move: it may have committed it, so "nothing was changed"
    # would be untrue of the store. This server still has not made the move.
    store = GatedStore()
    server = await start_server(store)
    a, b = [await Client.connect(server.ports[0]) for _ in range(2)]
    game = await seated_game(a, b)
    table = server.lobby.tables[game]
    before = (table.seq, table.game.record())
    store.fail = True
    store.failure = StoreUnreachable("the store's writer process stopped; restart the daemon")
    reply = await a.fail(f"play {game} 1S@1", "internal")
    assert reply.text == (
        "internal the game store stopped answering; nothing was changed here, but the store "
        "may have kept the change, and a restart would bring it back"
    )
    assert (table.seq, table.game.record()) == before
    store.failure = OSError("disk full")
    reply = await a.fail(f"play {game} 1S@1", "internal")
    assert reply.text == "internal the game store failed; nothing was changed"


async def test_a_move_is_checked_after_the_previous_move_is_stored(
    start_server: StartServer,
) -> None:
    store = GatedStore()
    server = await start_server(store)
    a = await Client.connect(server.ports[0])
    b = await Client.connect(server.ports[0])
    game = await seated_game(a, b)
    # Seat 1's answer to 1S@1, from the rules.
    after = server.lobby.tables[game].game.fork()
    after.play(0, after.parse_move(0, "1S@1"))
    answer = after.format_move(after.legal_moves(1)[0])
    store.gate = trio.Event()
    await a.send(f"play {game} 1S@1\n")
    await trio.sleep(0.05)  # a's move is being stored
    await b.send(f"play {game} {answer}\n")
    with trio.move_on_after(0.2) as waited:
        await b.read_reply()
    assert waited.cancelled_caught, "answered before the previous move was stored"
    store.gate.set()
    assert (await a.read_reply()).lines == ["1S@1"]
    # Checked against the position after 1S@1: seat 1's turn, so it is legal.
    assert (await b.read_reply()).lines == [answer]
    assert [c for c in store.calls if c[0] == "add_move"] == [
        ("add_move", "1S@1"),
        ("add_move", answer),
    ]


async def test_a_move_whose_new_deal_cannot_be_stored_changes_nothing(
    start_server: StartServer,
) -> None:
    store = GatedStore()
    server = await start_server(store)
    a = await Client.connect(server.ports[0])
    b = await Client.connect(server.ports[0])
    game = await seated_game(a, b, "leader=0 seed=11")
    table = server.lobby.tables[game]
    clients = (a, b)
    # Play the first round out but its last move, which deals round 2.
    store.fail_deals = True
    while True:
        (seat,) = table.game.seats_to_move()
        move = table.game.format_move(table.game.legal_moves(seat)[0])
        after = table.game.fork()
        after.play(seat, after.parse_move(seat, move))
        if after.view(None).round_number == 2:
            break
        assert (await clients[seat].ok(f"play {game} {move}")).lines == [move]
    before = (table.seq, table.game.record())
    # Its deal could not be stored with it, so the move is refused whole: a restart must
    # never deal round 2 anew, under hands the players have already seen.
    await clients[seat].fail(f"play {game} {move}", "internal")
    assert (table.seq, table.game.record()) == before
    assert store.calls[-1] != ("snapshot", game)
    store.fail_deals = False
    assert (await clients[seat].ok(f"play {game} {move}")).lines == [move]
    assert store.calls[-2:] == [("add_move", move), ("snapshot", game)]
    assert table.game.view(None).round_number == 2


async def test_a_seat_freed_before_the_start_is_removed_from_the_store(
    start_server: StartServer,
) -> None:
    store = GatedStore()
    server = await start_server(store)
    a, b = [await Client.connect(server.ports[0]) for _ in range(2)]
    game = (await a.ok("new hipparchus")).fields()["game"]
    await a.ok(f"join {game} 0")
    await a.ok(f"leave {game}")
    await b.ok(f"join {game} 1")
    await b.aclose()  # a disconnection frees a seat of a waiting game as well
    with trio.fail_after(5):
        while ("remove_seat", 1) not in store.calls:
            await trio.sleep(0.01)
    assert store.calls == [("create_game", game), ("add_seat", 0), ("remove_seat", 0),
                           ("add_seat", 1), ("remove_seat", 1)]  # fmt: skip


async def test_a_seat_is_left_even_when_the_store_fails_to_forget_it(
    start_server: StartServer,
) -> None:
    store = GatedStore()
    server = await start_server(store)
    a, w = [await Client.connect(server.ports[0]) for _ in range(2)]
    game = (await a.ok("new hipparchus")).fields()["game"]
    await w.ok(f"watch {game}")
    await a.ok(f"join {game} 0")
    store.fail = True
    # Leaving cannot be refused: the seat is free at once, and the failure is only logged.
    await a.ok(f"leave {game}")
    assert event_fields((await w.events_until(["left"]))[-1])[3] == {"seat": "0"}
    assert server.lobby.tables[game].names == [None, None]
    await w.ok(f"join {game} 0")
