"""The protocol over WebSocket (hipparchusd/server/websocket.py), without a browser: the same
protocol as over TCP, line for line, for every command; one line per message both ways; the
Origin check; messages too long, binary or of several lines; the limits (connections, idle
timeout, a client that stops reading) as over TCP."""

from __future__ import annotations

import re
from typing import Any

import pytest
import trio
from daemon.client import Client
from daemon.helpers import DEAL, seated_game

from hipparchusd.protocol import LineError
from hipparchusd.server.websocket import message_cap, message_lines, request_line

from .wsclient import WsClient

TOKEN = re.compile(rb"[0-9a-f]{32}")


async def session_script(a: Client, b: Client, c: Client, d: Client) -> None:
    """One session touching every command, by four connections: ``a`` and ``b`` seated,
    ``c`` watching, ``d`` resuming ``b``'s seat. Each waits for its answer, so every
    connection's stream is the same whatever carries it."""
    for line in [
        "protocol_version", "name", "version", "list_commands", "known_command play",
        "known_command fly", "help", "help new", "help join", "kinds", "format", "1 games",
        "bogus", "PLAY x", "new nothing", "new hipparchus leader=7",
    ]:  # fmt: skip
        await a.request(line)
    game = (await a.ok(f"new hipparchus leader=0 deal={DEAL}")).fields()["game"]
    await a.ok("games")
    await c.ok(f"watch {game}")
    await a.ok(f"join {game} 0 name=alice")
    token = (await b.ok(f"join {game} 1 name=bob")).fields()["token"]
    await a.ok(f"state {game}")
    await c.ok(f"state {game}")
    await b.fail(f"play {game} 1S@1", "not-your-turn")
    await a.fail(f"play {game} 2S@1", "illegal-move")  # a lone Sun is played whole (H2)
    for _ in range(6):
        for player in (a, b):
            moves = (await player.ok(f"legal {game}")).text.split()
            if moves:
                await player.ok(f"play {game} {moves[-1]}")
    await a.ok("format json")
    await a.ok(f"state {game}")
    await a.ok(f"legal {game}")
    await a.ok("format text")
    await b.ok(f"leave {game}")
    await d.ok(f"resume {token}")
    await d.ok(f"state {game}")
    await d.fail("resume 0123456789abcdef0123456789abcdef", "bad-token")
    await c.fail(f"record {game}", "game-not-over")
    await c.ok(f"unwatch {game}")
    await c.fail(f"unwatch {game}", "not-following")
    await a.ok(f"resign {game}")
    await a.ok(f"record {game}")
    for client in (a, b, c, d):
        await client.ok("quit")


async def test_every_command_answers_over_websocket_exactly_as_over_tcp(
    start_server: Any, nursery: trio.Nursery
) -> None:
    transcripts = []
    for transport in ("tcp", "websocket"):
        server = await start_server()
        if transport == "tcp":
            clients = [await Client.connect(server.ports[0]) for _ in range(4)]
        else:
            port = server.web_ports[0]
            clients = [await WsClient.open(nursery, port) for _ in range(4)]
        await session_script(*clients)
        transcripts.append([TOKEN.sub(b"TOKEN", bytes(client.received)) for client in clients])
    tcp, ws = transcripts
    assert [t.count(b"\n") for t in ws] == [t.count(b"\n") for t in tcp]
    assert ws == tcp
    # The watcher never saw a hand: hidden information holds over WebSocket too.
    assert b" hand " not in ws[2] and not re.search(rb"hand=[SME]", ws[2])
    assert re.search(rb"hand=[SME]", ws[0])  # (the seat's own stream does hold its hand)


async def test_each_line_is_one_message_and_a_response_ends_with_an_empty_one(
    start_server: Any, nursery: trio.Nursery
) -> None:
    server = await start_server()
    client = await WsClient.open(nursery, server.web_ports[0])
    await client.send("help\n")
    reply = await client.read_reply()
    assert reply.ok and len(reply.lines) > 10
    # Every line of the multi-line answer came as its own message, then an empty one.
    assert client.messages[-1] == "" and all("\n" not in m for m in client.messages)
    assert len(client.messages) == 1 + len(reply.lines) + 1  # greeting, lines, the end
    await client.send("format json\n")
    assert (await client.read_reply()).json() == {"format": "json"}


def test_the_framing_helpers() -> None:
    assert message_lines(b"= a\nb\n\n* g1 1 joined seat=0\n") == [
        "= a",
        "b",
        "",
        "* g1 1 joined seat=0",
    ]
    assert request_line("name\r\n", 64) == "name"
    assert request_line("name\n", 64) == "name"
    # 63 characters and the LF: 64 bytes, the limit.
    assert request_line("x" * 63, 64) == "x" * 63
    too_long = request_line("x" * 64, 64)
    assert isinstance(too_long, LineError) and too_long.code == "line-too-long"
    # UTF-8 bytes count, not characters: 32 two-byte letters are 65 bytes with the LF.
    assert isinstance(request_line("é" * 32, 64), LineError)
    several = request_line("name\nversion", 64)
    assert isinstance(several, LineError) and several.code == "syntax"
    assert message_cap(4096) == 65536 and message_cap(100_000) == 400_000


