"""The owner's side of forwarding (issue 28): a session connected to another daemon (the
origin) that acts on a game this daemon owns is served here through a *proxy*, a lobby session
of this daemon whose connection is the bus (:class:`RemoteConnection`): its requests come from
the origin (:data:`~.wire.REQUEST`), are carried out by this daemon's pipeline like any
other's, in the game's order, and everything its connection would send (the response, the
events of the games it follows, the seat's own events) goes back to the origin as it is queued
(:data:`~.wire.OUTPUT`), followed by :data:`~.wire.DONE` for each request. So the hidden
information rules hold unchanged: a proxy is sent exactly what its session would be sent here.

A proxy lives while its session follows a game here; the origin says when the session closes
(:data:`~.wire.GONE`), and a proxy of an origin that is gone (its lease over, its epoch moved
on, the bus lost) leaves too: its seats are ``disconnected``, reserved for their tokens.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Final

import trio

from ...jsondata import JSON
from ...lobby import Lobby, Session
from ...protocol import LineError, Mode
from ..connection import Connection
from ..pipeline import Pipeline
from . import wire

log = logging.getLogger("hipparchusd.cluster")

#: A proxy's key: the origin node, its epoch, and the session's id there.
ProxyKey = tuple[str, int, int]

#: Reasons the owner closes a proxy, as the origin's log and the client's connection say.
GIVEN_UP: Final = "the daemon holding one of its games gave it up; resume the seat"
RESTARTED: Final = "the daemon holding one of its games restarted; resume the seat"


class RemoteConnection(Connection):
    """The connection of a proxy session: what is queued for it goes to its origin over the
    bus at each flush (:data:`~.wire.OUTPUT`) instead of to a socket. It never overflows: the
    bus bounds what waits for a node (:data:`~.bus.MAX_OUTBOX`), and the origin's own
    connection bounds what waits for its client."""

    transport = "bus"

    def __init__(
        self,
        session: Session,
        dirty: list[Connection],
        key: ProxyKey,
        post: Callable[[str, JSON], bool],
    ) -> None:
        super().__init__(session, 1 << 30, dirty)
        self.key = key
        self._post = post
        #: The node holding the game the last request named, when it is not this one (the
        #: origin is told instead of getting an answer: :data:`~.wire.MOVED`).
        self.moved: str | None = None
        self.moved_asked = False

    async def receive_requests(self) -> Iterable[str | LineError] | None:
        """Never called: a proxy's requests come from the bus.

        Raises:
            TypeError: always (a proxy has no socket to read).
        """
        raise TypeError("a proxy session's requests come from the bus, not from a socket")

    async def send(self, data: bytes) -> None:
        """Never called: :meth:`flush` posts instead.

        Raises:
            TypeError: always (a proxy has no socket to write).
        """
        raise TypeError("a proxy session's output is posted to its origin, not sent")

    def flush(self) -> None:
        """Post what was queued since the last flush to the origin."""
        if not self._pending:
            return
        data = b"".join(self._pending)
        count = self._pending_count
        self._pending.clear()
        self._pending_count = 0
        self._waiting = 0
        origin, _, sid = self.key
        self._post(origin, [wire.OUTPUT, sid, data.decode(), count])


class Proxies:
    """The proxies of this daemon (see the module).

    Args:
        lobby: where proxy sessions are made.
        pipeline: what carries out their requests (in the games' order).
        connections: the server's open connections by session id (a proxy's is there, so
            that events reach it).
        post: queue an item for a node on the bus (False: the bus is down).
    """

    def __init__(
        self,
        lobby: Lobby,
        pipeline: Pipeline,
        connections: dict[int, Connection],
        post: Callable[[str, JSON], bool],
    ) -> None:
        self.lobby = lobby
        self.pipeline = pipeline
        self.connections = connections
        self._post = post
        self.proxies: dict[ProxyKey, RemoteConnection] = {}
        #: Requests being carried out per proxy (a proxy that follows nothing is let go only
        #: once none is).
        self._busy: dict[ProxyKey, int] = {}

    def __len__(self) -> int:
        return len(self.proxies)

    def _proxy(self, key: ProxyKey, peer: str) -> RemoteConnection:
        conn = self.proxies.get(key)
        if conn is None:
            session = self.lobby.connect(peer)
            conn = RemoteConnection(session, self.pipeline.dirty, key, self._post)
            self.proxies[key] = conn
            self.connections[session.id] = conn
            log.info("proxy session %d for %s session %d (%s)", session.id, key[0], key[2], peer)
        return conn

    async def serve_request(
        self, key: ProxyKey, number: int, mode: str, peer: str, line: str
    ) -> None:
        """Carry out the origin's request ``line`` (its ``number``-th) for the session
        ``key``, then post :data:`~.wire.DONE` (or :data:`~.wire.MOVED` when the game it
        names is held elsewhere: the router set ``moved``)."""
        origin, _, sid = key
        conn = self._proxy(key, peer)
        conn.session.mode = Mode.JSON if mode == "json" else Mode.TEXT
        conn.moved, conn.moved_asked = None, False
        self._busy[key] = self._busy.get(key, 0) + 1
        try:
            close = await self.pipeline.answer(conn, line)
            self.pipeline.flush()
        finally:
            self._busy[key] -= 1
            if not self._busy[key]:
                del self._busy[key]
        follows = self.follows(conn.session)
        if conn.moved_asked:
            self._post(origin, [wire.MOVED, sid, number, conn.moved])
        else:
            self._post(origin, [wire.DONE, sid, number, close, follows])
        if not follows and key not in self._busy and self.proxies.get(key) is conn:
            await self._let_go(key)

    @staticmethod
    def follows(session: Session) -> bool:
        """Whether a proxy session follows a game here (holds a seat in one, or watches it)."""
        return bool(session.seats or session.watching)

    def set_mode(self, key: ProxyKey, mode: str) -> None:
        """The origin's session switched its output mode."""
        conn = self.proxies.get(key)
        if conn is not None:
            conn.session.mode = Mode.JSON if mode == "json" else Mode.TEXT

    async def stop_stream(self, key: ProxyKey) -> None:
        """The origin's session sent another request: its analysis here ends."""
        conn = self.proxies.get(key)
        engines = self.pipeline.engines
        if conn is not None and engines is not None:
            await engines.end_stream(conn.session.id)
            self.pipeline.flush()

    async def gone(self, key: ProxyKey) -> None:
        """The origin's session closed: its proxy leaves its games (``disconnected``)."""
        if key in self.proxies:
            await self._let_go(key)

    async def _let_go(self, key: ProxyKey) -> None:
        conn = self.proxies.pop(key, None)
        if conn is None:
            return
        try:
            with trio.CancelScope(shield=True):
                await self.pipeline.leave(conn.session)
                self.pipeline.flush()
        finally:
            self.connections.pop(conn.session.id, None)
            log.info("proxy session %d closed", conn.session.id)

    async def drop_origin(self, origin: str, epoch: int | None = None) -> None:
        """Let go of every proxy of ``origin`` (of another epoch than ``epoch``, if given): its
        sessions are gone with it."""
        for key in [k for k in self.proxies if k[0] == origin and k[1] != epoch]:
            await self._let_go(key)

    async def drop_all(self) -> None:
        """Let go of every proxy (the bus was lost: nothing they are sent would arrive)."""
        for key in list(self.proxies):
            await self._let_go(key)

    def following(self, game_ids: Iterable[str]) -> list[RemoteConnection]:
        """The proxies that follow any of ``game_ids``."""
        games = set(game_ids)
        return [
            conn
            for conn in self.proxies.values()
            if games.intersection(conn.session.seats) or games.intersection(conn.session.watching)
        ]

    async def close(self, conns: Iterable[RemoteConnection], why: str) -> None:
        """Tell the origins of ``conns`` to close their sessions (``why``), and let go of them."""
        for conn in list(conns):
            origin, _, sid = conn.key
            self._post(origin, [wire.CLOSE, sid, why])
            await self._let_go(conn.key)
