"""What a game's clocks and absent seats make happen (RULINGS T2-T5; PROTOCOL.md, "Clocks"): a
game's next deadline (:meth:`Deadlines.deadline`), and what the server does when it comes
(:meth:`Deadlines.clock_due`): an abort (T5), a flag (T2: a resignation, or the server's move
for the seat), the ``absent`` event once a seat has been away for the absence grace, and the
engine's move for an absent seat (T4); with the commands ``claim`` (T4) and ``time_left``. A
part of the :class:`~.core.Lobby`.

Each of them is a result like a move's: its store commands first (durable before anything is
announced), then one sequence of events for every follower. The server keeps every game's
next deadline in one structure and calls :meth:`Deadlines.clock_due` when it comes; the lobby
never waits and never reads a clock (``now`` is the server's).

The server's moves for a seat are the engine's heuristic level (``GameKind.engine``), worked
out here, in the daemon, at once: it is cheap (``bench/bench_clocks.py`` measures it), and a
seat out of time must not wait for a worker. The game's engine module is imported at the first
such move. A kind the engine does not play gets a random legal move.
"""

from __future__ import annotations

import enum
import logging
import random

import attrs

from ..clocks import Absence, Clocks, Timeout, absent, elapsed_ms, first_move_at
from ..engine.types import view_seed
from ..games.base import Event, GameError, MoveList, Outcome
from ..jsondata import JSONObject
from ..protocol import ErrorCode, ProtocolError, Request
from ..protocol import formatting as fmt
from ..records import AddMove
from ..wording import counted
from .base import stopping
from .messages import Absent, Response
from .results import Result
from .tables import Session, Table
from .timing import ABSENT, TIMEOUT, Timing

log = logging.getLogger("hipparchusd.lobby")


class Due(enum.IntEnum):
    """What a deadline brings, in the order that wins when several fall at once."""

    #: A seat has not made its first decision within the first-move limit (T5).
    ABORT = 0
    #: A seat is out of time (T2).
    FLAG = 1
    #: A seat has been away for the whole absence grace: everyone is told (T4).
    ABSENT = 2
    #: An absent seat must move, and the engine moves for it (T4, where the game says so).
    ENGINE = 3


@attrs.frozen(order=True)
class Deadline:
    """When (``at``, the server's monotonic seconds) ``what`` happens to ``seat``."""

    at: float
    what: Due
    seat: int


