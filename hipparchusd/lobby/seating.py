"""The commands that seat connections and let them go: ``join``, ``resume``, ``leave``,
``watch`` and ``unwatch`` (PROTOCOL.md section 5). Tokens are kept only as SHA-256 digests."""

from __future__ import annotations

import functools
import hmac
import logging
import re
import secrets

from ..games.base import Event, progress
from ..protocol import ErrorCode, ProtocolError, Request, shown
from ..records import AddSeat, RemoveSeat, StoredSeat
from .base import LobbyBase
from .messages import Disconnected, Joined, Left, Response, Resumed
from .results import Delivery, NeedsStoredToken, Result
from .tables import Lifecycle, Seat, Session, Table, token_digest

log = logging.getLogger("hipparchusd.lobby")

_NAME = re.compile(r"[A-Za-z0-9_.\-]{1,32}")


class Seating(LobbyBase):
    """Seats and spectators: a part of :class:`~.core.Lobby`."""

    def _cmd_join(
        self, session: Session, request: Request, args: list[str], options: dict[str, str]
    ) -> Result:
        table = self._table(args[0])
        for key in options:
            if key != "name":
                raise ProtocolError(
                    ErrorCode.BAD_OPTION, f"unknown option {shown(key)} (only name=)"
                )
        name = options.get("name")
        if name is not None and _NAME.fullmatch(name) is None:
            raise ProtocolError(
                ErrorCode.BAD_OPTION, "a name is 1-32 characters of A-Z a-z 0-9 _ . -"
            )
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
        if table.id in session.seats:
            raise ProtocolError(
                ErrorCode.ALREADY_SEATED, f"you hold seat {session.seats[table.id]} in {table.id}"
            )
        free = [number for number, seat in enumerate(table.seats) if not seat.taken]
        if wanted is None:
            if not free:
                raise ProtocolError(ErrorCode.SEAT_TAKEN, f"every seat of {table.id} is taken")
            seat = free[0]
        elif wanted not in free:
            raise ProtocolError(ErrorCode.SEAT_TAKEN, f"seat {wanted} of {table.id} is taken")
        else:
            seat = wanted
        self._check_games_limits(session, table.id)
        name = name or f"player{seat}"
        token = secrets.token_hex(16)
        digest = token_digest(token)
        result = self._ok(
            request,
            {"game": table.id, "seat": seat, "token": token},
            [f"seat={seat} token={token}"],
        )
        result.games = (table.id,)
        # The last seat starts the game: on a fork, kept once the seat and the deal are stored.
        started = table.game.fork() if len(free) == 1 else None
        start_events = [*started.start(), progress(started)] if started is not None else []
        snapshot = self._snapshot(started)
        stored_seat = StoredSeat(seat, name, digest)
        result.store_calls.append(AddSeat(table.id, stored_seat, snapshot))

        def take_seat() -> None:
            table.seats[seat] = Seat(name, session, digest)
            self._tokens[digest] = (table, seat)
            session.seats[table.id] = seat
            session.watching.discard(table.id)
            table.spectators.pop(session, None)
            result.deliveries += self._publish(table, [Event(None, Joined(seat, name))])
            if started is not None:
                table.game = started
                table.enter(Lifecycle.PLAYING)
                log.info("game %s started (%s)", table.id, ", ".join(map(str, table.names)))
                result.deliveries += self._publish(table, start_events)

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
            retry = functools.partial(self.prepare, session, request)
            return Result(Response.failed(error), needs=NeedsStoredToken(digest, retry))
        table, seat = entry
        stored = table.seats[seat].token_digest
        if stored is None or not hmac.compare_digest(stored, digest):
            raise ProtocolError(ErrorCode.BAD_TOKEN, "no seat has this token")
        held = session.seats.get(table.id)
        if held is not None and held != seat:
            raise ProtocolError(ErrorCode.ALREADY_SEATED, f"you hold seat {held} in {table.id}")
        previous = table.seats[seat].holder
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
