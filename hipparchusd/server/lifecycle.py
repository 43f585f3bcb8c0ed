"""The server's lifecycle (:class:`Server`): restoring the stored games, the listeners and
the accept loop, one task per connection reading its requests, and the graceful shutdown.

What a request does is the :class:`~.pipeline.Pipeline`'s (with the lobby's result); how bytes
reach a connection is the :class:`~.connection.Connection`'s; the periodic sweeps of idle
connections, unfollowed games and expired adjourned games are :mod:`.sweeps`'. Every task
belongs to a nursery of :meth:`Server.serve`: the accept loops and the sweeps to one, the
connections to an outer one, which outlives the accept loops by the grace period at shutdown,
and the engine's searches to the outermost.
"""

from __future__ import annotations

import collections
import contextlib
import errno
import functools
import logging
import os
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Final

import trio

from ..addresses import host_of
from ..config_file import Changes
from ..games.base import GameKind
from ..lobby import Lobby, Result, Session
from ..protocol import ErrorCode
from ..protocol import formatting as fmt
from ..settings import Settings
from ..store.base import GameStore
from ..wording import counted
from .admin import AdminChannel, AdminSocket
from .connection import Connection, Refused, TcpConnection, peer_name
from .drain import drain
from .engines import Engines
from .membership import Membership
from .pipeline import Pipeline
from .storage import execute
from .sweeps import Sweeps
from .timers import Timers
from .webfront import WebFront
from .workers import EnginePool

if TYPE_CHECKING:
    # Imported when metrics are enabled only: prometheus_client adds about a tenth to the
    # instructions a daemon spends starting (bench/bench_requests.py --matches 0), for a
    # listener that is off by default.
    from ..metrics import Levels, Metrics

log = logging.getLogger("hipparchusd.server")


#: Seconds before a deadline whose result the store refused is tried again.
RETRY_DEADLINE: Final = 1.0
#: Seconds a closing connection may take to flush what it was sent (e.g. the ``quit`` answer).
_FLUSH_TIMEOUT = 5.0

#: The errors of ``accept`` that say the system is out of a resource (as
#: :func:`trio.serve_listeners`): the accept loop waits and tries again. Any other is raised.
ACCEPT_CAPACITY_ERRNOS: Final = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.ENOBUFS})
#: Seconds to wait before accepting again after one of those errors.
ACCEPT_RETRY_DELAY: Final = 0.1


def engine_pool(settings: Settings, kinds: Iterable[GameKind], name: str) -> EnginePool:
    """A pool of ``settings.workers`` engine workers for the searches ``name`` says, which
    import the engine of each of ``kinds`` that has one before they are ready, and start
    with the daemon or on demand (``engine_start``)."""
    engines = [kind.engine.module for kind in kinds if kind.engine is not None]
    return EnginePool(
        settings.workers,
        engines=engines,
        timeout=settings.engine_timeout,
        on_demand=settings.engine_start == "on-demand",
        name=name,
    )


