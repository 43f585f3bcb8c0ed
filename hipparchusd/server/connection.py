"""One client connection (:class:`Connection`): its session and its bounded outbound queue,
whatever carries its bytes; and the plain TCP transport (:class:`TcpConnection`): reading what
the peer sends, and writing the queue at once when the socket takes it or by a writer task.

The queue, its limit and the writer task are the same for every transport, so that a session
over another one (a WebSocket: :mod:`.websocket`) keeps the same limits and the same order of
responses and events; a transport supplies only :meth:`Connection.receive_requests`,
:meth:`Connection.send_now` and :meth:`Connection.send`."""

from __future__ import annotations

import abc
import collections
import logging
import os
from collections.abc import Iterable

import trio

from ..lobby import Session
from ..protocol import LineError, LineSplitter

log = logging.getLogger("hipparchusd.server")

_RECEIVE_SIZE = 65536


class Connection(abc.ABC):
    """One client connection: its lobby session and its bounded outbound queue, over a
    transport that a subclass supplies (:class:`TcpConnection`, or a WebSocket's).

    What the server sends is gathered per connection while a request is carried out and then
    flushed as one write (:meth:`flush`). When nothing is waiting, that write is attempted at
    once (:meth:`send_now`), so most answers need no hand-over to the writer task; whatever the
    transport does not take waits in the backlog for :meth:`write_backlog`. At most
    ``queue_size`` messages (responses and events) may wait: one more closes the connection
    (PROTOCOL.md section 7), so a client that stops reading never blocks anyone else.
    """

    #: The transport's name for logs (``tcp``, ``websocket``).
    transport = "?"

    def __init__(self, session: Session, queue_size: int, dirty: list[Connection]) -> None:
        self.session = session
        self.queue_size = queue_size
        self.cancel_scope = trio.CancelScope()
        self.overflowed = False
        self.timed_out = False
        self.closing = False
        #: When the connection's last request line came, or its requests were last all
        #: answered if that is later (trio clock), for the idle timeout (issue 16 item 6).
        self.last_input = trio.current_time()
        #: Whether the reader is carrying out requests already received (never idle then).
        self.busy = False
        #: When the first byte of a request line still lacking its LF came (trio clock), for
        #: the request deadline; ``None`` when no partial line is held.
        self.line_started: float | None = None
        #: Why the server closed the connection, for the log (``None``: it did not).
        self.closed_because: str | None = None
        self._dirty = dirty
        self._pending: list[bytes] = []
        self._backlog: collections.deque[tuple[bytes, int]] = collections.deque()
        self._waiting = 0  # messages in _pending and _backlog, or being written
        self._pending_count = 0  # of those, the messages in _pending (a piece may hold several)
        self._writing = False
        self._wakeup = trio.Event()
        self._drained = trio.Event()

    @abc.abstractmethod
    async def receive_requests(self) -> Iterable[str | LineError] | None:
        """The request lines (or line errors) that arrived next, in order, possibly none;
        ``None`` once the peer has closed its side.

        Raises:
            trio.BrokenResourceError: the connection failed.
            trio.ClosedResourceError: the transport was closed.
            Refused: the peer sent what this transport does not carry (the message says
                what); the connection is to be closed.
        """

    @property
    def partial_line(self) -> bool:
        """Whether the start of a request line is held, its end still to come (for the
        request deadline). By default never: a transport of whole messages holds none."""
        return False

    def send_now(self, data: bytes) -> int:
        """Send what it can of ``data`` (whole protocol lines, LF-terminated) without waiting;
        how many bytes were taken. By default none: everything goes through :meth:`send`."""
        return 0

    @abc.abstractmethod
    async def send(self, data: bytes) -> None:
        """Send all of ``data`` (whole protocol lines, LF-terminated), waiting as needed.

        Raises:
            trio.BrokenResourceError: the connection failed.
            trio.ClosedResourceError: the transport was closed.
        """

    async def aclose(self) -> None:  # noqa: B027 (a hook most transports need not fill)
        """Close the transport; the default does nothing (the caller closes the stream)."""

    def enqueue(self, data: bytes, count: int = 1) -> None:
        """Queue one message, or ``count`` whole messages joined in ``data``; if the queue
        cannot take them all, close the connection instead (as queueing them one by one
        would: an overflowed connection sends nothing more)."""
        if self.overflowed or self.closing:
            return
        if self._waiting + count > self.queue_size:
            self.overflowed = True
            log.info("connection %d: outbound queue full, closing", self.session.id)
            self.cancel_scope.cancel()
            return
        if not self._pending:
            self._dirty.append(self)
        self._pending.append(data)
        self._pending_count += count
        self._waiting += count

    def flush(self) -> None:
        """Send what was queued since the last flush, or hand it to the writer task."""
        if not self._pending or self.overflowed:
            return
        data = b"".join(self._pending)
        count = self._pending_count
        self._pending.clear()
        self._pending_count = 0
        if not self._backlog and not self._writing:
            sent = self.send_now(data)
            if sent == len(data):
                self._waiting -= count
                return
            data = data[sent:]
        self._backlog.append((data, count))
        self._wakeup.set()

    @property
    def backed_up(self) -> bool:
        """Whether half the queue or more waits to be sent (see :meth:`wait_drained`)."""
        return self._waiting > self.queue_size // 2

    async def wait_drained(self) -> None:
        """Wait while half the queue or more waits to be sent. The reader calls this between
        requests, so that a client that pipelines requests faster than it reads the answers
        is slowed down (its requests wait in its socket) instead of overflowing its queue:
        only events it does not read can fill the queue (PROTOCOL.md section 7)."""
        while self._waiting > self.queue_size // 2 and not (self.overflowed or self.closing):
            self._drained = trio.Event()
            await self._drained.wait()

    def take_unsent(self) -> bytes:
        """Take out of the queue what waits to be sent (the backlog, then what waits for a
        flush), whole protocol lines: for a transport that sends it itself as it closes, once
        the writer task is gone (:meth:`WebSocketConnection.aclose`)."""
        data = b"".join([*(piece for piece, _ in self._backlog), *self._pending])
        self._waiting -= self._pending_count + sum(count for _, count in self._backlog)
        self._backlog.clear()
        self._pending.clear()
        self._pending_count = 0
        return data

    def close(self) -> None:
        """Accept no more messages; the writer stops once the backlog is sent."""
        self.closing = True
        self._wakeup.set()

    async def write_backlog(self) -> None:
        """The writer task: send the backlog whenever there is one, until :meth:`close`."""
        while True:
            while not self._backlog:
                if self.closing and not self._pending:
                    return
                self._wakeup = trio.Event()
                await self._wakeup.wait()
            items = list(self._backlog)
            self._backlog.clear()
            self._writing = True
            try:
                await self.send(b"".join(data for data, _ in items))
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                self.cancel_scope.cancel()
                return
            finally:
                self._writing = False
            self._waiting -= sum(count for _, count in items)
            self._drained.set()


