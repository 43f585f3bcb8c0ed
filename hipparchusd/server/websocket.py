"""The WebSocket transport of a session (:class:`WebSocketConnection`): the frames of RFC 6455,
read and written with wsproto over the connection's stream, once the web listener
(:mod:`.webfront`) has accepted the handshake.

The protocol is unchanged: one protocol line per WebSocket text message, both ways, without
its LF. A response's terminating empty line is an empty message, so the messages joined with
LF are exactly what TCP carries. A request message may end with one LF (dropped); one holding
another LF is answered ``? syntax``; one over ``max_line_bytes`` (counting an LF) is answered
``? line-too-long`` and the session goes on, as over TCP. A message over
:func:`message_cap` characters is not kept: the connection is closed with code 1009; a binary
message closes it with code 1003.

A message is a request line like any other for the request deadline (``request_timeout``): it
is timed from its first frame (:attr:`WebSocketConnection.partial_line`), so that a client
sending a message one byte per continuation frame holds its slot no longer than one trickling
a line over TCP (issue 24 item 3).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable, Sequence
from typing import Final

import trio
import wsproto
import wsproto.events as ws_events
from wsproto.connection import ConnectionState
from wsproto.utilities import LocalProtocolError

from ..lobby import Session
from ..protocol import ErrorCode, LineError
from .connection import Connection, Refused

log = logging.getLogger("hipparchusd.server")

#: Seconds given to the WebSocket closing handshake before the stream is closed anyway.
CLOSE_TIMEOUT: Final = 2.0
#: Close codes (RFC 6455 section 7.4.1).
CLOSE_NORMAL, CLOSE_GOING_AWAY, CLOSE_POLICY, CLOSE_UNSUPPORTED, CLOSE_TOO_BIG, CLOSE_TRY_LATER = (
    1000,
    1001,
    1008,
    1003,
    1009,
    1013,
)

_RECEIVE_SIZE = 65536


def message_cap(max_line_bytes: int) -> int:
    """The longest WebSocket message read at all (characters): four request lines' worth, at
    least 64 KiB. A longer message closes the connection (code 1009) as soon as its frames
    pass the cap, without being kept in memory; one between ``max_line_bytes`` and this is
    answered ``? line-too-long``, as the same line over TCP would be."""
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
    """A session over a WebSocket: ``ws``, the wsproto connection whose handshake was accepted
    on ``stream``, and ``unread``, the bytes the peer sent after its handshake that were read
    with it. Each text message is a request line (:func:`request_line`), each protocol line
    sent a text message (:func:`message_lines`); pings are answered, a close frame is answered
    and ends the session. Closing sends the close frame with a code that says why
    (:meth:`aclose`)."""

    transport = "websocket"

    def __init__(
        self,
        stream: trio.SocketStream,
        ws: wsproto.WSConnection,
        session: Session,
        queue_size: int,
        dirty: list[Connection],
        max_line_bytes: int,
        unread: bytes = b"",
    ) -> None:
        super().__init__(session, queue_size, dirty)
        self.stream = stream
        self.ws = ws
        self.max_line_bytes = max_line_bytes
        self._cap = message_cap(max_line_bytes)
        self._unread = unread
        #: The text of the message whose frames are coming, and its length so far.
        self._parts: list[str] = []
        self._size = 0
        #: Whether bytes came that made no frame yet (a frame's head still incomplete).
        self._unframed = False
        self._peer_closed = False
        #: Frames not yet written (:meth:`_write`).
        self._outgoing = bytearray()
        self._fileno = stream.socket.fileno()
        #: The close frame's code and reason, set when the reason is known.
        self.close_code = CLOSE_NORMAL
        self.close_reason = ""
        #: Whether the server is stopping (then the close frame says 1001, going away).
        self.going_away: Callable[[], bool] = lambda: False

    @property
    def partial_line(self) -> bool:
        """See :meth:`Connection.partial_line`: a message's first frame (or the first bytes of
        one) came, and the message is not complete."""
        return bool(self._parts) or self._unframed

    async def receive_requests(self) -> Iterable[str | LineError] | None:
        """See :meth:`Connection.receive_requests`: the request lines of the messages the
        next bytes complete (possibly none).

        Raises:
            Refused: a binary message (closed with 1003) or one over :func:`message_cap`
                (closed with 1009).
        """
        if self._peer_closed:
            return None
        data: bytes | bytearray
        if self._unread:
            data, self._unread = self._unread, b""
            await trio.lowlevel.checkpoint()
        else:
            data = await self.stream.receive_some(_RECEIVE_SIZE)
        if not data:
            return None
        self.ws.receive_data(bytes(data))
        lines: list[str | LineError] = []
        framed = False
        for event in self.ws.events():
            framed = True
            if isinstance(event, ws_events.TextMessage):
                self._size += len(event.data)
                if self._size > self._cap:
                    self._parts.clear()
                    self._set_close(CLOSE_TOO_BIG, f"messages are limited to {self._cap}")
                    raise Refused("message too big")
                self._parts.append(event.data)
                if event.message_finished:
                    lines.append(request_line("".join(self._parts), self.max_line_bytes))
                    self._parts.clear()
                    self._size = 0
            elif isinstance(event, ws_events.BytesMessage):
                self._set_close(CLOSE_UNSUPPORTED, "text messages only: one protocol line each")
                raise Refused("binary message")
            elif isinstance(event, ws_events.Ping):
                await self._write([event.response()])
            elif isinstance(event, ws_events.CloseConnection):
                self._peer_closed = True
                if self.ws.state is ConnectionState.OPEN:
                    # Not the peer's close frame: wsproto's for bytes that break the protocol
                    # (an unmasked frame, invalid UTF-8...), whose code the close frame sends.
                    self._set_close(event.code, event.reason or "")
                    raise Refused(f"protocol error ({event.code})")
                if self.ws.state is ConnectionState.REMOTE_CLOSING:
                    await self._write([event.response()])
                break
        self._unframed = not framed
        return lines

    def _set_close(self, code: int, reason: str) -> None:
        self.close_code, self.close_reason = code, reason

    async def _write(self, events: Sequence[ws_events.Event]) -> None:
        """Frame ``events`` and write them after what is being written already. The frames
        wait in :attr:`_outgoing` until the socket takes them, so that a write cancelled
        midway (the connection closing) leaves whole frames to finish, never half of one;
        the reader (answering a ping) and the writer task may both write, in order."""
        self._outgoing += b"".join(self.ws.send(event) for event in events)
        await self._drain()

    async def _drain(self) -> None:
        """Write :attr:`_outgoing` until the socket has taken all of it."""
        while self._outgoing:
            try:
                sent = os.write(self._fileno, self._outgoing)
            except BlockingIOError:
                await trio.lowlevel.wait_writable(self._fileno)
                continue
            except OSError as error:
                raise trio.BrokenResourceError(str(error)) from error
            del self._outgoing[:sent]

    async def send(self, data: bytes) -> None:
        """See :meth:`Connection.send`: one text message per line."""
        try:
            await self._write([ws_events.TextMessage(line) for line in message_lines(data)])
        except LocalProtocolError as error:  # closing already: nothing more may be sent
            raise trio.ClosedResourceError(str(error)) from None

    async def aclose(self) -> None:
        """Send what is still queued, then the close frame with a code that says why (1001
        when the server is stopping, 1008 past the request deadline), and wait for the peer's
        close frame, all within :data:`CLOSE_TIMEOUT` seconds; the caller closes the stream.
        Nothing is sent when the outbound queue filled (the peer reads nothing: a close frame
        would wait behind the unread data; the peer sees code 1006)."""
        if self.overflowed:
            return
        code, reason = self.close_code, self.close_reason
        if self.timed_out:
            reason = "idle timeout"
        elif self.closed_because == "request timeout":
            code, reason = CLOSE_POLICY, "request timeout"
        elif code == CLOSE_NORMAL and self.going_away():
            code, reason = CLOSE_GOING_AWAY, "server shutting down"
        with trio.move_on_after(CLOSE_TIMEOUT):
            try:
                await self._drain()  # what a cancelled write left
                unsent = self.take_unsent()
                if unsent:
                    await self.send(unsent)
                if self.ws.state in (ConnectionState.OPEN, ConnectionState.REMOTE_CLOSING):
                    await self._write([ws_events.CloseConnection(code, reason or None)])
                while not self._peer_closed and await self.receive_requests() is not None:
                    pass
            except (trio.BrokenResourceError, trio.ClosedResourceError, Refused):
                pass
