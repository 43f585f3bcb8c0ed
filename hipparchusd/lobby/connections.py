"""The connections the lobby knows (PROTOCOL.md section 7): registering one, its greeting, its
going away (it leaves every game it follows), the shutdown notice to all, and whether one is
idle. A part of the :class:`~.core.Lobby`."""

from __future__ import annotations

from .. import __version__
from .messages import PROTOCOL_VERSION, SERVER_NAME, EventMessage, Hello, Shutdown
from .results import Delivery, Result
from .seating import Seating
from .tables import Session


class Connections(Seating):
    """The lobby's connections: a part of :class:`~.core.Lobby` (over the seating part, whose
    seats a connection that goes away releases)."""

    def connect(self, peer: str = "") -> Session:
        """Register a new connection (``peer`` is for logs)."""
        session = Session(self._next_session, peer)
        self._next_session += 1
        self.sessions[session.id] = session
        self.by_address.setdefault(session.address, {})[session] = None
        return session

    @staticmethod
    def greeting() -> EventMessage:
        """The ``* server hello ...`` event sent on connect."""
        return EventMessage.of(None, 0, Hello(SERVER_NAME, __version__, PROTOCOL_VERSION))

    def disconnect(self, session: Session, now: float = 0.0) -> Result:
        """The connection is gone, at ``now`` (the server's monotonic seconds): it leaves every
        game it follows (``left`` before a game starts, ``disconnected`` after; seats stay
        reserved for their tokens, and are away from ``now``: RULINGS T4)."""
        self.now = now
        result = Result()
        games: list[str] = []
        for game_id in list(session.seats):
            table = self.tables.get(game_id)
            if table is not None:
                self._release_seat(table, session, result)
                games.append(game_id)
        for game_id in list(session.watching):
            table = self.tables.get(game_id)
            if table is not None:
                table.spectators.pop(session, None)
                table.unattended_since = None
        session.seats.clear()
        session.watching.clear()
        session.created.clear()
        self.sessions.pop(session.id, None)
        same = self.by_address.get(session.address)
        if same is not None:
            same.pop(session, None)
            if not same:
                del self.by_address[session.address]
        result.games = tuple(games)
        return result

    def begin_shutdown(self, grace: float) -> Result:
        """Refuse new games and moves from now on; the ``* server shutdown`` event for every
        connection."""
        self.shutting_down = True
        grace_value: float | int = int(grace) if float(grace).is_integer() else grace
        message = EventMessage.of(None, 0, Shutdown(grace_value))
        return Result(deliveries=[Delivery(tuple(self.sessions.values()), message)])

    def is_idle(self, session: Session) -> bool:
        """True when the connection follows no game in progress (no seat, no spectating), so
        that the idle timeout applies to it (PROTOCOL.md section 7)."""
        for game_id in (*session.seats, *session.watching):
            table = self.tables.get(game_id)
            if table is not None and not table.finished:
                return False
        return True

    def session_games(self, session: Session) -> tuple[str, ...]:
        """The games ``session`` holds a seat in or watches (which :meth:`disconnect` acts on)."""
        return (*session.seats, *session.watching)
