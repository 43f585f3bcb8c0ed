"""A WebSocket client for the tests that does what a browser would not: connect from another
loopback address, send any handshake headers (a forged ``Host``, an odd key), send a message
in as many frames as it likes, and read the raw answer. Built on wsproto, frame by frame."""

from __future__ import annotations

import trio
import wsproto
import wsproto.events as ws_events

KEY = "dGhlIHNhbXBsZSBub25jZQ=="  # RFC 6455's example: the base64 of 16 bytes


async def open_stream(port: int, source: str = "127.0.0.1") -> trio.SocketStream:
    """A TCP connection to 127.0.0.1 ``port`` from the loopback address ``source``."""
    sock = trio.socket.socket(trio.socket.AF_INET, trio.socket.SOCK_STREAM)
    await sock.bind((source, 0))
    await sock.connect(("127.0.0.1", port))
    return trio.SocketStream(sock)


def handshake(
    port: int,
    *,
    host: str | None = None,
    origin: str | None = None,
    key: str | None = KEY,
    path: str = "/ws",
) -> bytes:
    """A WebSocket handshake request's bytes, ``Host: 127.0.0.1:<port>`` unless ``host``."""
    lines = [
        f"GET {path} HTTP/1.1",
        f"Host: {host if host is not None else f'127.0.0.1:{port}'}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Version: 13",
    ]
    if key is not None:
        lines.append(f"Sec-WebSocket-Key: {key}")
    if origin is not None:
        lines.append(f"Origin: {origin}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


async def status_of(stream: trio.SocketStream, request: bytes) -> int:
    """Send ``request`` and read the status of the answer (101: a session)."""
    await stream.send_all(request)
    answer = b""
    with trio.fail_after(10):
        while b"\r\n" not in answer:
            chunk = await stream.receive_some(4096)
            if not chunk:
                raise EOFError(f"closed after {answer!r}")
            answer += chunk
    return int(answer.split(b" ")[1])


class RawWs:
    """A WebSocket session opened frame by frame: :meth:`open` connects (from ``source``) and
    completes the handshake; :meth:`send` sends events (a fragment is a
    ``TextMessage(..., message_finished=False)``); :meth:`read` gives the events that come."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.ws = wsproto.WSConnection(wsproto.ConnectionType.CLIENT)
        self.events: list[ws_events.Event] = []

    @classmethod
    async def open(cls, port: int, source: str = "127.0.0.1") -> RawWs:
        """Connect and complete the handshake.

        Raises:
            AssertionError: the server refused it.
        """
        client = cls(await open_stream(port, source))
        request = ws_events.Request(host=f"127.0.0.1:{port}", target="/ws")
        await client.stream.send_all(client.ws.send(request))
        while not any(isinstance(e, ws_events.AcceptConnection) for e in client.events):
            assert await client.read(), "closed during the handshake"
        assert not any(isinstance(e, ws_events.RejectConnection) for e in client.events)
        return client

    async def send(self, *events: ws_events.Event) -> None:
        """Send ``events``, one write."""
        await self.stream.send_all(b"".join(self.ws.send(event) for event in events))

    async def read(self) -> bool:
        """Read the next bytes and keep their events in :attr:`events`; False once the server
        has closed the connection."""
        data = await self.stream.receive_some(65536)
        if not data:
            return False
        self.ws.receive_data(data)
        self.events += self.ws.events()
        return True

    def texts(self) -> list[str]:
        """The text messages received so far (each whole)."""
        texts, part = [], ""
        for event in self.events:
            if isinstance(event, ws_events.TextMessage):
                part += event.data
                if event.message_finished:
                    texts.append(part)
                    part = ""
        return texts

    def close_code(self) -> int | None:
        """The code of the close frame received, if one came."""
        for event in self.events:
            if isinstance(event, ws_events.CloseConnection):
                return int(event.code)
        return None
