"""The trio shell around :class:`~hipparchusd.lobby.Lobby`: listeners, one task per connection
with a bounded outbound queue, the store calls, limits, and a graceful shutdown.

Everything the protocol decides happens in :mod:`hipparchusd.protocol` and
:mod:`hipparchusd.lobby`; this module only moves bytes and awaits the store. For each request
it awaits the store calls of the lobby's result (so that a ``play`` is answered only once it is
durable; a store that keeps nothing is not called), commits the result's change only once the
store has recorded it, then queues the response, then the events. The requests on one game
are carried out one after another, from their checking to their events (:class:`Sequencer`):
a request waits for the earlier ones on the same game, so it is checked against their outcome,
and every follower sees a game's events in ``seq`` order even while a store call is in flight.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import logging
import os
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import trio

from ..addresses import host_of
from ..lobby import Lobby, Response, Result, Session, StoreCall, Table, token_digest
from ..protocol import ErrorCode, LineError, LineSplitter, ProtocolError, Request, parse_request
from ..protocol import formatting as fmt
from ..settings import Settings
from ..store.base import GameStore, StoredGame, StoreUnreachable

log = logging.getLogger("hipparchusd.server")

_RECEIVE_SIZE = 65536
#: Seconds a closing connection may take to flush what it was sent (e.g. the ``quit`` answer).
_FLUSH_TIMEOUT = 5.0

#: The ``internal`` messages for a change the store refused, and for one it stopped answering
#: about (:class:`~hipparchusd.store.base.StoreUnreachable`). This server has not made the
#: change in either case; in the second, the store may have kept it, and a restart then brings
#: it back (PROTOCOL.md section 3).
_STORE_FAILED = "the game store failed; nothing was changed"
_STORE_UNREACHABLE = (
    "the game store stopped answering; nothing was changed here, but the store may have kept "
    "the change, and a restart would bring it back"
)


class Ticket:
    """A request's place in the order of one or more games (:class:`Sequencer`). Most tickets
    are released with nobody waiting for them, so the :class:`trio.Event` a waiter needs is
    made only when one comes."""

    __slots__ = ("_done", "_event")

    def __init__(self) -> None:
        self._done = False
        self._event: trio.Event | None = None

    async def wait(self) -> None:
        """Wait until the ticket is released (at once, with no checkpoint, if it is)."""
        if not self._done:
            if self._event is None:
                self._event = trio.Event()
            await self._event.wait()

    def set(self) -> None:
        """Release the ticket: wake whoever waits for it."""
        self._done = True
        if self._event is not None:
            self._event.set()


class Sequencer:
    """Carries out the requests on one game one at a time, in the order they came.

    A request takes a :meth:`ticket` for the games it acts on before the lobby prepares it,
    waits for the previous tickets of each of those games, and releases its own once its
    result is carried out (stored, committed, queued). Tickets taken with no checkpoint in
    between keep their order. A request on games with no ticket out is prepared at once, and
    takes its ticket only if its result awaits the store: nothing else ran in between.
    """

    def __init__(self) -> None:
        self._tails: dict[str, Ticket] = {}

    def ticket(self, games: Sequence[str]) -> tuple[list[Ticket], Ticket | None]:
        """(tickets to wait for, ticket to release when done); ``None`` when no game is
        touched."""
        if not games:
            return [], None
        done = Ticket()
        tails = self._tails
        waits = [tail for g in games if (tail := tails.get(g)) is not None]
        for g in games:
            tails[g] = done
        return waits, done

    def busy(self, game: str) -> bool:
        """Whether a request on ``game`` is still waiting or being carried out."""
        return game in self._tails

    def release(self, games: Sequence[str], done: Ticket | None) -> None:
        """Mark the ticket ``done`` carried out."""
        if done is None:
            return
        done.set()
        tails = self._tails
        for g in games:
            if tails.get(g) is done:
                del tails[g]


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


class Server:
    """A running daemon: :meth:`serve` runs it, :meth:`shutdown` stops it gracefully.

    ``ports`` are the bound TCP ports once listening; :attr:`games` and :attr:`connections`
    count what is open now (e.g. for systemd's ``STATUS=``).
    """

    def __init__(self, settings: Settings, store: GameStore, lobby: Lobby | None = None) -> None:
        self.settings = settings
        self.store = store
        self.lobby = lobby or Lobby.for_settings(settings, snapshots=store.durable)
        self.connections: dict[int, Connection] = {}
        #: Open connections by peer address (``max_connections_per_address``).
        self.per_address: collections.Counter[str] = collections.Counter()
        #: Connections the open-file limit leaves room for (``None``: no lower than
        #: ``max_connections``); set by :func:`~hipparchusd.server.run.serve`.
        self.file_capacity: int | None = None
        self._accept_failing = False
        self.ports: list[int] = []
        self.sequencer = Sequencer()
        self._dirty: list[Connection] = []
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
        games, connections = self.games, self.connection_count
        return (
            f"{games} game{'' if games == 1 else 's'}, "
            f"{connections} connection{'' if connections == 1 else 's'}"
        )

    def reconfigure(self, settings: Settings) -> None:
        """Take new limits from a configuration reload (SIGHUP): ``max_connections``,
        ``max_games``, ``idle_timeout``, ``abandon_timeout``, ``adjourn_timeout`` and
        ``grace_period`` apply at once (the timeouts from the next sweep); ``max_line_bytes``
        and ``outbound_queue`` to connections opened from now on. Lowering a limit below the
        current count closes nothing; it refuses new ones until the count is under it. The
        caller keeps ``host``, ``port`` and ``state_dir`` unchanged (they need a restart)."""
        self.settings = settings
        self.lobby.configure(settings)

    @property
    def shutting_down(self) -> bool:
        """Whether :meth:`shutdown` has been called."""
        return self._shutdown.is_set()

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
            await self._restore()
            async with trio.open_nursery() as connections:
                async with trio.open_nursery() as acceptors:
                    for listener in listeners:
                        acceptors.start_soon(self._accept, listener, connections)
                    acceptors.start_soon(self._sweep)
                    task_status.started(self)
                    await self._shutdown.wait()
                    # Still accepting during the grace period, to answer each newcomer
                    # '? shutting-down' rather than leave it hanging with no greeting.
                    grace = self.settings.grace_period
                    log.info(
                        "shutting down: %s; connections closed within %g s", self.status(), grace
                    )
                    self._dispatch(self.lobby.begin_shutdown(grace))
                    self._flush()
                    with trio.move_on_after(grace):
                        await self._all_closed.wait()
                    acceptors.cancel_scope.cancel()
                connections.cancel_scope.cancel()
        finally:
            for listener in listeners:
                with trio.CancelScope(shield=True):
                    await listener.aclose()
            with trio.CancelScope(shield=True):
                await self.store.aclose()
            log.info("stopped")
            self.stopped.set()

    async def _restore(self) -> None:
        """Load the games the store kept unfinished; one that cannot be restored is logged and
        left out (the store keeps it). New games are numbered after every stored one.

        What a restore decided is stored before anything is served: a game its stored moves
        ended is finished; a game restored from moves after its snapshot, or started afresh,
        gets a new snapshot, which keeps any deal made while replaying (dealt from the system's
        randomness, and seen by nobody yet) for the next restart.
        """
        self.lobby.count_stored_games(await self.store.latest_game_id())
        for stored in await self.store.load_unfinished():
            try:
                table = self.lobby.restore(stored)
            except ValueError as error:
                log.error("cannot restore game %s: %s", stored.game_id, error)
                continue
            await self._store_restored(table, stored)

    async def _store_restored(self, table: Table, stored: StoredGame) -> None:
        """Store what restoring ``stored`` as ``table`` decided (see :meth:`_restore`).

        Raises:
            OSError: the store failed.
        """
        if table.finished:
            await self.store.finish(table.id, table.game.record_data())
        elif table.started and (stored.moves or stored.snapshot is None):
            await self.store.snapshot(table.id, table.game.record_data())

    async def _sweep(self) -> None:
        """Every second (or a quarter of the shorter timeout), close the idle connections and
        those past their request deadline, drop the abandoned games and adjourn the unfollowed
        ones (PROTOCOL.md section 7). One
        sweep for all connections and games keeps the per-request path free of timers. The
        timeouts are read at every sweep, since a reload may change them (0: never). With a
        store that is not durable nothing is adjourned: it could not come back."""
        while True:
            settings = self.settings
            timeouts = [
                t
                for t in (settings.idle_timeout, settings.abandon_timeout, settings.request_timeout)
                if t > 0
            ]
            if self._adjourn_timeout(settings) > 0:
                timeouts.append(settings.adjourn_timeout)
            await trio.sleep(min([1.0, *(t / 4 for t in timeouts)]))
            now = trio.current_time()
            settings = self.settings
            if settings.idle_timeout > 0:
                self._close_idle(now, settings.idle_timeout)
            if settings.request_timeout > 0:
                self._close_slow_lines(now, settings.request_timeout)
            if settings.abandon_timeout > 0:
                result = self.lobby.drop_abandoned(now, settings.abandon_timeout)
                if result.games:
                    await self._carry_out(result, None)
            if self._adjourn_timeout(settings) > 0:
                now = trio.current_time()
                self.lobby.adjourn_unfollowed(now, settings.adjourn_timeout, self.sequencer.busy)

    def _adjourn_timeout(self, settings: Settings) -> float:
        """The adjourn timeout in force: 0 (never) unless the store is durable."""
        return settings.adjourn_timeout if self.store.durable else 0.0

    def _close_idle(self, now: float, timeout: float) -> None:
        """Close the connections that sent nothing for ``timeout`` seconds and follow no game
        in progress."""
        for conn in list(self.connections.values()):
            if conn.busy:
                continue
            if now - conn.last_input >= timeout and self.lobby.is_idle(conn.session):
                conn.timed_out = True
                conn.cancel_scope.cancel()

    def _close_slow_lines(self, now: float, timeout: float) -> None:
        """Close, with ``? limit``, the connections holding the start of a request line whose
        first byte came ``timeout`` seconds ago or more: a client that trickles a line out
        byte by byte must not keep its connection slot for ever (issue 16 item 1)."""
        for conn in list(self.connections.values()):
            started = conn.line_started
            if started is not None and now - started >= timeout and not conn.busy:
                message = f"request line not completed within {timeout:g} s (request-timeout)"
                conn.enqueue(fmt.failure(None, conn.session.mode, ErrorCode.LIMIT, message))
                conn.flush()
                conn.closed_because = "request timeout"
                conn.cancel_scope.cancel()

    async def _accept(self, listener: trio.abc.Listener[Any], nursery: trio.Nursery) -> None:
        while True:
            try:
                stream = await listener.accept()
            except OSError as error:
                # e.g. EMFILE: too many open files. Wait a little rather than spin, and log it
                # once until an accept succeeds again, not ten times a second.
                if not self._accept_failing:
                    self._accept_failing = True
                    log.error(
                        "accept failed: %s (not logged again until an accept succeeds)", error
                    )
                await trio.sleep(0.1)
                continue
            if self._accept_failing:
                self._accept_failing = False
                log.info("accepting connections again")
            nursery.start_soon(self._run_connection, stream)

    def _refusal(self, address: str) -> tuple[ErrorCode, str] | None:
        """Why a new connection from ``address`` is refused, if it is: the server stopping,
        the connection limit (lowered to what the open-file limit allows), or the
        per-address limit unless the address is trusted."""
        settings = self.settings
        if self._shutdown.is_set():
            return ErrorCode.SHUTTING_DOWN, "the server is stopping"
        limit = settings.max_connections
        if self.file_capacity is not None:
            limit = min(limit, self.file_capacity)
        if len(self.connections) >= limit:
            return ErrorCode.LIMIT, "too many connections"
        if (
            self.per_address[address] >= settings.max_connections_per_address
            and address not in settings.trusted
        ):
            return ErrorCode.LIMIT, (
                f"too many connections from your address "
                f"(max-connections-per-address {settings.max_connections_per_address})"
            )
        return None

    async def _run_connection(self, stream: trio.SocketStream) -> None:
        peer = _peer(stream)
        address = host_of(peer)
        refused = self._refusal(address)
        if refused is not None:
            code, message = refused
            log.info(
                "connection from %s refused: %s (%d connections, %d from it)",
                peer, message, len(self.connections), self.per_address[address],
            )  # fmt: skip
            refusal = fmt.failure(None, fmt.Mode.TEXT, code, message)
            with trio.move_on_after(_FLUSH_TIMEOUT):
                with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                    await stream.send_all(refusal)
            await trio.aclose_forcefully(stream)
            return
        self.per_address[address] += 1
        session = self.lobby.connect(peer)
        conn = Connection(stream, session, self.settings.outbound_queue, self._dirty)
        self.connections[session.id] = conn
        self._all_closed = trio.Event() if len(self.connections) == 1 else self._all_closed
        log.info("connection %d opened from %s", session.id, peer)
        reason = "closed by peer"
        try:
            with conn.cancel_scope:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(conn.write_backlog)
                    conn.enqueue(self.lobby.greeting().encode(session.mode))
                    self._flush()
                    reason = await self._read(conn)
                    await self._finish(conn)
                    nursery.cancel_scope.deadline = trio.current_time() + _FLUSH_TIMEOUT
            if conn.overflowed:
                reason = "outbound queue full"
            elif conn.timed_out:
                reason = "idle timeout"
            elif conn.closed_because is not None:
                reason = conn.closed_because
        except Exception:
            reason = "internal error"
            log.exception("connection %d failed", session.id)
        finally:
            with trio.CancelScope(shield=True) as scope:
                scope.deadline = trio.current_time() + _FLUSH_TIMEOUT
                try:
                    await self._finish(conn)
                except Exception:
                    log.exception("connection %d: leaving its games failed", session.id)
            del self.connections[session.id]
            self.per_address[address] -= 1
            if self.per_address[address] <= 0:
                del self.per_address[address]
            if not self.connections:
                self._all_closed.set()
            await trio.aclose_forcefully(stream)
            log.info("connection %d closed (%s)", session.id, reason)

    async def _finish(self, conn: Connection) -> None:
        """Take the connection out of the lobby (``disconnected`` events) and stop its writer
        once what is queued is sent."""
        session = conn.session
        if session.id in self.lobby.sessions:
            games = self.lobby.session_games(session)
            await self._sequenced(games, functools.partial(self.lobby.disconnect, session), None)
        conn.close()

    async def _read(self, conn: Connection) -> str:
        """Read and answer requests until the peer closes or sends ``quit``. Returns why it
        stopped."""
        splitter = LineSplitter(self.settings.max_line_bytes)
        clock = trio.lowlevel.current_clock()  # trio.current_time(), less two calls
        while True:
            if conn.busy:
                # Every request received is answered: the idle time counts from now, not from
                # when they came (a pipelining client is not idle while they are carried out).
                conn.busy = False
                conn.last_input = clock.current_time()
            if splitter.partial:
                if conn.line_started is None:
                    conn.line_started = clock.current_time()
            else:
                conn.line_started = None
            try:
                data = await conn.receive()
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                return "connection lost"
            if not data:
                # A line the peer did not end with LF is no request (PROTOCOL.md section 1):
                # a connection dropped mid-line must not carry out, say, a truncated move.
                if any(True for _ in splitter.close()):
                    log.debug("connection %d: unterminated last line ignored", conn.session.id)
                return "closed by peer"
            for number, item in enumerate(splitter.feed(data)):
                # Only whole lines count as activity: a byte now and then keeps nothing alive.
                conn.busy = True
                if number:
                    # Pipelined requests: let the other connections in between them, or a
                    # packet of thousands would hold everyone else up for its whole length.
                    await trio.lowlevel.checkpoint()
                close = await self._answer(conn, item)
                self._flush()
                if close:
                    return "quit"
                if conn.backed_up:
                    await conn.wait_drained()

    async def _answer(self, conn: Connection, item: str | LineError) -> bool:
        """Answer one line; True if the connection must close after the answer. What it
        queues waits for the caller's :meth:`_flush`."""
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
        refine = None
        if request.command == "record":
            refine = functools.partial(self._record_from_store, request)
        elif request.command == "resume":
            refine = functools.partial(self._resume_from_store, session, request)
        try:
            lobby = self.lobby
            games = lobby.games_of(session, request)
            if refine is None and not any(map(self.sequencer.busy, games)):
                # No earlier request on these games is still in progress: nothing to wait for.
                result = lobby.prepare(session, request)
                if self._store_calls(result):
                    await self._carry_out_holding(result, games, conn)
                else:
                    # It awaits nothing, so no other task runs before its events are queued:
                    # it needs no place in the games' order.
                    result.commit()
                    self._deliver(result, conn)
            else:
                result = await self._sequenced(
                    games, functools.partial(lobby.prepare, session, request), conn, refine
                )
        except Exception:
            log.exception("connection %d: %s failed", session.id, request.command)
            message = f"{request.command} failed; see the server log"
            conn.enqueue(fmt.failure(request.id, session.mode, ErrorCode.INTERNAL, message))
            return False
        return result.close

    async def _record_from_store(self, request: Request, result: Result) -> Result:
        """The lobby's ``result`` for ``record``, or, for a game the lobby does not hold, the
        store's record if it has one (a finished game from before a restart, or one the lobby
        has forgotten)."""
        response = result.response
        if response is None or response.error is None:
            return result
        if response.error.code != ErrorCode.UNKNOWN_GAME or len(request.args) != 1:
            return result
        try:
            stored = await self.store.load_finished(request.args[0])
        except OSError as error:
            log.error("store load_finished failed: %s", error)
            return result
        return result if stored is None else self.lobby.stored_record(request, stored)

    async def _resume_from_store(
        self, session: Session, request: Request, result: Result
    ) -> Result:
        """The lobby's ``result`` for ``resume``, or, when no loaded game has the token, the
        answer once the game the store keeps with that token (an adjourned one) is loaded
        again (:meth:`Lobby.bring_back`). Refused with ``limit`` when ``max_games`` are
        loaded, or ``internal`` when the game cannot be restored; nothing changes then.

        While the game is loaded and what its restore decided is stored, it is held in the
        :class:`Sequencer` (no other request on it, and no sweep, comes in between); a
        concurrent resume of the same game waits, then finds it loaded.
        """
        response = result.response
        if response is None or response.error is None:
            return result
        if response.error.code != ErrorCode.BAD_TOKEN or len(request.args) != 1:
            return result
        digest = token_digest(request.args[0])
        stored = await self._find_by_token(digest)
        if stored is None:
            return result
        game_id = stored.game_id
        waits, done = self.sequencer.ticket((game_id,))
        try:
            if waits:
                for ticket in waits:
                    await ticket.wait()
                # Another request had the game meanwhile: what the store holds may differ.
                stored = await self._find_by_token(digest)
                if stored is None or stored.game_id != game_id:
                    return result
            if game_id not in self.lobby.tables:
                try:
                    table = self.lobby.bring_back(stored)
                except ProtocolError as error:
                    error.request_id = request.id
                    return Result(Response.failed(error))
                except ValueError as error:
                    log.error("cannot restore game %s: %s", game_id, error)
                    message = "the game cannot be restored; see the server log"
                    failure = ProtocolError(ErrorCode.INTERNAL, message, request.id)
                    return Result(Response.failed(failure))
                try:
                    await self._store_restored(table, stored)
                except OSError as error:
                    log.error("store failed restoring game %s: %r", game_id, error)
                    self.lobby.adjourn(game_id)
                    failure = ProtocolError(ErrorCode.INTERNAL, _STORE_FAILED, request.id)
                    return Result(Response.failed(failure))
            return self.lobby.prepare(session, request)
        finally:
            self.sequencer.release((game_id,), done)

    async def _find_by_token(self, digest: bytes) -> StoredGame | None:
        """``GameStore.find_by_token``; ``None`` (logged) when the store fails."""
        try:
            return await self.store.find_by_token(digest)
        except OSError as error:
            log.error("store find_by_token failed: %s", error)
            return None

    async def _carry_out_holding(
        self, result: Result, games: Sequence[str], conn: Connection | None
    ) -> None:
        """Carry out ``result``, which awaits the store and was prepared just now with no
        request in progress on ``games`` (and no checkpoint since): it takes its place in the
        order of ``games`` and of any game it creates, as :meth:`_sequenced` would have
        before preparing it. Nobody can have taken one since the check."""
        held = (*games, *(g for g in result.games if g not in games))
        waits, done = self.sequencer.ticket(held)
        assert not waits, "a request was sequenced between the check and the ticket"
        try:
            await self._carry_out(result, conn)
        finally:
            self.sequencer.release(held, done)

    async def _sequenced(
        self,
        games: Sequence[str],
        prepare: Callable[[], Result],
        conn: Connection | None,
        refine: Callable[[Result], Awaitable[Result]] | None = None,
    ) -> Result:
        """Wait for the earlier requests on ``games``, then ``prepare`` a result (and
        ``refine`` it, if given) and carry it out (for ``conn``, if it answers a request)
        before the next request on them starts. A game the result creates is held too, for
        the requests that name it next."""
        waits, done = self.sequencer.ticket(games)
        try:
            for ticket in waits:
                await ticket.wait()
            result = prepare()
            if refine is not None:
                result = await refine(result)
            # Most results touch exactly the games they were sequenced on: no list to make.
            touched = result.games
            created = [] if touched == games else [g for g in touched if g not in games]
            if not created:
                await self._carry_out(result, conn)
                return result
            waits, created_done = self.sequencer.ticket(created)
            try:
                for ticket in waits:
                    await ticket.wait()
                await self._carry_out(result, conn)
            finally:
                self.sequencer.release(created, created_done)
        finally:
            self.sequencer.release(games, done)
        return result

    async def _carry_out(self, result: Result, conn: Connection | None) -> None:
        """Await ``result``'s first store call, which records its change, then commit the
        change, await the other store calls, and queue the response for ``conn`` and the
        events for their recipients. If the first call fails, nothing changes: ``conn`` gets
        ``internal`` and nobody gets an event. A result with no change pending made it
        already (:class:`~hipparchusd.lobby.Result`): each of its store calls that fails is
        logged, and the response and events go out all the same.

        A store call must be atomic under cancellation (recorded in full, or not at all and
        ``Cancelled`` raised), as the stores are: so a change the store recorded is always
        committed (no checkpoint between the call's return and the commit), and once committed
        its response and events are always queued, even if a later store call is cancelled.
        """
        calls = self._store_calls(result)
        try:
            if calls and result.pending is not None:
                first, calls = calls[0], calls[1:]
                try:
                    await first.apply(self.store)
                except Exception as error:
                    log.error("store %s failed: %r", first.method, error, exc_info=error)
                    if conn is not None and result.response is not None:
                        conn.enqueue(
                            fmt.failure(
                                result.response.request_id,
                                conn.session.mode,
                                ErrorCode.INTERNAL,
                                _STORE_UNREACHABLE
                                if isinstance(error, StoreUnreachable)
                                else _STORE_FAILED,
                            )
                        )
                    return
            result.commit()
            try:
                for call in calls:
                    try:
                        await call.apply(self.store)
                    except Exception as error:
                        # The change is made (and recorded, if it was pending): after a
                        # failed snapshot the store replays the moves after the earlier one.
                        log.error("store %s failed: %r", call.method, error, exc_info=error)
            finally:
                self._deliver(result, conn)
        finally:
            self._flush()

    def _store_calls(self, result: Result) -> list[StoreCall]:
        """The store calls to make for ``result``: none for a store that is not durable, which
        would keep nothing of them."""
        return result.store_calls if self.store.durable else []

    def _deliver(self, result: Result, conn: Connection | None) -> None:
        """Queue the response of a carried-out ``result`` for ``conn`` and its events for their
        recipients (:meth:`_flush` sends them)."""
        if conn is not None and result.response is not None:
            conn.enqueue(result.response.encode(conn.session.mode))
        if result.deliveries:
            try:
                self._dispatch(result)
            except Exception:
                log.exception("delivering events failed")

    def _dispatch(self, result: Result) -> None:
        connections = self.connections
        for delivery in result.deliveries:
            message = delivery.message
            for session in delivery.sessions:
                target = connections.get(session.id)
                if target is not None:
                    target.enqueue(message.encode(session.mode))

    def _flush(self) -> None:
        """Send what the last result queued, one write per connection."""
        dirty = self._dirty
        for conn in dirty:
            conn.flush()
        dirty.clear()


def _peer(stream: trio.SocketStream) -> str:
    try:
        address = stream.socket.getpeername()
    except OSError:
        return "?"
    if isinstance(address, tuple):
        return f"{address[0]}:{address[1]}"
    return str(address)
