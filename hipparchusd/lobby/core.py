"""The daemon's command handling, pure and synchronous: games, seats, tokens, followers and the
routing of events (PROTOCOL.md sections 4, 5 and 7).

:class:`Lobby` knows no sockets, no trio and no store. Each call returns a :class:`Result`:
the response to the request, the store commands that must complete before anything is sent
(:data:`~hipparchusd.records.StoreCommand`), and the events to send to whom
(:class:`Delivery`). The server performs the store commands, then sends the response, then
the events, in that order.

A request that must be stored (``new``, ``join``, ``play``, ``resign``) is carried out in two
steps, so that a change the store refuses is never made (a refused command changes nothing):
:meth:`Lobby.prepare` checks it and works out its store calls and outcome without changing the
lobby or the game (a move is played on a :meth:`~hipparchusd.games.base.Game.fork`), and
:meth:`Result.commit` makes the change once the first store call (the one that records it) has
succeeded. The server holds back any other request on the same game in between.

Hidden information (RULINGS H13) is decided by the games: an engine event for one seat goes to
the connection holding that seat and to nobody else; every view comes from ``Game.view`` for
the asking seat (a spectator gets the seatless view). Tokens are kept only as SHA-256 digests.

The :class:`Lobby` is made of parts, one module each, over the state they share
(:class:`~.base.LobbyBase`): this module has the connections, the dispatch of requests and the
GTP-style commands; :mod:`.seating` the seat and spectator commands; :mod:`.playing` the
commands on games; :mod:`.housekeeping` restoring, adjourning and dropping games.
"""

from __future__ import annotations

import collections
import logging
import time
from collections.abc import Callable, Mapping, Sequence

from .. import __version__
from ..addresses import NOBODY, AddressSet
from ..games.base import GameKind
from ..games.registry import KINDS
from ..protocol import ErrorCode, Mode, ProtocolError, Request, shown
from ..protocol import formatting as fmt
from ..settings import Settings
from .commands import COMMANDS
from .engine import Engine
from .housekeeping import Housekeeping
from .messages import PROTOCOL_VERSION, SERVER_NAME, EventMessage, Hello, Response, Shutdown
from .results import Delivery, Result
from .tables import Session, Table, token_digest

log = logging.getLogger("hipparchusd.lobby")


