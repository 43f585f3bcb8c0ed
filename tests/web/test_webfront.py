"""The web listener against a hostile client (issue 24 items 1-4; hipparchusd/server/
webfront.py and websocket.py): connections still in their HTTP head count against their
address's connection limit and have a deadline; only the names the listener answers for are
served (DNS rebinding); a message trickled one frame at a time is timed from its first frame
like a request line over TCP; a handshake's key must be a real one."""

from __future__ import annotations

import base64
import contextlib
from typing import Any

import pytest
import trio
import wsproto.events as ws_events
from wsproto.connection import ConnectionState
from wsproto.utilities import LocalProtocolError

from hipparchusd.web.site import host_allowed, host_name, listener_names, websocket_key_valid

from .rawclient import RawWs, handshake, open_stream, status_of
from .test_http import http
from .wsclient import WsClient

#: Generous bounds (seconds) for what the daemon does on its own after a short deadline: they
#: only catch a deadline that does not apply at all (10 s or 300 s before the fixes), so a
#: loaded machine's delays stay far inside them.
GENEROUS = 8


async def _hold_head(port: int, source: str = "127.0.0.1") -> trio.SocketStream:
    """A connection that starts a WebSocket request head and never ends it."""
    stream = await open_stream(port, source)
    await stream.send_all(b"GET /ws HTTP/1.1\r\n")
    return stream


async def _closed(stream: trio.SocketStream) -> bytes:
    """Everything ``stream`` receives until the server closes it."""
    received = b""
    with trio.fail_after(GENEROUS):
        while chunk := await stream.receive_some(4096):
            received += chunk
    return received


async def test_unfinished_heads_count_against_their_address(
    start_server: Any, nursery: trio.Nursery
) -> None:
    server = await start_server(max_connections=10, max_connections_per_address=4)
    port = server.web_ports[0]
    # One address opens as many connections as the server takes, and never ends a head.
    held = [await _hold_head(port) for _ in range(4)]
    refused = [await _hold_head(port) for _ in range(6)]
    for stream in refused:
        answer = await _closed(stream)
        assert answer.startswith(b"HTTP/1.1 429 "), answer
        assert b"max-connections-per-address 4" in answer
    # Another address still gets its session (before: every slot was taken, its connection
    # closed at once).
    bystander = await RawWs.open(port, source="127.0.0.2")
    while not bystander.texts():
        assert await bystander.read()
    assert bystander.texts()[0].startswith("* server hello ")
    # The same address's heads and sessions share its limit: a session now is one too many.
    over = await open_stream(port)
    assert (await _closed_status(over, handshake(port))) == 429
    for stream in held:
        await stream.aclose()
    with trio.fail_after(GENEROUS):
        while True:
            client = await open_stream(port)
            if await _closed_status(client, handshake(port)) == 101:
                break
            await trio.sleep(0.05)


async def _closed_status(stream: trio.SocketStream, request: bytes) -> int:
    status = await status_of(stream, request)
    await stream.aclose()
    return status


async def test_a_head_has_the_request_deadline(start_server: Any) -> None:
    server = await start_server(request_timeout=0.3, max_connections_per_address=2)
    port = server.web_ports[0]
    slow = await _hold_head(port)
    assert await _closed(slow) == b""  # closed at the deadline, with nothing sent
    # Its slot is free again.
    with trio.fail_after(GENEROUS):
        while server.connection_count < 2:
            stream = await open_stream(port)
            assert await status_of(stream, handshake(port)) == 101


