"""Where a game's moves meet its clocks (RULINGS T1-T6; PROTOCOL.md, "Clocks"): the time
options read from ``new``'s options, the clocks started with the game, each decision charged,
the ``to-move`` event that carries the seats' time, the timing record kept for ``record`` and
the store, and the change a move or a resignation makes (:meth:`Timing._moved`). A part of the
:class:`~.core.Lobby`.

Time comes in as an argument: ``self.now``, the monotonic seconds the server gave with the
call being handled (``Lobby.prepare``, ``clock_due``...). A result's change, made later by its
commit, never reads it: what it needs of the time is worked out when the result is prepared.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Final

import attrs

from ..clocks import (
    TIME_KEYS,
    Clocks,
    TimeRules,
    decision_budget,
    format_duration,
    split_options,
)
from ..clocks.control import ABSENCE_TIMED_MS, ABSENCE_UNTIMED_MS, FIRST_MOVE_MS
from ..engine.types import Level, within
from ..games.base import BadOption, Event, GameKind, GameOver, Option, Outcome, ServedGame
from ..games.base import progress as game_progress
from ..jsondata import JSON, JSONObject
from ..records import Finish
from .base import LobbyBase
from .messages import TimedToMove
from .results import BotTurn, Result, StopSearches
from .tables import Lifecycle, Table

log = logging.getLogger("hipparchusd.lobby")

#: Who made a decision, as the timing record says (``by``): the seat's own player (a person
#: or the daemon's engine playing the seat), or the server for a seat out of time (T2) or
#: absent (T4).
PLAYER: Final = "player"
TIMEOUT: Final = "timeout"
ABSENT: Final = "absent"


def time_options(kind: GameKind) -> list[Option]:
    """The time options every game kind takes besides its own (``help new``), with ``kind``'s
    defaults."""
    untimed, timed = format_duration(ABSENCE_UNTIMED_MS), format_duration(ABSENCE_TIMED_MS)
    first = format_duration(FIRST_MOVE_MS)
    return [
        Option(
            "clock",
            "<bank>[+<increment>][,<cap>/move]|<cap>/move",
            "a time control, e.g. 5m+3s, 30s/move or 3d/move (units s, m, h, d)",
            "untimed",
        ),
        Option(
            "timeout",
            "resign|autoplay",
            "a seat out of time resigns, or the server plays for it and the game goes on",
            kind.timeout.value,
        ),
        Option(
            "absence",
            "<duration>|off",
            "how long a seat may stay away before "
            + (
                "its opponent may claim the game"
                if kind.on_absence.value == "claim"
                else "the engine plays for it"
            ),
            f"{timed} timed, {untimed} untimed, off by days/move",
        ),
        Option(
            "first_move",
            "<duration>|off",
            "a timed game whose seat does not make its first decision this soon is aborted",
            f"{first}, or the first decision's time if less",
        ),
    ]


def time_rules(kind: GameKind, options: Mapping[str, str]) -> tuple[TimeRules, dict[str, str]]:
    """The time options among ``new``'s ``options`` (with ``kind``'s defaults), and the
    options left for the kind itself.

    Raises:
        BadOption: a key neither the kind's nor a time option (the message names them all),
            or a time option is refused (the message says why).
    """
    kind.check_options(options, also=TIME_KEYS)
    try:
        return split_options(options, timeout=kind.timeout, on_absence=kind.on_absence)
    except ValueError as error:
        raise BadOption(str(error)) from None


def ending_data(outcome: Outcome | None) -> JSONObject:
    """The keys that say how the server ended a game by its clocks or an absence (for
    ``state``, ``record`` and the timing record): ``aborted``, ``timeout``, ``claimed``, each
    only when it applies; empty for any other ending."""
    data: JSONObject = {}
    if outcome is None:
        return data
    if outcome.aborted:
        data["aborted"] = True
    if outcome.timeout is not None:
        data["timeout"] = outcome.timeout
    if outcome.claimed:
        data["claimed"] = True
    return data


def ending_from(timing: JSON, game: ServedGame) -> Outcome | None:
    """The outcome a stored timing record gives a finished game: the abort, or the game's own
    resignation as a flag or a claim; ``None`` when the record ended it otherwise."""
    if not isinstance(timing, dict):
        return None
    if timing.get("aborted") is True:
        return Outcome.abortion()
    outcome = game.outcome
    if outcome is None:
        return None
    timeout = timing.get("timeout")
    if type(timeout) is int and timeout == outcome.resigned:
        return attrs.evolve(outcome, timeout=timeout)
    if timing.get("claimed") is True and outcome.resigned is not None:
        return attrs.evolve(outcome, claimed=True)
    return None


class Timing(LobbyBase):
    """Moves and their clocks: a part of :class:`~.core.Lobby`, under the parts that play and
    seat."""

    def _start_clocks(self, table: Table, game: ServedGame, now: float) -> Clocks | None:
        """The clocks of ``table``'s game as ``game`` starts at ``now`` (``None`` untimed):
        every bank full, the seats to move deciding."""
        control = table.rules.control
        if control is None:
            return None
        return Clocks.start(control, game.seat_count).run(game.seats_to_move(), now)

    def _decide(
        self, table: Table, seat: int, after: ServedGame, by: str = PLAYER
    ) -> tuple[Clocks | None, JSONObject | None]:
        """The clocks once ``seat``'s decision at ``self.now`` led to ``after`` (``None``
        untimed), and the timing record's entry for it (``None`` for an untimed game's own
        move): ``by`` the seat's player, or the server for it out of time (all its time is
        charged) or absent. The seats ``after`` has to move decide from now on."""
        clocks = table.clocks
        entry: JSONObject = {"ply": table.plies + 1, "seat": seat}
        if clocks is None:
            if by == PLAYER:
                return None, None
            entry["by"] = by
            return None, entry
        if by == TIMEOUT:
            clocks, charge = clocks.time_out(seat)
        else:
            clocks, charge = clocks.decide(seat, self.now)
        clocks = clocks.run(() if after.outcome is not None else after.seats_to_move(), self.now)
        entry.update(spent_ms=charge.spent, lag_ms=charge.lag_used, by=by)
        return clocks, entry

    @staticmethod
    def _stored_timing(clocks: Clocks | None, entry: JSONObject | None) -> JSON:
        """What the store keeps with a move (``AddMove.timing``): its timing record's entry
        and, timed, every seat's clock after it (RULINGS T6); ``None`` for neither."""
        if entry is None:
            return None
        if clocks is None:
            return entry
        return {**entry, "clocks": clocks.stored()}

    def _progress(self, after: ServedGame, clocks: Clocks | None) -> Event:
        """The generic event after a change that led to ``after``: ``game-over``, or
        ``to-move``, which in a timed game gives the time each seat to move has left now."""
        if clocks is None or after.outcome is not None:
            return game_progress(after)
        seats = tuple(sorted(after.seats_to_move()))
        left = tuple(clocks.left_at(seat, self.now) for seat in seats)
        return Event(None, TimedToMove(seats, left))

    @staticmethod
    def _timing_record(
        table: Table, decisions: Sequence[JSONObject], ending: Outcome | None
    ) -> JSONObject | None:
        """The timing record of ``table`` with ``decisions`` (``record``'s ``timing``, and
        what ``Finish`` keeps): the ``control`` (``None`` untimed) and each decision the
        clocks timed or the server made, and how the server ended the game if it did
        (:func:`ending_data`); ``None`` for an untimed game the server never played for."""
        ended = ending_data(ending)
        if table.rules.control is None and not decisions and not ended:
            return None
        control = table.rules.control
        return {
            "control": None if control is None else str(control),
            "decisions": list(decisions),
            **ended,
        }

    def _moved(
        self,
        table: Table,
        after: ServedGame,
        events: Sequence[Event],
        result: Result,
        *,
        clocks: Clocks | None,
        entry: JSONObject | None = None,
        ply: bool = True,
        ending: Outcome | None = None,
        mover: int | None = None,
    ) -> None:
        """Complete ``result`` of a change made on ``after`` (a fork of the table's game, or
        the game itself for an abort) that caused ``events``: a move (``ply``) or not (a
        resignation, a flag that resigns, an abort), with the table's ``clocks`` after it and
        the timing record's new ``entry`` if any; ``ending``, the outcome the server gives the
        game in place of its own (a flag, a claim, an abort); ``mover``, the seat whose
        decision it was, if any (its :attr:`~.tables.Seat.turn` counts it, and an engine's
        search for it, if any, is no longer its current one). Adds the finished game's record
        to store, and the pending change that puts ``after`` in the game's place and
        publishes ``events``, then the generic ``to-move`` or ``game-over``."""
        outcome = ending if ending is not None else after.outcome
        if outcome is not None:
            final = Event(None, GameOver.of(outcome))
            decisions = [*table.decisions, entry] if entry is not None else table.decisions
            timing = self._timing_record(table, decisions, ending)
            result.store_calls.append(Finish(table.id, self._snapshot(after), timing))
            clocks = None if clocks is None else clocks.stop()
        else:
            final = self._progress(after, clocks)

        def move() -> None:
            table.game = after
            table.clocks = clocks
            if ply:
                table.plies += 1
            if entry is not None:
                table.decisions.append(entry)
            if ending is not None:
                table.ended = ending
            if mover is not None:
                decided = table.seats[mover]
                decided.turn += 1
                decided.thinking = False
            result.deliveries += self._publish(table, [*events, final])
            if outcome is not None:
                self._ended(table, outcome)
                result.engine.append(StopSearches(table.id))
            else:
                result.engine += self._bot_turns(table)

        result.pending = move

    def _bot_turns(self, table: Table) -> list[BotTurn]:
        """The searches to start for the engine's seats that must move in ``table`` now and
        are not searching yet (each is marked ``thinking`` until its move is played). Each
        search sees only its seat's view (RULINGS H13); in a timed game its budget is its
        share of the seat's clock (T1)."""
        # ``bot_seats`` is empty until the game starts; most games have no engine seat.
        if not table.bot_seats or table.finished or table.game.outcome is not None:
            return []
        turns: list[BotTurn] = []
        game = table.game
        clocks = table.clocks
        for number in game.seats_to_move():
            seat = table.seats[number]
            if seat.bot is not None and not seat.thinking:
                seat.thinking = True
                view = game.view_data(number)
                level, until = seat.bot, None
                if clocks is not None:
                    level, until = self._clocked(clocks, number, game, seat.bot)
                kind, address = table.kind.name, table.creator_address or ""
                turns.append(
                    BotTurn(table.id, number, kind, view, level, seat.turn, until, address)
                )
        return turns

    def _clocked(
        self, clocks: Clocks, seat: int, game: ServedGame, level_word: str
    ) -> tuple[str, float | None]:
        """``level_word`` within ``seat``'s share of its clock for its current decision
        (:func:`~hipparchusd.clocks.decision_budget`), and when that share ends (the
        server's monotonic seconds): the whole decision, its wait for a worker included, keeps
        within it, so that however long searches queue the seat spends its bank no faster
        than it planned to."""
        clock = clocks.seats[seat]
        control = clocks.control
        spent = clocks.elapsed(seat, self.now)
        bank = None if clock.left is None else clock.left - spent
        cap = None if control.cap is None else control.cap - spent
        budget = decision_budget(bank, cap, control.increment, game.decisions_left(seat))
        return str(within(Level.parse(level_word), budget)), self.now + budget / 1000

    def _ended(self, table: Table, outcome: Outcome) -> None:
        if outcome.aborted:
            log.info(
                "game %s aborted: a seat did not make its first decision in time",
                table.id,
                extra={"event": "game-aborted", "game": table.id},
            )
        elif outcome.abandoned:
            log.info(
                "game %s ended as abandoned: no winner",
                table.id,
                extra={"event": "game-abandoned", "game": table.id},
            )
        else:
            winners = ",".join(map(str, outcome.winners))
            how = ""
            if outcome.timeout is not None:
                how = f", seat {outcome.timeout} out of time"
            elif outcome.claimed:
                how = f", claimed over the absent seat {outcome.resigned}"
            elif outcome.resigned is not None:
                how = f", seat {outcome.resigned} resigned"
            log.info(
                "game %s ended: won by seat %s%s",
                table.id,
                winners,
                how,
                extra={"event": "game-ended", "game": table.id},
            )
        self._close(table)

    def _close(self, table: Table) -> None:
        """The game of ``table`` is over: kept for ``record`` and ``state`` among the
        ``finished_kept`` last finished ones."""
        table.enter(Lifecycle.OVER)
        self._finished.append(table.id)
        while len(self._finished) > self.finished_kept:
            self._forget(self._finished.popleft())
