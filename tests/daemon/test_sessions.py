"""Sessions: resuming a dropped seat, bad input that changes nothing, and the limits of
PROTOCOL.md section 7 (idle timeout, outbound queue)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable

import trio

from hipparchusd.server import Server

from .client import Client, event_fields
from .conftest import StartServer
from .helpers import HAND1, new_game, seated_game

Connect = Callable[..., Awaitable[Client]]


async def test_resume_after_a_drop_mid_trick(server: Server, connect: Connect) -> None:
    a, b, w = await connect(), await connect(), await connect()
    game = await new_game(a)
    await a.ok(f"join {game} 0")
    token = (await b.ok(f"join {game} 1")).fields()["token"]
    await w.ok(f"watch {game}")
    # Seat 0 leads; the trick is half played when seat 1's connection drops.
    await a.ok(f"play {game} 1M@2")
    state_before = (await a.ok(f"state {game}")).fields()
    b_state = (await b.ok(f"state {game}")).fields()
    assert b_state["view.lead"] == "1M"
    await b.aclose()
    assert event_fields(await w.events_until(["disconnected"]) and w.events[-1])[2:] == (
        "disconnected",
        {"seat": "1"},
    )
    await a.fail(f"play {game} 1S@1", "not-your-turn")  # still seat 1's turn
    # Seat 1 comes back on a new connection in JSON mode.
    b2 = await connect()
    await b2.ok("format json")
    await b2.fail("resume 00000000000000000000000000000000", "bad-token")
    snapshot = (await b2.ok(f"resume {token}")).json()
    assert snapshot["game"] == game and snapshot["status"] == "playing"
    view = snapshot["view"]
    assert view["seat"] == 1 and view["hand"] == HAND1 and view["lead"] == "1M"
    assert view["to_move"] == 1
    seq = snapshot["seq"]
    assert seq == int(state_before["seq"]) + 2  # the disconnected and resumed events
    resumed = event_fields(await a.events_until(["resumed"]) and a.events[-1])
    assert resumed[1:] == (seq, "resumed", {"seat": "1"})
    # Play continues: events follow the snapshot with no gap.
    reply = (await b2.ok(f"play {game} 2M@9")).json()
    assert reply == {"game": game, "move": "2M@8"}
    next_events = [json.loads((await b2.next_event())[2:]) for _ in range(3)]
    assert [e["seq"] for e in next_events] == [seq + 1, seq + 2, seq + 3]
    assert [e["kind"] for e in next_events] == ["played", "trick", "turn"]


async def test_resume_with_the_join_token_takes_the_seat_from_another_connection(
    connect: Connect,
) -> None:
    a, b, c = await connect(), await connect(), await connect()
    game = (await a.ok("new hipparchus leader=0 seed=5")).fields()["game"]
    await a.ok(f"join {game}")
    token = (await b.ok(f"join {game}")).fields()["token"]
    hand = event_fields(await b.events_until(["hand"]) and b.events[-1])[3]["hand"]
    state = (await c.ok(f"resume {token}")).fields()
    assert state["view.seat"] == "1" and state["view.hand"] == hand
    # The ousted connection hears why its seat's events stop, and no longer holds it.
    resumed = await b.events_until(["resumed"])
    assert event_fields(resumed[-1])[3] == {"seat": "1"}
    await b.fail(f"legal {game}", "not-seated")
    await c.ok(f"legal {game}")
    await c.ok(f"resume {token}")  # resuming what one holds is harmless
    await a.fail(f"resume {token}", "already-seated")


async def test_bad_input_changes_nothing_and_the_connection_stays_usable(
    connect: Connect,
) -> None:
    a, b = await connect(), await connect()
    game = await seated_game(a, b)
    await a.ok(f"play {game} 1S@1")
    before = {c: (await c.ok(f"state {game}")).text for c in (a, b)}
    before_games = (await a.ok("games")).text

    cases: list[tuple[Client, bytes, str | None]] = [
        (a, b"\n", None),
        (a, b"   \t  \r\n", None),
        (a, b"# just a comment\n", None),
        (a, b"%%% garbage %%%\n", "syntax"),
        (a, b"\x00\x01\x02\n", "syntax"),
        (a, b"play g1 \xc3\x28\n", "syntax"),
        (a, b"x" * 5000 + b"\n", "line-too-long"),
        (a, b"frobnicate g1\n", "unknown-command"),
        (a, b"PLAY g1 1E@1\n", "syntax"),
        (a, b"play\n", "syntax"),
        (a, f"play {game}\n".encode(), "syntax"),
        (a, f"play {game} 1E@1 extra\n".encode(), "syntax"),
        (a, f"state {game} extra\n".encode(), "syntax"),
        (a, f"play {game} 1E@11\n".encode(), "not-your-turn"),  # out of turn
        (b, f"play {game} 3S@1\n".encode(), "illegal-move"),  # must follow Sun with 2 or 3
        (b, f"play {game} 1E@1\n".encode(), "illegal-move"),  # may not follow off-suit
        (b, b"play g2 1E@1\n", "unknown-game"),
        (b, f"join {game} 0\n".encode(), "already-seated"),  # the other seat
        (b, f"resign {game} 0\n".encode(), "syntax"),  # resign for another seat
    ]
    for client, line, code in cases:
        await client.send(line)
        if code is None:
            continue
        reply = await client.read_reply()
        assert not reply.ok and reply.code == code, (line[:40], reply)
    # Ignored lines got no response: the next response is the one to this request.
    assert (await a.ok("7 name")).id == "7"
    for client in (a, b):
        assert (await client.ok(f"state {game}")).text == before[client]
        # Nothing happened in the game: no event was sent.
        assert all(" played " not in e or "seat=0" in e for e in client.events)
    assert (await a.ok("games")).text == before_games
    # Both connections still play.
    moves = (await b.ok(f"legal {game}")).text.split()
    await b.ok(f"play {game} {moves[0]}")


async def test_moves_after_the_match_ended(connect: Connect) -> None:
    a, b = await connect(), await connect()
    game = await seated_game(a, b)
    await a.ok(f"resign {game}")
    before = (await a.ok(f"state {game}")).text
    await a.fail(f"play {game} 1S@1", "game-over")
    await b.fail(f"play {game} 1E@1", "game-over")
    await b.fail(f"resign {game}", "game-over")
    assert (await a.ok(f"state {game}")).text == before
    assert (await a.ok(f"legal {game}")).lines == []


async def test_idle_connections_are_closed_but_not_players(start_server: StartServer) -> None:
    server = await start_server(idle_timeout=0.3)
    port = server.ports[0]
    idle = await Client.connect(port)
    a = await Client.connect(port)
    b = await Client.connect(port)
    watcher = await Client.connect(port)
    game = await seated_game(a, b)
    await watcher.ok(f"watch {game}")
    with trio.fail_after(5):
        assert await idle.stream.receive_some(100) == b""
    await trio.sleep(0.4)
    for client in (a, b, watcher):
        assert (await client.ok("name")).lines == ["hipparchusd"]
    await a.ok(f"resign {game}")  # the game is over: now the timeout applies to them too
    with trio.fail_after(5):
        for client in (a, b, watcher):
            while await client.stream.receive_some(65536):
                pass


async def test_a_client_that_does_not_read_is_dropped(start_server: StartServer) -> None:
    server = await start_server(outbound_queue=8)
    port = server.ports[0]
    a = await Client.connect(port)
    b = await Client.connect(port)
    game = await seated_game(a, b)
    slow = await Client.connect(port)
    await slow.ok(f"watch {game}")
    # ``slow`` stops reading and asks for much: its socket fills, and the server stops reading
    # its requests until it reads the answers (half its queue holds them).
    big = b"help\n" * 20000
    with trio.move_on_after(2):
        await slow.send(big)
    assert server.connection_count == 3
    # The game's events fill the rest of its queue: it is closed. The players are never
    # blocked meanwhile.
    with trio.fail_after(10):
        for _ in range(20):
            for player in (a, b):
                moves = (await player.ok(f"legal {game}")).text.split()
                if moves:
                    await player.ok(f"play {game} {moves[0]}")
            await trio.sleep(0.01)
            if server.connection_count == 2:
                break
    assert server.connection_count == 2
    assert (await b.ok("name")).lines == ["hipparchusd"]  # the others carry on
    await slow.aclose()
