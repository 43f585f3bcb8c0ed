"""The searches the lobby's results ask for (:class:`Engines`, issue 18): a bot seat's move,
``genmove``, an ``analyze`` stream; and the searches stopped when no longer needed (the game
ended or left memory, ``stop`` or any other request, the client left). They run on the worker
processes of an :class:`~.workers.EnginePool`.

The lobby stays pure: it names the searches in its results (:data:`~hipparchusd.lobby.results.
EngineJob`, :class:`~hipparchusd.lobby.results.NeedsSearch`); the engine's moves come back to it
as :meth:`~hipparchusd.lobby.Lobby.bot_play` results, carried out in the game's order like any
``play`` by the sequencing callable :class:`Engines` is given (the pipeline's).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, KeysView, Sequence

import attrs
import trio

from ..engine.types import Analysis, view_seed
from ..jsondata import JSON
from ..lobby import EventMessage, Lobby, Response, Session
from ..lobby.results import AnalysisStream, BotTurn, EngineJob, Result, StopSearches
from ..protocol import ErrorCode, ProtocolError
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


@attrs.define(eq=False)
class _Stream:
    """An ``analyze`` stream running for one connection."""

    job: AnalysisStream
    stop: trio.Event = attrs.field(factory=trio.Event)
    done: trio.Event = attrs.field(factory=trio.Event)
    reason: str = "budget"


class Engines:
    """What the lobby's results ask of the engine, carried out on ``pool``: the engine's seats'
    moves (played with ``sequenced`` in each game's order), ``genmove``'s searches, and
    ``analyze`` streams (one per connection, reported with ``send``); and the searches stopped
    when no longer needed.

    ``max_searches`` bounds the searches clients ask for (``genmove``, ``analyze``) running at
    once; one more answers ``limit``. The engine's own seats are not refused: their searches
    wait for a worker.

    :meth:`run` must be running (in the server's nursery) for searches to start.
    """

    def __init__(
        self,
        lobby: Lobby,
        pool: EnginePool,
        max_searches: int,
        *,
        sequenced: Sequenced,
        send: Send,
    ) -> None:
        self.lobby = lobby
        self.pool = pool
        self.max_searches = max_searches
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
        #: Client searches (genmove and analyze) running.
        self.client_searches = 0

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Run the searches until cancelled, then stop every worker."""
        try:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                waiting, self._waiting = self._waiting, []
                self.submit(waiting)
                task_status.started()
                await trio.sleep_forever()
        finally:
            self._nursery = None
            await self.pool.aclose()

    #: The search's seed: a digest of the view searched (:func:`~hipparchusd.engine.types.
    #: view_seed`), as the lobby seeds the server's own moves.
    _seed = staticmethod(view_seed)

    # -- what results ask for ---------------------------------------------------------------

    def admit(self, result: Result) -> Result:
        """``result``, or ``limit`` in its place if it starts an analysis while
        ``max_searches`` client searches run (nothing changes: an ``analyze`` result has no
        change pending)."""
        streams = sum(isinstance(job, AnalysisStream) for job in result.engine)
        if streams and self.client_searches + streams > self.max_searches:
            return self.limit_result(result)
        return result

    def limit_result(self, result: Result) -> Result:
        """The ``limit`` failure answering the request of ``result``."""
        request_id = result.response.request_id if result.response is not None else None
        message = f"{self.max_searches} searches run already; try again when one ends"
        return Result(Response.failed(ProtocolError(ErrorCode.LIMIT, message, request_id)))

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
        """The move the engine chooses for ``job``; a search that fails is logged and the
        ``random`` level chooses instead, so that the game goes on. In a timed game, a search
        that would have no time left once a worker takes it is not made: :data:`_NO_TIME`,
        for which the lobby plays the heuristic's move at once (issue 27)."""
        seed = self._seed(job.view)
        try:
            analysis = await self.pool.search(
                job.kind, job.view, job.level, seed=seed, until=job.until
            )
            return analysis.best
        except NoTime:
            return _NO_TIME
        except EngineError as error:
            log.error("game %s: the engine failed for seat %d at %s: %s", job.game_id, job.seat,
                      job.level, error)  # fmt: skip
            log.debug("game %s seat %d: %s", job.game_id, job.seat, error.detail)
        if job.until is not None:
            return _NO_TIME  # the lobby's random or heuristic move, with no second wait
        try:
            analysis = await self.pool.search(job.kind, job.view, "random", seed=seed)
            return analysis.best
        except EngineError as error:
            log.error("game %s: no engine move for seat %d: %s", job.game_id, job.seat, error)
            return None

    # -- genmove --------------------------------------------------------------------------

    async def genmove(self, kind: str, view: JSON, level: str) -> Analysis | None:
        """``genmove``'s search; ``None`` when ``max_searches`` client searches run already.

        Raises:
            EngineError: as :meth:`EnginePool.search`.
        """
        if self.client_searches >= self.max_searches:
            return None
        self.client_searches += 1
        try:
            return await self.pool.search(kind, view, level, seed=self._seed(view))
        finally:
            self.client_searches -= 1

    # -- analyze --------------------------------------------------------------------------

    def _start_stream(self, nursery: trio.Nursery, job: AnalysisStream) -> None:
        previous = self._streams.get(job.session.id)
        if previous is not None:  # the pipeline ends one before the next request; a safeguard
            previous.reason = "stop"
            previous.stop.set()
        stream = _Stream(job)
        self._streams[job.session.id] = stream
        self.client_searches += 1
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

    async def _stream(self, stream: _Stream) -> None:
        job = stream.job
        last: list[Analysis] = []

        def report(analysis: Analysis) -> None:
            last[:] = [analysis]
            self._send(job, analysis, final=False)

        try:
            analysis = await self.pool.search(
                job.kind,
                job.view,
                job.level,
                seed=self._seed(job.view),
                interval_ms=job.interval_ms,
                on_progress=report,
                stop=stream.stop,
            )
            reason = stream.reason if stream.stop.is_set() else "budget"
            self._send(job, analysis, final=True, reason=reason)
        except EngineError as error:
            log.error("game %s: analysis for seat %d failed: %s", job.game_id, job.seat, error)
            log.debug("game %s seat %d: %s", job.game_id, job.seat, error.detail)
            if last:
                self._send(job, last[0], final=True, reason="error")
        finally:
            self.client_searches -= 1
            if self._streams.get(job.session.id) is stream:
                del self._streams[job.session.id]
            stream.done.set()

    def _send(
        self, job: AnalysisStream, analysis: Analysis, *, final: bool, reason: str = ""
    ) -> None:
        messages = self.lobby.analysis_messages(
            job.game_id, job.seat, analysis, final=final, reason=reason
        )
        self._send_events(job.session, messages)
