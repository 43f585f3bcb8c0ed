"""The commands on games: ``new``, ``games``, ``state``, ``legal``, ``play``, ``resign`` and
``record`` (PROTOCOL.md section 5). A move is checked and played on a fork of the game, which
takes the game's place only once the store has recorded the move (:class:`~.results.Result`)."""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence

from ..games.base import (
    BadOption,
    Event,
    GameError,
    MoveList,
    Outcome,
    ServedGame,
    progress,
)
from ..jsondata import JSON, JSONObject
from ..protocol import ErrorCode, Mode, ProtocolError, Request, shown
from ..protocol import formatting as fmt
from ..records import AddMove, CreateGame, Finish, StoredGame
from ..wording import counted
from .base import LobbyBase, game_refusal, stopping
from .messages import Response
from .results import NeedsStoredGame, Result, StopSearches
from .tables import Lifecycle, Session, Table

log = logging.getLogger("hipparchusd.lobby")


class Playing(LobbyBase):
    """Creating games and playing them: a part of :class:`~.core.Lobby`."""

    def _cmd_new(
        self, session: Session, request: Request, args: list[str], options: dict[str, str]
    ) -> Result:
        kind = self.kinds.get(args[0])
        if kind is None:
            known = ", ".join(self.kinds)
            raise ProtocolError(ErrorCode.UNKNOWN_KIND, f"no game kind {shown(args[0])} ({known})")
        if self.shutting_down:
            raise stopping()
        try:
            game = kind.create(options)
        except BadOption as error:
            raise ProtocolError(ErrorCode.BAD_OPTION, str(error)) from None
        if self.active_games >= self.max_games:
            raise ProtocolError(
                ErrorCode.LIMIT, f"the server holds {counted(self.max_games, 'game')} (max-games)"
            )
        self._check_games_limits(session, None)
        # An id is used once, even by a game the store then refuses.
        game_id = self._new_game_id()
        table = Table.new(game_id, kind, game, options, self.clock())
        result = self._ok(request, {"game": game_id}, [f"game={game_id}"])
        result.store_calls.append(CreateGame(game_id, kind.name, dict(options), table.created_at))
        result.games = (game_id,)

        def create() -> None:
            self.tables[game_id] = table
            session.created.add(game_id)
            log.info("game %s created (%s, fixed_deal=%s)", game_id, kind.name, game.fixed_deal)

        result.pending = create
        return result

    def _summary(self, table: Table) -> JSONObject:
        return {
            "game": table.id,
            "kind": table.kind.name,
            "status": table.status,
            "players": list(table.names),
            "fixed_deal": table.game.fixed_deal,
        }

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
        if table.abandoned:
            # Its game never ended by its rules and would still offer moves (RULINGS H14).
            raise ProtocolError(ErrorCode.GAME_OVER, f"{table.id} is over (abandoned)")
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

    def _playable(self, s: Session, table: Table) -> int:
        seat = self._seat(s, table)
        if not table.started:
            raise ProtocolError(ErrorCode.NOT_STARTED, f"{table.id} waits for players")
        if table.finished or table.game.outcome is not None:
            why = " (abandoned)" if table.abandoned else ""
            raise ProtocolError(ErrorCode.GAME_OVER, f"{table.id} is over{why}")
        return seat

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
        try:
            after = game.fork()
            text, events = after.play_word(seat, args[1])
        except GameError as error:
            raise game_refusal(error) from None
        # A new deal is stored with the move that makes it (GameStore); a store that keeps no
        # snapshots spares every move the scan of its events.
        new_deal = self.snapshots and table.kind.new_deal(events)
        snapshot = self._snapshot(after) if new_deal else None
        result = Result(
            Response(request.id, {"game": table.id, "move": text}, [text]),
            [AddMove(table.id, seat, text, snapshot)],
            games=(table.id,),
        )
        self._moved(table, after, events, result)
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
        self._moved(table, after, events, result)
        return result

    def _moved(
        self, table: Table, after: ServedGame, events: Sequence[Event], result: Result
    ) -> None:
        """Complete ``result`` of a move or resignation made on ``after``, a fork of the
        table's game that caused ``events``: the finished game's record to store, and the
        pending change that puts ``after`` in the game's place and publishes ``events``, then
        the generic ``to-move`` or ``game-over``."""
        outcome = after.outcome
        if outcome is not None:
            result.store_calls.append(Finish(table.id, self._snapshot(after)))

        def move() -> None:
            table.game = after
            result.deliveries += self._publish(table, [*events, progress(after)])
            if outcome is not None:
                self._ended(table, outcome)
                result.engine.append(StopSearches(table.id))
            else:
                result.engine += self._bot_turns(table)

        result.pending = move

    def _ended(self, table: Table, outcome: Outcome) -> None:
        table.enter(Lifecycle.OVER)
        winners = ",".join(map(str, outcome.winners))
        resigned = "" if outcome.resigned is None else f", seat {outcome.resigned} resigned"
        log.info("game %s ended: won by seat %s%s", table.id, winners, resigned)
        self._finished.append(table.id)
        while len(self._finished) > self.finished_kept:
            self._forget(self._finished.popleft())

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
        return self._ok(request, data, fmt.lines(data))
