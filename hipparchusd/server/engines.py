"""The searches the lobby's results ask for (:class:`Engines`, issue 18): a bot seat's move,
``genmove``, an ``analyze`` stream; and the searches stopped when no longer needed (the game
ended or left memory, ``stop`` or any other request, the client left).

They run on two pools of worker processes (:class:`~.workers.EnginePool`), so that neither
kind waits behind the other (issue 24 item 6): ``moves`` for the moves to make now (the
engine's seats, ``genmove``), ``analyses`` for the ``analyze`` streams, which may each take the
longest budget there is. In each, searches take turns across the addresses and the
connections or games they are for. ``random`` and ``heuristic`` seats need no worker: they are
played in this process (:mod:`.inline`).

The lobby stays pure: it names the searches in its results (:data:`~hipparchusd.lobby.results.
EngineJob`, :class:`~hipparchusd.lobby.results.NeedsSearch`); the engine's moves come back to it
as :meth:`~hipparchusd.lobby.Lobby.bot_play` results, carried out in the game's order like any
``play`` by the sequencing callable :class:`Engines` is given (the pipeline's).
"""

from __future__ import annotations

import collections
import logging
from collections.abc import Awaitable, Callable, KeysView, Sequence
from typing import Final

import attrs
import trio

from ..engine.types import Analysis, Level, view_seed
from ..jsondata import JSON
from ..lobby import EventMessage, Lobby, Response, Session
from ..lobby.results import AnalysisStream, BotTurn, EngineJob, Result, StopSearches
from ..protocol import ErrorCode, ProtocolError
from .inline import INLINE_LEVELS, InlineEngine
from .workers import EngineError, EnginePool, NoTime

log = logging.getLogger("hipparchusd.engine")

#: What :meth:`Engines._bot_move` answers for a timed decision left no time to search.
_NO_TIME = "\0no time"

#: Carries out the result ``prepare()`` gives in the order of the games named, as a request on
#: them would be, and gives it back (the pipeline's :meth:`~.pipeline.Pipeline.sequenced`): how
#: a bot seat's move is played.
Sequenced = Callable[[Sequence[str], Callable[[], Result]], Awaitable[Result]]
#: Queues events for a session's connection, if it is still open, and sends them (the
#: pipeline's :meth:`~.pipeline.Pipeline.send`): how an ``analyze`` stream reports.
Send = Callable[[Session, Sequence[EventMessage]], None]

#: Seconds an analysis' worker has, past the analysis' deadline, to give its final answer
#: before the last report stands in for it.
STREAM_GRACE: Final = 0.25


@attrs.define(eq=False)
class _Stream:
    """An ``analyze`` stream running for one connection, since ``started`` (trio's clock)."""

    job: AnalysisStream
    started: float
    stop: trio.Event = attrs.field(factory=trio.Event)
    done: trio.Event = attrs.field(factory=trio.Event)
    reason: str = "budget"


