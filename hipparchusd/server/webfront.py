"""The web listener: the page over plain HTTP and the protocol over WebSocket, on one port
(:class:`WebFront`).

A connection to the web listener sends one HTTP request. ``GET /ws`` asking to upgrade to
WebSocket, from an allowed ``Origin`` (:func:`~hipparchusd.web.origin_allowed`), becomes a
session like a TCP one (:class:`~.websocket.WebSocketConnection`): the same lobby, limits, idle
timeout, request deadline, outbound queue and hidden-information rules, since only the
transport differs (:class:`~.connection.Connection` holds the rest). Any other request is
answered from the page's files (:class:`~hipparchusd.web.StaticSite`) and the connection
closed.

Before a session exists a connection is *pending*: it still sends its request head, or its
handshake is being answered. Pending connections count against the per-address connection
limit like open ones (one address cannot hold every slot with heads it never finishes), and
the head and the handshake must be done within :func:`head_deadline` of the connection
(issue 24 item 1). Only requests for the names the listener answers for are served
(:func:`~hipparchusd.web.site.host_allowed`: DNS rebinding, item 2), and a handshake must
carry a real ``Sec-WebSocket-Key`` (item 4).

The request head is read with h11; the handshake and the frames are wsproto's.
"""

from __future__ import annotations

import collections
import logging
from typing import Final, Protocol

import h11
import trio
import wsproto
import wsproto.events as ws_events
from wsproto.utilities import RemoteProtocolError

from ..addresses import host_of
from ..lobby import Session
from ..protocol import ErrorCode
from ..protocol import formatting as fmt
from ..settings import Settings
from ..web import WEBSOCKET_PATH, HttpAnswer, StaticSite, origin_allowed
from ..web.site import error_answer, host_allowed, listener_names, websocket_key_valid
from .connection import Connection, peer_name
from .websocket import CLOSE_TIMEOUT, CLOSE_TRY_LATER, WebSocketConnection, message_lines

log = logging.getLogger("hipparchusd.server")

#: The longest a client may take to send its whole request head (and have its handshake
#: answered), in seconds: the request deadline, but at most this.
REQUEST_TIMEOUT: Final = 10.0
#: Longest request head (request line and headers), bytes.
MAX_REQUEST_HEAD: Final = 16384


def head_deadline(request_timeout: float) -> float:
    """Seconds a web connection has, from when it is accepted, to send its request head and
    have its handshake answered: ``request_timeout`` (the request deadline over TCP), at most
    :data:`REQUEST_TIMEOUT`; :data:`REQUEST_TIMEOUT` when the request deadline is off (0)."""
    return min(request_timeout, REQUEST_TIMEOUT) if request_timeout > 0 else REQUEST_TIMEOUT


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

    def address_refusal(self, address: str, pending: int) -> tuple[ErrorCode, str] | None:
        """Why one more connection from ``address`` would be over the per-address limit, with
        ``pending`` more from it counted as open (the code and the message), or ``None``."""

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
        #: Pending connections (their head or handshake not done), in all and by address;
        #: bounded by ``max_connections`` and the per-address limit.
        self.pending = 0
        self.pending_by_address: collections.Counter[str] = collections.Counter()

    async def handle(self, stream: trio.SocketStream) -> None:
        """Serve one connection of the web listener: refuse it at once (``429``) if its
        address has as many connections as it may (pending ones counted), else read its
        request head and answer it, within :func:`head_deadline`: from the page's files, with
        a refusal, or with the handshake of a WebSocket session, which then runs until it
        ends. The stream is closed at the end."""
        peer = peer_name(stream)
        address = host_of(peer)
        server = self.server
        try:
            if self.pending >= server.settings.max_connections:
                return
            refused = server.address_refusal(address, self.pending_by_address[address])
            if refused is not None:
                log.info("web connection from %s refused: %s", peer, refused[1])
                await send_answer(stream, error_answer(429, refused[1] + "\n"))
                await linger(stream)
                return
            self.pending += 1
            self.pending_by_address[address] += 1
            try:
                accepted = None
                with trio.move_on_after(head_deadline(server.settings.request_timeout)):
                    accepted = await self._answer_head(stream, peer)
            finally:
                self.pending -= 1
                self.pending_by_address[address] -= 1
                if self.pending_by_address[address] <= 0:
                    del self.pending_by_address[address]
            if isinstance(accepted, HttpAnswer):
                await send_answer(stream, accepted)
            elif accepted is not None:
                await self._session(stream, *accepted, peer)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        finally:
            await trio.aclose_forcefully(stream)

    async def _answer_head(
        self, stream: trio.SocketStream, peer: str
    ) -> tuple[wsproto.WSConnection, bytes] | HttpAnswer | None:
        """Read the request head and decide: for a WebSocket handshake that passes every
        check, answer it and give the wsproto connection whose handshake was accepted and the
        bytes read after the head; else the answer to send (a file of the page, a refusal);
        ``None`` if the peer closed first."""
        head = await read_request_head(stream)
        if head is None:
            return None
        request, received, unread = head
        if isinstance(request, HttpAnswer):
            return request
        headers = [
            (name.decode().lower(), value.decode("latin-1")) for name, value in request.headers
        ]
        settings = self.server.settings
        host = next((v for n, v in headers if n == "host"), None)
        names = listener_names(local_name(stream), settings.ws_host, settings.ws_origins)
        if not host_allowed(host, names):
            log.info("web request from %s refused: host %.60r not served here", peer, host)
            return error_answer(421, "no such host is served here\n")
        method, target = request.method.decode(), request.target.decode("latin-1")
        upgrade = any(n == "upgrade" and v.strip().lower() == "websocket" for n, v in headers)
        if not upgrade:
            return self.site.answer(method, target, headers)
        if target.split("?", 1)[0] != WEBSOCKET_PATH:
            return error_answer(404, "the WebSocket is at /ws\n")
        origin = next((v for n, v in headers if n == "origin"), None)
        if not origin_allowed(origin, host, settings.ws_origins, names):
            log.info("websocket from %s refused: origin %.60r not allowed", peer, origin)
            return error_answer(403, "origin not allowed\n")
        key = next((v for n, v in headers if n == "sec-websocket-key"), None)
        if not websocket_key_valid(key):
            return error_answer(400, "Sec-WebSocket-Key must be the base64 of 16 bytes\n")
        ws = wsproto.WSConnection(wsproto.ConnectionType.SERVER)
        try:
            ws.receive_data(received[: len(received) - len(unread)])
            events = list(ws.events())
        except RemoteProtocolError as error:
            hint = error.event_hint
            status = hint.status_code if isinstance(hint, ws_events.RejectConnection) else 400
            return error_answer(status, f"bad handshake: {error}\n")
        if not any(isinstance(event, ws_events.Request) for event in events):
            return error_answer(400, "not a WebSocket handshake\n")
        await stream.send_all(ws.send(ws_events.AcceptConnection()))
        return ws, unread

    async def _session(
        self, stream: trio.SocketStream, ws: wsproto.WSConnection, unread: bytes, peer: str
    ) -> None:
        """Run the session of an accepted handshake; refused with ``? limit`` and close code
        1013 when the server refuses a new connection (``max_connections``, per address,
        stopping)."""
        server = self.server
        settings = server.settings
        refused = server.refusal(host_of(peer))
        if refused is not None:
            code, message = refused
            log.info(
                "websocket from %s refused: %s (%d connections)",
                peer, message, server.connection_count,
            )  # fmt: skip
            refusal = fmt.failure(None, fmt.Mode.TEXT, code, message)
            frames: list[ws_events.Event] = [
                ws_events.TextMessage(line) for line in message_lines(refusal)
            ]
            frames.append(ws_events.CloseConnection(CLOSE_TRY_LATER, message))
            with trio.move_on_after(CLOSE_TIMEOUT):
                await stream.send_all(b"".join(ws.send(frame) for frame in frames))
            return
        session, dirty = server.connect(peer)
        conn = WebSocketConnection(
            stream, ws, session, settings.outbound_queue, dirty, settings.max_line_bytes, unread
        )
        conn.going_away = lambda: server.shutting_down
        await server.run_connection(conn, peer)


