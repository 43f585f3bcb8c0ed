"""Starting and stopping a daemon: listeners (its own or systemd's), the store, signals, and the
service manager's notifications.

Signals: SIGINT or SIGTERM begins the graceful shutdown (:meth:`Server.shutdown`); a second one
stops at once. With ``--drain-on-stop`` a SIGTERM drains first (:mod:`.drain`); the next one
begins the shutdown, the one after stops at once. SIGHUP reloads the configuration
(:func:`reload_settings`).
"""

from __future__ import annotations

import contextlib
import errno
import gc
import importlib.util
import logging
import resource
import signal
import socket
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import trio

from ..config_file import DAEMON_SCHEMA, Changes, ConfigError, changes
from ..logs import configure_logging, set_level
from ..settings import Settings, SettingsError
from ..store import statedir
from ..store.base import GameStore, StoreError
from ..systemd.notify import Notifier
from .admin import AdminSocket, open_admin_socket
from .lifecycle import Server

if TYPE_CHECKING:
    from .cluster.node import Cluster

log = logging.getLogger("hipparchusd.server")

#: Open files needed besides the connections: listening sockets, the database and its journal,
#: the log, Python's own.
SPARE_FILES = 64


#: What a daemon sharing a PostgreSQL store imports beside the rest (the cluster extra).
CLUSTER_MODULES = ("psycopg", "hiredis")

#: The cyclic garbage collector's thresholds while serving (CPython's default: 700, 10, 10).
#: See :func:`tune_garbage_collector`.
GC_THRESHOLDS = (50_000, 20, 20)