class Engines:
    """What the lobby's results ask of the engine, carried out on the pools ``moves`` (the
    engine's seats, played with ``sequenced`` in each game's order, and ``genmove``) and
    ``analyses`` (``analyze`` streams, one per connection, reported with ``send``); and the
    searches stopped when no longer needed.

    ``max_searches`` bounds the searches clients ask for (``genmove``, ``analyze``) running at
    once, and ``max_searches_per_address`` those of one peer address's connections (the
    lobby's trusted addresses exempt); one more answers ``limit``. The engine's own seats are
    not refused: their searches wait for a worker, by turns with everyone's.

    :meth:`run` must be running (in the server's nursery) for searches to start.
    """

    def __init__(
        self,
        lobby: Lobby,
        moves: EnginePool,
        analyses: EnginePool,
        *,
        max_searches: int,
        max_searches_per_address: int,
        sequenced: Sequenced,
        send: Send,
    ) -> None:
        self.lobby = lobby
        self.moves = moves
        self.analyses = analyses
        self.inline = InlineEngine()
        self.max_searches = max_searches
        self.max_searches_per_address = max_searches_per_address
        self._sequenced = sequenced
        self._send_events = send
        self._nursery: trio.Nursery | None = None
        self._waiting: list[EngineJob] = []
        #: The cancel scopes of the engine seats' searches, by game.
        self._bots: dict[str, set[trio.CancelScope]] = {}
        #: The analyze streams by session id.
        self._streams: dict[int, _Stream] = {}
        #: The session ids with an ``analyze`` stream running: a live view of the streams,
        #: which every request checks (any request ends its connection's stream), so it
        #: costs a membership test rather than a method call.
        self.streaming_sessions: KeysView[int] = self._streams.keys()
        #: Client searches (genmove and analyze) running, in all and by peer address.
        self.client_searches = 0
        self.searches_by_address: collections.Counter[str] = collections.Counter()

    @property
    def pools(self) -> tuple[EnginePool, EnginePool]:
        """The pools: moves, analyses."""
        return self.moves, self.analyses

    @property
    def waiting(self) -> int:
        """Searches waiting for a worker now, in both pools."""
        return self.moves.waiting + self.analyses.waiting

    @property
    def restarts(self) -> int:
        """Workers of both pools replaced since the start (they died or missed a deadline)."""
        return self.moves.restarts + self.analyses.restarts

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Run the pools (``task_status.started`` once their workers are ready, unless they
        start on demand) and the searches, until cancelled; the workers end with it."""
        try:
            async with trio.open_nursery() as nursery:
                async with trio.open_nursery() as starting:
                    for pool in self.pools:
                        starting.start_soon(nursery.start, pool.run)
                if not self.moves.on_demand:
                    self.inline.preload(self.lobby.kinds)
                self._nursery = nursery
                waiting, self._waiting = self._waiting, []
                self.submit(waiting)
                task_status.started()
                await trio.sleep_forever()
        finally:
            self._nursery = None

    #: The search's seed: a digest of the view searched (:func:`~hipparchusd.engine.types.
    #: view_seed`), as the lobby seeds the server's own moves.
    _seed = staticmethod(view_seed)

    # -- what results ask for ---------------------------------------------------------------

    def refusal(self, session: Session) -> tuple[str, str] | None:
        """Why a client search for ``session`` is refused now (``max_searches``, or
        ``max_searches_per_address`` unless its address is trusted): the limit's name (the
        metrics' label) and the message; or ``None``."""
        if self.client_searches >= self.max_searches:
            return "max-searches", (
                f"{self.max_searches} searches run already (max-searches); try again later"
            )
        address = session.address
        limit = self.max_searches_per_address
        if self.searches_by_address[address] >= limit and address not in self.lobby.trusted:
            return "max-searches-per-address", (
                f"connections from your address run {limit} searches "
                "(max-searches-per-address); try again when one ends"
            )
        return None

    def admit(self, result: Result) -> Result:
        """``result``, or ``limit`` in its place if it starts an analysis that a limit refuses
        (:meth:`refusal`; nothing changes: an ``analyze`` result has no change pending)."""
        for job in result.engine:
            if isinstance(job, AnalysisStream):
                refused = self.refusal(job.session)
                if refused is not None:
                    return self.limit_result(result, *refused)
        return result

    @staticmethod
    def limit_result(result: Result, limit: str, message: str) -> Result:
        """The ``limit`` failure answering the request of ``result``, saying ``message``, for
        the limit named ``limit`` (a setting's name: the metrics' label)."""
        request_id = result.response.request_id if result.response is not None else None
        return Result(
            Response.failed(ProtocolError(ErrorCode.LIMIT, message, request_id, limit=limit))
        )

    def submit(self, jobs: list[EngineJob]) -> None:
        """Start or stop the searches ``jobs`` ask for (they run in :meth:`run`'s nursery)."""
        nursery = self._nursery
        if nursery is None:
            self._waiting += jobs
            return
        for job in jobs:
            match job:
                case BotTurn():
                    nursery.start_soon(self._bot, job)
                case AnalysisStream():
                    self._start_stream(nursery, job)
                case StopSearches(game_id):
                    self.stop_game(game_id, "game-over")

    def stop_game(self, game_id: str, reason: str) -> None:
        """Stop every search on ``game_id``: the engine seats' searches are cancelled, the
        streams end with their ``reason``."""
        for scope in self._bots.pop(game_id, ()):
            scope.cancel()
        for stream in self._streams.values():
            if stream.job.game_id == game_id and not stream.stop.is_set():
                stream.reason = reason
                stream.stop.set()

    # -- the engine's seats ----------------------------------------------------------------

    async def _bot(self, job: BotTurn) -> None:
        """Search ``job``'s move, then play it through the lobby in the game's order."""
        move: str | None = None
        scope = trio.CancelScope()
        self._bots.setdefault(job.game_id, set()).add(scope)
        try:
            with scope:
                move = await self._bot_move(job)
        finally:
            scopes = self._bots.get(job.game_id)
            if scopes is not None:
                scopes.discard(scope)
                if not scopes:
                    del self._bots[job.game_id]
        if move is None:
            self.lobby.bot_failed(job.game_id, job.seat)
            return
        word = None if move is _NO_TIME else move

        def play() -> Result:
            # The move's time runs to when it is carried out (issue 27).
            return self.lobby.bot_play(job.game_id, job.seat, word, job.turn, trio.current_time())

        try:
            await self._sequenced((job.game_id,), play)
        except Exception:
            log.exception("game %s: playing the engine's move for seat %d failed", job.game_id,
                          job.seat)  # fmt: skip
            self.lobby.bot_failed(job.game_id, job.seat)

    async def _bot_move(self, job: BotTurn) -> str | None:
        """The move the engine chooses for ``job``: in this process for a level that does not
        search; else on a worker, by the game's turn among its creator's address's searches,
        and once more on another if the worker died or missed a deadline. When the search
        fails anyway the ``random`` level chooses instead, so that the game goes on. In a
        timed game, a search that would have no time left once a worker takes it is not made:
        :data:`_NO_TIME`, for which the lobby plays the heuristic's move at once (issue 27);
        nor is a failed one replaced by a second wait."""
        if Level.parse(job.level).name in INLINE_LEVELS:
            return self._inline_move(job, job.level)
        seed = self._seed(job.view)
        owner = (job.address, job.game_id)
        for attempt in ("", " again"):
            try:
                analysis = await self.moves.search(
                    job.kind, job.view, job.level, seed=seed, owner=owner, until=job.until
                )
                return analysis.best
            except NoTime:
                return _NO_TIME
            except EngineError as error:
                log.error("game %s: the engine failed for seat %d at %s%s: %s", job.game_id,
                          job.seat, job.level, attempt, error)  # fmt: skip
                log.debug("game %s seat %d: %s", job.game_id, job.seat, error.detail)
                if not error.lost:
                    break
        if job.until is not None:
            return _NO_TIME  # the lobby's own cheap move, within the seat's time
        return self._inline_move(job, "random")

    def _inline_move(self, job: BotTurn, level: str) -> str | None:
        """``job``'s move at ``level`` (a level that does not search) in this process."""
        try:
            return self.inline.move(job.kind, job.view, level, self._seed(job.view)).best
        except EngineError as error:
            log.error("game %s: no engine move for seat %d: %s", job.game_id, job.seat, error)
            log.debug("game %s seat %d: %s", job.game_id, job.seat, error.detail)
            return None

    # -- genmove --------------------------------------------------------------------------

    async def genmove(self, kind: str, view: JSON, level: str, session: Session) -> Analysis:
        """``genmove``'s search for ``session``, on the moves' pool by turns with everyone's.

        Raises:
            ProtocolError: ``limit``, a limit of :meth:`refusal` (nothing was searched).
            EngineError: as :meth:`EnginePool.search`.
        """
        refused = self.refusal(session)
        if refused is not None:
            limit, message = refused
            raise ProtocolError(ErrorCode.LIMIT, message, limit=limit)
        self._count(session, 1)
        try:
            owner = (session.address, session.id)
            return await self.moves.search(kind, view, level, seed=self._seed(view), owner=owner)
        finally:
            self._count(session, -1)

    def _count(self, session: Session, change: int) -> None:
        """Count one client search more (``change`` 1) or less (-1) for ``session``."""
        self.client_searches += change
        address = session.address
        self.searches_by_address[address] += change
        if self.searches_by_address[address] <= 0:
            del self.searches_by_address[address]

    # -- analyze --------------------------------------------------------------------------

    def _start_stream(self, nursery: trio.Nursery, job: AnalysisStream) -> None:
        previous = self._streams.get(job.session.id)
        if previous is not None:  # the pipeline ends one before the next request; a safeguard
            previous.reason = "stop"
            previous.stop.set()
        stream = _Stream(job, trio.current_time())
        self._streams[job.session.id] = stream
        self._count(job.session, 1)
        nursery.start_soon(self._stream, stream)

    async def end_stream(self, session_id: int, reason: str = "stop") -> None:
        """Stop the session's ``analyze`` stream and wait until its final events are queued
        (the client's next request comes after them)."""
        stream = self._streams.get(session_id)
        if stream is None:
            return
        if not stream.stop.is_set():
            stream.reason = reason
            stream.stop.set()
        await stream.done.wait()

    def _deadline(self, stream: _Stream) -> float:
        """When ``stream`` ends at the latest (trio's clock): its time budget, or the server's
        longest one for a playouts budget, after it started, however long it waits for a
        worker (issue 24 item 6)."""
        budget = Level.parse(stream.job.level).budget
        millis = budget.millis if budget.millis is not None else self.lobby.max_search_ms
        return stream.started + millis / 1000

    async def _stream(self, stream: _Stream) -> None:
        job = stream.job
        last: list[Analysis] = []

        def report(analysis: Analysis) -> None:
            last[:] = [analysis]
            self._send(job, analysis, final=False)

        deadline = self._deadline(stream)
        analysis: Analysis | None = None
        reason: str | None = "budget"  # None once cancelled: no final report then
        try:
            # The worker's search ends at the deadline by itself; should its answer not come
            # in time (a worker busy, stopped, slow to be scheduled), the last report stands.
            with trio.move_on_at(deadline + STREAM_GRACE):
                analysis = await self.analyses.search(
                    job.kind,
                    job.view,
                    job.level,
                    seed=self._seed(job.view),
                    owner=(job.session.address, job.session.id),
                    interval_ms=job.interval_ms,
                    on_progress=report,
                    stop=stream.stop,
                    deadline=deadline,
                )
            if stream.stop.is_set():
                reason = stream.reason
        except EngineError as error:
            log.error("game %s: analysis for seat %d failed: %s", job.game_id, job.seat, error)
            log.debug("game %s seat %d: %s", job.game_id, job.seat, error.detail)
            reason = "error"
        except BaseException:
            reason = None
            raise
        finally:
            self._count(job.session, -1)
            if self._streams.get(job.session.id) is stream:
                del self._streams[job.session.id]
            if reason is not None:
                # With what the search found, or, had it no answer, its last report (none
                # if it never got a worker within its budget).
                found = analysis or (last[0] if last else None)
                self._send(job, found, final=True, reason=reason)
            stream.done.set()

    def _send(
        self, job: AnalysisStream, analysis: Analysis | None, *, final: bool, reason: str = ""
    ) -> None:
        messages = self.lobby.analysis_messages(
            job.game_id, job.seat, analysis, final=final, reason=reason
        )
        self._send_events(job.session, messages)