class Server:
    """A running daemon: :meth:`serve` runs it, :meth:`shutdown` stops it gracefully.

    ``ports`` are the bound TCP ports once listening (``web_ports``: the page's and the
    WebSocket's); :attr:`games` and :attr:`connections`
    count what is open now (e.g. for systemd's ``STATUS=``).
    """

    def __init__(
        self,
        settings: Settings,
        store: GameStore,
        lobby: Lobby | None = None,
        cluster: Membership | None = None,
    ) -> None:
        self.settings = settings
        self.store = store
        self.lobby = lobby or Lobby.for_settings(settings, snapshots=store.durable)
        self.connections: dict[int, Connection] = {}
        #: Open connections by peer address (``max_connections_per_address``).
        self.per_address: collections.Counter[str] = collections.Counter()
        #: Connections the open-file limit leaves room for (``None``: no fewer than
        #: ``max_connections``); set by :func:`~hipparchusd.server.run.run_async`.
        self.file_capacity: int | None = None
        self.ports: list[int] = []
        self.web_ports: list[int] = []
        self.metrics_ports: list[int] = []
        self.pipeline = Pipeline(self.lobby, store, self.connections)
        self.engines = Engines(
            self.lobby,
            engine_pool(settings, self.lobby.kinds.values(), "moves"),
            engine_pool(settings, self.lobby.kinds.values(), "analyses"),
            max_searches=settings.max_searches,
            max_searches_per_address=settings.max_searches_per_address,
            sequenced=self.pipeline.sequenced,
            send=self.pipeline.send,
        )
        self.pipeline.engines = self.engines
        #: Every game's next deadline (its clocks, an absent seat: issue 27), one structure.
        self.timers = Timers(self._deadline)
        self.pipeline.timers = self.timers
        self.sweeps = Sweeps(
            settings, self.lobby, store, self.pipeline, self.engines, self.connections
        )
        #: This daemon's part among those sharing its store (issue 28), if it shares it; it
        #: is told of the server by whoever made both (run.py's ``Cluster.attach``).
        self.cluster = cluster
        self._shutdown = trio.Event()
        self._all_closed = trio.Event()
        self._all_closed.set()
        #: Set once :meth:`serve` has returned (connections and store closed).
        self.stopped = trio.Event()
        #: When the server was made (``time.monotonic``), for the admin channel's uptime;
        #: whether a drain was asked for (:meth:`drain`).
        self.started_at, self.draining = time.monotonic(), False
        self._drain_asked = trio.Event()
        #: Re-reads and applies the configuration, as SIGHUP does (set by
        #: :func:`~hipparchusd.server.run.run_async`): the changes, or why nothing changed.
        self.reload: Callable[[], Changes | str] | None = None
        #: The daemon's figures, when it serves metrics (:meth:`enable_metrics`).
        self.metrics: Metrics | None = None

    def enable_metrics(self) -> Metrics:
        """Count the figures the metrics listener serves (:mod:`hipparchusd.metrics`), from
        now on: the pipeline's answers and store calls, the store's commits, and at
        each scrape :meth:`metric_levels`; idempotent."""
        if self.metrics is None:
            from ..metrics import Metrics  # (see the imports)

            self.metrics = Metrics(self.lobby.commands, self.metric_levels)
            self.pipeline.metrics = self.metrics
            self.store.observe_commits(self.metrics.committed)
        return self.metrics

    def metric_levels(self) -> Levels:
        """What the server holds now, for a scrape (:class:`~hipparchusd.metrics.Levels`)."""
        from ..metrics import Levels  # (see the imports)

        engines = self.engines
        # A pool's searches are those asked and not answered: running, or waiting in its queue.
        queued = engines.waiting
        running = sum(pool.searches for pool in engines.pools) - queued
        return Levels(
            connections=collections.Counter(c.transport for c in self.connections.values()),
            games=collections.Counter((t.kind.name, t.status) for t in self.lobby.tables.values()),
            searches_running=running,
            searches_queued=queued,
            worker_restarts=engines.restarts,
            writer_restarts=self.store.restarts,
            maintenance=self.lobby.maintenance is not None,
            draining=self.draining,
        )

    def drain(self) -> None:
        """Begin a drain (:mod:`.drain`) unless one is under way or the server is stopping."""
        if not self.draining and not self.shutting_down:
            self.draining = True
            self._drain_asked.set()  # for _drain_when_asked, a task of serve()

    @property
    def games(self) -> int:
        """Games not finished."""
        return self.lobby.active_games

    @property
    def connection_count(self) -> int:
        """Open client connections."""
        return len(self.connections)

    def status(self) -> str:
        """A one-line status, e.g. ``3 games, 6 connections`` (``draining: ...`` during a
        drain)."""
        games, connections = self.games, self.connection_count
        status = f"{counted(games, 'game')}, {counted(connections, 'connection')}"
        return f"draining: {status}" if self.draining and not self.shutting_down else status

    def reconfigure(self, settings: Settings) -> None:
        """Take new limits from a configuration reload (SIGHUP): ``max_connections``,
        ``max_games``, ``idle_timeout``, ``abandon_timeout``, ``adjourn_timeout``,
        ``adjourn_expiry_days``, ``grace_period``, the engine's limits (``max_searches``,
        ``max_searches_per_address``, ``max_search_ms``, ``max_search_playouts``, the
        engine-only games' limits) and ``engine_timeout`` apply at once (the timeouts from the
        next sweep, the expiry from the next look for expired games); ``max_line_bytes`` and
        ``outbound_queue`` to connections opened from now on. Lowering a limit below the
        current count closes nothing; it refuses new ones until the count is under it. The
        caller keeps ``host``, ``port``, ``state_dir`` and ``engine_workers`` unchanged (they
        need a restart)."""
        self.settings = settings
        self.lobby.configure(settings)
        self.engines.max_searches = settings.max_searches
        self.engines.max_searches_per_address = settings.max_searches_per_address
        for pool in self.engines.pools:
            pool.timeout = settings.engine_timeout
        self.sweeps.settings = settings

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
        web_listeners: Sequence[trio.abc.Listener[Any]] = (),
        metrics_listeners: Sequence[trio.abc.Listener[Any]] = (),
        admin: AdminSocket | None = None,
        task_status: trio.TaskStatus[Server] = trio.TASK_STATUS_IGNORED,
    ) -> None:
        """Accept connections on ``listeners`` (the protocol over TCP) and ``web_listeners``
        (HTTP for the page, and the protocol over WebSocket: :mod:`.webfront`), scrapes on
        ``metrics_listeners`` (:mod:`.scrape`) and the operator on ``admin`` (:mod:`.admin`)
        until :meth:`shutdown` (or the end of a :meth:`drain`), then send the shutdown notice,
        let connections finish for ``grace_period`` seconds, close them and the store (and
        ``admin``). ``task_status.started`` is called with this server once it accepts
        connections."""
        web = WebFront(self)
        try:
            if self.cluster is not None:
                await self.cluster.prepare()
            await self.restore()
            async with trio.open_nursery() as engines:
                await engines.start(self.engines.run)
                if self.cluster is not None:
                    await engines.start(self.cluster.run)
                await engines.start(self.timers.run)
                async with trio.open_nursery() as connections:
                    async with trio.open_nursery() as acceptors:
                        for listener in listeners:
                            acceptors.start_soon(
                                self._accept, listener, connections, self._run_connection
                            )
                        for listener in web_listeners:
                            acceptors.start_soon(self._accept, listener, connections, web.handle)
                        for listener in metrics_listeners:
                            from .scrape import MetricsListener  # (see the imports)

                            scrapes = MetricsListener(self.enable_metrics().registry)
                            acceptors.start_soon(scrapes.serve, listener)
                        if admin is not None:
                            acceptors.start_soon(AdminChannel(self).serve, admin.listener)
                        acceptors.start_soon(self.sweeps.sweep)
                        acceptors.start_soon(self.sweeps.expire_periodically)
                        acceptors.start_soon(self._drain_when_asked)
                        task_status.started(self)
                        await self._shutdown.wait()
                        if self.cluster is not None:
                            # Hand the games over first, so that the clients told of the
                            # shutdown find them claimable through another daemon at once.
                            await self.cluster.drain()
                        # Still accepting during the grace period, to answer each newcomer
                        # '? shutting-down' rather than leave it hanging with no greeting.
                        grace = self.settings.grace_period
                        log.info(
                            "shutting down: %s; connections closed within %g s",
                            self.status(),
                            grace,
                        )
                        self.pipeline.dispatch(self.lobby.begin_shutdown(grace))
                        self.pipeline.flush()
                        with trio.move_on_after(grace):
                            await self._all_closed.wait()
                        acceptors.cancel_scope.cancel()
                    connections.cancel_scope.cancel()
                engines.cancel_scope.cancel()
        finally:
            for listener in (*listeners, *web_listeners, *metrics_listeners):
                with trio.CancelScope(shield=True):
                    await listener.aclose()
            if admin is not None:
                with trio.CancelScope(shield=True):
                    await admin.aclose()
            with trio.CancelScope(shield=True):
                await self.store.aclose()
            log.info("stopped")
            self.stopped.set()

    async def restore(self) -> None:
        """Load the games the store loads at start-up and note the ids of those it leaves
        adjourned (``GameStore.startup_games``; a seat's ``resume`` loads one); one that cannot be
        restored is logged and left out (the store keeps it). New games are numbered after
        every stored one. What a restore decided is stored before anything is served
        (:meth:`Lobby.restored_commands`). The adjourned games past their expiry are ended
        just after, in the background (:meth:`.sweeps.Sweeps.expire_adjourned`, whose first
        look is at start-up), so that however many there are the greeting does not wait for them.

        Raises:
            OSError: the store failed.
        """
        lobby = self.lobby
        store = self.store
        lobby.count_stored_games(await store.latest_game_id())
        startup = await store.startup_games()
        if store.durable:
            # Started games stay adjourned until a seat resumes one (loaded then, counted
            # against max-games from then): they never count against max-games here (issue 16
            # item 3).
            lobby.adjourn_stored(startup.adjourned)
            log.info(
                "%d games in progress stay adjourned until a seat resumes one",
                len(startup.adjourned),
            )
        for stored in startup.loaded:
            try:
                # A timed game's clocks run again from now (RULINGS T6).
                table = lobby.restore(stored, trio.current_time())
            except ValueError as error:
                log.error("cannot restore game %s: %s", stored.game_id, error)
                continue
            for command in lobby.restored_commands(table, stored):
                await execute(self.store, command)
            # The engine's seats that must move search again (they start with the server).
            self.engines.submit(list(lobby.bot_turns(table.id)))
            self.timers.set(table.id, lobby.deadline(table.id))

    async def _deadline(self, game_id: str) -> None:
        """Carry out what has come due in ``game_id`` (:meth:`Lobby.clock_due`: a flag, an
        abort, an absent seat) in the game's order, as a request on it would be: stored, then
        announced. When the store refuses it, nothing changed, and it is tried again
        :data:`RETRY_DEADLINE` seconds later; else the pipeline has set the game's next
        deadline."""
        lobby = self.lobby

        def due() -> Result:
            return lobby.clock_due(game_id, trio.current_time())

        try:
            result = await self.pipeline.sequenced((game_id,), due, None)
        except Exception:
            log.exception("game %s: carrying out its deadline failed", game_id)
            result = None
        if result is None or result.pending is not None:
            again = lobby.deadline(game_id)
            if again is not None:
                self.timers.set(game_id, max(again, trio.current_time() + RETRY_DEADLINE))

    async def _drain_when_asked(self) -> None:
        await self._drain_asked.wait()
        adjourn = functools.partial(self.sweeps.adjourn_unfollowed, 0.0)
        durable = self.store.durable
        await drain(self.lobby, self.settings.drain_timeout, adjourn if durable else None,
                    self.shutdown)  # fmt: skip

    async def sequenced(
        self, games: Sequence[str], prepare: Callable[[], Result], conn: Connection | None
    ) -> Result:
        """:meth:`Pipeline.sequenced` (for the admin channel)."""
        return await self.pipeline.sequenced(games, prepare, conn)

    async def _accept(
        self,
        listener: trio.abc.Listener[Any],
        nursery: trio.Nursery,
        handler: Callable[[trio.SocketStream], Awaitable[None]] | None = None,
    ) -> None:
        """Accept connections on ``listener`` and serve each with ``handler`` (by default the
        protocol over TCP) in ``nursery``, as
        :func:`trio.serve_listeners` does: an error that says the system is out of a resource
        (:data:`ACCEPT_CAPACITY_ERRNOS`, e.g. EMFILE: too many open files) waits
        :data:`ACCEPT_RETRY_DELAY` seconds and tries again, logged once until an accept works
        again; any other error is raised (the server stops rather than spin).

        Raises:
            OSError: ``accept`` failed for another reason.
        """
        failures = 0
        while True:
            try:
                stream = await listener.accept()
            except OSError as error:
                if error.errno not in ACCEPT_CAPACITY_ERRNOS:
                    raise
                if not failures:
                    log.error(
                        "accept failed: %s (%s); retrying every %g s",
                        errno.errorcode[error.errno],
                        os.strerror(error.errno),
                        ACCEPT_RETRY_DELAY,
                    )
                failures += 1
                await trio.sleep(ACCEPT_RETRY_DELAY)
                continue
            if failures:
                log.info("accept works again after %d failures", failures)
                failures = 0
            nursery.start_soon(handler or self._run_connection, stream)

    def connect(self, peer: str) -> tuple[Session, list[Connection]]:
        """A new lobby session for a connection from ``peer``, which :meth:`refusal` found no
        reason to refuse, and the pipeline's list of connections with output to flush, which
        the connection is made with."""
        return self.lobby.connect(peer), self.pipeline.dirty

    def refusal(self, address: str) -> tuple[ErrorCode, str] | None:
        """Why a new connection from ``address`` is refused, if it is: the server stopping,
        the connection limit (lowered to what the open-file limit allows), or the
        per-address limit unless the address is trusted (issue 16 items 1 and 7)."""
        settings = self.settings
        if self._shutdown.is_set():
            return ErrorCode.SHUTTING_DOWN, "the server is stopping"
        limit = settings.max_connections
        if self.file_capacity is not None:
            limit = min(limit, self.file_capacity)
        # Other daemons' sessions served here hold no socket (issue 28): they do not count.
        remote = self.cluster.proxy_count if self.cluster is not None else 0
        if len(self.connections) - remote >= limit:
            self._refused("max-connections")
            return ErrorCode.LIMIT, "too many connections"
        return self.address_refusal(address, 0)

    def address_refusal(self, address: str, pending: int) -> tuple[ErrorCode, str] | None:
        """Why one more connection from ``address`` is over ``max_connections_per_address``
        (unless the address is trusted), counting ``pending`` more from it as open: the web
        listener's connections still in their handshake (issue 24 item 1)."""
        settings = self.settings
        if (
            self.per_address[address] + pending >= settings.max_connections_per_address
            and address not in settings.trusted
        ):
            self._refused("max-connections-per-address")
            return ErrorCode.LIMIT, (
                f"too many connections from your address "
                f"(max-connections-per-address {settings.max_connections_per_address})"
            )
        return None

    def _refused(self, limit: str) -> None:
        """Count a refusal by the limit ``limit``, when there are metrics."""
        if self.metrics is not None:
            self.metrics.refused(limit)

    async def _run_connection(self, stream: trio.SocketStream) -> None:
        """Serve one TCP connection (:class:`TcpConnection`), or refuse it with ``? limit``
        when ``max_connections`` are open."""
        peer = peer_name(stream)
        address = host_of(peer)
        try:
            refused = self.refusal(address)
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
                return
            session, dirty = self.connect(peer)
            settings = self.settings
            conn = TcpConnection(
                stream, session, settings.outbound_queue, dirty, settings.max_line_bytes
            )
            await self.run_connection(conn, peer)
        finally:
            await trio.aclose_forcefully(stream)

    async def run_connection(self, conn: Connection, peer: str) -> None:
        """Serve ``conn``, a session over any transport, until it ends: greet, answer its
        requests, then take it out of the lobby and close its transport (:meth:`Connection.
        aclose`; its stream is the caller's to close). The caller has made its session
        (``lobby.connect``) after :meth:`refusal` found no reason to refuse it."""
        session = conn.session
        address = host_of(peer)
        self.per_address[address] += 1
        pipeline = self.pipeline
        self.connections[session.id] = conn
        self._all_closed = trio.Event() if len(self.connections) == 1 else self._all_closed
        log.info(
            "connection %d opened from %s (%s)", session.id, peer, conn.transport,
            extra={"event": "connection-opened", "connection": session.id},
        )  # fmt: skip
        if self.metrics is not None:
            self.metrics.opened(conn.transport)
        reason = "closed by peer"
        try:
            with conn.cancel_scope:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(conn.write_backlog)
                    conn.enqueue(self.lobby.greeting().encode(session.mode))
                    pipeline.flush()
                    reason = await self._read(conn)
                    await self._finish(conn)
                    nursery.cancel_scope.deadline = trio.current_time() + _FLUSH_TIMEOUT
            if conn.overflowed:
                reason = "outbound queue full"
                self._refused("outbound-queue")
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
                with contextlib.suppress(Exception):
                    await conn.aclose()
            del self.connections[session.id]
            self.per_address[address] -= 1
            if self.per_address[address] <= 0:
                del self.per_address[address]
            if not self.connections:
                self._all_closed.set()
            log.info(
                "connection %d closed (%s)", session.id, reason,
                extra={"event": "connection-closed", "connection": session.id},
            )  # fmt: skip

    async def _finish(self, conn: Connection) -> None:
        """Take the connection out of the lobby (``disconnected`` events) and stop its writer
        once what is queued is sent."""
        await self.pipeline.leave(conn.session)
        conn.close()

    async def _read(self, conn: Connection) -> str:
        """Read and answer requests until the peer closes or sends ``quit``. Returns why it
        stopped."""
        answer, flush = self.pipeline.answer, self.pipeline.flush
        clock = trio.lowlevel.current_clock()  # trio.current_time(), less two calls
        while True:
            if conn.busy:
                # Every request received is answered: the idle time counts from now, not from
                # when they came (a pipelining client is not idle while they are carried out).
                conn.busy = False
                conn.last_input = clock.current_time()
            if conn.partial_line:
                if conn.line_started is None:
                    conn.line_started = clock.current_time()
            else:
                conn.line_started = None
            try:
                items = await conn.receive_requests()
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                return "connection lost"
            except Refused as refusal:
                return str(refusal)
            if items is None:
                return "closed by peer"
            for number, item in enumerate(items):
                # Only whole lines count as activity: a byte now and then keeps nothing alive.
                conn.busy = True
                if number:
                    # Pipelined requests: let the other connections in between them, or a
                    # packet of thousands would hold everyone else up for its whole length.
                    await trio.lowlevel.checkpoint()
                close = await answer(conn, item)
                flush()
                if close:
                    return "quit"
                if conn.backed_up:
                    await conn.wait_drained()
