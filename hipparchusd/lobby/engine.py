"""The engine's commands (issue 18; PROTOCOL.md section 9): ``bot`` seats the daemon's engine,
``genmove`` asks it for the caller's move, ``analyze`` streams its search, ``stop`` ends the
stream. The lobby never searches and never waits: it asks the shell for a search through the
result (:class:`~.results.NeedsSearch`, :data:`~.results.EngineJob`), and the engine's moves
come back through :meth:`Engine.bot_play`, as any seat's ``play``.

What a search sees is exactly the seat's view (``ServedGame.view_data(seat)``), so it cannot
leak another seat's cards (RULINGS H13): the engine's answer names only that seat's moves.
"""

from __future__ import annotations

import functools
import logging
import re

from ..engine.types import LADDER, SEARCHING, Analysis, Budget, Level
from ..games.base import EVERYONE, Event, GameError, GameKind, GameOver, MoveList, Outcome
from ..jsondata import JSONObject
from ..protocol import ErrorCode, ProtocolError, Request
from ..protocol import formatting as fmt
from ..records import Abandon, AddMove
from .base import stopping
from .messages import EventMessage, Response
from .playing import Playing
from .results import AnalysisStream, BotTurn, NeedsSearch, Result, StopSearches
from .seating import Seating
from .tables import Session, Table

log = logging.getLogger("hipparchusd.lobby")

_INTERVAL = re.compile(r"[1-9][0-9]{0,6}")

#: The shortest ``interval=`` of ``analyze`` (milliseconds): a report is a line per move.
MIN_INTERVAL_MS = 50
#: The default ``interval=`` of ``analyze`` (milliseconds).
DEFAULT_INTERVAL_MS = 500