def tune_garbage_collector() -> None:
    """Set this process's collector up for serving (:func:`run` does, before the daemon
    starts): collect once, freeze what exists (the modules and settings: ``gc.freeze``), and
    collect the young generation far less often.

    Why: nearly everything a request makes dies with it by reference counting, and what
    survives is long-lived (games, connections). With CPython's default thresholds the
    young generation is collected every 700 net allocations, and objects that only wait a few
    milliseconds (a ``play`` waiting for its commit, with the forked game) get promoted and
    then scanned again and again by the older collections. In ``bench/bench_durable.py`` with
    200 games, these thresholds took the daemon from about 3,200 to 5,000 durable and from
    4,600 to 6,100 in-memory moves/s (medians of runs taken back to back). Cycles (trio's
    cancellations and tracebacks make some) are still collected, after 50,000 net allocations
    of the young generation: tens of megabytes at most.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def ensure_open_files(max_connections: int) -> int | None:
    """Make room for ``max_connections`` connections (one file descriptor each) under the
    open-file limit: raise the soft ``RLIMIT_NOFILE`` up to the hard limit when needed. When
    even that is too low, log one warning naming the remedy (``LimitNOFILE=``, ``ulimit -n``)
    and return the connections there is room for, which the server then takes as its
    connection limit: the clients beyond get ``? limit`` instead of hanging unaccepted while
    ``accept`` fails (issue 16 item 7). ``None`` when there is room for all."""
    needed = max_connections + SPARE_FILES
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= needed:
        return None
    target = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
    if target > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (OSError, ValueError) as error:
            log.debug("cannot raise the open-file limit: %s", error)
    if soft >= needed:
        return None
    capacity = max(1, soft - SPARE_FILES)
    log.warning(
        "max-connections %d needs about %d open files, but the limit is %d: serving at most "
        "%d connections (the next get '? limit'); raise the limit (LimitNOFILE= in the unit, "
        "ulimit -n) or lower max-connections",
        max_connections,
        needed,
        soft,
        capacity,
    )
    return capacity


def open_store(settings: Settings) -> contextlib.AbstractAsyncContextManager[GameStore]:
    """``async with open_store(settings) as store:``, the store ``settings.state_dir`` names:
    SQLite in that directory, or memory (``None``); closed when the block ends. (A PostgreSQL
    store, ``settings.store``, comes with this daemon's part in the cluster:
    :func:`open_service`.)

    Raises:
        StoreError: the state directory or its database cannot be used (the message says why).
    """
    state_dir = None if settings.state_dir is None else Path(settings.state_dir)
    return statedir.open_store(state_dir, retention_days=settings.retention_days)


@contextlib.asynccontextmanager
async def open_service(settings: Settings) -> AsyncIterator[tuple[GameStore, Cluster | None]]:
    """``async with open_service(settings) as (store, cluster):``: the store, and this daemon's
    part among those sharing it (issue 28: with ``settings.store``, a PostgreSQL database, the
    node ``settings.node`` of its cluster; else ``None``, the store of :func:`open_store`).

    Raises:
        StoreError: the store cannot be used (the message says why).
    """
    if settings.store is None:
        async with open_store(settings) as store:
            yield store, None
        return
    missing = [name for name in CLUSTER_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        raise StoreError(
            f"--store needs {' and '.join(missing)}: install hipparchusd with its cluster "
            "extra (pip install 'hipparchusd[cluster]')"
        )
    from ..store.pg.launch import default_node_name
    from ..store.pg.store import PostgresStore
    from .cluster.node import Cluster

    node = settings.node or default_node_name()
    async with PostgresStore.open(
        settings.store,
        node=node,
        lease=settings.node_lease,
        retention_days=settings.retention_days,
    ) as shared:
        yield shared, Cluster(settings, shared)


async def serve(
    settings: Settings,
    store: GameStore,
    *,
    listeners: Sequence[trio.abc.Listener[Any]] | None = None,
    web_listeners: Sequence[trio.abc.Listener[Any]] | None = None,
    metrics_listeners: Sequence[trio.abc.Listener[Any]] | None = None,
    cluster: Cluster | None = None,
    task_status: trio.TaskStatus[Server] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Run a daemon until its :meth:`Server.shutdown` is called (or the task is cancelled),
    with ``cluster`` its part among the daemons sharing ``store`` (issue 28), if any.

    Listens on ``settings.host``/``settings.port`` unless ``listeners`` are given (e.g. the
    sockets systemd passes), for the page and WebSockets on ``web_listeners``, else on
    ``settings.ws_host``/``settings.ws_port`` when that is set, and for Prometheus on
    ``metrics_listeners``, else on ``settings.metrics_host``/``settings.metrics_port`` when
    that is set (:func:`open_listeners`); and for the operator on ``settings.admin_socket``
    when that is set (:func:`~.admin.open_admin_socket`). Calls
    ``task_status.started(server)`` once accepting: use
    ``server = await nursery.start(serve, settings, store)``. Takes ownership of ``store``
    (closes it at the end).

    Raises:
        OSError: an address cannot be bound.
    """
    admin: AdminSocket | None = None
    try:
        listeners, web_listeners, metrics_listeners = await open_listeners(
            settings, listeners, web_listeners, metrics_listeners
        )
        if settings.admin_socket is not None:
            try:
                admin = await open_admin_socket(Path(settings.admin_socket))
            except BaseException:
                for listener in (*listeners, *web_listeners, *metrics_listeners):
                    await trio.aclose_forcefully(listener)
                raise
    except BaseException:
        await store.aclose()
        raise
    server = Server(settings, store, cluster=cluster)
    if cluster is not None:
        cluster.attach(server)  # its router and hooks in the server's pipeline and sweeps
    for group, ports, what in (
        (listeners, server.ports, ""),
        (web_listeners, server.web_ports, " (web)"),
        (metrics_listeners, server.metrics_ports, " (metrics)"),
    ):
        for listener in group:
            sock = getattr(listener, "socket", None)
            if sock is not None:
                address = sock.getsockname()
                ports.append(address[1])
                log.info("listening on %s port %d%s", address[0], address[1], what)
    await server.serve(
        listeners,
        web_listeners=web_listeners,
        metrics_listeners=metrics_listeners,
        admin=admin,
        task_status=task_status,
    )