class Refused(Exception):
    """What a peer sent cannot be carried by its transport (e.g. a binary WebSocket message):
    the connection is closed, the message saying why."""


class TcpConnection(Connection):
    """A connection over a plain TCP stream: bytes cut into lines at LF
    (:class:`~hipparchusd.protocol.LineSplitter`, ``max_line_bytes`` per line), answers
    written straight to the non-blocking socket when it takes them."""

    transport = "tcp"

    def __init__(
        self,
        stream: trio.SocketStream,
        session: Session,
        queue_size: int,
        dirty: list[Connection],
        max_line_bytes: int = 4096,
    ) -> None:
        super().__init__(session, queue_size, dirty)
        self.stream = stream
        self._fileno = stream.socket.fileno()
        self._splitter = LineSplitter(max_line_bytes)

    @property
    def partial_line(self) -> bool:
        """See :meth:`Connection.partial_line`: bytes of a line without its LF yet."""
        return self._splitter.partial

    async def receive_requests(self) -> Iterable[str | LineError] | None:
        """See :meth:`Connection.receive_requests`: the lines completed by the next bytes.

        A client waits for each answer, so its next request is rarely there at once; but once
        the other ready connections have had their turn, under load it usually is (about two
        times in three in the benchmark). So: yield, then read, and only if nothing came wait
        for readability, which costs an epoll re-arm and a wake-up per wait. (The read is
        written here, not in a coroutine of its own: this runs for every request.)
        """
        # A cancelled connection stops here even if its peer never stops sending.
        await trio.lowlevel.checkpoint()
        while True:
            try:
                data = os.read(self._fileno, _RECEIVE_SIZE)
                break
            except BlockingIOError:
                await trio.lowlevel.wait_readable(self._fileno)
            except OSError as error:
                raise trio.BrokenResourceError(str(error)) from error
        if not data:
            # A line the peer did not end with LF is no request (PROTOCOL.md section 1): a
            # connection dropped mid-line must not carry out, say, a truncated move.
            if any(True for _ in self._splitter.close()):
                log.debug("connection %d: unterminated last line ignored", self.session.id)
            return None
        return self._splitter.feed(data)

    def send_now(self, data: bytes) -> int:
        """See :meth:`Connection.send_now`: one non-blocking write to the socket."""
        try:
            return os.write(self._fileno, data)
        except OSError:
            # BlockingIOError: nothing taken; another error: the writer meets it again and
            # closes the connection.
            return 0

    async def send(self, data: bytes) -> None:
        """See :meth:`Connection.send`."""
        await self.stream.send_all(data)


def peer_name(stream: trio.SocketStream) -> str:
    """The peer's address as ``host:port`` (for logs); ``?`` when it is gone."""
    try:
        address = stream.socket.getpeername()
    except OSError:
        return "?"
    if isinstance(address, tuple):
        return f"{address[0]}:{address[1]}"
    return str(address)