async def test_only_the_listeners_names_are_served(start_server: Any) -> None:
    server = await start_server(ws_origins=("https://cards.example.org",))
    port = server.web_ports[0]
    # DNS rebinding: another site's name resolving to the daemon, its page's own origin.
    rebound = handshake(
        port, host=f"attacker.example:{port}", origin=f"http://attacker.example:{port}"
    )
    assert await _closed_status(await open_stream(port), rebound) == 421
    status, _, body = await http(port, f"GET / HTTP/1.1\nHost: attacker.example:{port}\n\n")
    assert status == 421 and b"no such host" in body
    # The listener's address, localhost (it is loopback) and the configured origin's name.
    for host, origin in [
        (f"127.0.0.1:{port}", f"http://127.0.0.1:{port}"),
        (f"localhost:{port}", f"http://localhost:{port}"),
        ("cards.example.org", "https://cards.example.org"),
        ("cards.example.org", None),
    ]:
        request = handshake(port, host=host, origin=origin)
        assert await _closed_status(await open_stream(port), request) == 101, host
    # A listed name is not enough for an Origin that is neither the Host nor configured.
    mixed = handshake(port, host=f"localhost:{port}", origin=f"http://attacker.example:{port}")
    assert await _closed_status(await open_stream(port), mixed) == 403
    status, _, _ = await http(port, f"GET / HTTP/1.1\nHost: localhost:{port}\n\n")
    assert status == 200


def test_the_names_a_listener_answers_for() -> None:
    assert listener_names("127.0.0.1", "127.0.0.1", ()) == {"127.0.0.1", "localhost"}
    # A wildcard bind answers for the address a connection came in on, not for any name.
    assert listener_names("192.0.2.7", "0.0.0.0", ()) == {"192.0.2.7"}
    assert listener_names("::ffff:192.0.2.7", "::", ()) == {"192.0.2.7"}
    assert listener_names("::1", "cards.local", ("https://b.example:8443",)) == {
        "::1",
        "localhost",
        "cards.local",
        "b.example",
    }
    names = listener_names("::1", "::1", ())
    assert host_allowed("[::1]:7461", names) and host_allowed("LocalHost.", names)
    for host in (None, "", "::1", "[::1", "attacker.example", "localhost:99999", "a@localhost"):
        assert not host_allowed(host, names), host
    assert host_name("[::ffff:127.0.0.1]:80") == "127.0.0.1"


async def test_a_message_trickled_frame_by_frame_has_the_request_deadline(
    start_server: Any,
) -> None:
    server = await start_server(request_timeout=0.4)
    client = await RawWs.open(server.web_ports[0])
    start = trio.current_time()

    async def trickle() -> None:
        # One byte per frame, every 0.1 s: the message never ends (until the server closes).
        await client.send(ws_events.TextMessage("n", message_finished=False))
        while client.ws.state is ConnectionState.OPEN:
            await trio.sleep(0.1)
            with contextlib.suppress(trio.BrokenResourceError, LocalProtocolError):
                await client.send(ws_events.TextMessage("a", message_finished=False))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(trickle)
        with trio.fail_after(GENEROUS):
            while await client.read():
                pass
        nursery.cancel_scope.cancel()
    assert trio.current_time() - start < GENEROUS
    texts = client.texts()
    assert texts[-2].startswith("? limit request line not completed within 0.4 s"), texts
    assert client.close_code() == 1008
    # A message in a few quick frames is a request like any other.
    polite = await RawWs.open(server.web_ports[0])
    await polite.send(
        ws_events.TextMessage("protocol_", message_finished=False),
        ws_events.TextMessage("version", message_finished=True),
    )
    with trio.fail_after(GENEROUS):
        while "= 1" not in polite.texts():
            assert await polite.read()


@pytest.mark.parametrize(
    "key",
    [
        "abc",
        base64.b64encode(bytes(15)).decode(),
        base64.b64encode(bytes(17)).decode(),
        "!" * 22 + "==",
        base64.b64encode(bytes(16)).decode()[:-2],
        None,
    ],
)
async def test_a_handshake_needs_a_real_key(start_server: Any, key: str | None) -> None:
    assert not websocket_key_valid(key)
    server = await start_server()
    port = server.web_ports[0]
    assert await _closed_status(await open_stream(port), handshake(port, key=key)) == 400
    assert server.connection_count == 0


async def test_a_real_key_opens_a_session(start_server: Any, nursery: trio.Nursery) -> None:
    key = base64.b64encode(b"0123456789abcdef").decode()
    assert websocket_key_valid(key)
    server = await start_server()
    client = await WsClient.open(nursery, server.web_ports[0])  # trio-websocket's own key
    assert (await client.ok("name")).lines == ["hipparchusd"]
    port = server.web_ports[0]
    assert await _closed_status(await open_stream(port), handshake(port, key=key)) == 101