Listeners = Sequence[trio.abc.Listener[Any]]


async def open_listeners(
    settings: Settings,
    listeners: Listeners | None,
    web_listeners: Listeners | None,
    metrics_listeners: Listeners | None = None,
) -> tuple[Listeners, Listeners, Listeners]:
    """The protocol's, the web's and the metrics' listeners: those given, else bound from
    ``settings`` (``host``/``port``; ``ws_host``/``ws_port`` when ``ws_port`` is set, else
    none; ``metrics_host``/``metrics_port`` likewise). Passed sockets win: when systemd passes
    any, nothing is bound here.

    Raises:
        OSError: an address cannot be bound (what was bound is closed again).
    """
    if listeners is not None:
        return listeners, web_listeners or (), metrics_listeners or ()
    bound: list[trio.abc.Listener[Any]] = []
    try:
        with _naming(settings.host, settings.port, "--port"):
            if settings.reuse_port == "on":
                listeners = await shared_port_listeners(settings.port, settings.host)
            else:
                listeners = await trio.open_tcp_listeners(settings.port, host=settings.host)
        bound += listeners
        if web_listeners is None and settings.ws_port is not None:
            with _naming(settings.ws_host, settings.ws_port, "--ws-port"):
                web_listeners = await trio.open_tcp_listeners(
                    settings.ws_port, host=settings.ws_host
                )
            bound += web_listeners
        if metrics_listeners is None and settings.metrics_port is not None:
            with _naming(settings.metrics_host, settings.metrics_port, "--metrics-port"):
                metrics_listeners = await trio.open_tcp_listeners(
                    settings.metrics_port, host=settings.metrics_host
                )
    except BaseException:
        for listener in bound:
            await trio.aclose_forcefully(listener)
        raise
    return listeners, web_listeners or (), metrics_listeners or ()


@contextlib.contextmanager
def _naming(host: str, port: int, option: str) -> Iterator[None]:
    """Turn a bind's "address already in use" into what a person can act on: which address,
    and the option that moves it (the OS's own words name neither).

    Raises:
        OSError: the bind's error, with that message when the address is in use.
    """
    try:
        yield
    except OSError as error:
        if error.errno != errno.EADDRINUSE:
            raise
        raise OSError(
            error.errno,
            f"{host} port {port} is in use, perhaps by another hipparchusd; "
            f"{option} gives another (0: any free port)",
        ) from error


async def shared_port_listeners(port: int, host: str) -> list[trio.SocketListener]:
    """Listeners on ``host``:``port`` bound with ``SO_REUSEPORT`` (``--reuse-port on``): every
    daemon of one machine that binds so shares the port, and the kernel spreads the new
    connections among them (issue 28: several daemons behind one address).

    Raises:
        OSError: the address cannot be bound (another program holds it without the option).
    """
    listeners: list[trio.SocketListener] = []
    found = await trio.socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )
    try:
        for family, kind, protocol, _, address in found:
            sock = trio.socket.socket(family, kind, protocol)
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
                await sock.bind(address)
                sock.listen(socket.SOMAXCONN)
            except BaseException:
                sock.close()
                raise
            listeners.append(trio.SocketListener(sock))
    except BaseException:
        for listener in listeners:
            await trio.aclose_forcefully(listener)
        raise
    return listeners


