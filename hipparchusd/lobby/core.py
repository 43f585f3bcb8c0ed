"""The daemon's command handling, pure and synchronous: games, seats, tokens, followers and the
routing of events (PROTOCOL.md sections 4, 5 and 7).

:class:`Lobby` knows no sockets, no trio and no store. Each call returns a :class:`Result`:
the response to the request, the store calls that must complete before anything is sent
(:class:`StoreCall`), and the events to send to whom (:class:`Delivery`). The server performs
the store calls, then sends the response, then the events, in that order.

A request that must be stored (``new``, ``join``, ``play``, ``resign``) is carried out in two
steps, so that a change the store refuses is never made (a refused command changes nothing):
:meth:`Lobby.prepare` checks it and works out its store calls and outcome without changing the
lobby or the game (a move is played on a :meth:`~hipparchusd.games.base.Game.fork`), and
:meth:`Result.commit` makes the change once the first store call (the one that records it) has
succeeded. The server holds back any other request on the same game in between.

Hidden information (RULINGS H13) is decided by the games: an engine event for one seat goes to
the connection holding that seat and to nobody else; every view comes from ``Game.view`` for
the asking seat (a spectator gets the seatless view). Tokens are kept only as SHA-256 digests.
"""

from __future__ import annotations

import collections
import hmac
import logging
import re
import secrets
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .. import __version__
from ..games.base import Event, Game, GameError, Outcome
from ..kinds import KINDS, BadOption, GameKind
from ..protocol import ErrorCode, Mode, ProtocolError, Request
from ..protocol import formatting as fmt
from ..serialization import converter
from ..store.base import StoredGame, StoredSeat
from .commands import COMMANDS, CommandSpec
from .messages import (
    PROTOCOL_VERSION,
    SERVER_NAME,
    Disconnected,
    EventMessage,
    Hello,
    Joined,
    Left,
    Response,
    Resumed,
    Shutdown,
)
from .results import Delivery, Result, StoreCall
from .tables import Session, Table, token_digest

log = logging.getLogger("hipparchusd.lobby")

_NAME = re.compile(r"[A-Za-z0-9_.\-]{1,32}")


def _error_code(error: GameError) -> ErrorCode:
    try:
        return ErrorCode(error.code)
    except ValueError:
        return ErrorCode.ILLEGAL_MOVE


