"""The commands that seat connections and let them go: ``join``, ``resume``, ``leave``,
``watch`` and ``unwatch`` (PROTOCOL.md section 5). Tokens are kept only as SHA-256 digests."""

from __future__ import annotations

import functools
import hmac
import logging
import secrets

from ..games.base import Event
from ..jsondata import JSONObject
from ..protocol import ErrorCode, ProtocolError, Request, shown
from ..protocol import formatting as fmt
from ..records import AddSeat, RemoveSeat, StoredSeat
from .messages import Disconnected, Joined, Left, Response, Resumed
from .results import Delivery, NeedsStoredToken, Result
from .tables import Lifecycle, Seat, Session, Table, token_digest
from .timing import Timing

log = logging.getLogger("hipparchusd.lobby")


class Seating(Timing):
    """Seats and spectators: a part of :class:`~.core.Lobby`."""

    def _cmd_join(
        self, session: Session, request: Request, args: list[str], options: dict[str, str]
    ) -> Result:
        table = self._table(args[0])
        self._only_options(options, "name")
        name = options.get("name")
        if name is not None:
            self._check_name(name)
        wanted = self._seat_word(table, args)
        if table.id in session.seats:
            raise ProtocolError(
                ErrorCode.ALREADY_SEATED, f"you hold seat {session.seats[table.id]} in {table.id}"
            )
        seat = self._free_seat(table, wanted)
        self._check_games_limits(session, table.id)
        return self._take_seat(request, table, seat, name or f"player{seat}", session)

    @staticmethod
    def _seat_word(table: Table, args: list[str]) -> int | None:
        """The seat ``args[1]`` names, if given (``syntax`` if it is no seat of ``table``)."""
        seats = len(table.seats)
        wanted: int | None = None
        if len(args) == 2:
            if (
                not (args[1].isascii() and args[1].isdigit() and len(args[1]) <= 9)
                or int(args[1]) >= seats
            ):
                raise ProtocolError(
                    ErrorCode.SYNTAX,
                    f"{shown(args[1], 20)} is not a seat of {table.id} (0-{seats - 1})",
                )
            wanted = int(args[1])
        return wanted

    @staticmethod
    def _free_seat(table: Table, wanted: int | None) -> int:
        """``wanted`` if it is free (else ``seat-taken``), or the first free seat (``seat-taken``
        if none)."""
        free = [number for number, seat in enumerate(table.seats) if not seat.taken]
        if wanted is None:
            if not free:
                raise ProtocolError(ErrorCode.SEAT_TAKEN, f"every seat of {table.id} is taken")
            return free[0]
        if wanted not in free:
            raise ProtocolError(ErrorCode.SEAT_TAKEN, f"seat {wanted} of {table.id} is taken")
        return wanted

    def _take_seat(
        self,
        request: Request,
        table: Table,
        seat: int,
        name: str,
        session: Session | None,
        bot: str | None = None,
    ) -> Result:
        """The result of taking the free ``seat`` of ``table`` under ``name``, for ``session``
        (``join``) or for the engine at level ``bot`` (``bot``, no session and a token nobody
        is given): the change pending until the seat (and, for the last seat, the start) is
        stored. The answer names the seat, and its token for a session."""
        token = secrets.token_hex(16)
        digest = token_digest(token)
        # The text form is the JSON one without the game, which the request named.
        shown_to: JSONObject = {"token": token} if session is not None else {"level": bot}
        data: JSONObject = {"game": table.id, "seat": seat, **shown_to}
        result = self._ok(request, data, [fmt.words({"seat": seat, **shown_to})])
        result.games = (table.id,)
        free = [number for number, taken in enumerate(table.seats) if not taken.taken]
        # The last seat starts the game: on a fork, kept once the seat and the deal are stored.
        started = table.game.fork() if len(free) == 1 else None
        start_events: list[Event] = []
        clocks = None
        if started is not None:
            start_events = started.start()
            # Every clock is full, and those of the seats to move run from now (T1).
            clocks = self._start_clocks(table, started, self.now)
            start_events.append(self._progress(started, clocks))
        snapshot = self._snapshot(started)
        stored_seat = StoredSeat(seat, name, digest, bot)
        result.store_calls.append(AddSeat(table.id, stored_seat, snapshot))

        def take_seat() -> None:
            table.seats[seat] = Seat(name, session, digest, bot)
            self._tokens[digest] = (table, seat)
            if session is not None:
                session.seats[table.id] = seat
                session.watching.discard(table.id)
                table.spectators.pop(session, None)
            result.deliveries += self._publish(table, [Event(None, Joined(seat, name))])
            if started is not None:
                table.game = started
                table.clocks = clocks
                table.enter(Lifecycle.PLAYING)
                log.info("game %s started (%s)", table.id, ", ".join(map(str, table.names)))
                result.deliveries += self._publish(table, start_events)
                result.engine += self._bot_turns(table)

        result.pending = take_seat
        return result

    def _cmd_resume(
        self, session: Session, request: Request, args: list[str], options: dict[str, str]
    ) -> Result:
        digest = token_digest(args[0])
        entry = self._tokens.get(digest)
        if entry is None:
            # Refused unless an adjourned game in the store has the token: the shell loads
            # it, then prepares this request again.
            error = ProtocolError(ErrorCode.BAD_TOKEN, "no seat has this token", request.id)
            retry = functools.partial(self.prepare, session, request, self.now)
            return Result(Response.failed(error), needs=NeedsStoredToken(digest, retry))
        table, seat = entry
        stored = table.seats[seat].token_digest
        if stored is None or not hmac.compare_digest(stored, digest):
            raise ProtocolError(ErrorCode.BAD_TOKEN, "no seat has this token")
        held = session.seats.get(table.id)
        if held is not None and held != seat:
            raise ProtocolError(ErrorCode.ALREADY_SEATED, f"you hold seat {held} in {table.id}")
        previous = table.seats[seat].holder
        # Back, however long it was away (T4): the engine no longer plays for it.
        table.seats[seat].away_since = None
        table.seats[seat].absent = False
        if previous is not session:
            table.seats[seat].holder = session
            session.seats[table.id] = seat
            session.watching.discard(table.id)
            table.spectators.pop(session, None)
            if previous is not None:
                previous.seats.pop(table.id, None)
        deliveries: list[Delivery] = []
        if previous is not session and not table.finished:
            # Everyone else hears of it, the ousted connection included (so it knows why the
            # seat's events stop); the resumer's snapshot already counts the event.
            (delivery,) = self._publish(table, [Event(None, Resumed(seat))])
            others = tuple(x for x in delivery.sessions if x is not session)
            if previous is not None:
                others += (previous,)
            if others:
                deliveries.append(Delivery(others, delivery.message))
        result = self._state_result(request, table, seat)
        result.deliveries = deliveries
        return result

    def _release_seat(self, table: Table, session: Session, result: Result) -> None:
        """``session`` no longer holds its seat in ``table``: before the start the seat is
        free again (``left``; forgotten by the store too, so that a restart does not give it
        back), after the start it stays reserved for its token (``disconnected``). The events
        and the store call go to ``result``."""
        seat = session.seats.pop(table.id)
        table.unattended_since = None
        if table.seats[seat].holder is session:
            table.seats[seat].holder = None
        if not table.started:
            digest = table.seats[seat].token_digest
            if digest is not None:
                self._tokens.pop(digest, None)
            table.seats[seat] = Seat()
            result.store_calls.append(RemoveSeat(table.id, seat))
            result.deliveries += self._publish(table, [Event(None, Left(seat))])
        elif not table.finished:
            # From now on it is away: its absence grace counts from here (T4).
            table.seats[seat].away_since = self.now
            table.seats[seat].absent = False
            result.deliveries += self._publish(table, [Event(None, Disconnected(seat))])

    def _cmd_leave(
        self, session: Session, request: Request, args: list[str], options: dict[str, str]
    ) -> Result:
        table = self._table(args[0])
        result = self._ok(request, {})
        result.games = (table.id,)
        if table.id in session.seats:
            self._release_seat(table, session, result)
        elif session in table.spectators:
            del table.spectators[session]
            session.watching.discard(table.id)
            table.unattended_since = None
        else:
            raise ProtocolError(ErrorCode.NOT_FOLLOWING, f"you do not follow {table.id}")
        return result

    def _cmd_watch(
        self, session: Session, request: Request, args: list[str], options: dict[str, str]
    ) -> Result:
        table = self._table(args[0])
        if table.id in session.seats:
            raise ProtocolError(
                ErrorCode.ALREADY_SEATED, f"you hold seat {session.seats[table.id]} in {table.id}"
            )
        self._check_games_limits(session, table.id)
        table.spectators[session] = None
        session.watching.add(table.id)
        return self._state_result(request, table, None)

    def _cmd_unwatch(
        self, session: Session, request: Request, args: list[str], options: dict[str, str]
    ) -> Result:
        table = self._table(args[0])
        if session not in table.spectators:
            raise ProtocolError(ErrorCode.NOT_FOLLOWING, f"you do not watch {table.id}")
        del table.spectators[session]
        session.watching.discard(table.id)
        table.unattended_since = None
        return self._ok(request, {})