def reload_settings(server: Server, load: Callable[[], Settings]) -> Changes | str:
    """Apply what can change without a restart (SIGHUP, ``hipparchusd admin reload``): re-read
    the settings with ``load`` (the configuration file, then the same command-line options as
    at start), then set the new log level and format and limits (:meth:`Server.reconfigure`)
    and log each change; the changes found. A changed ``host``, ``port`` or ``state_dir`` is
    logged as needing a restart and left as it is. A file with an error is logged, naming the
    key, and changes nothing: the error's message is returned instead."""
    try:
        new = load()
    except (ConfigError, SettingsError) as error:
        log.error("reload failed, settings unchanged: %s", error)
        return str(error)
    old = server.settings
    found = changes(old, new, DAEMON_SCHEMA)
    effective = found.effective(old, new, DAEMON_SCHEMA)
    if effective.log_format != old.log_format:
        configure_logging(effective.log_level, log_format=effective.log_format)
    set_level(effective.log_level)
    server.file_capacity = ensure_open_files(effective.max_connections)
    server.reconfigure(effective)
    for name, (before, after) in found.applied.items():
        log.info("reload: %s: %s -> %s", name, before, after)
    for name, (before, after) in found.need_restart.items():
        log.warning("reload: %s: %s -> %s needs a restart; still %s", name, before, after, before)
    if not (found.applied or found.need_restart):
        log.info("reload: nothing changed")
    return found


