"""The web listener: the page over plain HTTP and the protocol over WebSocket, on one port
(:class:`WebFront`), and the WebSocket transport of a session (:class:`WebSocketConnection`).

A connection to the web listener sends one HTTP request. ``GET /ws`` asking to upgrade to
WebSocket, from an allowed ``Origin`` (:func:`~hipparchusd.web.origin_allowed`), becomes a
session like a TCP one: the same lobby, limits, idle timeout, outbound queue and
hidden-information rules, since only the transport differs (:class:`~.connection.Connection`
holds the rest). Any other request is answered from the page's files
(:class:`~hipparchusd.web.StaticSite`) and the connection closed.

The protocol is unchanged: one protocol line per WebSocket text message, both ways, without
its LF. A response's terminating empty line is an empty message, so the messages joined with
LF are exactly what TCP carries. A request message may end with one LF (dropped); one holding
another LF is answered ``? syntax``; one over ``max_line_bytes`` (counting an LF) is answered
``? line-too-long`` and the session goes on, as over TCP. A message over
:func:`message_cap` bytes is not even read: the connection is closed with code 1009; a binary
message closes it with code 1003.

The request head is read with h11 and, for an upgrade, handed with the bytes read so far to
trio-websocket (on wsproto), which does the handshake and the framing.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterable
from typing import Final, Protocol

import h11
import trio
import trio_websocket

from ..addresses import host_of
from ..lobby import Session
from ..protocol import ErrorCode, LineError
from ..protocol import formatting as fmt
from ..settings import Settings
from ..web import WEBSOCKET_PATH, HttpAnswer, StaticSite, origin_allowed
from ..web.site import error_answer
from .connection import Connection, Refused, peer_name

log = logging.getLogger("hipparchusd.server")

#: Seconds a client has to send its whole request head.
REQUEST_TIMEOUT: Final = 10.0
#: Longest request head (request line and headers), bytes.
MAX_REQUEST_HEAD: Final = 16384
#: Seconds given to the WebSocket closing handshake before the stream is closed anyway.
CLOSE_TIMEOUT: Final = 2.0
#: Close codes (RFC 6455 section 7.4.1).
CLOSE_NORMAL, CLOSE_GOING_AWAY, CLOSE_UNSUPPORTED, CLOSE_TOO_BIG, CLOSE_TRY_LATER = (
    1000,
    1001,
    1003,
    1009,
    1013,
)


def message_cap(max_line_bytes: int) -> int:
    """The longest WebSocket message read at all (characters, as trio-websocket counts):
    four request lines' worth, at least 64 KiB. A longer message closes the connection (code
    1009) without being kept in memory; one between ``max_line_bytes`` and this is answered
    ``? line-too-long``, as the same line over TCP would be."""
    return max(4 * max_line_bytes, 65536)


def request_line(message: str, max_line_bytes: int) -> str | LineError:
    """The request line a WebSocket text message carries, or why it carries none: one
    trailing LF (and a CR before it) is dropped; the line with its LF may have
    ``max_line_bytes`` UTF-8 bytes (``line-too-long``); another LF inside is a ``syntax``
    error (one request per message)."""
    if message.endswith("\n"):
        message = message[:-1]
    if message.endswith("\r"):
        message = message[:-1]
    if len(message) + 1 > max_line_bytes or len(message.encode()) + 1 > max_line_bytes:
        return LineError(
            ErrorCode.LINE_TOO_LONG, f"request lines are limited to {max_line_bytes} bytes"
        )
    if "\n" in message:
        return LineError(ErrorCode.SYNTAX, "one request line per WebSocket message")
    return message


def message_lines(data: bytes) -> list[str]:
    """The WebSocket messages for ``data``, whole protocol lines each ending in LF: one message
    per line, without its LF (an empty line, a response's end, is an empty message)."""
    return data.decode().split("\n")[:-1]


class WebSocketConnection(Connection):
    """A session over a WebSocket (trio-websocket's connection ``ws``): each text message a
    request line (:func:`request_line`), each protocol line sent a text message
    (:func:`message_lines`). Closing sends the close frame with a code that says why
    (:attr:`close_code`)."""

    transport = "websocket"

    def __init__(
        self,
        ws: trio_websocket.WebSocketConnection,
        session: Session,
        queue_size: int,
        dirty: list[Connection],
        max_line_bytes: int,
    ) -> None:
        super().__init__(session, queue_size, dirty)
        self.ws = ws
        self.max_line_bytes = max_line_bytes
        #: The close frame's code and reason, set when the reason is known.
        self.close_code = CLOSE_NORMAL
        self.close_reason = ""
        #: Whether the server is stopping (then the close frame says 1001, going away).
        self.going_away: Callable[[], bool] = lambda: False

    async def receive_requests(self) -> Iterable[str | LineError] | None:
        """See :meth:`Connection.receive_requests`: the request line of the next message.

        Raises:
            Refused: a binary message (closed with 1003) or one over :func:`message_cap`
                (trio-websocket closed it with 1009).
        """
        try:
            message = await self.ws.get_message()
        except trio_websocket.ConnectionClosed as closed:
            if closed.reason is not None and closed.reason.code == CLOSE_TOO_BIG:
                raise Refused("message too big") from None
            return None
        if isinstance(message, bytes):
            self.close_code = CLOSE_UNSUPPORTED
            self.close_reason = "text messages only: one protocol line each"
            raise Refused("binary message")
        return (request_line(message, self.max_line_bytes),)

    async def send(self, data: bytes) -> None:
        """See :meth:`Connection.send`: one text message per line."""
        try:
            for line in message_lines(data):
                await self.ws.send_message(line)
        except trio_websocket.ConnectionClosed as closed:
            raise trio.BrokenResourceError(str(closed)) from None

    async def aclose(self) -> None:
        """Send the close frame with :attr:`close_code` (1001 when the server is stopping;
        within :data:`CLOSE_TIMEOUT` seconds), unless the outbound queue filled: then the
        caller closes the stream at once."""
        code, reason = self.close_code, self.close_reason
        if self.overflowed:
            # The peer reads nothing: a close frame would wait behind the unread data. The
            # stream is closed at once (the peer sees code 1006).
            return
        if self.timed_out:
            reason = "idle timeout"
        elif code == CLOSE_NORMAL and self.going_away():
            code, reason = CLOSE_GOING_AWAY, "server shutting down"
        with trio.move_on_after(CLOSE_TIMEOUT):
            await self.ws.aclose(code, reason or None)


class SessionHost(Protocol):
    """What the web listener needs of the server it runs sessions for (the
    :class:`~.lifecycle.Server` is one): its settings now, whether it is stopping, whether it
    would take a new connection, a session for one, and running that session."""

    @property
    def settings(self) -> Settings:
        """The settings in force (a reload replaces them)."""

    @property
    def shutting_down(self) -> bool:
        """Whether the graceful shutdown has begun."""

    @property
    def connection_count(self) -> int:
        """Open client connections, over any transport."""

    def refusal(self, address: str) -> tuple[ErrorCode, str] | None:
        """Why a new connection from ``address`` would be refused now (the code and the
        message to send), or ``None``."""

    def connect(self, peer: str) -> tuple[Session, list[Connection]]:
        """A new lobby session for a connection from ``peer``, which :meth:`refusal` found no
        reason to refuse, and the list a connection of it notes itself in when it has output
        to flush (:class:`~.connection.Connection`'s ``dirty``)."""

    async def run_connection(self, conn: Connection, peer: str) -> None:
        """Serve ``conn`` (a session from :meth:`connect`) until it ends."""


class WebFront:
    """What the web listener does with each connection it accepts (:meth:`handle`), for
    ``server``: the page (read from the package once), and the WebSocket sessions.

    Raises:
        OSError: the page's files cannot be read.
    """

    def __init__(self, server: SessionHost, site: StaticSite | None = None) -> None:
        self.server = server
        self.site = site or StaticSite.from_package()
        #: Connections still in their HTTP request; bounded by ``max_connections`` too.
        self.pending = 0

    async def handle(self, stream: trio.SocketStream) -> None:
        """Serve one connection of the web listener: read its request head (within
        :data:`REQUEST_TIMEOUT`), then answer it from the page's files, or refuse it, or run
        its WebSocket session until it ends. The stream is closed at the end."""
        peer = peer_name(stream)
        try:
            if self.pending >= self.server.settings.max_connections:
                return
            self.pending += 1
            try:
                head = None
                with trio.move_on_after(REQUEST_TIMEOUT):
                    head = await read_request_head(stream)
            finally:
                self.pending -= 1
            if head is None:
                return
            request, received = head
            if isinstance(request, HttpAnswer):
                await send_answer(stream, request)
                return
            headers = [
                (name.decode().lower(), value.decode("latin-1")) for name, value in request.headers
            ]
            method, target = request.method.decode(), request.target.decode("latin-1")
            upgrade = any(n == "upgrade" and v.strip().lower() == "websocket" for n, v in headers)
            if not upgrade:
                await send_answer(stream, self.site.answer(method, target, headers))
                return
            if target.split("?", 1)[0] != WEBSOCKET_PATH:
                await send_answer(stream, error_answer(404, "the WebSocket is at /ws\n"))
                return
            origin = next((v for n, v in headers if n == "origin"), None)
            host = next((v for n, v in headers if n == "host"), None)
            if not origin_allowed(origin, host, self.server.settings.ws_origins):
                log.info("websocket from %s refused: origin %s not allowed", peer, origin)
                await send_answer(stream, error_answer(403, "origin not allowed\n"))
                return
            await self._websocket(stream, received, peer)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        finally:
            await trio.aclose_forcefully(stream)

    async def _websocket(self, stream: trio.SocketStream, received: bytes, peer: str) -> None:
        """Complete the handshake (trio-websocket reads the request again from ``received``)
        and run the session; refused with ``? limit`` and close code 1013 when
        the server refuses a new connection (``max_connections``, per address, stopping)."""
        server = self.server
        settings = server.settings
        replay = ReplayStream(stream, received)
        async with trio.open_nursery() as nursery:
            with trio.move_on_after(REQUEST_TIMEOUT) as handshake:
                request = await trio_websocket.wrap_server_stream(
                    nursery,
                    replay,
                    message_queue_size=1,
                    max_message_size=message_cap(settings.max_line_bytes),
                )
                ws = await request.accept()
            if handshake.cancelled_caught:
                nursery.cancel_scope.cancel()
                return
            refused = server.refusal(host_of(peer))
            if refused is not None:
                code, message = refused
                log.info(
                    "websocket from %s refused: %s (%d connections)",
                    peer, message, server.connection_count,
                )  # fmt: skip
                refusal = fmt.failure(None, fmt.Mode.TEXT, code, message)
                with trio.move_on_after(CLOSE_TIMEOUT):
                    with contextlib.suppress(trio_websocket.ConnectionClosed):
                        for line in message_lines(refusal):
                            await ws.send_message(line)
                        await ws.aclose(CLOSE_TRY_LATER, message)
                nursery.cancel_scope.cancel()
                return
            session, dirty = server.connect(peer)
            conn = WebSocketConnection(
                ws, session, settings.outbound_queue, dirty, settings.max_line_bytes
            )
            conn.going_away = lambda: server.shutting_down
            try:
                await server.run_connection(conn, peer)
            finally:
                nursery.cancel_scope.cancel()


async def read_request_head(
    stream: trio.abc.ReceiveStream,
) -> tuple[h11.Request | HttpAnswer, bytes] | None:
    """Read an HTTP request's head from ``stream``: the request (or the 400 answer to send
    for a malformed one) and every byte read, for a WebSocket handshake to read again;
    ``None`` if the peer closed first."""
    parser = h11.Connection(h11.SERVER, max_incomplete_event_size=MAX_REQUEST_HEAD)
    received = bytearray()
    while True:
        try:
            event = parser.next_event()
        except h11.RemoteProtocolError as error:
            status = error.error_status_hint
            return error_answer(status, f"bad request: {error}\n"), bytes(received)
        if event is h11.NEED_DATA:
            data = await stream.receive_some(4096)
            if not data:
                return None
            received += data
            parser.receive_data(bytes(data))
            continue
        if isinstance(event, h11.Request):
            return event, bytes(received)
        return None


_REASONS: Final = {
    200: b"OK",
    304: b"Not Modified",
    400: b"Bad Request",
    403: b"Forbidden",
    404: b"Not Found",
    405: b"Method Not Allowed",
    431: b"Request Header Fields Too Large",
}


async def send_answer(stream: trio.abc.SendStream, answer: HttpAnswer) -> None:
    """Write ``answer`` as an HTTP/1.1 response that closes the connection."""
    reason = _REASONS.get(answer.status, b"Error")
    head = [b"HTTP/1.1 %d %s\r\n" % (answer.status, reason)]
    for name, value in (*answer.headers, ("Connection", "close")):
        head.append(f"{name}: {value}\r\n".encode("latin-1"))
    head.append(b"\r\n")
    with trio.move_on_after(REQUEST_TIMEOUT):
        await stream.send_all(b"".join(head) + answer.body)


class ReplayStream(trio.abc.Stream):
    """``stream`` whose first bytes received are ``first`` (what was read before handing the
    stream over), then whatever ``stream`` receives."""

    def __init__(self, stream: trio.abc.Stream, first: bytes) -> None:
        self.stream = stream
        self._first = first

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        """See :meth:`trio.abc.ReceiveStream.receive_some`."""
        if self._first:
            size = len(self._first) if max_bytes is None else max_bytes
            data, self._first = self._first[:size], self._first[size:]
            await trio.lowlevel.checkpoint()
            return bytes(data)
        return bytes(await self.stream.receive_some(max_bytes))

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        """See :meth:`trio.abc.SendStream.send_all`."""
        await self.stream.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        """See :meth:`trio.abc.SendStream.wait_send_all_might_not_block`."""
        await self.stream.wait_send_all_might_not_block()

    async def aclose(self) -> None:
        """Close the underlying stream."""
        await self.stream.aclose()
