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
(:class:`~.base.LobbyBase`): :mod:`.connections` the connections; :mod:`.seating` the seat
and spectator commands; :mod:`.playing` the commands on games; :mod:`.engine` the engine's;
:mod:`.housekeeping` restoring, adjourning and dropping games; :mod:`.operator` what the
server's operator asks through the admin channel. This module assembles them and
has the requests: the command table (:data:`COMMANDS`, one :class:`Command` per command, which
binds its grammar, summary, handler and the game it acts on), their dispatch, and the
commands about the server itself.
"""

from __future__ import annotations

import collections
import enum
import logging
import time
from collections.abc import Callable, Mapping
from typing import TypeAlias

import attrs

from .. import __version__
from ..addresses import NOBODY, AddressSet
from ..games.base import GameKind
from ..games.registry import KINDS
from ..jsondata import JSON
from ..protocol import ErrorCode, Mode, ProtocolError, Request, shown
from ..protocol import formatting as fmt
from ..protocol.arguments import Syntax
from ..settings import Settings
from .connections import Connections
from .engine import Engine
from .housekeeping import Housekeeping
from .messages import PROTOCOL_VERSION, SERVER_NAME, Response
from .operator import Operator
from .results import Result
from .tables import Session, token_digest
from .timing import time_options

log = logging.getLogger("hipparchusd.lobby")


class Target(enum.Enum):
    """The game a command acts on, known from its words before it is prepared
    (:meth:`Lobby.games_of`): the server prepares it only once the earlier requests on that
    game are done, so that it is checked against their outcome."""

    #: None that it waits for: it names no game, or waits for none (see ``genmove``).
    NOTHING = "nothing"
    #: The game its first argument names.
    GAME = "game"
    #: The game holding the seat whose token is its first argument (``resume``).
    TOKEN = "token"


# Looked up once: games_of asks for every request, and an enum member's lookup through its
# class costs more than the test itself (Python 3.11 does not specialise it).
_GAME, _TOKEN = Target.GAME, Target.TOKEN

#: What carries out a command: ``(lobby, session, request, arguments, options)``, the words
#: split by the command's :class:`~hipparchusd.protocol.arguments.Syntax`. It returns the
#: result, or raises :class:`~hipparchusd.protocol.ProtocolError` to refuse the request
#: (having changed nothing).
Handler: TypeAlias = Callable[["Lobby", Session, Request, list[str], dict[str, str]], Result]


@attrs.frozen
class Command:
    """One command of the protocol (PROTOCOL.md section 5): its ``syntax`` (the usage line,
    which gives its name and argument counts), its ``summary`` for ``help``, its ``handler``
    and the game it acts on (:class:`Target`). Make one with :meth:`of`."""

    syntax: Syntax
    summary: str
    handler: Handler
    target: Target = Target.NOTHING
    #: The game the command names (:meth:`Lobby.named_game`), where a server shared with
    #: other daemons looks for it (issue 28): its ``target``, unless it names a game it does
    #: not wait for (``genmove``, ``analyze``).
    names: Target = Target.NOTHING

    @classmethod
    def of(
        cls,
        usage: str,
        summary: str,
        handler: Handler,
        target: Target = Target.NOTHING,
        names: Target | None = None,
        hint: str = "",
    ) -> Command:
        """The command whose grammar its ``usage`` line writes (:meth:`Syntax.of`, with
        ``hint`` for a request with too many arguments), acting on ``target`` and naming
        ``names`` (by default ``target``).

        Raises:
            ValueError: ``usage`` does not follow the grammar.
        """
        syntax = Syntax.of(usage, hint)
        return cls(syntax, summary, handler, target, target if names is None else names)

    @property
    def name(self) -> str:
        """The command word."""
        return self.syntax.name

    @property
    def usage(self) -> str:
        """The usage line, e.g. ``state <game>``."""
        return self.syntax.usage


class Lobby(Connections, Housekeeping, Engine, Operator):
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
        max_engine_games_per_connection: games only the engine plays (every seat a ``bot``)
            that the connection which created them may have started and not finished; the
            ``bot`` that would start one more answers ``limit``.
        max_engine_games_per_address: the same, over the connections of one peer address
            (``trusted`` ones exempt).
        max_games_per_connection: games still waiting for players that one connection may
            hold at once, counting those it created and those it has joined or watches
            (``new``, ``join`` and ``watch`` beyond answer ``limit``), so that one client
            cannot take every place under ``max_games`` by following games nobody else joins.
        max_games_per_address: the same, over every connection from one peer address.
        trusted: peer addresses exempt from ``max_games_per_address`` (none unless given).
        commands: the commands served, by name, in the order ``help`` lists them
            (:data:`COMMANDS` unless given).
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
        max_engine_games_per_connection: int = 4,
        max_engine_games_per_address: int = 8,
        commands: Mapping[str, Command] | None = None,
    ) -> None:
        self.max_games = max_games
        self.max_games_per_connection = max_games_per_connection
        self.max_games_per_address = max_games_per_address
        self.trusted = trusted
        self.by_address = {}
        self.max_search_ms = max_search_ms
        self.max_search_playouts = max_search_playouts
        self.max_engine_games_per_connection = max_engine_games_per_connection
        self.max_engine_games_per_address = max_engine_games_per_address
        self.snapshots = snapshots
        self.kinds = kinds
        self.finished_kept = max_games if finished_kept is None else finished_kept
        self.clock = clock
        self.tables = {}
        self.sessions = {}
        self.shutting_down = False
        self.maintenance = None
        self._next_game = 1
        self._next_session = 1
        self._tokens = {}
        self._finished = collections.deque()
        # Insertion-ordered, so the oldest is forgotten first; ids only (a few dozen bytes).
        self._adjourned = {}
        self._numbers = None
        self.adjourned_kept = adjourned_kept
        self.commands = COMMANDS if commands is None else commands
        self.now = 0.0

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
        self.max_engine_games_per_connection = settings.max_engine_games_per_connection
        self.max_engine_games_per_address = settings.max_engine_games_per_address

    # Requests.

    def games_of(self, session: Session, request: Request) -> tuple[str, ...]:
        """The existing games ``request`` from ``session`` may act on, known before it is
        prepared (its command's :class:`Target`): the server prepares it only once the earlier
        requests on those games are done, so that it is checked against their outcome (e.g. a
        move against the position the previous move, still being stored, leads to)."""
        command = self.commands.get(request.command)
        if command is not None:
            target = command.target
            args = request.args
            if target is _GAME:
                if args and args[0] in self.tables:
                    return (args[0],)
            elif target is _TOKEN and len(args) == 1:
                entry = self._tokens.get(token_digest(args[0]))
                if entry is not None:
                    return (entry[0].id,)
        return ()

    def named_game(self, request: Request) -> tuple[str | None, bytes | None]:
        """The game ``request`` names, loaded here or not: its id, or the digest of the token
        that names it (``resume``), or neither (a command about no game). A server that shares
        its store with other daemons asks, to find the daemon that holds it (issue 28)."""
        command = self.commands.get(request.command)
        if command is not None and request.args:
            names = command.names
            if names is _GAME:
                return request.args[0], None
            if names is _TOKEN and len(request.args) == 1:
                return None, token_digest(request.args[0])
        return None, None

    def game_of_token(self, digest: bytes) -> str | None:
        """The id of the loaded game with a seat whose token digest is ``digest``, if any."""
        found = self._tokens.get(digest)
        return None if found is None else found[0].id

    def handle(self, session: Session, request: Request, now: float = 0.0) -> Result:
        """Carry out ``request`` from ``session`` at once: :meth:`prepare`, then
        :meth:`Result.commit` (for callers with no store to wait for)."""
        result = self.prepare(session, request, now)
        result.commit()
        return result

    def prepare(self, session: Session, request: Request, now: float = 0.0) -> Result:
        """Check ``request`` from ``session``, which came at ``now`` (the server's monotonic
        seconds, which the games' clocks read: RULINGS T1), and work out its result. A refused
        request changes nothing and its result holds only the failure response. A request
        that must be stored first comes back with its change pending (:meth:`Result.commit`);
        until then neither the lobby nor the game has changed."""
        self.now = now
        try:
            command = self.commands.get(request.command)
            if command is None:
                raise ProtocolError(
                    ErrorCode.UNKNOWN_COMMAND, f"unknown command {shown(request.command)}"
                )
            args, options = command.syntax.split(request.args)
            result = command.handler(self, session, request, args, options)
        except ProtocolError as error:
            error.request_id = request.id
            # A game's message may describe the player's hand: logs get only its code.
            why = "(the game's reason, not logged)" if error.private else error.message
            log.debug("session %d: %s %s: %s", session.id, request.command, error.code, why)
            return Result(Response.failed(error))
        return result

    # The commands about the server itself (GTP's).

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
        return self._ok(request, {"commands": list(self.commands)}, self.commands)

    def _cmd_known_command(
        self, session: Session, request: Request, args: list[str], options: dict[str, str]
    ) -> Result:
        known = args[0] in self.commands
        return self._ok(request, {"known": known}, [fmt.scalar_text(known)])

    def _cmd_help(
        self, session: Session, request: Request, args: list[str], options: dict[str, str]
    ) -> Result:
        commands = self.commands
        names = list(commands)
        if args:
            if args[0] not in commands:
                raise ProtocolError(ErrorCode.UNKNOWN_COMMAND, f"unknown command {shown(args[0])}")
            names = [args[0]]
        lines = [f"{commands[n].usage}  -- {commands[n].summary}" for n in names]
        usage: dict[str, JSON] = dict(zip(names, lines, strict=True))
        if names != ["new"]:
            return self._ok(request, {"help": usage}, lines)
        # ``help new``: the options of every kind served, from the kinds themselves, so that a
        # game added to the registry documents its own options here.
        kind_options: dict[str, JSON] = {}
        for kind in self.kinds.values():
            # Each kind's own, then the time options every kind takes (RULINGS T1-T5).
            options_of = [*kind.options, *time_options(kind)]
            lines += [f"{kind.name}: {option.usage}" for option in options_of]
            kind_options[kind.name] = [
                {
                    "key": option.key,
                    "values": option.values,
                    "summary": option.summary,
                    "default": option.default or None,
                }
                for option in options_of
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
        about: dict[str, JSON] = {
            kind.name: {
                "seats": kind.seats,
                "summary": kind.summary,
                "levels": list(self.levels_for(kind)),
            }
            for kind in kinds
        }
        lines = [
            f"{kind.name} seats={kind.seats} levels={','.join(self.levels_for(kind)) or '-'}"
            f"  -- {kind.summary}"
            for kind in kinds
        ]
        return self._ok(request, {"kinds": list(self.kinds), "about": about}, lines)


def _table(*commands: Command) -> Mapping[str, Command]:
    """``commands`` by name, in the order given (``list_commands`` and ``help`` keep it).

    Raises:
        ValueError: two commands of the same name.
    """
    table = {command.name: command for command in commands}
    if len(table) != len(commands):
        raise ValueError("two commands of the same name")
    return table


#: The commands of protocol 1, in the order ``list_commands`` and ``help`` give them
#: (PROTOCOL.md sections 5 and 9). A new command is one entry here, with its handler.
COMMANDS: Mapping[str, Command] = _table(
    Command.of("protocol_version", "the protocol version (1)", Lobby._cmd_protocol_version),
    Command.of("name", "the server's name", Lobby._cmd_name),
    Command.of("version", "the server's version", Lobby._cmd_version),
    Command.of("list_commands", "every command, one per line", Lobby._cmd_list_commands),
    Command.of("known_command <command>", "true if the command exists", Lobby._cmd_known_command),
    Command.of("help [<command>]", "usage of every command, or of one", Lobby._cmd_help),
    Command.of("quit", "close the connection", Lobby._cmd_quit),
    Command.of("format [text|json]", "switch the output format", Lobby._cmd_format),
    Command.of("kinds", "the game kinds served, with their seats and summary", Lobby._cmd_kinds),
    Command.of(
        "new <kind> [key=value ...]",
        "create a game; 'help new' lists each kind's options",
        Lobby._cmd_new,
    ),
    Command.of("games", "the games not finished, one per line", Lobby._cmd_games),
    Command.of(
        "join <game> [<seat>] [name=<name>]",
        "take a seat; answers its secret token",
        Lobby._cmd_join,
        _GAME,
    ),
    Command.of("resume <token>", "take back a seat with its token", Lobby._cmd_resume, _TOKEN),
    Command.of("leave <game>", "stop following a game", Lobby._cmd_leave, _GAME),
    Command.of("watch <game>", "follow a game as a spectator", Lobby._cmd_watch, _GAME),
    Command.of("unwatch <game>", "stop watching a game", Lobby._cmd_unwatch, _GAME),
    Command.of("state <game>", "your view of a game", Lobby._cmd_state, _GAME),
    Command.of("legal <game>", "your legal moves now", Lobby._cmd_legal, _GAME),
    Command.of(
        "play <game> <move>",
        "make a move: one word in the game's notation",
        Lobby._cmd_play,
        _GAME,
        # What `legal` answers for a choice (`pick 3 E1 E5 ...`) is no move to paste.
        hint="a move is one word: a choice's items are joined by ',' (play g1 E1,E5,VS)",
    ),
    Command.of("resign <game>", "resign the game", Lobby._cmd_resign, _GAME),
    Command.of(
        "claim <game>",
        "win the game over a seat away for the whole absence grace (it resigns)",
        Lobby._cmd_claim,
        _GAME,
    ),
    Command.of(
        "time_left <game>",
        "each seat's clock in a timed game, in milliseconds",
        Lobby._cmd_time_left,
        _GAME,
    ),
    Command.of("record <game>", "every deal and move of a finished game", Lobby._cmd_record, _GAME),
    Command.of(
        "bot <game> [<seat>] [level=<level>] [name=<name>]",
        "seat the engine in a free seat (a level kinds lists, or ismcts:<budget>)",
        Lobby._cmd_bot,
        _GAME,
    ),
    # Neither waits for the game's earlier requests: genmove's search holds no game (its
    # answer is carried out in the game's order), analyze streams from the view it is
    # prepared with.
    Command.of(
        "genmove <game> [<budget>] [play=false]",
        "the engine's move for your seat, played unless play=false (budget 200ms or 5000)",
        Lobby._cmd_genmove,
        names=_GAME,
    ),
    Command.of(
        "analyze <game> [<budget>] [interval=<ms>] [seat=<n>]",
        "stream the engine's search for your seat as info events, until stop",
        Lobby._cmd_analyze,
        names=_GAME,
    ),
    Command.of("stop", "end your analysis (any request does)", Lobby._cmd_stop),
    Command.of(
        "end <game>",
        "end a game you created whose seats are all the engine's (no winner)",
        Lobby._cmd_end,
        _GAME,
    ),
)
