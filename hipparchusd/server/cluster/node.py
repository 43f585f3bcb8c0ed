"""One daemon among several sharing a PostgreSQL store (issue 28): :class:`Cluster` joins the
server, the store's node and the bus.

- Game ids: the lobby numbers its games from blocks the store reserves for this node
  (:meth:`~hipparchusd.store.pg.store.PostgresStore.reserve_game_numbers`), asked for again
  before they run out, so that no two daemons give one id.
- Requests for games held elsewhere go through :class:`~.forwarding.Forwarding` (the
  pipeline's router); sessions of other daemons acting on games held here are served through
  :class:`~.proxies.Proxies`. The bus's items (:mod:`.wire`) are dispatched here.
- The other daemons: when one is no longer live (its lease over) or registered anew, the
  sessions it held games for are closed (their clients resume through any daemon) and its
  proxies here leave their games.
- Games nobody would resume (every seat the engine's) whose owner is gone are claimed by a
  live daemon within half a lease, and play on there: bot seats move with the game.
- A game unloaded because the store holds its truth (the lease lost, a write fenced, an
  outcome unknown) has its followers closed: local connections at once, proxies' through their
  origins.
- Draining (SIGTERM): the daemon stops forwarding and claiming, lets go of its proxies (their
  origins close those sessions), unloads every game in its order and releases it, so that the
  next daemon a client reaches claims it at once; then the server's own shutdown goes on.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

import trio

from ...jsondata import JSON
from ...lobby import Result, Session
from ...settings import Settings
from ...store.base import StoreError
from ...store.pg.store import PostgresStore
from ...wording import counted
from . import wire
from .bus import RedisBus
from .forwarding import Forwarding
from .proxies import GIVEN_UP, RESTARTED, Proxies, ProxyKey, RemoteConnection

if TYPE_CHECKING:
    from ..lifecycle import Server

log = logging.getLogger("hipparchusd.cluster")

#: Game numbers reserved at a time, and how few left make the node ask for more.
NUMBER_BLOCK: Final = 1000
NUMBERS_LOW: Final = 500
#: Seconds between two looks at the numbers left.
NUMBERS_INTERVAL: Final = 0.25
#: Games whose owner is gone claimed at a time (every half lease).
ORPHANS_AT_ONCE: Final = 20
#: Of ``max-games``, the part past which the node claims no more such games.
ORPHANS_ROOM: Final = 0.9


class Cluster:
    """This daemon's part among those sharing ``store`` (see the module).

    Use: ``cluster = Cluster(settings, store)``, give it to the :class:`~..lifecycle.Server`
    (which calls :meth:`attach`, :meth:`prepare` before restoring its games, runs
    :meth:`run` in its outermost nursery, and calls :meth:`drain` at shutdown).
    """

    def __init__(self, settings: Settings, store: PostgresStore) -> None:
        self.settings = settings
        self.store = store
        self.node = store.node
        self.bus: RedisBus | None = None
        if settings.bus is not None:
            self.bus = RedisBus(
                settings.bus,
                cluster=str(store.settings.get("cluster_id", "cluster")),
                node=store.node,
                epoch=lambda: store.epoch,
                receive=self._receive,
                on_lost=self._bus_lost,
                on_unreachable=self._unreachable,
            )
        self._server: Server | None = None
        self._nursery: trio.Nursery | None = None
        self.draining = False

    @property
    def server(self) -> Server:
        assert self._server is not None, "attach first"
        return self._server

    @property
    def forwarding(self) -> Forwarding:
        return self._forwarding

    @property
    def proxies(self) -> Proxies:
        return self._proxies

    def attach(self, server: Server) -> None:
        """Join ``server``: its pipeline's router, its sweeps' hook for unloaded games."""
        self._server = server
        self._proxies = Proxies(server.lobby, server.pipeline, server.connections, self._post)
        self._forwarding = Forwarding(
            lobby=server.lobby,
            store=self.store,
            pipeline=server.pipeline,
            connections=server.connections,
            post=self._post,
            bus_up=lambda: self.bus is not None and self.bus.up,
            settings=lambda: self.server.settings,
        )
        server.pipeline.router = self._forwarding
        server.sweeps.on_unload = self._unloaded

    @property
    def proxy_count(self) -> int:
        """Sessions of other daemons served here (they hold no socket of this daemon)."""
        return len(self._proxies) if self._server is not None else 0

    async def prepare(self) -> None:
        """Before the server restores its games: the first block of game numbers.

        Raises:
            StoreError: the store failed.
        """
        first, last = await self.store.reserve_game_numbers(NUMBER_BLOCK)
        self.server.lobby.grant_game_numbers(first, last)

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """The node's tasks, until cancelled: the bus, the game numbers, the watch of the other
        daemons and of the lease, and the claims of games nobody else would take over."""
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            if self.bus is not None:
                nursery.start_soon(self.bus.run, name="hipparchusd-bus")
            nursery.start_soon(self._number_games, name="hipparchusd-game-numbers")
            nursery.start_soon(self._watch_nodes, name="hipparchusd-nodes")
            nursery.start_soon(self._watch_lease, name="hipparchusd-lease")
            nursery.start_soon(self._claim_orphans, name="hipparchusd-orphans")
            task_status.started()

    def _post(self, node: str, item: JSON) -> bool:
        return self.bus is not None and self.bus.post(node, item)

    # -- the bus's items ----------------------------------------------------------------------

    def _receive(self, sender: str, epoch: int, items: list[JSON]) -> None:
        """Dispatch the items of ``sender``'s message (see :mod:`.wire`)."""
        forwarding = self._forwarding
        nursery = self._nursery
        assert nursery is not None
        for item in items:
            if not isinstance(item, list) or not item:
                continue
            kind, *rest = item
            if kind == wire.OUTPUT:
                sid, data, count = rest
                forwarding.output(sender, epoch, int(str(sid)), str(data), int(str(count)))
            elif kind == wire.REQUEST:
                sid, number, mode, peer, line, *addressed = rest
                key: ProxyKey = (sender, epoch, int(str(sid)))
                if self.store.live_nodes.get(sender, epoch) > epoch:
                    continue  # an origin registered anew since: its sessions are gone
                if addressed and addressed[0] is not None and addressed[0] != self.store.epoch:
                    # The session's proxy here (its seats, what it watched) was an earlier
                    # epoch's, gone with that process: served on a fresh proxy, the request
                    # would be answered as if the session held no seat (`not-seated`).
                    self._post(sender, [wire.CLOSE, sid, RESTARTED])
                    continue
                # (A newer epoch than known is the origin registered anew since the last
                # renewal here: its earlier registration is over, and this request is its.)
                nursery.start_soon(
                    self._proxies.serve_request, key, int(str(number)), str(mode), str(peer),
                    str(line),
                )  # fmt: skip
            elif kind == wire.DONE:
                sid, number, close, follows = rest
                forwarding.done(
                    sender, epoch, int(str(sid)), int(str(number)), bool(close), bool(follows)
                )
            elif kind == wire.MOVED:
                sid, number, owner = rest
                forwarding.moved(
                    sender, epoch, int(str(sid)), int(str(number)),
                    None if owner is None else str(owner),
                )  # fmt: skip
            elif kind == wire.GONE:
                (sid,) = rest
                nursery.start_soon(self._proxies.gone, (sender, epoch, int(str(sid))))
            elif kind == wire.MODE:
                sid, mode = rest
                self._proxies.set_mode((sender, epoch, int(str(sid))), str(mode))
            elif kind == wire.STOP:
                (sid,) = rest
                nursery.start_soon(self._proxies.stop_stream, (sender, epoch, int(str(sid))))
            elif kind == wire.CLOSE:
                sid, why = rest
                forwarding.closed(sender, epoch, int(str(sid)), str(why))
            elif kind == wire.LIST:
                (ask,) = rest
                summaries: JSON = list(self.server.lobby.game_summaries())
                self._post(sender, [wire.LISTED, ask, summaries])
            elif kind == wire.LISTED:
                ask, games = rest
                if isinstance(games, list):
                    found = [game for game in games if isinstance(game, dict)]
                    forwarding.listed(sender, int(str(ask)), found)

    def _bus_lost(self) -> None:
        """The bus was lost (see :mod:`.bus`): what was in flight between the daemons is gone;
        sessions served across them are closed on both sides."""
        self._forwarding.bus_lost()
        if self._nursery is not None:
            self._nursery.start_soon(self._proxies.drop_all)

    def _unreachable(self, node: str) -> None:
        self._forwarding.unreachable(node)

    # -- the node's tasks ---------------------------------------------------------------------

    async def _number_games(self) -> None:
        """Ask for more game numbers before the lobby runs out."""
        lobby = self.server.lobby
        while True:
            await trio.sleep(NUMBERS_INTERVAL)
            left = lobby.game_numbers_left
            if left is not None and left < NUMBERS_LOW:
                try:
                    first, last = await self.store.reserve_game_numbers(NUMBER_BLOCK)
                except StoreError as error:
                    log.warning("reserving game numbers failed: %s", error)
                    continue
                lobby.grant_game_numbers(first, last)

    async def _watch_nodes(self) -> None:
        """Act on the daemons that went away or registered anew (see the module)."""
        known = dict(self.store.live_nodes)
        while True:
            live = await self.store.wait_nodes_changed()
            for node, epoch in known.items():
                if node != self.node and live.get(node) != epoch:
                    log.info("node %s (epoch %d) is gone", node, epoch)
                    self._forwarding.node_gone(node)
                    await self._proxies.drop_origin(node, live.get(node))
            known = dict(live)

    async def _watch_lease(self) -> None:
        """When the lease is lost, every game here is the store's again: they are unloaded at
        once (closing their followers, :meth:`_unloaded`), so that none is served from what
        this daemon held (another may have claimed and moved it); one with a request in
        progress at the next sweep (that request's writes are refused). Proxies of games not
        loaded go too."""
        while True:
            await self.store.wait_lease_lost()
            log.error("node %s lost its lease: its games are unloaded", self.node)
            self.server.sweeps.reload_uncertain()
            await self._proxies.drop_all()

    async def _claim_orphans(self) -> None:
        """Every half lease, claim and load the games whose owner is gone and whose every seat
        the engine plays (nobody would resume them), while there is room."""
        lobby = self.server.lobby
        while True:
            await trio.sleep(self.store.lease / 2)
            settings = self.server.settings
            if self.draining or lobby.active_games >= settings.max_games * ORPHANS_ROOM:
                continue
            try:
                found = await self.store.claim_orphans(ORPHANS_AT_ONCE)
            except StoreError as error:
                log.warning("claiming games whose owner is gone failed: %s", error)
                continue
            for stored in found:
                try:
                    await self.server.pipeline.load_held(stored)
                except (ValueError, OSError) as error:
                    log.error("game %s claimed but not loaded: %s", stored.game_id, error)
                    await self._release([stored.game_id])
                    continue
                log.info(
                    "game %s claimed by node %s: its owner is gone and the engine plays it",
                    stored.game_id,
                    self.node,
                )

    async def _release(self, game_ids: Sequence[str]) -> None:
        try:
            await self.store.release(game_ids)
        except StoreError as error:
            log.warning("releasing %s failed: %s", counted(len(game_ids), "game"), error)

    def _unloaded(self, game_id: str, followers: Sequence[Session]) -> None:
        """The sweeps unloaded ``game_id`` (the store holds its truth): its followers here are
        closed, and its proxies' origins told to close theirs."""
        connections = self.server.connections
        proxies: list[RemoteConnection] = []
        for session in followers:
            conn = connections.get(session.id)
            if isinstance(conn, RemoteConnection):
                proxies.append(conn)
            elif conn is not None:
                conn.closed_because = f"game {game_id} is held by the store again; resume the seat"
                conn.cancel_scope.cancel()
        if proxies and self._nursery is not None:
            self._nursery.start_soon(self._proxies.close, proxies, GIVEN_UP)

    # -- draining -----------------------------------------------------------------------------

    async def drain(self) -> None:
        """Hand every game over before the server stops (see the module). Returns once the
        games are unloaded and released (their requests in flight done first)."""
        self.draining = True
        self._forwarding.draining = True
        await self._proxies.close(list(self._proxies.proxies.values()), GIVEN_UP)
        server = self.server
        lobby = server.lobby
        unloaded: list[str] = []

        def unload(game_id: str) -> Result:
            table = lobby.tables.get(game_id)
            if table is not None and not table.finished:
                lobby.adjourn(game_id)
                server.engines.stop_game(game_id, "adjourned")
                unloaded.append(game_id)
            return Result()

        ids = [table.id for table in lobby.tables.values() if not table.finished]
        async with trio.open_nursery() as nursery:
            for game_id in ids:
                nursery.start_soon(
                    server.pipeline.sequenced, (game_id,), functools.partial(unload, game_id)
                )
        await self._release(unloaded)
        log.info("node %s drained: %s handed over", self.node, counted(len(unloaded), "game"))
        # Their followers here are told by the shutdown notice, and closed at the end of the
        # grace period: their clients resume through another daemon.