class Engine(Seating, Playing):
    """The engine's commands: a part of :class:`~.core.Lobby` (over the seating and playing
    parts, whose seats and moves it shares). ``max_search_ms`` and
    ``max_search_playouts`` (set by ``Lobby.__init__``) bound every budget asked for;
    ``max_engine_games_per_connection`` and ``max_engine_games_per_address`` the games only the
    engine plays that one connection, and one address, may have started and not finished
    (issue 24 item 6)."""

    max_search_ms: int
    max_search_playouts: int
    max_engine_games_per_connection: int
    max_engine_games_per_address: int

    # -- budgets and levels -----------------------------------------------------------------

    @staticmethod
    def levels_for(kind: GameKind) -> tuple[str, ...]:
        """The level words ``bot`` offers for games of ``kind``, weakest first (``kinds``
        lists them, so that a client offers what this server plays, PROTOCOL.md section 5):
        the engine's ladder for a kind the engine plays, none for another."""
        return LADDER if kind.engine is not None else ()

    def _budget_level(self, word: str | None, default_ms: int) -> Level:
        """The ``ismcts`` level of a budget word (``200ms``, ``5000`` playouts, or
        ``200ms,5000``), ``default_ms`` milliseconds without one; ``syntax`` for a bad word,
        ``limit`` beyond the server's maximum budget."""
        if word is None:
            return Level("ismcts", Budget(millis=min(default_ms, self.max_search_ms)))
        try:
            level = Level.parse(f"ismcts:{word}")
        except ValueError:
            raise ProtocolError(
                ErrorCode.SYNTAX,
                f"{word[:40]!r} is not a budget (e.g. 200ms, 100cpu, 5000 playouts, or 200ms,5000)",
            ) from None
        return self._within_limits(level)

    def _within_limits(self, level: Level) -> Level:
        """``level``, refused with ``limit`` when its budget exceeds the server's maximum."""
        budget = level.budget
        if level.name not in SEARCHING:
            return level
        if budget.millis is not None and budget.millis > self.max_search_ms:
            raise ProtocolError(
                ErrorCode.LIMIT,
                f"a search takes at most {self.max_search_ms}ms here",
                limit="max-search-ms",
            )
        if budget.cpu_millis is not None and budget.cpu_millis > self.max_search_ms:
            raise ProtocolError(
                ErrorCode.LIMIT, f"a search takes at most {self.max_search_ms}cpu here"
            )
        if budget.playouts is not None and budget.playouts > self.max_search_playouts:
            raise ProtocolError(
                ErrorCode.LIMIT,
                f"a search makes at most {self.max_search_playouts} playouts here",
                limit="max-search-playouts",
            )
        return level

    def _mover(self, session: Session, table: Table) -> int:
        """The caller's seat, which must move now (``not-seated``, ``not-started``,
        ``game-over``, ``not-your-turn``)."""
        seat = self._seat(session, table)
        if not table.started:
            raise ProtocolError(ErrorCode.NOT_STARTED, f"{table.id} waits for players")
        if table.game.outcome is not None:
            raise ProtocolError(ErrorCode.GAME_OVER, f"{table.id} is over")
        if seat not in table.game.seats_to_move():
            raise ProtocolError(ErrorCode.NOT_YOUR_TURN, "it is not your turn")
        return seat

    # -- bot ----------------------------------------------------------------------------------

    def _cmd_bot(
        self, session: Session, request: Request, args: list[str], options: dict[str, str]
    ) -> Result:
        table = self._table(args[0])
        self._only_options(options, "level", "name")
        try:
            level = Level.parse(options.get("level", "ismcts"))
        except ValueError as error:
            raise ProtocolError(ErrorCode.BAD_OPTION, str(error)) from None
        level = self._within_limits(level)
        name = options["name"] if "name" in options else self._bot_name(table, level.name)
        self._check_name(name)
        if self.shutting_down:
            raise stopping()
        seat = self._free_seat(table, self._seat_word(table, args))
        others = [seat_state for number, seat_state in enumerate(table.seats) if number != seat]
        engine_only = all(other.bot is not None for other in others)
        if engine_only:
            # The last seat, all the others the engine's: it starts a game only the engine
            # plays, which counts for its creator (or for this connection, if that is unknown).
            self._check_engine_games(session, table)
        result = self._take_seat(request, table, seat, name, None, str(level))
        if engine_only and table.creator is None:
            take_seat = result.pending
            assert take_seat is not None

            def own_and_take_seat() -> None:
                table.creator, table.creator_address = session.id, session.address
                take_seat()

            result.pending = own_and_take_seat
        return result

    def _check_engine_games(self, session: Session, table: Table) -> None:
        """Refuse with ``limit`` a game only the engine plays (``table``, about to start) when
        its creator's connection, or its address (unless trusted), has as many started and
        not finished as it may."""
        creator = session.id if table.creator is None else table.creator
        address = session.address if table.creator_address is None else table.creator_address
        running = [
            other
            for other in self.tables.values()
            if other.started and not other.finished and other.engine_only
        ]
        limit = self.max_engine_games_per_connection
        if sum(other.creator == creator for other in running) >= limit:
            raise ProtocolError(
                ErrorCode.LIMIT,
                f"{table.id}'s creator has {limit} games only the engine plays going on "
                "(max-engine-games-per-connection); end one ('end <game>') or let one finish",
            )
        limit = self.max_engine_games_per_address
        if address not in self.trusted and (
            sum(other.creator_address == address for other in running) >= limit
        ):
            raise ProtocolError(
                ErrorCode.LIMIT,
                f"connections from {table.id}'s creator's address have {limit} games only the "
                "engine plays going on (max-engine-games-per-address); end one or let one finish",
            )

    def _cmd_end(
        self, session: Session, request: Request, args: list[str], options: dict[str, str]
    ) -> Result:
        table = self._table(args[0])
        if table.creator != session.id:
            raise ProtocolError(
                ErrorCode.NOT_SEATED, f"only the connection that created {table.id} may end it"
            )
        if not table.started:
            raise ProtocolError(ErrorCode.NOT_STARTED, f"{table.id} waits for players")
        if table.finished:
            raise ProtocolError(ErrorCode.GAME_OVER, f"{table.id} is over")
        if not table.engine_only:
            raise ProtocolError(
                ErrorCode.NOT_SEATED,
                f"{table.id} has a player's seat: only a game the engine alone plays is ended so",
            )
        result = self._ok(request, {})
        result.games = (table.id,)
        # No activity check (``None``): the game is loaded here, and this holds its order.
        result.store_calls.append(Abandon(table.id, table.game.record_data(), None))
        outcome = Outcome.abandonment()

        def end() -> None:
            table.abandoned = True
            result.deliveries += self._publish(table, [Event(EVERYONE, GameOver.of(outcome))])
            self._ended(table, outcome)
            result.engine.append(StopSearches(table.id))

        result.pending = end
        return result

    @staticmethod
    def _bot_name(table: Table, level: str) -> str:
        """An engine seat's default name: ``bot-<level>`` (``bot-heuristic``), else
        ``bot-<level>-2``, ``-3``... the first that no seat of ``table`` has, so that two
        engine seats of one level are told apart."""
        base = f"bot-{level}"
        names = {seat.name for seat in table.seats}
        number = 1
        name = base
        while name in names:
            number += 1
            name = f"{base}-{number}"
        return name

    def bot_turns(self, game_id: str) -> list[BotTurn]:
        """The searches to start for the engine's seats of ``game_id`` that must move and are
        not searching (after a restart, or a game brought back); none for an unknown game."""
        table = self.tables.get(game_id)
        return [] if table is None else self._bot_turns(table)

    def bot_play(
        self,
        game_id: str,
        seat: int,
        word: str | None,
        turn: int | None = None,
        now: float = 0.0,
    ) -> Result:
        """The engine's seat ``seat`` of ``game_id`` plays ``word``, which its search for the
        seat's decision ``turn`` chose (:attr:`~.tables.Seat.turn`; ``None``: the current one;
        ``word`` ``None``: no search was made, its clock left no time for one, and the
        heuristic's move is played, worked out at once),
        at ``now`` (the server's monotonic seconds): as ``play``, with the same rules, clocks,
        store commands and events, and no response. Nothing happens when the game is gone or
        over, the seat need not move now, or the decision was made meanwhile (the server made
        it for a seat out of time: a new search is asked for if the seat must move again). A
        move the game refuses (an engine bug) is logged and the seat's first legal move is
        played instead, so that the game goes on."""
        self.now = now
        table = self.tables.get(game_id)
        if table is None or table.finished:
            return Result()
        state = table.seats[seat]
        if turn is not None and turn != state.turn:
            # Found for a decision already made: the seat's current one has its own search,
            # or gets one now.
            return Result(games=(table.id,), engine=[*self._bot_turns(table)])
        if state.bot is None or seat not in table.game.seats_to_move() or self.shutting_down:
            state.thinking = False
            return Result()
        if table.clocks is not None and table.clocks.out_of_time(seat, now):
            # Too late: the flag falls now, as the server's deadline would have made it.
            result = Result(games=(table.id,))
            self._flag(table, seat, result)
            return result
        if word is None:
            word = self._server_move(table, seat)
        try:
            after = table.game.fork()
            text, events = after.play_word(seat, word)
        except GameError:
            # Neither the word nor the game's message is logged: they may name the seat's cards.
            log.error("game %s: the engine's move for seat %d refused; its first legal move "
                      "played instead", game_id, seat)  # fmt: skip
            fallback = self._first_legal(table, seat)
            after = table.game.fork()
            text, events = after.play_word(seat, fallback)
        new_deal = self.snapshots and table.kind.new_deal(events)
        snapshot = self._snapshot(after) if new_deal else None
        clocks, entry = self._decide(table, seat, after)
        timing = self._stored_timing(clocks, entry)
        result = Result(None, [AddMove(table.id, seat, text, snapshot, timing)], games=(table.id,))
        self._moved(table, after, events, result, clocks=clocks, entry=entry, mover=seat)
        return result

    def bot_failed(self, game_id: str, seat: int) -> None:
        """The search for the engine's seat ``seat`` of ``game_id`` ended without a move (it
        was stopped, or failed): the seat is no longer searching."""
        table = self.tables.get(game_id)
        if table is not None and 0 <= seat < len(table.seats):
            table.seats[seat].thinking = False

    @staticmethod
    def _first_legal(table: Table, seat: int) -> str:
        legal = table.game.legal(seat)
        if isinstance(legal, MoveList):
            return legal.moves[0]
        return ",".join(legal.items[: legal.count])

    # -- genmove --------------------------------------------------------------------------------

    def _cmd_genmove(
        self, session: Session, request: Request, args: list[str], options: dict[str, str]
    ) -> Result:
        table = self._table(args[0])
        self._only_options(options, "play")
        play_text = options.get("play", "true")
        if play_text not in ("true", "false"):
            raise ProtocolError(ErrorCode.BAD_OPTION, "play= is true or false")
        play = play_text == "true"
        seat = self._mover(session, table)
        if play and self.shutting_down:
            raise stopping()
        level = str(self._budget_level(args[1] if len(args) > 1 else None, 100))
        if table.clocks is not None:
            # Within the seat's share of its clock (T1): the move's time is the caller's.
            level, _ = self._clocked(table.clocks, seat, table.game, level)
        view = table.game.view_data(seat)
        answer = functools.partial(self.genmove_answer, session, request, table.id, seat, play)
        need = NeedsSearch(table.id, seat, table.kind.name, view, level, answer)
        return Result(needs=need)

    def genmove_answer(
        self,
        session: Session,
        request: Request,
        game_id: str,
        seat: int,
        play: bool,
        analysis: Analysis,
        now: float = 0.0,
    ) -> Result:
        """The answer to ``genmove`` once the engine found ``analysis`` for ``seat``, at
        ``now`` (the server's monotonic seconds): with ``play``, the move played as ``play``
        would (refused as ``play`` would be, if the game moved on meanwhile); without, only
        the move named (nothing changes)."""
        self.now = now
        best = analysis.moves[0] if analysis.moves else None
        extra = {
            "visits": best.visits if best is not None else 0,
            "value": round(best.value, 4) if best is not None else None,
            "match": (
                None if best is None or best.match_value is None else round(best.match_value, 4)
            ),
            "playouts": analysis.playouts,
        }
        if not play:
            data = {"game": game_id, "move": analysis.best, "played": False, **extra}
            return self._ok(request, data, [analysis.best])
        try:
            table = self._table(game_id)
            if self._playable(session, table) != seat:
                raise ProtocolError(ErrorCode.NOT_YOUR_TURN, "it is not your turn")
            result = self._cmd_play(session, request, [game_id, analysis.best], {})
        except ProtocolError as error:
            error.request_id = request.id
            return Result(Response.failed(error))
        response = result.response
        if response is not None and isinstance(response.data, dict):
            response.data = {**response.data, "played": True, **extra}
        return result

    # -- analyze and stop -----------------------------------------------------------------------

    def _cmd_analyze(
        self, session: Session, request: Request, args: list[str], options: dict[str, str]
    ) -> Result:
        table = self._table(args[0])
        self._only_options(options, "interval", "seat")
        interval_text = options.get("interval", str(DEFAULT_INTERVAL_MS))
        if _INTERVAL.fullmatch(interval_text) is None or int(interval_text) < MIN_INTERVAL_MS:
            raise ProtocolError(
                ErrorCode.BAD_OPTION, f"interval= is milliseconds, at least {MIN_INTERVAL_MS}"
            )
        seat_text = options.get("seat")
        own = session.seats.get(table.id)
        if seat_text is None:
            seat = self._mover(session, table)
        else:
            # A seat's point of view: a seat's own only, a spectator's once the game is over
            # (before, it would show a seat's cards to someone who does not hold it).
            if not (seat_text.isascii() and seat_text.isdigit() and len(seat_text) <= 3) or (
                int(seat_text) >= len(table.seats)
            ):
                raise ProtocolError(ErrorCode.BAD_OPTION, f"seat= is a seat of {table.id}")
            seat = int(seat_text)
            if own is not None and own != seat:
                raise ProtocolError(ErrorCode.NOT_SEATED, f"you hold seat {own}, not {seat}")
            if own is None and not table.finished:
                raise ProtocolError(
                    ErrorCode.NOT_SEATED,
                    f"a spectator analyzes from a seat's view once {table.id} is over",
                )
            if not table.started:
                raise ProtocolError(ErrorCode.NOT_STARTED, f"{table.id} waits for players")
            if table.game.outcome is not None:
                raise ProtocolError(ErrorCode.GAME_OVER, f"{table.id} is over: no move to analyze")
            if seat not in table.game.seats_to_move():
                raise ProtocolError(ErrorCode.NOT_YOUR_TURN, f"seat {seat} need not move now")
        level = self._budget_level(args[1] if len(args) > 1 else None, self.max_search_ms)
        view = table.game.view_data(seat)
        data: JSONObject = {"game": table.id, "seat": seat, "budget": str(level.budget)}
        result = self._ok(request, data, [fmt.words({"seat": seat, "budget": str(level.budget)})])
        result.engine.append(
            AnalysisStream(
                session, table.id, seat, table.kind.name, view, str(level), int(interval_text)
            )
        )
        return result

    def _cmd_stop(
        self, session: Session, request: Request, args: list[str], options: dict[str, str]
    ) -> Result:
        # The shell ended any analysis of this connection before this request came here (any
        # request does); ``stop`` only says so.
        return self._ok(request, {})

    def analysis_messages(
        self,
        game_id: str,
        seat: int,
        analysis: Analysis | None,
        *,
        final: bool,
        reason: str = "",
    ) -> list[EventMessage]:
        """The events of one ``analyze`` report for ``seat`` of ``game_id``: an ``info`` event
        per move searched, best first (``order`` from 1, ``move``, ``visits``, ``value``, and
        ``match`` where the game has a match), then one ``analysis`` event (``best``,
        ``playouts``, ``elapsed`` in ms, ``final``, and for the final one ``reason``: ``budget``,
        ``stop`` or ``game-over``). ``analysis`` is ``None`` for a search that found nothing
        (it never got a worker within its budget): no ``info``, ``best`` null, 0 playouts. They
        are the seat's own: they carry the game's current ``seq`` and do not count in it."""
        table = self.tables.get(game_id)
        seq = table.seq if table is not None else 0
        messages = []
        for order, stats in enumerate(analysis.moves if analysis is not None else (), start=1):
            data: JSONObject = {
                "seat": seat,
                "order": order,
                "move": stats.move,
                "visits": stats.visits,
                "value": round(stats.value, 4),
            }
            if stats.match_value is not None:
                data["match"] = round(stats.match_value, 4)
            messages.append(EventMessage(game_id, seq, "info", data))
        summary: JSONObject = {
            "seat": seat,
            "best": analysis.best if analysis is not None else None,
            "playouts": analysis.playouts if analysis is not None else 0,
            "elapsed": round(analysis.elapsed_ms) if analysis is not None else 0,
            "final": final,
        }
        if final:
            summary["reason"] = reason
        messages.append(EventMessage(game_id, seq, "analysis", summary))
        return messages
