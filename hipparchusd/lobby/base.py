"""What every part of the :class:`~.core.Lobby` shares: its state, which ``Lobby.__init__``
sets, and the helpers that find games, check seats, build answers and address events
(RULINGS H13: a seat's own events go to that seat's connection only)."""

from __future__ import annotations

import abc
import collections
import re
from collections.abc import Callable, Iterable, Mapping, Sequence

from ..addresses import AddressSet
from ..clocks import Clocks
from ..games.base import Event, GameError, GameKind, ServedGame
from ..jsondata import JSON, JSONObject
from ..protocol import ErrorCode, ProtocolError, Request, shown
from ..protocol import formatting as fmt
from .messages import LOBBY_EVENTS, EventMessage, Response
from .results import Delivery, Result
from .tables import Session, Table

#: A seat's name (``join``'s and ``bot``'s ``name=``).
_NAME = re.compile(r"[A-Za-z0-9_.\-]{1,32}")


def game_refusal(error: GameError) -> ProtocolError:
    """The protocol's refusal for a move or resignation the game refused: the game's code if
    the protocol has it (``illegal-move`` otherwise), and its message, private, as it may
    describe the player's own hand (RULINGS H13)."""
    try:
        code = ErrorCode(error.code)
    except ValueError:
        code = ErrorCode.ILLEGAL_MOVE
    return ProtocolError(code, str(error), private=True)


def stopping() -> ProtocolError:
    """The ``shutting-down`` refusal of a new game or move once the server is stopping."""
    return ProtocolError(ErrorCode.SHUTTING_DOWN, "the server is stopping")


def why_over(table: Table) -> str:
    """Why ``table``'s game, over, is over when not by its own rules, for the ``game-over``
    refusals' messages: `` (abandoned)`` (RULINGS H14), `` (ended by the server's operator)``,
    else nothing."""
    if table.abandoned:
        return " (abandoned)"
    if table.ended is not None and table.ended.operator:
        return " (ended by the server's operator)"
    return ""