async def run_async(
    settings: Settings,
    *,
    listeners: Sequence[trio.abc.Listener[Any]] | None = None,
    web_listeners: Sequence[trio.abc.Listener[Any]] | None = None,
    metrics_listeners: Sequence[trio.abc.Listener[Any]] | None = None,
    notifier: Notifier | None = None,
    load_settings: Callable[[], Settings] | None = None,
    task_status: trio.TaskStatus[Server] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Open the store (its unfinished games restored) and serve until SIGINT or SIGTERM, then
    shut down gracefully; a second SIGINT or SIGTERM stops at once (the store is still closed).
    With ``drain_on_stop``, a SIGTERM drains first (:meth:`Server.drain`), the next one begins
    the shutdown and the one after stops at once. SIGHUP (or ``hipparchusd admin reload``)
    reloads the settings with ``load_settings`` (ignored without it).

    ``notifier`` reports to systemd: ``READY=1`` once accepting, ``STATUS=`` with the game and
    connection counts when they change, ``WATCHDOG=1`` from this event loop (from before the
    store loads), ``RELOADING=1`` and ``READY=1`` around a reload, ``STOPPING=1`` at shutdown
    (and at a drain on SIGTERM, with ``EXTEND_TIMEOUT_USEC=`` while it lasts, so that
    ``TimeoutStopSec=`` bounds the shutdown after it rather than the drain).

    Raises:
        OSError: the address cannot be bound, or the store cannot be used (a
            :class:`~hipparchusd.store.base.StoreError`), raised as such before anything
            starts.
    """
    notifier = notifier or Notifier(None)
    file_capacity = ensure_open_files(settings.max_connections)
    listeners, web_listeners, metrics_listeners = await open_listeners(
        settings, listeners, web_listeners, metrics_listeners
    )
    handled = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
    with trio.open_signal_receiver(*handled) as signals:
        async with trio.open_nursery() as nursery:
            # Pinging from the start: systemd's watchdog runs while the store loads, too.
            watchdog = trio.CancelScope()

            async def ping() -> None:
                with watchdog:
                    await notifier.run_watchdog()

            nursery.start_soon(ping)
            notifier.status("opening the store")
            async with open_service(settings) as (store, cluster):
                nursery.start_soon(_exit_on_store_failure, store, watchdog, notifier)
                server: Server = await nursery.start(
                    lambda task_status: serve(
                        settings,
                        store,
                        listeners=listeners,
                        web_listeners=web_listeners,
                        metrics_listeners=metrics_listeners,
                        cluster=cluster,
                        task_status=task_status,
                    )
                )
                server.file_capacity = file_capacity

                def reload() -> Changes | str:
                    notifier.reloading()
                    try:
                        if load_settings is None:
                            return "no configuration to reload"
                        return reload_settings(server, load_settings)
                    finally:
                        notifier.ready(server.status())

                server.reload = reload
                notifier.ready(server.status())
                nursery.start_soon(notifier.run_status, server.status)
                task_status.started(server)

                async def on_signals() -> None:
                    async for signum in signals:
                        name = signal.Signals(signum).name
                        if signum == signal.SIGHUP and server.shutting_down:
                            log.info("received SIGHUP while shutting down: ignored")
                        elif signum == signal.SIGHUP:
                            log.info("received SIGHUP: reloading the configuration")
                            reload()
                        elif (
                            signum == signal.SIGTERM
                            and server.settings.drain_on_stop
                            and not server.draining
                            and not server.shutting_down
                        ):
                            log.info("received SIGTERM: draining first (drain-on-stop)")
                            notifier.stopping(f"draining: {server.status()}")
                            server.drain()
                            nursery.start_soon(_extend_stop_timeout, server, notifier)
                        elif not server.shutting_down:
                            log.info("received %s", name)
                            notifier.stopping(f"shutting down: {server.status()}")
                            server.shutdown()
                        else:
                            log.warning("received %s again: stopping at once", name)
                            nursery.cancel_scope.cancel()

                nursery.start_soon(on_signals)
                await server.stopped.wait()
                nursery.cancel_scope.cancel()


#: Seconds each ``EXTEND_TIMEOUT_USEC=`` gives systemd's stop timeout while a drain lasts, and
#: how often it is sent (well within it).
EXTEND_BY, EXTEND_EVERY = 30.0, 10.0


async def _extend_stop_timeout(server: Server, notifier: Notifier) -> None:
    """While the drain SIGTERM began lasts, keep systemd's stop timeout from running out
    (``EXTEND_TIMEOUT_USEC=``, sd_notify(3)); the drain's own ``--drain-timeout`` bounds it."""
    while not server.shutting_down:
        notifier.extend_timeout(EXTEND_BY)
        notifier.status(server.status())
        await trio.sleep(EXTEND_EVERY)


async def _exit_on_store_failure(
    store: GameStore, watchdog: trio.CancelScope, notifier: Notifier
) -> None:
    """Once ``store`` has failed for good (``GameStore.wait_failed``: e.g. its writer died
    and no new one would start), stop the watchdog pings and end the daemon with an error, so
    that systemd restarts it (issue 16 item 4): a daemon that answers every change with
    ``? internal`` helps nobody.

    Raises:
        StoreError: when the store has failed (the daemon's exit status is then 1).
    """
    why = await store.wait_failed()
    watchdog.cancel()
    notifier.stopping("the game store failed")
    log.critical("the game store cannot be written any more: stopping with an error")
    raise StoreError(why)


def run(
    settings: Settings,
    *,
    listeners: Sequence[trio.abc.Listener[Any]] | None = None,
    web_listeners: Sequence[trio.abc.Listener[Any]] | None = None,
    metrics_listeners: Sequence[trio.abc.Listener[Any]] | None = None,
    notifier: Notifier | None = None,
    load_settings: Callable[[], Settings] | None = None,
) -> int:
    """Run the daemon in this process until it is stopped (see :func:`run_async`); the exit
    status (0). The process's garbage collector is tuned for serving first
    (:func:`tune_garbage_collector`).

    Raises:
        OSError: the address cannot be bound, or the store cannot be used (e.g. a stored game
            of a newer serialization version); out of the server's tasks it comes in an
            exception group, and the first one is raised as it is, for the caller's message.
    """
    tune_garbage_collector()
    try:
        trio.run(
            lambda: run_async(
                settings,
                listeners=listeners,
                web_listeners=web_listeners,
                metrics_listeners=metrics_listeners,
                notifier=notifier,
                load_settings=load_settings,
            )
        )
    except BaseExceptionGroup as group:
        errors, others = group.split(OSError)
        if errors is None or others is not None:
            raise
        first: BaseException = errors
        while isinstance(first, BaseExceptionGroup):
            first = first.exceptions[0]
        raise first from group
    return 0
