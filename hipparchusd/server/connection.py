"""One client connection's I/O (:class:`Connection`): reading what the peer sends, and its
bounded outbound queue, written at once when the socket takes it or by a writer task."""

from __future__ import annotations

import collections
import logging
import os

import trio

from ..lobby import Session

log = logging.getLogger("hipparchusd.server")

_RECEIVE_SIZE = 65536


class Connection:
    """One client connection: its stream, its lobby session and its bounded outbound queue.

    What the server sends is gathered per connection while a request is carried out and then
    flushed as one write (:meth:`flush`). When nothing is waiting, that write is attempted at
    once on the non-blocking socket, so most answers need no hand-over to the writer task;
    whatever the socket does not take waits in the backlog for :meth:`write_backlog`. At most
    ``queue_size`` messages (responses and events) may wait: one more closes the connection
    (PROTOCOL.md section 7), so a client that stops reading never blocks anyone else.
    """

    def __init__(
        self, stream: trio.SocketStream, session: Session, queue_size: int, dirty: list[Connection]
    ) -> None:
        self.stream = stream
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
        self._fileno = stream.socket.fileno()
        self._dirty = dirty
        self._pending: list[bytes] = []
        self._backlog: collections.deque[tuple[bytes, int]] = collections.deque()
        self._waiting = 0  # messages in _pending and _backlog
        self._writing = False
        self._wakeup = trio.Event()
        self._drained = trio.Event()

    async def receive(self) -> bytes:
        """The next bytes from the peer (``b""`` at end of stream).

        A client waits for each answer, so its next request is rarely there at once; but once
        the other ready connections have had their turn, under load it usually is (about two
        times in three in the benchmark). So: yield, then read, and only if nothing came wait
        for readability, which costs an epoll re-arm and a wake-up per wait.

        Raises:
            trio.BrokenResourceError: the connection failed.
            trio.ClosedResourceError: the stream was closed.
        """
        # A cancelled connection stops here even if its peer never stops sending.
        await trio.lowlevel.checkpoint()
        while True:
            try:
                return os.read(self._fileno, _RECEIVE_SIZE)
            except BlockingIOError:
                await trio.lowlevel.wait_readable(self._fileno)
            except OSError as error:
                raise trio.BrokenResourceError(str(error)) from error

    def enqueue(self, data: bytes) -> None:
        """Queue one message; if the queue is full, close the connection instead."""
        if self.overflowed or self.closing:
            return
        if self._waiting >= self.queue_size:
            self.overflowed = True
            log.info("connection %d: outbound queue full, closing", self.session.id)
            self.cancel_scope.cancel()
            return
        if not self._pending:
            self._dirty.append(self)
        self._pending.append(data)
        self._waiting += 1

    def flush(self) -> None:
        """Send what was queued since the last flush, or hand it to the writer task."""
        if not self._pending or self.overflowed:
            return
        data = b"".join(self._pending)
        count = len(self._pending)
        self._pending.clear()
        if not self._backlog and not self._writing:
            try:
                sent = os.write(self._fileno, data)
            except BlockingIOError:
                sent = 0
            except OSError:
                sent = 0  # the writer meets the same error and closes the connection
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
                await self.stream.send_all(b"".join(data for data, _ in items))
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                self.cancel_scope.cancel()
                return
            finally:
                self._writing = False
            self._waiting -= sum(count for _, count in items)
            self._drained.set()


def peer_name(stream: trio.SocketStream) -> str:
    """The peer's address as ``host:port`` (for logs); ``?`` when it is gone."""
    try:
        address = stream.socket.getpeername()
    except OSError:
        return "?"
    if isinstance(address, tuple):
        return f"{address[0]}:{address[1]}"
    return str(address)