class LobbyBase(abc.ABC):
    """The state the parts of the :class:`~.core.Lobby` share (see ``Lobby.__init__``) and
    their common helpers. Not used on its own."""

    max_games: int
    max_games_per_connection: int
    max_games_per_address: int
    trusted: AddressSet
    #: The open sessions of each peer address (for ``max_games_per_address``).
    by_address: dict[str, dict[Session, None]]
    snapshots: bool
    #: The server's monotonic time (seconds) given with the call being handled: what its
    #: clocks read (RULINGS T1). Set by each call that takes ``now``; a result's pending change
    #: never reads it, since by then another call may have set it.
    now: float
    kinds: Mapping[str, GameKind]
    finished_kept: int
    clock: Callable[[], float]
    adjourned_kept: int
    tables: dict[str, Table]
    sessions: dict[int, Session]
    shutting_down: bool
    #: The operator's message while the server is in maintenance (``new`` is refused with
    #: it: :meth:`~.operator.Operator.set_maintenance`), else ``None``.
    maintenance: str | None
    _next_game: int
    _next_session: int
    #: Token digest to (table, seat), for ``resume``.
    _tokens: dict[bytes, tuple[Table, int]]
    #: Ids of the finished games still loaded, oldest first.
    _finished: collections.deque[str]
    #: Ids of adjourned games, oldest first (a dict for its insertion order).
    _adjourned: dict[str, None]
    #: The blocks of game numbers granted to this lobby, as ``[next, last]`` pairs, first in
    #: use first; ``None`` while it numbers games itself (one daemon alone on its store).
    _numbers: collections.deque[list[int]] | None

    @abc.abstractmethod
    def prepare(self, session: Session, request: Request, now: float = 0.0) -> Result:
        """Check ``request`` and work out its result (:meth:`.core.Lobby.prepare`)."""

    def _new_game_id(self) -> str:
        """The id of the next game this lobby creates: the next number of its own count, or of
        the blocks granted to it (:meth:`~.housekeeping.Housekeeping.grant_game_numbers`).

        Raises:
            ProtocolError: ``internal``, no granted number is left (the server asks for more
                before that happens; a burst of games can outrun it).
        """
        numbers = self._numbers
        if numbers is None:
            number = self._next_game
            self._next_game += 1
            return f"g{number}"
        while numbers and numbers[0][0] > numbers[0][1]:
            numbers.popleft()
        if not numbers:
            raise ProtocolError(
                ErrorCode.INTERNAL, "no game number is free on this server yet; try again"
            )
        number = numbers[0][0]
        numbers[0][0] += 1
        return f"g{number}"

    def _note_game_id(self, game_id: str) -> None:
        """Number later games after ``game_id``, a game this lobby did not create now (one the
        store kept), unless the numbers come in granted blocks: another daemon's game then says
        nothing of this one's numbers."""
        number = game_id[1:]
        if self._numbers is None and game_id.startswith("g") and number.isdigit():
            self._next_game = max(self._next_game, int(number) + 1)

    @property
    def active_games(self) -> int:
        """Games not finished."""
        return len(self.tables) - len(self._finished)

    def _waiting_games(self, session: Session) -> set[str]:
        """The games still waiting for players that ``session`` created, holds a seat in or
        watches (the games its limits count); forgets the created ones no longer waiting."""
        tables = self.tables
        for game_id in [g for g in session.created if g not in tables or tables[g].started]:
            session.created.discard(game_id)
        held = {g for g in (*session.seats, *session.watching) if g in tables}
        return {g for g in held if not tables[g].started} | session.created

    def _check_games_limits(self, session: Session, game_id: str | None) -> None:
        """Refuse with ``limit`` when taking up the waiting game ``game_id`` (``None``: a new
        game) would put ``session`` or its peer address over its games limit; a game it
        already counts, or one that has started, is always allowed (issue 16: one client must
        not hold every place under ``max_games``)."""
        if game_id is not None:
            table = self.tables.get(game_id)
            if table is None or table.started:
                return
        mine = self._waiting_games(session)
        if game_id in mine:
            return
        limit = self.max_games_per_connection
        if len(mine) >= limit:
            raise ProtocolError(
                ErrorCode.LIMIT,
                f"this connection holds {limit} games waiting for players "
                "(max-games-per-connection); leave one or let one start first",
                limit="max-games-per-connection",
            )
        if session.address in self.trusted:
            return
        limit = self.max_games_per_address
        # Every game the address's connections count waits for players, so is one of the
        # loaded games not finished: while those are fewer than the limit, the address cannot
        # be over it, and the scan of all its connections (each ``new`` and ``join`` would
        # otherwise cost time in proportion to them) is spared.
        if self.active_games < limit:
            return
        held = set(mine)
        for other in self.by_address.get(session.address, ()):
            if other is not session:
                held |= self._waiting_games(other)
        if game_id not in held and len(held) >= limit:
            raise ProtocolError(
                ErrorCode.LIMIT,
                f"connections from your address hold {limit} games waiting for players "
                "(max-games-per-address); leave one or let one start first",
                limit="max-games-per-address",
            )

    def _table(self, game_id: str) -> Table:
        table = self.tables.get(game_id)
        if table is None:
            raise self._unknown_game(game_id)
        return table

    def _unknown_game(self, game_id: str) -> ProtocolError:
        """The ``unknown-game`` error for ``game_id``, which no loaded game has."""
        if game_id in self._adjourned:
            return ProtocolError(
                ErrorCode.UNKNOWN_GAME,
                f"game {game_id} is adjourned (nobody followed it); a seat's "
                "resume <token> brings it back",
            )
        return ProtocolError(ErrorCode.UNKNOWN_GAME, f"no game {shown(game_id)}")

    @staticmethod
    def _seat(session: Session, table: Table) -> int:
        seat = session.seats.get(table.id)
        if seat is None:
            raise ProtocolError(ErrorCode.NOT_SEATED, f"you hold no seat in {table.id}")
        return seat

    @staticmethod
    def _only_options(options: Mapping[str, str], *known: str) -> None:
        """Refuse with ``bad-option`` an option whose key is not one of ``known``."""
        for key in options:
            if key not in known:
                keys = " and ".join(f"{k}=" for k in known)
                allowed = keys if len(known) > 1 else f"only {keys}"
                raise ProtocolError(
                    ErrorCode.BAD_OPTION, f"unknown option {shown(key)} ({allowed})"
                )

    @staticmethod
    def _check_name(name: str) -> None:
        """Refuse with ``bad-option`` a name a seat cannot have."""
        if _NAME.fullmatch(name) is None:
            raise ProtocolError(
                ErrorCode.BAD_OPTION, "a name is 1-32 characters of A-Z a-z 0-9 _ . -"
            )

    @staticmethod
    def _ok(request: Request, data: Mapping[str, JSON], text: Iterable[str] = ()) -> Result:
        return Result(Response(request.id, data, fmt.join_lines(text)))

    def _state(self, table: Table, seat: int | None) -> JSONObject:
        """The answer to ``state`` (and ``watch``, ``resume``) for ``seat`` of ``table``
        (``None``: a spectator), at ``self.now``: the game's own view, and once it has started
        each seat's ``presence`` (RULINGS T4), and for a timed game its ``clock`` (T1; the
        time options and the clocks as they stand); how the server ended it if it did
        (``abandoned``, ``aborted``, ``timeout``, ``claimed``)."""
        view = table.game.view_data(seat) if table.started else None
        state: JSONObject = {
            "game": table.id,
            "kind": table.kind.name,
            "status": table.status,
            "seq": table.seq,
            "players": list(table.names),
            "view": view,
        }
        if table.started:
            state["presence"] = table.presence()
        control = table.rules.control
        if control is not None:
            clocks = table.clocks
            state["clock"] = {
                **table.rules.data(),
                **(Clocks.start(control, len(table.seats)) if clocks is None else clocks).view(
                    self.now
                ),
            }
        if table.abandoned:
            # Over with no winner, though the view (the game as it stood) shows no end.
            state["abandoned"] = True
        ended = table.ended
        if ended is not None:
            if ended.operator:
                state["operator"] = True
            if ended.aborted:
                state["aborted"] = True
            if ended.timeout is not None:
                state["timeout"] = ended.timeout
            if ended.claimed:
                state["claimed"] = True
        return state

    def _state_result(self, r: Request, table: Table, seat: int | None) -> Result:
        data = self._state(table, seat)
        result = self._ok(r, data, fmt.lines(data))
        result.games = (table.id,)
        return result

    def _playable(self, session: Session, table: Table) -> int:
        """The seat ``session`` holds in ``table``'s game, which must have started and not
        ended (``not-seated``, ``not-started``, ``game-over``)."""
        seat = self._seat(session, table)
        if not table.started:
            raise ProtocolError(ErrorCode.NOT_STARTED, f"{table.id} waits for players")
        if table.finished or table.game.outcome is not None:
            raise ProtocolError(ErrorCode.GAME_OVER, f"{table.id} is over{why_over(table)}")
        return seat

    def _snapshot(self, game: ServedGame | None) -> JSON:
        """``game``'s record, unstructured for the store; ``None`` without a game, or when
        the store keeps no snapshots (:class:`~.core.Lobby`'s ``snapshots``)."""
        if game is None or not self.snapshots:
            return None
        return game.record_data()

    def _forget(self, game_id: str) -> None:
        table = self.tables.pop(game_id)
        for seat in table.seats:
            if seat.token_digest is not None:
                self._tokens.pop(seat.token_digest, None)
        for session in table.followers():
            session.seats.pop(game_id, None)
            session.watching.discard(game_id)

    def _publish(self, table: Table, events: Sequence[Event]) -> list[Delivery]:
        """Number ``events`` and address them: public ones to every follower, a seat's own
        to that seat's connection only (RULINGS H13)."""
        # Every move comes here with several events: what the loop needs is looked up once.
        deliveries: list[Delivery] = []
        append = deliveries.append
        followers: tuple[Session, ...] | None = None
        game_id = table.id
        seats = table.seats
        event_data = table.game.event_data
        lobby_events = LOBBY_EVENTS
        for event in events:
            audience = event.audience
            if audience is None:
                table.seq += 1
                if followers is None:
                    followers = table.followers()
                recipients = followers
            else:
                holder = seats[audience].holder
                recipients = () if holder is None else (holder,)
            if recipients:
                payload = event.payload
                cls = type(payload)
                lobby_event = lobby_events.get(cls)
                data = event_data(payload) if lobby_event is None else lobby_event(payload)
                append(Delivery(recipients, EventMessage(game_id, table.seq, cls.kind, data)))
        return deliveries
