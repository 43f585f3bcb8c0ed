"""The trio shell around :class:`~hipparchusd.lobby.Lobby`: listeners, one task per connection
with a bounded outbound queue, the store calls, limits, and a graceful shutdown.

Everything the protocol decides happens in :mod:`hipparchusd.protocol` and
:mod:`hipparchusd.lobby`; this module only moves bytes and awaits the store. For each request
it awaits the store calls of the lobby's result (so that a ``play`` is answered only once it is
durable), then queues the response, then the events. Results that touch the same game are
carried out in the order the lobby produced them (:class:`Sequencer`), so that every follower
sees a game's events in ``seq`` order even while a store call is in flight.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence
from typing import Any

import trio

from ..lobby import Lobby, Result, Session
from ..protocol import ErrorCode, LineError, LineSplitter, ProtocolError, parse_request
from ..protocol import formatting as fmt
from ..settings import Settings
from ..store.base import GameStore

log = logging.getLogger("hipparchusd.server")

_RECEIVE_SIZE = 65536
#: Seconds a closing connection may take to flush what it was sent (e.g. the ``quit`` answer).
_FLUSH_TIMEOUT = 5.0


class Sequencer:
    """Keeps the results touching one game in the order they were produced.

    :meth:`ticket` is called right after the lobby's synchronous handling, with no checkpoint
    in between, so tickets follow the lobby's order; a ticket's holder waits for the previous
    tickets of each of its games before carrying the result out.
    """

    def __init__(self) -> None:
        self._tails: dict[str, trio.Event] = {}

    def ticket(self, games: Sequence[str]) -> tuple[list[trio.Event], trio.Event | None]:
        """(events to wait for, event to set when done); ``None`` when no game is touched."""
        if not games:
            return [], None
        done = trio.Event()
        waits = [tail for g in games if (tail := self._tails.get(g)) is not None]
        for g in games:
            self._tails[g] = done
        return waits, done

    def release(self, games: Sequence[str], done: trio.Event | None) -> None:
        """Mark the ticket ``done`` carried out."""
        if done is None:
            return
        done.set()
        for g in games:
            if self._tails.get(g) is done:
                del self._tails[g]


class Connection:
    """One client connection: its stream, its lobby session and its bounded outbound queue."""

    def __init__(self, stream: trio.SocketStream, session: Session, queue_size: int) -> None:
        self.stream = stream
        self.session = session
        self.send_channel, self.receive_channel = trio.open_memory_channel[bytes](queue_size)
        self.cancel_scope = trio.CancelScope()
        self.overflowed = False

    def enqueue(self, data: bytes) -> None:
        """Queue ``data`` for sending; if the queue is full, close the connection instead
        (PROTOCOL.md section 7): a slow reader never blocks anyone else."""
        if self.overflowed:
            return
        try:
            self.send_channel.send_nowait(data)
        except trio.WouldBlock:
            self.overflowed = True
            log.info("connection %d: outbound queue full, closing", self.session.id)
            self.cancel_scope.cancel()
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            pass


class Server:
    """A running daemon: :meth:`serve` runs it, :meth:`shutdown` stops it gracefully.

    ``ports`` are the bound TCP ports once listening; :attr:`games` and :attr:`connections`
    count what is open now (e.g. for systemd's ``STATUS=``).
    """

    def __init__(self, settings: Settings, store: GameStore, lobby: Lobby | None = None) -> None:
        self.settings = settings
        self.store = store
        self.lobby = lobby or Lobby(max_games=settings.max_games)
        self.connections: dict[int, Connection] = {}
        self.ports: list[int] = []
        self.sequencer = Sequencer()
        self._shutdown = trio.Event()
        self._all_closed = trio.Event()
        self._all_closed.set()
        #: Set once :meth:`serve` has returned (connections and store closed).
        self.stopped = trio.Event()

    @property
    def games(self) -> int:
        """Games not finished."""
        return self.lobby.active_games

    @property
    def connection_count(self) -> int:
        """Open client connections."""
        return len(self.connections)

    def status(self) -> str:
        """A one-line status, e.g. ``3 games, 6 connections``."""
        return f"{self.games} games, {self.connection_count} connections"

    def shutdown(self) -> None:
        """Begin the graceful shutdown (safe to call more than once, from trio's thread)."""
        self._shutdown.set()

    async def serve(
        self,
        listeners: Sequence[trio.abc.Listener[Any]],
        *,
        task_status: trio.TaskStatus[Server] = trio.TASK_STATUS_IGNORED,
    ) -> None:
        """Accept connections on ``listeners`` until :meth:`shutdown`, then send the shutdown
        notice, let connections finish for ``grace_period`` seconds, close them and the store.
        ``task_status.started`` is called with this server once it accepts connections."""
        try:
            async with trio.open_nursery() as connections:
                async with trio.open_nursery() as acceptors:
                    for listener in listeners:
                        acceptors.start_soon(self._accept, listener, connections)
                    task_status.started(self)
                    await self._shutdown.wait()
                    acceptors.cancel_scope.cancel()
                grace = self.settings.grace_period
                log.info("shutting down: %s; closing in %g s", self.status(), grace)
                self._dispatch(self.lobby.begin_shutdown(grace))
                with trio.move_on_after(grace):
                    await self._all_closed.wait()
                connections.cancel_scope.cancel()
        finally:
            for listener in listeners:
                with trio.CancelScope(shield=True):
                    await listener.aclose()
            with trio.CancelScope(shield=True):
                await self.store.aclose()
            log.info("stopped")
            self.stopped.set()

    async def _accept(self, listener: trio.abc.Listener[Any], nursery: trio.Nursery) -> None:
        while True:
            try:
                stream = await listener.accept()
            except OSError as error:
                # e.g. EMFILE: too many open files. Wait a little rather than spin.
                log.error("accept failed: %s", error)
                await trio.sleep(0.1)
                continue
            nursery.start_soon(self._run_connection, stream)

    async def _run_connection(self, stream: trio.SocketStream) -> None:
        peer = _peer(stream)
        if len(self.connections) >= self.settings.max_connections:
            log.info("connection from %s refused: %d connections", peer, len(self.connections))
            refusal = fmt.failure(None, fmt.Mode.TEXT, ErrorCode.LIMIT, "too many connections")
            with trio.move_on_after(_FLUSH_TIMEOUT):
                with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                    await stream.send_all(refusal)
            await trio.aclose_forcefully(stream)
            return
        session = self.lobby.connect(peer)
        conn = Connection(stream, session, self.settings.outbound_queue)
        self.connections[session.id] = conn
        self._all_closed = trio.Event() if len(self.connections) == 1 else self._all_closed
        log.info("connection %d opened from %s", session.id, peer)
        reason = "closed by peer"
        try:
            with conn.cancel_scope:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._write, conn)
                    conn.enqueue(self.lobby.greeting().encode(session.mode))
                    reason = await self._read(conn)
                    await self._finish(conn)
                    nursery.cancel_scope.deadline = trio.current_time() + _FLUSH_TIMEOUT
            if conn.overflowed:
                reason = "outbound queue full"
        except Exception:
            reason = "internal error"
            log.exception("connection %d failed", session.id)
        finally:
            with trio.CancelScope(shield=True) as scope:
                scope.deadline = trio.current_time() + _FLUSH_TIMEOUT
                await self._finish(conn)
            del self.connections[session.id]
            if not self.connections:
                self._all_closed.set()
            await trio.aclose_forcefully(stream)
            log.info("connection %d closed (%s)", session.id, reason)

    async def _finish(self, conn: Connection) -> None:
        """Take the connection out of the lobby (``disconnected`` events) and stop its writer
        once what is queued is sent."""
        if conn.session.id in self.lobby.sessions:
            await self._carry_out(self.lobby.disconnect(conn.session), None)
        conn.send_channel.close()

    async def _read(self, conn: Connection) -> str:
        """Read and answer requests until the peer closes, ``quit``, or the idle timeout.
        Returns why it stopped."""
        settings = self.settings
        splitter = LineSplitter(settings.max_line_bytes)
        session = conn.session
        deadline = trio.current_time() + settings.idle_timeout
        while True:
            with trio.move_on_at(deadline) as waiting:
                try:
                    data = await conn.stream.receive_some(_RECEIVE_SIZE)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    return "connection lost"
            if waiting.cancelled_caught:
                # A connection following a game in progress may stay silent: look again
                # later, since its games may end meanwhile.
                if self.lobby.is_idle(session):
                    return "idle timeout"
                deadline = trio.current_time() + settings.idle_timeout
                continue
            deadline = trio.current_time() + settings.idle_timeout
            for item in splitter.feed(data) if data else splitter.close():
                if await self._answer(conn, item):
                    return "quit"
            if not data:
                return "closed by peer"

    async def _answer(self, conn: Connection, item: str | LineError) -> bool:
        """Answer one line; True if the connection must close after the answer."""
        session = conn.session
        if isinstance(item, LineError):
            log.debug("connection %d: %s: %s", session.id, item.code, item.message)
            conn.enqueue(fmt.failure(None, session.mode, item.code, item.message))
            return False
        try:
            request = parse_request(item)
        except ProtocolError as error:
            log.debug("connection %d: %s: %s", session.id, error.code, error.message)
            conn.enqueue(fmt.failure(error.request_id, session.mode, error.code, error.message))
            return False
        if request is None:
            return False
        try:
            result = self.lobby.handle(session, request)
        except Exception:
            log.exception("connection %d: %s failed", session.id, request.command)
            message = f"{request.command} failed; see the server log"
            conn.enqueue(fmt.failure(request.id, session.mode, ErrorCode.INTERNAL, message))
            return False
        await self._carry_out(result, conn)
        return result.close

    async def _carry_out(self, result: Result, conn: Connection | None) -> None:
        """Await ``result``'s store calls in its games' order, then queue its response for
        ``conn`` and its events for their recipients."""
        waits, done = self.sequencer.ticket(result.games)
        try:
            for event in waits:
                await event.wait()
            for call in result.store_calls:
                try:
                    await call.apply(self.store)
                except OSError as error:
                    log.error("store %s failed: %s", call.method, error)
                    if conn is not None and result.response is not None:
                        message = f"the game store failed ({error.__class__.__name__})"
                        conn.enqueue(
                            fmt.failure(
                                result.response.request_id,
                                conn.session.mode,
                                ErrorCode.INTERNAL,
                                message,
                            )
                        )
                        conn = None
                    break
            if conn is not None and result.response is not None:
                conn.enqueue(result.response.encode(conn.session.mode))
            self._dispatch(result)
        finally:
            self.sequencer.release(result.games, done)

    def _dispatch(self, result: Result) -> None:
        connections = self.connections
        for delivery in result.deliveries:
            message = delivery.message
            for session in delivery.sessions:
                target = connections.get(session.id)
                if target is not None:
                    target.enqueue(message.encode(session.mode))

    async def _write(self, conn: Connection) -> None:
        """Send what is queued, batching what is already waiting into one write."""
        receive = conn.receive_channel
        stream = conn.stream
        try:
            async for data in receive:
                chunks = [data]
                while True:
                    try:
                        chunks.append(receive.receive_nowait())
                    except (trio.WouldBlock, trio.EndOfChannel):
                        break
                await stream.send_all(b"".join(chunks) if len(chunks) > 1 else data)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            conn.cancel_scope.cancel()


def _peer(stream: trio.SocketStream) -> str:
    try:
        address = stream.socket.getpeername()
    except OSError:
        return "?"
    if isinstance(address, tuple):
        return f"{address[0]}:{address[1]}"
    return str(address)