#: How long, and for how many bytes, a refused connection's request is read and dropped after
#: the answer (:func:`linger`).
LINGER_SECONDS: Final = 1.0
LINGER_BYTES: Final = 65536


async def linger(stream: trio.SocketStream) -> None:
    """Close our side of ``stream`` after an answer sent before its request was read, then
    read and drop what the peer still sends, for at most :data:`LINGER_SECONDS` and
    :data:`LINGER_BYTES`: closing a socket with unread bytes resets the connection, and the
    peer would lose the answer."""
    with trio.move_on_after(LINGER_SECONDS):
        try:
            await stream.send_eof()
            dropped = 0
            while dropped < LINGER_BYTES and (data := await stream.receive_some(4096)):
                dropped += len(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass


def local_name(stream: trio.SocketStream) -> str:
    """The address the connection came in on (the socket's own), ``?`` when it is gone."""
    try:
        address = stream.socket.getsockname()
    except OSError:
        return "?"
    return str(address[0]) if isinstance(address, tuple) else str(address)


async def read_request_head(
    stream: trio.abc.ReceiveStream,
) -> tuple[h11.Request | HttpAnswer, bytes, bytes] | None:
    """Read an HTTP request's head from ``stream``: the request (or the 400 answer to send
    for a malformed one), every byte read, and of those the ones after the head (a WebSocket
    client's first frames, had it not waited for the handshake's answer); ``None`` if the
    peer closed first."""
    parser = h11.Connection(h11.SERVER, max_incomplete_event_size=MAX_REQUEST_HEAD)
    received = bytearray()
    while True:
        try:
            event = parser.next_event()
        except h11.RemoteProtocolError as error:
            status = error.error_status_hint
            return error_answer(status, f"bad request: {error}\n"), bytes(received), b""
        if event is h11.NEED_DATA:
            data = await stream.receive_some(4096)
            if not data:
                return None
            received += data
            parser.receive_data(bytes(data))
            continue
        if isinstance(event, h11.Request):
            return event, bytes(received), bytes(parser.trailing_data[0])
        return None


_REASONS: Final = {
    200: b"OK",
    304: b"Not Modified",
    400: b"Bad Request",
    403: b"Forbidden",
    404: b"Not Found",
    405: b"Method Not Allowed",
    421: b"Misdirected Request",
    426: b"Upgrade Required",
    429: b"Too Many Requests",
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
