"""The origin's side of forwarding (issue 28): a request for a game this daemon does not hold is
answered by the daemon that does, with no change to the protocol (:class:`Forwarding`, the
pipeline's :class:`~..pipeline.Router`).

Finding the game. A request that names a game (its id, or ``resume``'s token) not loaded here
asks the store where it is (:meth:`~hipparchusd.store.pg.store.PostgresStore.locate`): none
or finished, it is answered here as a daemon alone answers it; unfinished and owned by nobody
live, it is claimed for this daemon in the same call and loaded here (so a crashed daemon's
games are taken over by the next daemon that needs them); owned by another live daemon, the
request is forwarded to it. Owners are remembered, and forgotten when they move.

Forwarding. The request line goes to the owner (:data:`~.wire.REQUEST`), which carries it out
for a proxy of the session (:mod:`.proxies`) and sends back what the session is sent, then
:data:`~.wire.DONE`; the connection waits for that, so its responses stay in the order of its
requests. The game's later events come the same way, for as long as the proxy follows it. A
``resume`` through any daemon thus reaches the one holding the game, and its ``seq`` goes on
with no gap. ``new`` is never forwarded: a game is owned where it is made. A request forwarded
to a proxy is never forwarded again: its daemon says where the game went instead
(:data:`~.wire.MOVED`) and the origin asks there, a few times at most.

Failures, each answered ``? internal`` saying what is known: the bus down or the owner not
listening (nothing was sent: nothing changed); no answer within ``--forward-timeout``, or the
owner gone or the bus lost while waiting (the request may have been carried out): the answer
says so and the connection is closed, since what it was sent is unknown; its client resumes
its seat through any daemon. A session whose owner goes away, or that the owner closes
(:data:`~.wire.CLOSE`), is closed too, for the same reason; so is one whose request reaches
its owner restarted under the same name (each request names the owner's epoch that holds the
session's proxy: the new process, which has no such proxy, refuses it with a ``close``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Final

import attrs
import trio

from ...jsondata import JSON, JSONObject
from ...lobby import Lobby, Session
from ...protocol import ErrorCode, Mode, ProtocolError, Request
from ...protocol import formatting as fmt
from ...settings import Settings
from ...store.base import StoreError
from ...store.pg.store import Location, PostgresStore
from ..connection import Connection
from ..pipeline import STORE_FAILED, Pipeline
from . import wire
from .proxies import RemoteConnection

log = logging.getLogger("hipparchusd.cluster")

#: What :meth:`Forwarding._forward` says when the owner was not listening (nothing was sent).
_UNREACHABLE: Final = object()
#: Times a request follows a game that moves (:data:`~.wire.MOVED`) before it gives up.
MAX_HOPS: Final = 3
#: Seconds ``games`` waits for the other daemons' lists.
LIST_TIMEOUT: Final = 1.0

NO_BUS = (
    "game {game} is held by daemon {owner}, which cannot be reached now (the daemons' bus is "
    "down); nothing was changed; try again"
)
UNREACHABLE = (
    "game {game} is held by daemon {owner}, which is not listening on the bus; nothing was "
    "changed; try again"
)
NO_ANSWER = (
    "daemon {owner}, which holds game {game}, did not answer; the request may have been carried "
    "out there; this connection closes: resume your seat (through any daemon) to see"
)
MOVING = "game {game} is moving between daemons; nothing was changed; try again"
STOPPING = (
    "this server is stopping and hands its games over; reconnect (to any daemon) and resume "
    "your seat"
)
OWNER_GONE = "the daemon holding one of its games went away; resume the seat"
BUS_LOST = "the daemons' bus was lost; resume the seat"


@attrs.define
class _Pending:
    """A forwarded request waiting for its owner's answer."""

    node: str
    number: int
    event: trio.Event = attrs.field(factory=trio.Event)
    #: ``done``, ``moved``, ``unreachable`` or ``lost``; ``None`` while waiting.
    outcome: str | None = None
    close: bool = False
    follows: bool = False
    owner: str | None = None

    def settle(self, outcome: str) -> None:
        if self.outcome is None:
            self.outcome = outcome
            self.event.set()


