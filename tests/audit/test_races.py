"""Timing: two connections acting at the same moment, a seat taken over while its holder
plays, a connection that drops right after a move, a store that is slow or fails, and games
that nobody will ever join. The game stays consistent: every follower sees one gap-free
sequence of events, and the state agrees with it."""

from __future__ import annotations

import json
from typing import Any

import pytest
import trio
from daemon.client import Client, event_fields
from daemon.helpers import seated_game

from hipparchusd.store.base import MemoryStore

from .conftest import StartServer


async def _seqs(watcher: Client, game: str) -> list[int]:
    await watcher.ok("name")
    return [event_fields(e)[1] for e in watcher.events if event_fields(e)[0] == game]


async def test_both_seats_play_at_the_same_moment(start_server: StartServer) -> None:
    server = await start_server()
    a, b, w = [await Client.connect(server.ports[0]) for _ in range(3)]
    game = await seated_game(a, b)
    await w.ok(f"watch {game}")
    replies: dict[str, Any] = {}

    async def play(name: str, client: Client, move: str) -> None:
        replies[name] = await client.request(f"play {game} {move}")

    async with trio.open_nursery() as nursery:
        nursery.start_soon(play, "a", a, "1S@1")
        nursery.start_soon(play, "b", b, "1E@1")
    # Seat 1 was either not to move yet, or to follow the Sun with Suns (RULINGS H5).
    assert replies["a"].ok and replies["b"].code in ("not-your-turn", "illegal-move")
    assert len([e for e in await w.events_until(["turn"]) if " played " in e]) == 1
    seqs = await _seqs(w, game)
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
    assert int((await w.ok(f"state {game}")).fields()["seq"]) == seqs[-1]


@pytest.mark.parametrize("order", ["play-first", "resume-first"])
async def test_a_takeover_racing_a_move(start_server: StartServer, order: str) -> None:
    server = await start_server()
    port = server.ports[0]
    a, b, w, thief = [await Client.connect(port) for _ in range(4)]
    game = (await w.ok("new hipparchus leader=0 seed=9")).fields()["game"]
    await w.ok(f"watch {game}")
    token = (await a.ok(f"join {game} 0")).fields()["token"]
    await b.ok(f"join {game} 1")
    move = (await a.ok(f"legal {game}")).text.split()[0]
    lines = [(a, f"play {game} {move}\n"), (thief, f"resume {token}\n")]
    if order == "resume-first":
        lines.reverse()
    # Both requests leave in the same instant; the lobby carries them out one after the other.
    async with trio.open_nursery() as nursery:
        for client, line in lines:
            nursery.start_soon(client.send, line)
    play_reply = await a.read_reply()
    await thief.read_reply()
    state = (await thief.ok(f"state {game}")).fields()
    assert state["view.seat"] == "0"
    played = state["view.lead"] == move.partition("@")[0]  # public: count and suit (H13)
    assert play_reply.ok == played, (play_reply, state)
    if not played:
        assert play_reply.code == "not-seated"
    seqs = await _seqs(w, game)
    assert seqs == list(range(1, len(seqs) + 1)) and int(state["seq"]) == seqs[-1]
    # The ousted connection gets no private event, ever: not even the next round's hand.
    await a.ok("name")
    after = a.events[next(i for i, e in enumerate(a.events) if " resumed " in e) + 1 :]
    assert after == []


async def test_a_connection_that_drops_right_after_its_move(start_server: StartServer) -> None:
    server = await start_server()
    a, b, w = [await Client.connect(server.ports[0]) for _ in range(3)]
    game = await seated_game(a, b)
    await w.ok(f"watch {game}")
    await a.send(f"play {game} 1S@1\n")
    await a.aclose()
    events = await w.events_until(["disconnected"])
    kinds = [event_fields(e)[2] for e in events]
    assert kinds[-4:] == ["played", "turn", "to-move", "disconnected"]
    assert (await b.ok(f"state {game}")).fields()["view.lead"] == "1S"


class SlowStore(MemoryStore):
    """A store whose moves take a while to become durable."""

    durable = True

    async def add_move(self, game_id: str, seat: int, move: str, snapshot: Any = None) -> None:
        await trio.sleep(0.05)


async def test_a_slow_store_keeps_every_stream_in_order(start_server: StartServer) -> None:
    server = await start_server(store=SlowStore())
    a, b, w = [await Client.connect(server.ports[0]) for _ in range(3)]
    await w.ok("format json")
    game = await seated_game(a, b)
    await w.ok(f"watch {game}")
    await a.send(f"play {game} 1S@1\n")
    await trio.sleep(0.01)  # the play waits for the store
    reply = await w.request(f"state {game}")
    seq = json.loads(reply.lines[0])["seq"]
    # The state answer came after the events it counts.
    assert [json.loads(e[2:])["seq"] for e in w.events][-1] == seq
    assert (await a.read_reply()).ok


class FailingStore(MemoryStore):
    """A store whose disk is full."""

    durable = True

    async def add_move(self, game_id: str, seat: int, move: str, snapshot: Any = None) -> None:
        raise OSError(28, "No space left on device")


async def test_a_failed_store_call_changes_nothing(start_server: StartServer) -> None:
    server = await start_server(store=FailingStore())
    a, b, w = [await Client.connect(server.ports[0]) for _ in range(3)]
    game = await seated_game(a, b)
    await w.ok(f"watch {game}")
    await a.fail(f"play {game} 1S@1", "internal")
    state = (await w.ok(f"state {game}")).fields()
    assert state["view.lead"] == "-" and not [e for e in w.events if " played " in e]


async def test_abandoned_waiting_games_do_not_exhaust_the_games_limit(
    start_server: StartServer,
) -> None:
    server = await start_server(max_games=3, idle_timeout=0.2, abandon_timeout=0.2)
    vandal = await Client.connect(server.ports[0])
    for _ in range(3):
        await vandal.ok("new hipparchus")
    await vandal.aclose()
    await trio.sleep(0.6)
    user = await Client.connect(server.ports[0])
    await user.ok("new hipparchus")


@pytest.mark.parametrize("mode", ["text", "json"])
async def test_legal_waits_for_the_events_before_it(start_server: StartServer, mode: str) -> None:
    server = await start_server(store=SlowStore())
    a, b = [await Client.connect(server.ports[0]) for _ in range(2)]
    game = await seated_game(a, b)
    await b.ok(f"format {mode}")
    await b.events_until(["turn"])
    await a.send(f"play {game} 1S@1\n")
    await trio.sleep(0.01)  # the play waits for the store
    reply = await b.ok(f"legal {game}")
    # Seat 1 is told its moves to follow only after it was told what it follows.
    assert reply.lines != [] and reply.lines != ['{"game": "g1", "moves": []}']
    kinds = [event_fields(e)[2] for e in b.events[-3:]]
    assert kinds == ["played", "turn", "to-move"], b.events