class Lobby(Housekeeping, Engine):
    """Every game and connection of one server, and the handling of their commands.

    Args:
        max_games: games not yet finished that may exist at once (``new`` answers ``limit``).
        kinds: the game kinds served, by name.
        finished_kept: finished games kept for ``record`` and ``state`` (oldest dropped first);
            defaults to ``max_games``.
        clock: wall-clock seconds, for the games' creation times.
        adjourned_kept: ids of adjourned games remembered for the ``unknown-game`` message
            that names them adjourned (oldest forgotten first; a forgotten one gets the plain
            message, and its seats' ``resume`` still brings it back).
        snapshots: whether results carry the games' records for the store (a new round's deal
            with the move that makes it, the finished match); the server passes its store's
            ``durable``, so that a store that keeps nothing is not handed records to drop.
        max_search_ms: the longest search ``bot``, ``genmove`` and ``analyze`` may ask for
            (milliseconds; beyond it they answer ``limit``).
        max_search_playouts: the most playouts they may ask for.
        max_games_per_connection: games still waiting for players that one connection may
            hold at once, counting those it created and those it has joined or watches
            (``new``, ``join`` and ``watch`` beyond answer ``limit``), so that one client
            cannot take every place under ``max_games`` by following games nobody else joins.
        max_games_per_address: the same, over every connection from one peer address.
        trusted: peer addresses exempt from ``max_games_per_address`` (none unless given).
    """

    def __init__(
        self,
        *,
        max_games: int = 1000,
        kinds: Mapping[str, GameKind] = KINDS,
        finished_kept: int | None = None,
        clock: Callable[[], float] = time.time,
        adjourned_kept: int = 10_000,
        snapshots: bool = True,
        max_games_per_connection: int = 10,
        max_games_per_address: int = 50,
        trusted: AddressSet = NOBODY,
        max_search_ms: int = 10_000,
        max_search_playouts: int = 200_000,
    ) -> None:
        self.max_games = max_games
        self.max_games_per_connection = max_games_per_connection
        self.max_games_per_address = max_games_per_address
        self.trusted = trusted
        self.by_address: dict[str, dict[Session, None]] = {}
        self.max_search_ms = max_search_ms
        self.max_search_playouts = max_search_playouts
        self.snapshots = snapshots
        self.kinds = kinds
        self.finished_kept = max_games if finished_kept is None else finished_kept
        self.clock = clock
        self.tables: dict[str, Table] = {}
        self.sessions: dict[int, Session] = {}
        self.shutting_down = False
        self._next_game = 1
        self._next_session = 1
        self._tokens: dict[bytes, tuple[Table, int]] = {}
        self._finished: collections.deque[str] = collections.deque()
        # Insertion-ordered, so the oldest is forgotten first; ids only (a few dozen bytes).
        self._adjourned: dict[str, None] = {}
        self.adjourned_kept = adjourned_kept
        self._handlers: dict[str, Callable[[Session, Request, list[str], dict[str, str]], Result]]
        self._handlers = {name: getattr(self, f"_cmd_{name}") for name in COMMANDS}

    @classmethod
    def for_settings(cls, settings: Settings, *, snapshots: bool = True) -> Lobby:
        """A lobby with the limits of the daemon's ``settings``."""
        lobby = cls(snapshots=snapshots)
        lobby.configure(settings)
        return lobby

    def configure(self, settings: Settings) -> None:
        """Take the lobby's limits from ``settings`` (at start and on a reload): the games
        limits, the trusted addresses and the engine's budget limits. Lowering a limit below
        what is held refuses new games until the count is under it; nothing held is given up."""
        self.max_games = settings.max_games
        self.max_games_per_connection = settings.max_games_per_connection
        self.max_games_per_address = settings.max_games_per_address
        self.trusted = settings.trusted
        self.max_search_ms = settings.max_search_ms
        self.max_search_playouts = settings.max_search_playouts

    # Connections.

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

    def disconnect(self, session: Session) -> Result:
        """The connection is gone: it leaves every game it follows (``left`` before a game
        starts, ``disconnected`` after; seats stay reserved for their tokens)."""
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

    # Requests.

    #: Commands whose first argument names the game they act on.
    GAME_COMMANDS = frozenset(
        ("join", "leave", "watch", "unwatch", "state", "legal", "play", "resign", "record", "bot")
    )

    def games_of(self, session: Session, request: Request) -> tuple[str, ...]:
        """The existing games ``request`` from ``session`` may act on, known before it is
        prepared: the server prepares it only once the earlier requests on those games are
        done, so that it is checked against their outcome (e.g. a move against the position
        the previous move, still being stored, leads to)."""
        command = request.command
        if command in self.GAME_COMMANDS:
            if request.args and request.args[0] in self.tables:
                return (request.args[0],)
        elif command == "resume" and len(request.args) == 1:
            entry = self._tokens.get(token_digest(request.args[0]))
            if entry is not None:
                return (entry[0].id,)
        return ()

    def session_games(self, session: Session) -> tuple[str, ...]:
        """The games ``session`` holds a seat in or watches (which :meth:`disconnect` acts on)."""
        return (*session.seats, *session.watching)

    def handle(self, session: Session, request: Request) -> Result:
        """Carry out ``request`` from ``session`` at once: :meth:`prepare`, then
        :meth:`Result.commit` (for callers with no store to wait for)."""
        result = self.prepare(session, request)
        result.commit()
        return result

    def prepare(self, session: Session, request: Request) -> Result:
        """Check ``request`` from ``session`` and work out its result. A refused request
        changes nothing and its result holds only the failure response. A request that must be
        stored first comes back with its change pending (:meth:`Result.commit`); until then
        neither the lobby nor the game has changed."""
        try:
            spec = COMMANDS.get(request.command)
            if spec is None:
                raise ProtocolError(
                    ErrorCode.UNKNOWN_COMMAND, f"unknown command {shown(request.command)}"
                )
            if spec.options:
                args, options = self._split_options(request.args)
            else:
                # Every word is an argument (most requests, ``legal`` and ``play`` among them):
                # no call to split them.
                args, options = list(request.args), {}
            if not spec.min_args <= len(args) <= spec.max_args:
                few = "few" if len(args) < spec.min_args else "many"
                raise ProtocolError(ErrorCode.SYNTAX, f"too {few} arguments; usage: {spec.usage}")
            result = self._handlers[request.command](session, request, args, options)
        except ProtocolError as error:
            error.request_id = request.id
            # A game's message may describe the player's hand: logs get only its code.
            why = "(the game's reason, not logged)" if error.private else error.message
            log.debug("session %d: %s %s: %s", session.id, request.command, error.code, why)
            return Result(Response.failed(error))
        return result

    @staticmethod
    def _split_options(words: Sequence[str]) -> tuple[list[str], dict[str, str]]:
        """The arguments and the ``key=value`` options among ``words``, for a command that
        takes options.

        Raises:
            ProtocolError: ``syntax`` for a word with no key, ``bad-option`` for an option with
                no value or given twice.
        """
        args: list[str] = []
        options: dict[str, str] = {}
        for word in words:
            key, equals, value = word.partition("=")
            if equals:
                if not key:
                    raise ProtocolError(ErrorCode.SYNTAX, f"{shown(word)} is not key=value")
                if not value:
                    # PROTOCOL.md's error table: an option without a value is a bad
                    # option, as the games' own check says (GameKind.check_options).
                    raise ProtocolError(ErrorCode.BAD_OPTION, f"option {shown(key)} has no value")
                if key in options:
                    raise ProtocolError(ErrorCode.BAD_OPTION, f"option {shown(key)} given twice")
                options[key] = value
            else:
                args.append(word)
        return args, options

    # GTP-style commands.

    def _cmd_protocol_version(
        self, session: Session, request: Request, args: list[str], options: dict[str, str]
    ) -> Result:
        return self._ok(request, {"protocol_version": PROTOCOL_VERSION}, [str(PROTOCOL_VERSION)])

    def _cmd_name(
        self, session: Session, request: Request, args: list[str], options: dict[str, str]
    ) -> Result:
        return self._ok(request, {"name": SERVER_NAME}, [SERVER_NAME])

    def _cmd_version(
        self, session: Session, request: Request, args: list[str], options: dict[str, str]
    ) -> Result:
        return self._ok(request, {"version": __version__}, [__version__])

    def _cmd_list_commands(
        self, session: Session, request: Request, args: list[str], options: dict[str, str]
    ) -> Result:
        return self._ok(request, {"commands": list(COMMANDS)}, COMMANDS)

    def _cmd_known_command(
        self, session: Session, request: Request, args: list[str], options: dict[str, str]
    ) -> Result:
        known = args[0] in COMMANDS
        return self._ok(request, {"known": known}, [fmt.scalar_text(known)])

    def _cmd_help(
        self, session: Session, request: Request, args: list[str], options: dict[str, str]
    ) -> Result:
        names = list(COMMANDS)
        if args:
            if args[0] not in COMMANDS:
                raise ProtocolError(ErrorCode.UNKNOWN_COMMAND, f"unknown command {shown(args[0])}")
            names = [args[0]]
        usage = {n: f"{COMMANDS[n].usage}  -- {COMMANDS[n].summary}" for n in names}
        if names != ["new"]:
            return self._ok(request, {"help": usage}, usage.values())
        # ``help new``: the options of every kind served, from the kinds themselves, so that a
        # game added to the registry documents its own options here.
        lines = list(usage.values())
        kind_options: dict[str, list[dict[str, str | None]]] = {}
        for kind in self.kinds.values():
            lines += [f"{kind.name}: {line}" for line in kind.option_usage()]
            kind_options[kind.name] = [
                {
                    "key": option.key,
                    "values": option.values,
                    "summary": option.summary,
                    "default": option.default or None,
                }
                for option in kind.options
            ]
        return self._ok(request, {"help": usage, "options": kind_options}, lines)

    def _cmd_quit(
        self, session: Session, request: Request, args: list[str], options: dict[str, str]
    ) -> Result:
        result = self._ok(request, {})
        result.close = True
        return result

    def _cmd_format(
        self, session: Session, request: Request, args: list[str], options: dict[str, str]
    ) -> Result:
        if args:
            if args[0] not in ("text", "json"):
                raise ProtocolError(ErrorCode.SYNTAX, "format is text or json")
            session.mode = Mode(args[0])
        return self._ok(request, {"format": str(session.mode)}, [str(session.mode)])

    def _cmd_kinds(
        self, session: Session, request: Request, args: list[str], options: dict[str, str]
    ) -> Result:
        # The kind's name stays the first word of its line and ``kinds`` stays the list of
        # names in JSON, so that clients written when this answered names only still work.
        kinds = self.kinds.values()
        about = {kind.name: {"seats": kind.seats, "summary": kind.summary} for kind in kinds}
        lines = [f"{kind.name} seats={kind.seats}  -- {kind.summary}" for kind in kinds]
        return self._ok(request, {"kinds": list(self.kinds), "about": about}, lines)