class Deadlines(Timing):
    """The deadlines of every game and what they do: a part of :class:`~.core.Lobby`."""

    # -- when ---------------------------------------------------------------------------------

    def deadline(self, game_id: str) -> float | None:
        """When the loaded game ``game_id`` next needs :meth:`clock_due` (the server's monotonic
        seconds; possibly past already), or ``None`` when nothing is due (an untimed game with
        nobody away, a game over or unknown, a server stopping: its players cannot move)."""
        table = self.tables.get(game_id)
        if table is None or self.shutting_down:
            return None
        due = self._next_due(table)
        return None if due is None else due.at

    def _next_due(self, table: Table) -> Deadline | None:
        """The first thing due in ``table``'s game, if any: for each seat that must move, its
        first-move limit (T5) and its flag (T2); for each away seat, the end of its absence
        grace, and once it is absent and must move, the engine's move for it (T4, where the
        game says so and some other seat's player is here to go on with)."""
        if not table.started or table.finished:
            return None
        rules = table.rules
        clocks = table.clocks
        grace = rules.absence
        if clocks is None and grace is None:
            return None
        to_move = table.game.seats_to_move()
        found: Deadline | None = None
        for number, seat in enumerate(table.seats):
            candidates: list[Deadline] = []
            away = seat.away_since
            if away is not None and grace is not None:
                until = away + grace / 1000
                if not seat.absent:
                    candidates.append(Deadline(until, Due.ABSENT, number))
                elif (
                    number in to_move
                    and rules.on_absence is Absence.ENGINE
                    and self._others_here(table, number)
                ):
                    candidates.append(Deadline(until, Due.ENGINE, number))
            if clocks is not None and number in to_move:
                abort = first_move_at(clocks.seats[number], rules.first_move)
                if abort is not None:
                    candidates.append(Deadline(abort, Due.ABORT, number))
                flag = clocks.flag_at(number)
                if flag is not None:
                    candidates.append(Deadline(flag, Due.FLAG, number))
            for candidate in candidates:
                if found is None or candidate < found:
                    found = candidate
        return found

    @staticmethod
    def _others_here(table: Table, seat: int) -> bool:
        """Whether a connection holds some seat of ``table`` other than ``seat``: someone to
        go on with, for whom the engine takes an absent seat (T4, "so that the others can
        finish")."""
        return any(s.holder is not None for n, s in enumerate(table.seats) if n != seat)

    # -- what happens ---------------------------------------------------------------------------

    def clock_due(self, game_id: str, now: float) -> Result:
        """Carry out what is due by ``now`` (the server's monotonic seconds) in ``game_id``, the
        first of it only (the next comes with the next call): an abort, a flag, an ``absent``
        event or the engine's move for an absent seat. Its result is a move's: store commands,
        a pending change, events. Nothing is due (the game moved on since its deadline was
        asked for, or it is unknown): an empty result, naming the game when it is loaded so
        that the server asks for its :meth:`deadline` again."""
        self.now = now
        table = self.tables.get(game_id)
        if table is None or self.shutting_down:
            return Result()
        due = self._next_due(table)
        if due is None or due.at > now:
            return Result(games=(table.id,))
        return self._act(table, due, Result(games=(table.id,)))

    def _overdue(self, table: Table, seat: int, request: Request) -> Result | None:
        """When ``seat``'s own deadline has passed by ``self.now`` though the server has not
        acted on it yet (its move came late, and the deadline a moment before it): what the
        deadline does, answering ``request`` with its refusal; else ``None``."""
        clocks = table.clocks
        if clocks is None:
            return None
        now = self.now
        abort = first_move_at(clocks.seats[seat], table.rules.first_move)
        if abort is not None and now >= abort:
            due = Deadline(abort, Due.ABORT, seat)
            error = ProtocolError(
                ErrorCode.GAME_OVER,
                f"{table.id} is aborted: your first decision came after the first-move limit",
            )
        elif clocks.out_of_time(seat, now):
            due = Deadline(now, Due.FLAG, seat)
            if table.rules.timeout is Timeout.RESIGN:
                error = ProtocolError(ErrorCode.GAME_OVER, f"{table.id} is over: your time ran out")
            else:
                error = ProtocolError(
                    ErrorCode.NOT_YOUR_TURN, "your time ran out: the server decided for you"
                )
        else:
            return None
        error.request_id = request.id
        return self._act(table, due, Result(Response.failed(error), games=(table.id,)))

    def _act(self, table: Table, due: Deadline, result: Result) -> Result:
        """Make ``result`` carry out ``due`` in ``table``."""
        seat = due.seat
        match due.what:
            case Due.ABORT:
                log.info("game %s: seat %d did not make its first decision in time", table.id, seat)
                self._moved(
                    table, table.game, [], result, clocks=table.clocks, ply=False,
                    ending=Outcome.abortion(),
                )  # fmt: skip
            case Due.FLAG:
                self._flag(table, seat, result)
            case Due.ABSENT:
                self._mark_absent(table, seat, result)
            case Due.ENGINE:
                clocks = table.clocks
                if clocks is not None and clocks.out_of_time(seat, self.now):
                    self._flag(table, seat, result)
                else:
                    log.info("game %s: the engine plays for the absent seat %d", table.id, seat)
                    self._server_moves(table, seat, ABSENT, result)
        return result

    def _flag(self, table: Table, seat: int, result: Result) -> None:
        """``seat`` is out of time (T2): it resigns, or the server moves for it."""
        log.info("game %s: seat %d is out of time", table.id, seat)
        if table.rules.timeout is Timeout.AUTOPLAY:
            self._server_moves(table, seat, TIMEOUT, result)
            return
        assert table.clocks is not None
        clocks, charge = table.clocks.time_out(seat)
        entry: JSONObject = {
            "ply": None,
            "seat": seat,
            "spent_ms": charge.spent,
            "lag_ms": charge.lag_used,
            "by": TIMEOUT,
        }
        after = table.game.fork()
        events = after.resign(seat)
        outcome = after.outcome
        assert outcome is not None
        ending = attrs.evolve(outcome, timeout=seat)
        self._moved(
            table, after, events, result, clocks=clocks, entry=entry, ply=False, ending=ending
        )

    def _mark_absent(self, table: Table, seat: int, result: Result) -> None:
        """``seat`` has been away for the whole absence grace: everyone is told (no store call:
        presence is not stored)."""
        log.info("game %s: seat %d is absent", table.id, seat)

        def mark() -> None:
            table.seats[seat].absent = True
            result.deliveries += self._publish(table, [Event(None, Absent(seat))])

        result.pending = mark

    def _server_moves(self, table: Table, seat: int, by: str, result: Result) -> None:
        """The server moves for ``seat`` (``by`` says why: out of time, or absent): the
        engine's heuristic move, played and recorded as the seat's move would be, its
        timing saying who made it."""
        game = table.game
        after = game.fork()
        try:
            text, events = after.play_word(seat, self._server_move(table, seat))
        except GameError:
            # Neither the word nor the game's message is logged: they may name the seat's cards.
            log.error("game %s: the server's move for seat %d refused; a random legal move "
                      "played instead", table.id, seat)  # fmt: skip
            after = game.fork()
            text, events = after.play_word(seat, self._random_move(table, seat))
        clocks, entry = self._decide(table, seat, after, by)
        new_deal = self.snapshots and table.kind.new_deal(events)
        snapshot = self._snapshot(after) if new_deal else None
        timing = self._stored_timing(clocks, entry)
        result.store_calls.append(AddMove(table.id, seat, text, snapshot, timing))
        self._moved(table, after, events, result, clocks=clocks, entry=entry, mover=seat)

    def _server_move(self, table: Table, seat: int) -> str:
        """The engine's heuristic level's move for ``seat``, from its view alone (RULINGS
        H13), or a random legal move for a kind the engine does not play."""
        reference = table.kind.engine
        if reference is None:
            return self._random_move(table, seat)
        view = table.game.view_data(seat)
        try:
            position = reference.load().position(view)
            return position.heuristic_move(random.Random(view_seed(view)))
        except ValueError as error:
            log.error("game %s: no heuristic move for seat %d (%s)", table.id, seat,
                      type(error).__name__)  # fmt: skip
            return self._random_move(table, seat)

    @staticmethod
    def _random_move(table: Table, seat: int) -> str:
        """A legal move of ``seat`` drawn with a seed of its view (so that a replay of the same
        position draws the same)."""
        rng = random.Random(view_seed(table.game.view_data(seat)))
        legal = table.game.legal(seat)
        if isinstance(legal, MoveList):
            return rng.choice(legal.moves)
        return ",".join(rng.sample(legal.items, legal.count))

    # -- commands -------------------------------------------------------------------------------

    def _cmd_claim(
        self, session: Session, request: Request, args: list[str], options: dict[str, str]
    ) -> Result:
        table = self._table(args[0])
        seat = self._playable(session, table)
        if self.shutting_down:
            raise stopping()
        rules = table.rules
        if rules.on_absence is not Absence.CLAIM:
            raise ProtocolError(
                ErrorCode.ILLEGAL_MOVE,
                "nothing to claim: in this game the engine plays for an absent seat",
            )
        if rules.absence is None:
            raise ProtocolError(ErrorCode.ILLEGAL_MOVE, "claims are off in this game (absence=off)")
        others = [
            number
            for number, other in enumerate(table.seats)
            if number != seat and other.bot is None
        ]
        gone = [n for n in others if absent(table.seats[n].away_since, rules.absence, self.now)]
        if not gone:
            away = [n for n in others if table.seats[n].away_since is not None]
            if not away:
                raise ProtocolError(ErrorCode.ILLEGAL_MOVE, "nothing to claim: no seat is away")
            since = table.seats[away[0]].away_since
            assert since is not None
            waited = elapsed_ms(since, self.now) // 1000
            raise ProtocolError(
                ErrorCode.ILLEGAL_MOVE,
                f"seat {away[0]} has been away for {counted(waited, 'second')}; a claim needs "
                f"{counted(rules.absence // 1000, 'second')} (the absence grace)",
            )
        loser = gone[0]
        after = table.game.fork()
        events = after.resign(loser)
        outcome = after.outcome
        assert outcome is not None
        log.info("game %s: seat %d claims the game over the absent seat %d", table.id, seat,
                 loser)  # fmt: skip
        result = self._ok(request, {"game": table.id, "resigned": loser}, [f"resigned={loser}"])
        result.games = (table.id,)
        ending = attrs.evolve(outcome, claimed=True)
        self._moved(table, after, events, result, clocks=table.clocks, ply=False, ending=ending)
        return result

    def _cmd_time_left(
        self, session: Session, request: Request, args: list[str], options: dict[str, str]
    ) -> Result:
        table = self._table(args[0])
        clocks = table.clocks
        control = table.rules.control
        if clocks is None and control is not None:
            clocks = Clocks.start(control, len(table.seats))
        data: JSONObject = {"game": table.id}
        if clocks is None:
            data.update(control=None, running=[], left_ms=[], bank_ms=[], lag_ms=[])
        else:
            data.update(clocks.view(self.now))
        result = self._ok(request, data, fmt.lines(data))
        result.games = (table.id,)
        return result