class Lobby:
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
    ) -> None:
        self.max_games = max_games
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

    # Connections.

    def connect(self, peer: str = "") -> Session:
        """Register a new connection (``peer`` is for logs)."""
        session = Session(self._next_session, peer)
        self._next_session += 1
        self.sessions[session.id] = session
        return session

    def restore(self, stored: StoredGame) -> Table:
        """Bring back a game the store kept (e.g. after a restart): its seats, names and token
        digests, and its position (the snapshot, then the moves after it). Its seats have no
        connection until their tokens ``resume`` them; ``seq`` starts again from 0, so clients
        take the resume snapshot as their new starting point. Later ids follow it.

        Raises:
            ValueError: an unknown kind, a game id already in use, or a snapshot or move the
                game refuses (nothing is changed).
        """
        kind = self.kinds.get(stored.kind)
        if kind is None:
            raise ValueError(f"game {stored.game_id}: unknown kind {stored.kind!r}")
        if stored.game_id in self.tables:
            raise ValueError(f"game {stored.game_id} is already loaded")
        try:
            if stored.snapshot is None:
                game = kind.create(stored.options)
            else:
                game = kind.restore(stored.options, stored.snapshot)
            for mover, text in stored.moves:
                game.play(mover, game.parse_move(mover, text))
        except (BadOption, GameError) as error:
            raise ValueError(f"game {stored.game_id}: {error}") from None
        seats = game.seat_count
        table = Table(
            stored.game_id, kind, game, dict(stored.options), stored.created_at,
            [None] * seats, [None] * seats, [None] * seats,
        )  # fmt: skip
        for taken in stored.seats:
            if not 0 <= taken.seat < seats:
                raise ValueError(f"game {stored.game_id}: no seat {taken.seat}")
            table.names[taken.seat] = taken.name
            table.token_hashes[taken.seat] = taken.token_hash
        table.started = stored.snapshot is not None
        if not table.started and all(name is not None for name in table.names):
            # Stopped between the last seat and the first snapshot: nothing was sent yet
            # (the server stores before it sends), so the game starts afresh.
            game.start()
            table.started = True
        table.finished = game.outcome is not None
        self.tables[table.id] = table
        self._adjourned.pop(table.id, None)
        for seat, digest in enumerate(table.token_hashes):
            if digest is not None:
                self._tokens[digest] = (table, seat)
        if table.finished:
            self._finished.append(table.id)
        number = stored.game_id[1:]
        if stored.game_id.startswith("g") and number.isdigit():
            self._next_game = max(self._next_game, int(number) + 1)
        log.info("game %s restored (%s, %s)", table.id, kind.name, table.status)
        return table

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
        self.sessions.pop(session.id, None)
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

    def drop_abandoned(self, now: float, timeout: float) -> Result:
        """Drop the games still waiting for players that nobody has followed (no connection
        holds a seat in one or watches it) for ``timeout`` seconds or more, so that games
        nobody joins do not use up ``max_games`` for good (PROTOCOL.md section 7). A dropped
        game's id becomes unknown; its result carries a ``drop_game`` store call per game.

        Called periodically by the server with ``now`` on a monotonic clock (seconds): a game
        is timed from the first call that finds it unfollowed (after a follower leaves, from
        the next call), so it may live up to one calling interval longer than ``timeout``.
        Started games are never dropped: their seats may come back with their tokens (they
        may be adjourned instead, :meth:`adjourn_unfollowed`, which times them).
        """
        result = Result()
        dropped: list[str] = []
        for table in list(self.tables.values()):
            if table.followers():
                table.unattended_since = None
            elif table.started:
                continue
            elif table.unattended_since is None:
                table.unattended_since = now
            elif now - table.unattended_since >= timeout:
                self._forget(table.id)
                dropped.append(table.id)
                result.store_calls.append(StoreCall("drop_game", (table.id,)))
                log.info(
                    "game %s dropped: still waiting for players and followed by nobody for %g s",
                    table.id,
                    timeout,
                )
        result.games = tuple(dropped)
        return result

    def adjourn_unfollowed(
        self, now: float, timeout: float, busy: Callable[[str], bool] = lambda game_id: False
    ) -> tuple[str, ...]:
        """Adjourn the started, unfinished games that nobody has followed (no connection holds
        a seat in one or watches it) for ``timeout`` seconds or more (:meth:`adjourn`), so
        that games whose players all went away do not use up ``max_games`` for good
        (PROTOCOL.md section 7). Returns their ids. No store call is needed: the store keeps
        such a game as it is, and :meth:`bring_back` loads it again when a seat resumes.

        Timed as :meth:`drop_abandoned` (``now`` on a monotonic clock, from the first call
        that finds the game unfollowed). A game for which ``busy`` is true (a request on it is
        still being carried out) waits for a later call. Only call this with a durable store:
        an adjourned game comes back only from the store.
        """
        adjourned: list[str] = []
        for table in list(self.tables.values()):
            if not table.started or table.finished:
                continue
            if table.followers():
                table.unattended_since = None
            elif table.unattended_since is None:
                table.unattended_since = now
            elif now - table.unattended_since >= timeout and not busy(table.id):
                self.adjourn(table.id)
                adjourned.append(table.id)
                log.info(
                    "game %s adjourned: followed by nobody for %g s; kept in the store until "
                    "a seat resumes it",
                    table.id,
                    timeout,
                )
        return tuple(adjourned)

    def adjourn(self, game_id: str) -> None:
        """Unload the loaded game ``game_id``: the lobby forgets its table and its seats'
        tokens (it no longer counts against ``max_games``) and remembers its id, so that
        commands naming it say it is adjourned. The store must hold it: :meth:`bring_back`
        loads it again.

        Raises:
            KeyError: no game ``game_id`` is loaded.
        """
        self._forget(game_id)
        self._adjourned[game_id] = None
        while len(self._adjourned) > self.adjourned_kept:
            del self._adjourned[next(iter(self._adjourned))]

    def bring_back(self, stored: StoredGame) -> Table:
        """Load an adjourned game again, for ``resume`` of one of its seats' tokens: ``stored``
        is the game as the store kept it (``GameStore.find_by_token``); see :meth:`restore`.
        It counts against ``max_games`` again.

        Raises:
            ProtocolError: ``limit``, ``max_games`` games are loaded (nothing is changed).
            ValueError: as :meth:`restore` (nothing is changed).
        """
        if self.active_games >= self.max_games:
            raise ProtocolError(
                ErrorCode.LIMIT,
                f"the server holds {self.max_games} games: {stored.game_id[:40]} stays "
                "adjourned; resume it once a game ends",
            )
        return self.restore(stored)

    @property
    def active_games(self) -> int:
        """Games not finished."""
        return len(self.tables) - len(self._finished)

    def count_stored_games(self, latest_game_id: str | None) -> None:
        """Number new games after ``latest_game_id``, the game the store created last
        (``GameStore.latest_game_id``, finished games included), so that no id is used twice
        across restarts."""
        if latest_game_id is not None and re.fullmatch(r"g[0-9]{1,18}", latest_game_id):
            self._next_game = max(self._next_game, int(latest_game_id[1:]) + 1)

    # Requests.

    #: Commands whose first argument names the game they act on.
    GAME_COMMANDS = frozenset(
        ("join", "leave", "watch", "unwatch", "state", "legal", "play", "resign", "record")
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
                    ErrorCode.UNKNOWN_COMMAND, f"unknown command {request.command!r}"
                )
            args, options = self._split_args(spec, request)
            result = self._handlers[request.command](session, request, args, options)
        except ProtocolError as error:
            error.request_id = request.id
            log.debug("session %d: %s %s: %s", session.id, request.command, error.code, error)
            return Result(Response.failed(error))
        return result

    @staticmethod
    def _split_args(spec: CommandSpec, request: Request) -> tuple[list[str], dict[str, str]]:
        options: dict[str, str] = {}
        if not spec.options:
            # Every word is an argument (most requests, ``legal`` and ``play`` among them).
            args = list(request.args)
        else:
            args = []
            for word in request.args:
                key, equals, value = word.partition("=")
                if equals:
                    if not key or not value:
                        raise ProtocolError(ErrorCode.SYNTAX, f"{word!r} is not key=value")
                    if key in options:
                        raise ProtocolError(ErrorCode.BAD_OPTION, f"option {key!r} given twice")
                    options[key] = value
                else:
                    args.append(word)
        if not spec.min_args <= len(args) <= spec.max_args:
            few = "few" if len(args) < spec.min_args else "many"
            raise ProtocolError(ErrorCode.SYNTAX, f"too {few} arguments; usage: {spec.usage}")
        return args, options

    def _table(self, game_id: str) -> Table:
        table = self.tables.get(game_id)
        if table is None:
            if game_id in self._adjourned:
                raise ProtocolError(
                    ErrorCode.UNKNOWN_GAME,
                    f"game {game_id} is adjourned (nobody followed it); a seat's "
                    "resume <token> brings it back",
                )
            raise ProtocolError(ErrorCode.UNKNOWN_GAME, f"no game {game_id[:40]!r}")
        return table

    @staticmethod
    def _seat(session: Session, table: Table) -> int:
        seat = session.seats.get(table.id)
        if seat is None:
            raise ProtocolError(ErrorCode.NOT_SEATED, f"you hold no seat in {table.id}")
        return seat

    @staticmethod
    def _ok(request: Request, data: Mapping[str, Any], text: Iterable[str] = ()) -> Result:
        return Result(Response(request.id, data, fmt.join_lines(text)))

    # GTP-style commands.

    def _cmd_protocol_version(self, s: Session, r: Request, a: list[str], o: Any) -> Result:
        return self._ok(r, {"protocol_version": PROTOCOL_VERSION}, [str(PROTOCOL_VERSION)])

    def _cmd_name(self, s: Session, r: Request, a: list[str], o: Any) -> Result:
        return self._ok(r, {"name": SERVER_NAME}, [SERVER_NAME])

    def _cmd_version(self, s: Session, r: Request, a: list[str], o: Any) -> Result:
        return self._ok(r, {"version": __version__}, [__version__])

    def _cmd_list_commands(self, s: Session, r: Request, a: list[str], o: Any) -> Result:
        return self._ok(r, {"commands": list(COMMANDS)}, COMMANDS)

    def _cmd_known_command(self, s: Session, r: Request, a: list[str], o: Any) -> Result:
        known = a[0] in COMMANDS
        return self._ok(r, {"known": known}, [fmt.scalar_text(known)])

    def _cmd_help(self, s: Session, r: Request, a: list[str], o: Any) -> Result:
        names = list(COMMANDS)
        if a:
            if a[0] not in COMMANDS:
                raise ProtocolError(ErrorCode.UNKNOWN_COMMAND, f"unknown command {a[0][:40]!r}")
            names = [a[0]]
        usage = {n: f"{COMMANDS[n].usage}  -- {COMMANDS[n].summary}" for n in names}
        return self._ok(r, {"help": usage}, usage.values())

    def _cmd_quit(self, s: Session, r: Request, a: list[str], o: Any) -> Result:
        result = self._ok(r, {})
        result.close = True
        return result

    def _cmd_format(self, s: Session, r: Request, a: list[str], o: Any) -> Result:
        if a:
            if a[0] not in ("text", "json"):
                raise ProtocolError(ErrorCode.SYNTAX, "format is text or json")
            s.mode = Mode(a[0])
        return self._ok(r, {"format": str(s.mode)}, [str(s.mode)])

    def _cmd_kinds(self, s: Session, r: Request, a: list[str], o: Any) -> Result:
        return self._ok(r, {"kinds": list(self.kinds)}, self.kinds)

    # Games.

    def _cmd_new(self, s: Session, r: Request, a: list[str], options: dict[str, str]) -> Result:
        kind = self.kinds.get(a[0])
        if kind is None:
            known = ", ".join(self.kinds)
            raise ProtocolError(ErrorCode.UNKNOWN_KIND, f"no game kind {a[0][:40]!r} ({known})")
        if self.shutting_down:
            raise ProtocolError(ErrorCode.SHUTTING_DOWN, "the server is stopping")
        try:
            game = kind.create(options)
        except BadOption as error:
            raise ProtocolError(ErrorCode.BAD_OPTION, str(error)) from None
        if self.active_games >= self.max_games:
            raise ProtocolError(ErrorCode.LIMIT, f"the server holds {self.max_games} games")
        # An id is used once, even by a game the store then refuses.
        game_id = f"g{self._next_game}"
        self._next_game += 1
        seats = game.seat_count
        table = Table(
            game_id, kind, game, dict(options), self.clock(), [None] * seats, [None] * seats,
            [None] * seats,
        )  # fmt: skip
        result = self._ok(r, {"game": game_id}, [f"game={game_id}"])
        result.store_calls.append(
            StoreCall("create_game", (game_id, kind.name, dict(options), table.created_at))
        )
        result.games = (game_id,)

        def create() -> None:
            self.tables[game_id] = table
            log.info("game %s created (%s, fixed_deal=%s)", game_id, kind.name, game.fixed_deal)

        result.pending = create
        return result

    def _summary(self, table: Table) -> dict[str, Any]:
        return {
            "game": table.id,
            "kind": table.kind.name,
            "status": table.status,
            "players": list(table.names),
            "fixed_deal": table.game.fixed_deal,
        }

    def _cmd_games(self, s: Session, r: Request, a: list[str], o: Any) -> Result:
        summaries = [self._summary(t) for t in self.tables.values() if not t.finished]
        return self._ok(r, {"games": summaries}, [fmt.words(x) for x in summaries])

    def _state(self, table: Table, seat: int | None) -> dict[str, Any]:
        view = converter.unstructure(table.game.view(seat)) if table.started else None
        return {
            "game": table.id,
            "kind": table.kind.name,
            "status": table.status,
            "seq": table.seq,
            "players": list(table.names),
            "view": view,
        }

    def _state_result(self, r: Request, table: Table, seat: int | None) -> Result:
        data = self._state(table, seat)
        result = self._ok(r, data, fmt.lines(data))
        result.games = (table.id,)
        return result

    def _cmd_join(self, s: Session, r: Request, a: list[str], options: dict[str, str]) -> Result:
        table = self._table(a[0])
        for key in options:
            if key != "name":
                raise ProtocolError(ErrorCode.BAD_OPTION, f"unknown option {key!r} (only name=)")
        name = options.get("name")
        if name is not None and _NAME.fullmatch(name) is None:
            raise ProtocolError(
                ErrorCode.BAD_OPTION, "a name is 1-32 characters of A-Z a-z 0-9 _ . -"
            )
        seats = len(table.holders)
        wanted: int | None = None
        if len(a) == 2:
            if not (a[1].isascii() and a[1].isdigit() and len(a[1]) <= 9) or int(a[1]) >= seats:
                raise ProtocolError(
                    ErrorCode.SYNTAX, f"{a[1][:20]!r} is not a seat of {table.id} (0-{seats - 1})"
                )
            wanted = int(a[1])
        if table.id in s.seats:
            raise ProtocolError(
                ErrorCode.ALREADY_SEATED, f"you hold seat {s.seats[table.id]} in {table.id}"
            )
        free = [seat for seat in range(seats) if table.names[seat] is None]
        if wanted is None:
            if not free:
                raise ProtocolError(ErrorCode.SEAT_TAKEN, f"every seat of {table.id} is taken")
            seat = free[0]
        elif wanted not in free:
            raise ProtocolError(ErrorCode.SEAT_TAKEN, f"seat {wanted} of {table.id} is taken")
        else:
            seat = wanted
        name = name or f"player{seat}"
        token = secrets.token_hex(16)
        digest = token_digest(token)
        result = self._ok(
            r, {"game": table.id, "seat": seat, "token": token}, [f"seat={seat} token={token}"]
        )
        result.games = (table.id,)
        # The last seat starts the game: on a fork, kept once the seat and the deal are stored.
        started = table.game.fork() if len(free) == 1 else None
        start_events = started.start() if started is not None else []
        snapshot = self._snapshot(started)
        stored_seat = StoredSeat(seat, name, digest)
        result.store_calls.append(StoreCall("add_seat", (table.id, stored_seat, snapshot)))

        def take_seat() -> None:
            table.names[seat] = name
            table.holders[seat] = s
            table.token_hashes[seat] = digest
            self._tokens[digest] = (table, seat)
            s.seats[table.id] = seat
            s.watching.discard(table.id)
            table.spectators.pop(s, None)
            result.deliveries += self._publish(table, [Event(None, Joined(seat, name))])
            if started is not None:
                table.game = started
                table.started = True
                log.info("game %s started (%s)", table.id, ", ".join(map(str, table.names)))
                result.deliveries += self._publish(table, start_events)

        result.pending = take_seat
        return result

    def _cmd_resume(self, s: Session, r: Request, a: list[str], o: Any) -> Result:
        digest = token_digest(a[0])
        entry = self._tokens.get(digest)
        if entry is None:
            raise ProtocolError(ErrorCode.BAD_TOKEN, "no seat has this token")
        table, seat = entry
        stored = table.token_hashes[seat]
        if stored is None or not hmac.compare_digest(stored, digest):
            raise ProtocolError(ErrorCode.BAD_TOKEN, "no seat has this token")
        held = s.seats.get(table.id)
        if held is not None and held != seat:
            raise ProtocolError(ErrorCode.ALREADY_SEATED, f"you hold seat {held} in {table.id}")
        previous = table.holders[seat]
        if previous is not s:
            table.holders[seat] = s
            s.seats[table.id] = seat
            s.watching.discard(table.id)
            table.spectators.pop(s, None)
            if previous is not None:
                previous.seats.pop(table.id, None)
        deliveries: list[Delivery] = []
        if previous is not s and not table.finished:
            # Everyone else hears of it, the ousted connection included (so it knows why the
            # seat's events stop); the resumer's snapshot already counts the event.
            (delivery,) = self._publish(table, [Event(None, Resumed(seat))])
            others = tuple(x for x in delivery.sessions if x is not s)
            if previous is not None:
                others += (previous,)
            if others:
                deliveries.append(Delivery(others, delivery.message))
        result = self._state_result(r, table, seat)
        result.deliveries = deliveries
        return result

    def _release_seat(self, table: Table, session: Session, result: Result) -> None:
        """``session`` no longer holds its seat in ``table``: before the start the seat is
        free again (``left``; forgotten by the store too, so that a restart does not give it
        back), after the start it stays reserved for its token (``disconnected``). The events
        and the store call go to ``result``."""
        seat = session.seats.pop(table.id)
        table.unattended_since = None
        if table.holders[seat] is session:
            table.holders[seat] = None
        if not table.started:
            digest = table.token_hashes[seat]
            if digest is not None:
                self._tokens.pop(digest, None)
            table.names[seat] = None
            table.token_hashes[seat] = None
            table.holders[seat] = None
            result.store_calls.append(StoreCall("remove_seat", (table.id, seat)))
            result.deliveries += self._publish(table, [Event(None, Left(seat))])
        elif not table.finished:
            result.deliveries += self._publish(table, [Event(None, Disconnected(seat))])

    def _cmd_leave(self, s: Session, r: Request, a: list[str], o: Any) -> Result:
        table = self._table(a[0])
        result = self._ok(r, {})
        result.games = (table.id,)
        if table.id in s.seats:
            self._release_seat(table, s, result)
        elif s in table.spectators:
            del table.spectators[s]
            s.watching.discard(table.id)
            table.unattended_since = None
        else:
            raise ProtocolError(ErrorCode.NOT_FOLLOWING, f"you do not follow {table.id}")
        return result

    def _cmd_watch(self, s: Session, r: Request, a: list[str], o: Any) -> Result:
        table = self._table(a[0])
        if table.id in s.seats:
            raise ProtocolError(
                ErrorCode.ALREADY_SEATED, f"you hold seat {s.seats[table.id]} in {table.id}"
            )
        table.spectators[s] = None
        s.watching.add(table.id)
        return self._state_result(r, table, None)

    def _cmd_unwatch(self, s: Session, r: Request, a: list[str], o: Any) -> Result:
        table = self._table(a[0])
        if s not in table.spectators:
            raise ProtocolError(ErrorCode.NOT_FOLLOWING, f"you do not watch {table.id}")
        del table.spectators[s]
        s.watching.discard(table.id)
        table.unattended_since = None
        return self._ok(r, {})

    def _cmd_state(self, s: Session, r: Request, a: list[str], o: Any) -> Result:
        table = self._table(a[0])
        return self._state_result(r, table, s.seats.get(table.id))

    def _cmd_legal(self, s: Session, r: Request, a: list[str], o: Any) -> Result:
        table = self._table(a[0])
        seat = self._seat(s, table)
        if not table.started:
            raise ProtocolError(ErrorCode.NOT_STARTED, f"{table.id} waits for players")
        game = table.game
        moves = game.legal_moves(seat)

        # The JSON form (clump positions) is made now, for a JSON-mode connection only: the
        # answer waits behind the game's earlier results (their events come first, as for
        # ``state``), and by then the position may have moved on.
        data: dict[str, Any] = {}
        if s.mode is Mode.JSON:
            data = {"game": table.id, "moves": [game.describe_move(m) for m in moves]}
        texts = fmt.join_lines([" ".join(map(game.format_move, moves))])
        return Result(Response(r.id, data, texts), games=(table.id,))

    def _playable(self, s: Session, table: Table) -> int:
        seat = self._seat(s, table)
        if not table.started:
            raise ProtocolError(ErrorCode.NOT_STARTED, f"{table.id} waits for players")
        if table.game.outcome is not None:
            raise ProtocolError(ErrorCode.GAME_OVER, f"{table.id} is over")
        return seat

    def _cmd_play(self, s: Session, r: Request, a: list[str], o: Any) -> Result:
        table = self._table(a[0])
        seat = self._playable(s, table)
        if self.shutting_down:
            raise ProtocolError(ErrorCode.SHUTTING_DOWN, "the server is stopping")
        game = table.game
        if seat not in game.seats_to_move():
            raise ProtocolError(ErrorCode.NOT_YOUR_TURN, "it is not your turn")
        try:
            move = game.parse_move(seat, a[1])
            text = game.format_move(move)
            after = game.fork()
            events = after.play(seat, move)
        except GameError as error:
            raise ProtocolError(_error_code(error), str(error)) from None
        # A new round's deal is stored with the move that makes it (GameStore); a store that
        # keeps no snapshots spares every move the scan of its events.
        new_deal = self.snapshots and table.kind.starts_round(events)
        snapshot = self._snapshot(after) if new_deal else None
        result = Result(
            Response(r.id, {"game": table.id, "move": text}, [text]),
            [StoreCall("add_move", (table.id, seat, text, snapshot))],
            games=(table.id,),
        )
        self._moved(table, after, events, result)
        return result

    def _cmd_resign(self, s: Session, r: Request, a: list[str], o: Any) -> Result:
        table = self._table(a[0])
        seat = self._playable(s, table)
        try:
            after = table.game.fork()
            events = after.resign(seat)
        except GameError as error:
            raise ProtocolError(_error_code(error), str(error)) from None
        result = self._ok(r, {})
        result.games = (table.id,)
        self._moved(table, after, events, result)
        return result

    def _moved(self, table: Table, after: Game, events: Sequence[Event], result: Result) -> None:
        """Complete ``result`` of a move or resignation made on ``after``, a fork of the
        table's game that caused ``events``: the finished game's record to store, and the
        pending change that puts ``after`` in the game's place and publishes ``events``."""
        outcome = after.outcome
        if outcome is not None:
            result.store_calls.append(StoreCall("finish", (table.id, self._snapshot(after))))

        def move() -> None:
            table.game = after
            result.deliveries += self._publish(table, events)
            if outcome is not None:
                self._ended(table, outcome)

        result.pending = move

    def _snapshot(self, game: Game | None) -> Any:
        """``game``'s record, unstructured for the store; ``None`` without a game, or when
        the store keeps no snapshots (:class:`Lobby`'s ``snapshots``)."""
        if game is None or not self.snapshots:
            return None
        return converter.unstructure(game.record())

    def _ended(self, table: Table, outcome: Outcome) -> None:
        table.finished = True
        winners = ",".join(map(str, outcome.winners))
        resigned = "" if outcome.resigned is None else f", seat {outcome.resigned} resigned"
        log.info("game %s ended: won by seat %s%s", table.id, winners, resigned)
        self._finished.append(table.id)
        while len(self._finished) > self.finished_kept:
            self._forget(self._finished.popleft())

    def _forget(self, game_id: str) -> None:
        table = self.tables.pop(game_id)
        for digest in table.token_hashes:
            if digest is not None:
                self._tokens.pop(digest, None)
        for session in table.followers():
            session.seats.pop(game_id, None)
            session.watching.discard(game_id)

    def _cmd_record(self, s: Session, r: Request, a: list[str], o: Any) -> Result:
        table = self._table(a[0])
        if not table.finished:
            raise ProtocolError(ErrorCode.GAME_NOT_OVER, f"{table.id} is not over")
        data = {
            "game": table.id,
            "kind": table.kind.name,
            "options": dict(table.options),
            "players": list(table.names),
            "record": converter.unstructure(table.game.record()),
        }
        return self._ok(r, data, fmt.lines(data))

    def stored_record(self, request: Request, stored: StoredGame) -> Result:
        """The answer to ``record`` for a finished game that only the store still holds (after
        a restart, or once the lobby has forgotten it): ``stored`` from
        ``GameStore.load_finished``, whose snapshot is the final record."""
        players: list[str | None] = [None] * (max((s.seat for s in stored.seats), default=-1) + 1)
        for seat in stored.seats:
            players[seat.seat] = seat.name
        data = {
            "game": stored.game_id,
            "kind": stored.kind,
            "options": dict(stored.options),
            "players": players,
            "record": stored.snapshot,
        }
        return self._ok(request, data, fmt.lines(data))

    def _publish(self, table: Table, events: Sequence[Event]) -> list[Delivery]:
        """Number ``events`` and address them: public ones to every follower, a seat's own
        to that seat's connection only (RULINGS H13)."""
        deliveries: list[Delivery] = []
        followers: tuple[Session, ...] | None = None
        for event in events:
            if event.audience is None:
                table.seq += 1
                if followers is None:
                    followers = table.followers()
                recipients = followers
            else:
                holder = table.holders[event.audience]
                recipients = () if holder is None else (holder,)
            if recipients:
                payload = event.payload
                data = converter.unstructure(payload)
                message = EventMessage(table.id, table.seq, type(payload).kind, data)
                deliveries.append(Delivery(recipients, message))
        return deliveries