@attrs.define
class _Remote:
    """What a session of this daemon has on other daemons: the nodes that hold a proxy of it
    (name to the epoch it was made under), its forwarded request waiting, its last output mode
    told, and the node where its analysis runs."""

    nodes: dict[str, int] = attrs.field(factory=dict)
    pending: _Pending | None = None
    number: int = 0
    mode: Mode = Mode.TEXT
    streaming: str | None = None


@attrs.define
class _Gathering:
    """A ``games`` waiting for the other daemons' lists."""

    waiting: set[str]
    games: list[JSONObject] = attrs.field(factory=list)
    event: trio.Event = attrs.field(factory=trio.Event)


class Forwarding:
    """The origin's side of forwarding (see the module): the pipeline's router.

    Args:
        lobby: this daemon's games and sessions.
        store: the shared store (where games are, claims).
        pipeline: what loads a claimed game.
        connections: the open connections by session id.
        post: queue an item for a node on the bus (False: the bus is down).
        bus_up: whether the bus is up now.
        settings: read for ``forward_timeout`` (a reload may change it).
    """

    def __init__(
        self,
        *,
        lobby: Lobby,
        store: PostgresStore,
        pipeline: Pipeline,
        connections: dict[int, Connection],
        post: Callable[[str, JSON], bool],
        bus_up: Callable[[], bool],
        settings: Callable[[], Settings],
    ) -> None:
        self.lobby = lobby
        self.store = store
        self.pipeline = pipeline
        self.connections = connections
        self._post = post
        self._bus_up = bus_up
        self._settings = settings
        self.node = store.node
        #: Set once this daemon drains: it claims no game and forwards nothing more.
        self.draining = False
        self._remotes: dict[int, _Remote] = {}
        self._owners: dict[str, str] = {}
        self._gatherings: dict[int, _Gathering] = {}
        self._asks = 0
        #: Requests forwarded, and their answers' wait in seconds (for the benchmarks).
        self.forwarded = 0

    # -- the router -------------------------------------------------------------------------

    async def route(self, conn: Connection, request: Request, line: str) -> bool | None:
        """See :class:`~..pipeline.Router`."""
        session = conn.session
        remote = self._remotes.get(session.id)
        if remote is not None and remote.streaming is not None:
            # Any request ends the session's analysis, there too (PROTOCOL.md section 9).
            self._post(remote.streaming, [wire.STOP, session.id])
            remote.streaming = None
        proxied = isinstance(conn, RemoteConnection)
        if request.command == "games" and not proxied:
            await self._games(conn, request)
            return False
        lobby = self.lobby
        game_id, digest = lobby.named_game(request)
        if game_id is None and digest is None:
            return None
        here = game_id if digest is None else lobby.game_of_token(digest)
        if here is not None and here in lobby.tables and self._serves(here):
            return None
        for _ in range(MAX_HOPS):
            owner = None if game_id is None else self._owners.get(game_id)
            if owner is None or owner not in self.store.live_nodes:
                try:
                    location = await (
                        self.store.locate(game_id)
                        if game_id is not None
                        else self.store.locate_token(digest or b"")
                    )
                except StoreError as error:
                    log.error("store: locating a game failed: %s", error)
                    _fail(conn, request, ErrorCode.INTERNAL, STORE_FAILED)
                    return False
                if location.state in ("none", "finished"):
                    return None
                if location.state == "claimed":
                    return await self._bring_here(conn, request, location)
                assert location.owner is not None and location.game_id is not None
                game_id, owner = location.game_id, location.owner
                if owner not in self.store.live_nodes:
                    # A daemon started since the last renewal: learn of it now.
                    try:
                        await self.store.refresh_nodes()
                    except StoreError as error:
                        log.warning("store: learning the live nodes failed: %s", error)
                self._owners[game_id] = owner
            if owner == self.node:  # (owned here but not loaded: claimed again next time)
                self._owners.pop(game_id or "", None)
                continue
            if self.draining:
                _fail(conn, request, ErrorCode.SHUTTING_DOWN, STOPPING)
                return False
            if isinstance(conn, RemoteConnection):
                # Never forwarded twice: the origin asks the owner itself.
                conn.moved, conn.moved_asked = owner, True
                return False
            outcome = await self._forward(conn, request, line, owner, game_id or "?")
            if outcome is _UNREACHABLE:
                # Nothing was sent: when the owner is dead, its lease runs out within one
                # lease and the game is claimed here on the next try; when it is alive but
                # cut off from the bus, the request fails.
                if not await self._outlive(owner):
                    message = UNREACHABLE.format(game=game_id, owner=owner)
                    _fail(conn, request, ErrorCode.INTERNAL, message)
                    return False
            elif isinstance(outcome, bool):
                return outcome
            self._owners.pop(game_id or "", None)
        _fail(conn, request, ErrorCode.INTERNAL, MOVING.format(game=game_id))
        return False

    def _serves(self, game_id: str) -> bool:
        """Whether the loaded game ``game_id`` is served here: it is this daemon's (or
        finished). One given up (the lease lapsed, another daemon may have moved it) but not
        unloaded yet, its request still in progress, is looked for in the store instead."""
        table = self.lobby.tables[game_id]
        return table.finished or self.store.owns(game_id)

    async def _bring_here(
        self, conn: Connection, request: Request, location: Location
    ) -> bool | None:
        """Load the game just claimed for this daemon, then let the request be carried out
        here (``None``); or answer why it cannot be (it is given up again)."""
        stored = location.game
        assert stored is not None
        if self.draining:
            await self._release(stored.game_id)
            _fail(conn, request, ErrorCode.SHUTTING_DOWN, STOPPING)
            return False
        try:
            await self.pipeline.load_held(stored)
        except ProtocolError as error:
            await self._release(stored.game_id)
            _fail(conn, request, error.code, error.message)
            return False
        except ValueError as error:
            log.error("cannot restore game %s: %s", stored.game_id, error)
            await self._release(stored.game_id)
            message = "the game cannot be restored; see the server log"
            _fail(conn, request, ErrorCode.INTERNAL, message)
            return False
        except OSError as error:
            log.error("store failed restoring game %s: %r", stored.game_id, error)
            _fail(conn, request, ErrorCode.INTERNAL, STORE_FAILED)
            return False
        log.info("game %s claimed by node %s", stored.game_id, self.node)
        return None

    async def _release(self, game_id: str) -> None:
        try:
            await self.store.release([game_id])
        except StoreError as error:
            log.warning("store: releasing game %s failed: %s", game_id, error)

    async def _forward(
        self, conn: Connection, request: Request, line: str, owner: str, game_id: str
    ) -> bool | object | None:
        """Forward ``line`` to ``owner`` and wait for its answer: whether the connection must
        close; ``None`` when the game has moved (ask again); :data:`_UNREACHABLE` when nobody
        listened on the owner's channel (nothing was sent)."""
        session = conn.session
        epoch = self.store.live_nodes.get(owner)
        if epoch is None:
            return None
        remote = self._remotes.get(session.id)
        if remote is None:
            remote = self._remotes[session.id] = _Remote()
        remote.number += 1
        pending = _Pending(owner, remote.number)
        remote.mode = session.mode
        item: JSON = [wire.REQUEST, session.id, remote.number, session.mode.value,
                      session.peer, line, remote.nodes.get(owner)]  # fmt: skip
        if not self._bus_up() or not self._post(owner, item):
            _fail(conn, request, ErrorCode.INTERNAL, NO_BUS.format(game=game_id, owner=owner))
            return False
        remote.pending = pending
        remote.nodes.setdefault(owner, epoch)
        self.forwarded += 1
        with trio.move_on_after(self._settings().forward_timeout):
            await pending.event.wait()
        remote.pending = None
        if pending.outcome == "done":
            if not pending.follows:
                remote.nodes.pop(owner, None)
            if request.command == "analyze":
                remote.streaming = owner
            return pending.close
        if pending.outcome == "moved":
            if pending.owner is not None and pending.owner != owner:
                self._owners[game_id] = pending.owner
                return None
            self._owners.pop(game_id, None)
            return None
        if pending.outcome == "unreachable":
            remote.nodes.pop(owner, None)
            return _UNREACHABLE
        log.warning(
            "connection %d: daemon %s did not answer its forwarded %s (%s)", session.id, owner,
            request.command, pending.outcome or "timed out",
        )  # fmt: skip
        _fail(conn, request, ErrorCode.INTERNAL, NO_ANSWER.format(game=game_id, owner=owner))
        conn.closed_because = f"daemon {owner} did not answer a forwarded request"
        return True

    async def _outlive(self, node: str) -> bool:
        """Wait, up to a lease and a bit, for ``node`` to be no longer live; whether it is."""
        with trio.move_on_after(self.store.lease * 1.5):
            while node in self.store.live_nodes:
                await self.store.wait_nodes_changed()
        return node not in self.store.live_nodes

    async def _games(self, conn: Connection, request: Request) -> None:
        """``games``: this daemon's and every other live daemon's, in the order of their ids."""
        summaries = self.lobby.game_summaries()
        try:
            # The daemons live now, not at the last renewal (one may have just started).
            await self.store.refresh_nodes()
        except StoreError as error:
            log.warning("store: learning the live nodes failed: %s", error)
        others = [node for node in self.store.live_nodes if node != self.node]
        if others and self._bus_up():
            self._asks += 1
            ask = self._asks
            gathering = self._gatherings[ask] = _Gathering(set(others))
            for node in others:
                if not self._post(node, [wire.LIST, ask]):
                    gathering.waiting.discard(node)
            if gathering.waiting:
                with trio.move_on_after(LIST_TIMEOUT):
                    await gathering.event.wait()
            del self._gatherings[ask]
            summaries += gathering.games
        summaries.sort(key=_game_order)
        result = self.lobby.games_answer(request, summaries)
        assert result.response is not None
        conn.enqueue(result.response.encode(conn.session.mode))

    def after_local(self, session: Session) -> None:
        """See :class:`~..pipeline.Router`: a new output mode is told to the nodes holding
        proxies of the session."""
        remote = self._remotes.get(session.id)
        if remote is not None and remote.nodes and remote.mode is not session.mode:
            remote.mode = session.mode
            for node in remote.nodes:
                self._post(node, [wire.MODE, session.id, session.mode.value])

    def left(self, session: Session) -> None:
        """See :class:`~..pipeline.Router`."""
        remote = self._remotes.pop(session.id, None)
        if remote is None:
            return
        nodes = set(remote.nodes)
        if remote.pending is not None:
            nodes.add(remote.pending.node)
            remote.pending.settle("lost")
        for node in nodes:
            self._post(node, [wire.GONE, session.id])

    def follows_elsewhere(self, session: Session) -> bool:
        """See :class:`~..pipeline.Router`."""
        remote = self._remotes.get(session.id)
        return remote is not None and bool(remote.nodes)

    # -- what the owners send ----------------------------------------------------------------

    def _remote_of(self, sender: str, epoch: int, sid: int) -> _Remote | None:
        """The session ``sid``'s remote state, if ``sender`` at ``epoch`` may speak for it."""
        remote = self._remotes.get(sid)
        if remote is None:
            return None
        pending = remote.pending
        if remote.nodes.get(sender) == epoch or (pending is not None and pending.node == sender):
            return remote
        return None

    def output(self, sender: str, epoch: int, sid: int, data: str, count: int) -> None:
        """What ``sender`` queued for session ``sid``: queued on its connection and sent."""
        conn = self.connections.get(sid)
        if conn is not None and self._remote_of(sender, epoch, sid) is not None:
            conn.enqueue(data.encode(), count)
            conn.flush()

    def done(
        self, sender: str, epoch: int, sid: int, number: int, close: bool, follows: bool
    ) -> None:
        """``sender`` answered the session's forwarded request ``number``."""
        remote = self._remote_of(sender, epoch, sid)
        pending = None if remote is None else remote.pending
        if pending is not None and pending.node == sender and pending.number == number:
            pending.close, pending.follows = close, follows
            if follows and remote is not None:  # the epoch holding the proxy, from now on
                remote.nodes[sender] = epoch
            pending.settle("done")

    def moved(self, sender: str, epoch: int, sid: int, number: int, owner: str | None) -> None:
        """``sender`` does not hold the game of the forwarded request ``number``."""
        remote = self._remote_of(sender, epoch, sid)
        pending = None if remote is None else remote.pending
        if pending is not None and pending.node == sender and pending.number == number:
            pending.owner = owner
            pending.settle("moved")

    def closed(self, sender: str, epoch: int, sid: int, why: str) -> None:
        """``sender`` let go of the session's proxy (it gave up a game the session follows):
        the connection closes, and its client resumes through any daemon."""
        remote = self._remote_of(sender, epoch, sid)
        if remote is not None:
            remote.nodes.pop(sender, None)
            self._close(sid, why)

    def listed(self, sender: str, ask: int, games: list[JSONObject]) -> None:
        """``sender``'s games, for the ``games`` waiting as ``ask``."""
        gathering = self._gatherings.get(ask)
        if gathering is not None and sender in gathering.waiting:
            gathering.waiting.discard(sender)
            gathering.games += games
            if not gathering.waiting:
                gathering.event.set()

    # -- what happens to the other daemons --------------------------------------------------

    def node_gone(self, node: str) -> None:
        """``node`` is no longer live (or registered anew): the sessions it held games for are
        closed, its forwarded requests fail, and its games are looked for again."""
        for game_id in [g for g, owner in self._owners.items() if owner == node]:
            del self._owners[game_id]
        for sid, remote in list(self._remotes.items()):
            if remote.pending is not None and remote.pending.node == node:
                remote.pending.settle("lost")
            if remote.nodes.pop(node, None) is not None:
                self._close(sid, OWNER_GONE)

    def unreachable(self, node: str) -> None:
        """Nobody listened on ``node``'s channel: what was posted to it is lost."""
        for sid, remote in list(self._remotes.items()):
            if remote.pending is not None and remote.pending.node == node:
                remote.pending.settle("unreachable")
            elif remote.nodes.pop(node, None) is not None:
                self._close(sid, OWNER_GONE)

    def bus_lost(self) -> None:
        """The bus was lost: every session with a game elsewhere is closed (what it was sent
        meanwhile is lost), every forwarded request fails."""
        self._owners.clear()
        for gathering in self._gatherings.values():
            gathering.event.set()
        for sid, remote in list(self._remotes.items()):
            if remote.pending is not None:
                remote.pending.settle("lost")
            if remote.nodes:
                remote.nodes.clear()
                self._close(sid, BUS_LOST)

    def _close(self, sid: int, why: str) -> None:
        conn = self.connections.get(sid)
        if conn is not None and not isinstance(conn, RemoteConnection):
            log.info("connection %d closing: %s", sid, why)
            conn.closed_because = why
            conn.cancel_scope.cancel()


def _fail(conn: Connection, request: Request, code: ErrorCode, message: str) -> None:
    conn.enqueue(fmt.failure(request.id, conn.session.mode, code, message))


def _game_order(summary: JSONObject) -> tuple[int, str]:
    """Games in the order of their numbers (``g10`` after ``g9``)."""
    game = str(summary.get("game", ""))
    number = game[1:]
    return (int(number) if number.isdigit() else 0, game)