async def test_messages_the_protocol_does_not_take(
    start_server: Any, nursery: trio.Nursery
) -> None:
    server = await start_server(max_line_bytes=100)
    client = await WsClient.open(nursery, server.web_ports[0])
    # One request per message: two lines in one message are refused, the session goes on.
    await client.ws.send_message("name\nversion")
    reply = await client.read_reply()
    assert reply.code == "syntax" and "one request line per WebSocket message" in reply.text
    # Too long for a request line (100 bytes, LF counted): refused, and the session goes on.
    await client.ws.send_message("name " + "x" * 95)
    assert (await client.read_reply()).code == "line-too-long"
    await client.ws.send_message("name " + "x" * 94)  # exactly 100 bytes with its LF
    assert (await client.read_reply()).code == "syntax"  # a whole line, read: name takes no word
    # An empty message, like an empty line, is no request.
    await client.ws.send_message("")
    await client.ws.send_message("# a comment")
    assert (await client.ok("name")).lines == ["hipparchusd"]
    # Beyond the cap a message is not read at all: closed with 1009 (message too big).
    await client.ws.send_message("x" * (message_cap(100) + 1))
    with pytest.raises(EOFError):
        await client.read_line()
    assert client.ws.closed is not None and client.ws.closed.code == 1009


async def test_a_binary_message_closes_the_connection(
    start_server: Any, nursery: trio.Nursery
) -> None:
    server = await start_server()
    client = await WsClient.open(nursery, server.web_ports[0])
    await client.ws.send_message(b"name\n")
    with pytest.raises(EOFError):
        await client.read_line()
    assert client.ws.closed is not None and client.ws.closed.code == 1003
    with trio.fail_after(5):
        while server.connection_count:
            await trio.sleep(0.01)


async def test_the_origin_check(start_server: Any, nursery: trio.Nursery) -> None:
    server = await start_server(ws_origins=("https://cards.example.org",))
    port = server.web_ports[0]
    # The page's own origin, a configured one, and a program that sends none: a session.
    for origin in (f"http://127.0.0.1:{port}", "https://cards.example.org", None):
        client = await WsClient.open(nursery, port, origin=origin)
        assert (await client.ok("name")).lines == ["hipparchusd"]
        await client.aclose()
    # Another site's page (or another port of the same host, or a sandboxed page): refused
    # with 403 before any session exists.
    for origin in (
        "http://evil.example",
        f"http://127.0.0.1:{port + 1}",
        "null",
        "https://cards.example.org.evil",
    ):
        assert await refused_status(port, origin) == 403, origin
    assert await refused_status(port, f"http://127.0.0.1:{port}") == 101
    assert server.connection_count <= 1
    # Only /ws upgrades.
    assert await refused_status(port, None, "/socket") == 404


async def refused_status(port: int, origin: str | None, path: str = "/ws") -> int:
    """The HTTP status answering a WebSocket handshake to ``path`` with ``Origin: origin``
    (101: accepted), read from the raw answer."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    lines = [
        f"GET {path} HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
    ]
    if origin is not None:
        lines.append(f"Origin: {origin}")
    await stream.send_all(("\r\n".join(lines) + "\r\n\r\n").encode())
    answer = b""
    with trio.fail_after(5):
        while b"\r\n" not in answer:
            answer += await stream.receive_some(4096)
    await stream.aclose()
    return int(answer.split(b" ")[1])


async def test_the_connection_limit_counts_websocket_sessions(
    start_server: Any, nursery: trio.Nursery
) -> None:
    server = await start_server(max_connections=2)
    tcp = await Client.connect(server.ports[0])
    ws = await WsClient.open(nursery, server.web_ports[0])
    assert server.connection_count == 2
    over = await WsClient.open(nursery, server.web_ports[0], greet=False)
    assert await over.read_line() == "? limit too many connections"
    assert await over.read_line() == ""
    with pytest.raises(EOFError):
        await over.read_line()
    assert over.ws.closed is not None and over.ws.closed.code == 1013
    over_tcp = await Client.connect(server.ports[0], greet=False)
    assert await over_tcp.read_line() == "? limit too many connections"
    for client in (tcp, ws):
        assert (await client.ok("name")).lines == ["hipparchusd"]


async def test_the_idle_timeout_closes_a_silent_websocket(
    start_server: Any, nursery: trio.Nursery
) -> None:
    server = await start_server(idle_timeout=0.3)
    client = await WsClient.open(nursery, server.web_ports[0])
    with trio.fail_after(5):
        with pytest.raises(EOFError):
            await client.read_line()
    assert client.ws.closed is not None
    assert (client.ws.closed.code, client.ws.closed.reason) == (1000, "idle timeout")


async def test_a_websocket_client_that_stops_reading_is_dropped(
    start_server: Any, nursery: trio.Nursery
) -> None:
    server = await start_server(outbound_queue=8)
    a = await Client.connect(server.ports[0])
    b = await WsClient.open(nursery, server.web_ports[0])  # a player over WebSocket, reading
    game = await seated_game(a, b)
    slow = await WsClient.open(nursery, server.web_ports[0])
    await slow.ok(f"watch {game}")
    # ``slow`` stops reading and asks for much: its socket fills, and the server stops reading
    # its requests once half its queue holds their answers.
    with trio.move_on_after(2):
        for _ in range(20000):
            await slow.ws.send_message("help")
    assert server.connection_count == 3
    # The game's events fill the rest of its queue: it is closed, and the players, one of
    # them over WebSocket, are never blocked meanwhile.
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
    assert (await b.ok("name")).lines == ["hipparchusd"]


async def test_shutdown_notice_reaches_websocket_sessions(
    start_server: Any, nursery: trio.Nursery
) -> None:
    server = await start_server()
    client = await WsClient.open(nursery, server.web_ports[0])
    server.shutdown()
    assert (await client.read_line()).startswith("* server shutdown grace=")
    with trio.fail_after(5):
        with pytest.raises(EOFError):
            while True:
                await client.read_line()
    assert client.ws.closed is not None and client.ws.closed.code == 1001
