"""What the server's operator may ask of the lobby through the admin channel (issue 26;
``hipparchusd admin``, the server's :mod:`hipparchusd.server.admin`): every game at a glance,
one game whole (hidden cards included: this channel is the operator's, never a seat's), ending
a game with no winner, and maintenance (new games refused with the operator's message, games
in progress go on). A part of the :class:`~.core.Lobby`.

An operator's end is a change like a move: prepared here, recorded by the store, then
committed and announced (:class:`~.results.Result`), so that no follower is told of an end a
restart would undo.
"""

from __future__ import annotations

import logging

from ..games.base import EVERYONE, Event, GameOver, Outcome
from ..jsondata import JSON, JSONObject
from ..protocol import ErrorCode, ProtocolError
from ..records import EndGame
from .playing import Playing
from .results import Result, StopSearches
from .tables import Table

log = logging.getLogger("hipparchusd.lobby")


class Operator(Playing):
    """The operator's view and powers: a part of :class:`~.core.Lobby`."""

    def set_maintenance(self, message: str | None) -> None:
        """Refuse new games from now on with ``message`` (the operator's words, said to every
        ``new``), or accept them again (``None``); games in progress go on either way."""
        self.maintenance = message
        if message is None:
            log.info("maintenance off: new games accepted", extra={"event": "maintenance-off"})
        else:
            log.info("maintenance on: new games refused", extra={"event": "maintenance-on"})

    def game_counts(self) -> dict[str, int]:
        """The loaded games by status (``waiting``, ``playing``, ``over``)."""
        counts = {"waiting": 0, "playing": 0, "over": 0}
        for table in self.tables.values():
            counts[table.status] += 1
        return counts

    def in_progress(self) -> int:
        """Loaded games that have started and not ended: what a drain waits for."""
        return sum(1 for t in self.tables.values() if t.started and not t.finished)

    def overview(self) -> list[JSONObject]:
        """Every loaded game, oldest first: its id, kind, status, whether its deals were fixed,
        its seats (number, name, the engine's level if it plays it, and its
        :attr:`~.tables.Seat.presence`, ``None`` for a free seat) and how many spectators watch
        it. Names no card: the seats' hands are :meth:`show`'s."""
        return [self._overview(table) for table in self.tables.values()]

    def _overview(self, table: Table) -> JSONObject:
        seats: list[JSON] = [
            {
                "seat": number,
                "name": seat.name,
                "bot": seat.bot,
                "presence": seat.presence if seat.taken else None,
            }
            for number, seat in enumerate(table.seats)
        ]
        return {
            "game": table.id,
            "kind": table.kind.name,
            "status": table.status,
            "fixed_deal": table.game.fixed_deal,
            "seats": seats,
            "spectators": len(table.spectators),
        }

    def show(self, game_id: str) -> JSONObject:
        """The loaded game ``game_id`` whole, for its operator: :meth:`overview`'s fields, its
        options and ``seq``, the spectators' view, each seat's own view (its hand), and, once
        started, its record (every deal, face-down cards included).

        Raises:
            ProtocolError: ``unknown-game`` (none loaded; the message says when it is
                adjourned, in the store only).
        """
        table = self._table(game_id)
        data = self._overview(table)
        data["options"] = dict(table.options)
        data["seq"] = table.seq
        data["view"] = self._state(table, None)["view"]
        if table.started:
            game = table.game
            data["views"] = [game.view_data(number) for number in range(len(table.seats))]
            data["record"] = game.record_data()
        if table.ended is not None and table.ended.operator:
            data["operator"] = True
        if table.abandoned:
            data["abandoned"] = True
        return data

    def end_by_operator(self, game_id: str, reason: str) -> Result:
        """End the game ``game_id`` in progress as its operator asks, with no winner: the
        result's store command (:class:`~hipparchusd.records.EndGame`) records it with the
        game as it stood, its timing record (a timed game's decisions so far) and ``reason``;
        once that is stored, the game is over, its clocks stopped, and every
        follower gets ``game-over winners=- scores=- resigned=- operator=true``, its searches
        stop, and ``play``, ``legal`` and ``resign`` answer ``game-over``.

        Raises:
            ProtocolError: ``unknown-game`` (none loaded; the message says when it is
                adjourned), ``not-started`` (a game waiting for players: nothing to end; it is
                dropped once nobody follows it) or ``game-over`` (over already).
        """
        table = self._table(game_id)
        if not table.started:
            raise ProtocolError(
                ErrorCode.NOT_STARTED,
                f"{table.id} waits for players: nothing to end (it is dropped once nobody "
                "follows it)",
            )
        if table.finished:
            raise ProtocolError(ErrorCode.GAME_OVER, f"{table.id} is over already")
        outcome = Outcome.operator_end()
        timing = self._timing_record(table, table.decisions, outcome)
        result = Result(games=(table.id,))
        result.store_calls.append(EndGame(table.id, table.game.record_data(), reason, timing))
        clocks = None if table.clocks is None else table.clocks.stop()

        def end() -> None:
            table.ended = outcome
            table.clocks = clocks
            result.deliveries += self._publish(table, [Event(EVERYONE, GameOver.of(outcome))])
            result.engine.append(StopSearches(table.id))
            self._close(table)
            log.info(
                "game %s ended by the operator: no winner (%s)",
                table.id,
                reason or "no reason given",
                extra={"event": "game-ended-by-operator", "game": table.id},
            )

        result.pending = end
        return result
