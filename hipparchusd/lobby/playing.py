"""The commands on games: ``new``, ``games``, ``state``, ``legal``, ``play``, ``resign`` and
``record`` (PROTOCOL.md section 5). A move is checked and played on a fork of the game, which
takes the game's place only once the store has recorded the move (:class:`~.results.Result`)."""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence

from ..games.base import (
    BadOption,
    GameError,
    MoveList,
)
from ..jsondata import JSON, JSONObject
from ..protocol import ErrorCode, Mode, ProtocolError, Request, shown
from ..protocol import formatting as fmt
from ..records import AddMove, CreateGame, StoredGame
from ..wording import counted
from .base import game_refusal, stopping, why_over
from .deadlines import Deadlines
from .messages import Response
from .results import NeedsStoredGame, Result
from .tables import Session, Table
from .timing import ending_data, time_rules

log = logging.getLogger("hipparchusd.lobby")


class Playing(Deadlines):
    """Creating games and playing them: a part of :class:`~.core.Lobby` (over the part that
    keeps their deadlines, whose flags a late move meets)."""

    def _cmd_new(
        self, session: Session, request: Request, args: list[str], options: dict[str, str]
    ) -> Result:
        kind = self.kinds.get(args[0])
        if kind is None:
            known = ", ".join(self.kinds)
            raise ProtocolError(ErrorCode.UNKNOWN_KIND, f"no game kind {shown(args[0])} ({known})")
        if self.shutting_down:
            raise stopping()
        if self.maintenance is not None:
            raise ProtocolError(ErrorCode.MAINTENANCE, self.maintenance)
        try:
            rules, game_options = time_rules(kind, options)
            game = kind.create(game_options)
        except BadOption as error:
            raise ProtocolError(ErrorCode.BAD_OPTION, str(error)) from None
        if self.active_games >= self.max_games:
            raise ProtocolError(
                ErrorCode.LIMIT,
                f"the server holds {counted(self.max_games, 'game')} (max-games)",
                limit="max-games",
            )
        self._check_games_limits(session, None)
        # An id is used once, even by a game the store then refuses.
        game_id = self._new_game_id()
        table = Table.new(game_id, kind, game, options, self.clock(), rules)
        result = self._ok(request, {"game": game_id}, [f"game={game_id}"])
        result.store_calls.append(CreateGame(game_id, kind.name, dict(options), table.created_at))
        result.games = (game_id,)

        def create() -> None:
            self.tables[game_id] = table
            table.creator, table.creator_address = session.id, session.address
            session.created.add(game_id)
            log.info("game %s created (%s, fixed_deal=%s)", game_id, kind.name, game.fixed_deal)

        result.pending = create
        return result

    def _summary(self, table: Table) -> JSONObject:
        summary: JSONObject = {
            "game": table.id,
            "kind": table.kind.name,
            "status": table.status,
            "players": list(table.names),
            "fixed_deal": table.game.fixed_deal,
        }
        control = table.rules.control
        if control is not None:
            summary["clock"] = str(control)
        return summary

    def game_summaries(self) -> list[JSONObject]:
        """What ``games`` says of each loaded game not finished, in the order they came."""
        return [self._summary(t) for t in self.tables.values() if not t.finished]

    def games_answer(self, request: Request, summaries: Sequence[JSONObject]) -> Result:
        """The answer to ``games`` listing ``summaries`` (:meth:`game_summaries`: this lobby's,
        or those of every daemon sharing its store, issue 28)."""
        return self._ok(request, {"games": [*summaries]}, [fmt.words(x) for x in summaries])

    def _cmd_games(
        self, session: Session, request: Request, args: list[str], options: dict[str, str]
    ) -> Result:
        return self.games_answer(request, self.game_summaries())

    def _cmd_state(
        self, session: Session, request: Request, args: list[str], options: dict[str, str]
    ) -> Result:
        table = self._table(args[0])
        return self._state_result(request, table, session.seats.get(table.id))

    def _cmd_legal(
        self, session: Session, request: Request, args: list[str], options: dict[str, str]
    ) -> Result:
        table = self._table(args[0])
        seat = self._seat(session, table)
        if not table.started:
            raise ProtocolError(ErrorCode.NOT_STARTED, f"{table.id} waits for players")
        if table.abandoned or table.ended is not None:
            # Its game never ended by its rules (RULINGS H14, T5, an operator's end) or ended
            # by the server's clocks (T2, T4), and its own state may still offer moves.
            raise ProtocolError(ErrorCode.GAME_OVER, f"{table.id} is over{why_over(table)}")
        # The JSON form (e.g. clump positions) is made now, for a JSON-mode connection only: the
        # answer waits behind the game's earlier results (their events come first, as for
        # ``state``), and by then the position may have moved on.
        json_mode = session.mode is Mode.JSON
        legal = table.game.legal(seat, describe=json_mode)
        data: JSONObject = {}
        if isinstance(legal, MoveList):
            if json_mode:
                data = {"game": table.id, "moves": list(legal.described)}
            texts = fmt.join_lines([" ".join(legal.moves)])
        else:
            to: list[JSON] | None = None if legal.to is None else list(legal.to)
            if json_mode:
                data = {"game": table.id, "pick": legal.count, "of": list(legal.items), "to": to}
            words = ["pick", str(legal.count), *legal.items]
            if to is not None:
                words.append("to=" + ",".join(map(str, to)))
            texts = fmt.join_lines([" ".join(words)])
        return Result(Response(request.id, data, texts), games=(table.id,))

    def _cmd_play(
        self, session: Session, request: Request, args: list[str], options: dict[str, str]
    ) -> Result:
        table = self._table(args[0])
        seat = self._playable(session, table)
        if self.shutting_down:
            raise stopping()
        game = table.game
        if seat not in game.seats_to_move():
            raise ProtocolError(ErrorCode.NOT_YOUR_TURN, game.turn_refusal(seat))
        if table.clocks is not None:
            # Past the seat's deadline, which the server has not acted on yet: it acts now.
            overdue = self._overdue(table, seat, request)
            if overdue is not None:
                return overdue
        try:
            after = game.fork()
            text, events = after.play_word(seat, args[1])
        except GameError as error:
            raise game_refusal(error) from None
        # A new deal is stored with the move that makes it (GameStore); a store that keeps no
        # snapshots spares every move the scan of its events.
        new_deal = self.snapshots and table.kind.new_deal(events)
        snapshot = self._snapshot(after) if new_deal else None
        clocks, entry = self._decide(table, seat, after)
        result = Result(
            Response(request.id, {"game": table.id, "move": text}, [text]),
            [AddMove(table.id, seat, text, snapshot, self._stored_timing(clocks, entry))],
            games=(table.id,),
        )
        self._moved(table, after, events, result, clocks=clocks, entry=entry, mover=seat)
        return result

    def _cmd_resign(
        self, session: Session, request: Request, args: list[str], options: dict[str, str]
    ) -> Result:
        table = self._table(args[0])
        seat = self._playable(session, table)
        try:
            after = table.game.fork()
            events = after.resign(seat)
        except GameError as error:
            raise game_refusal(error) from None
        result = self._ok(request, {})
        result.games = (table.id,)
        self._moved(table, after, events, result, clocks=table.clocks, ply=False)
        return result

    def _cmd_record(
        self, session: Session, request: Request, args: list[str], options: dict[str, str]
    ) -> Result:
        game_id = args[0]
        table = self.tables.get(game_id)
        if table is None:
            # Refused unless the store still holds the game, finished: the shell asks it.
            error = self._unknown_game(game_id)
            error.request_id = request.id
            answer = functools.partial(self.stored_record, request)
            return Result(Response.failed(error), needs=NeedsStoredGame(game_id, answer))
        if not table.finished:
            raise ProtocolError(ErrorCode.GAME_NOT_OVER, f"{table.id} is not over")
        data: JSONObject = {
            "game": table.id,
            "kind": table.kind.name,
            "options": dict(table.options),
            "players": list(table.names),
            "record": table.game.record_data(),
        }
        if table.abandoned:
            data["abandoned"] = True
        if table.ended is not None and table.ended.operator:
            data["operator"] = True
        timing = self._timing_record(table, table.decisions, table.ended)
        if timing is not None:
            data["timing"] = timing
            data.update(ending_data(table.ended))
        return self._ok(request, data, fmt.lines(data))

    def stored_record(self, request: Request, stored: StoredGame) -> Result:
        """The answer to ``record`` for a finished game that only the store still holds (after
        a restart, or once the lobby has forgotten it): ``stored`` from
        ``GameStore.load_finished``, whose snapshot is the final record (with ``abandoned``
        for a game ended as abandoned, RULINGS H14)."""
        players: list[JSON] = [None] * (max((s.seat for s in stored.seats), default=-1) + 1)
        for seat in stored.seats:
            players[seat.seat] = seat.name
        data: JSONObject = {
            "game": stored.game_id,
            "kind": stored.kind,
            "options": dict(stored.options),
            "players": players,
            "record": stored.snapshot,
        }
        if stored.abandoned:
            data["abandoned"] = True
        if stored.operator_end is not None:
            data["operator"] = True
        if isinstance(stored.timing, dict):
            data["timing"] = stored.timing
            for key in ("aborted", "timeout", "claimed"):
                if key in stored.timing:
                    data[key] = stored.timing[key]
        return self._ok(request, data, fmt.lines(data))
