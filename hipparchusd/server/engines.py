"""The engine inside the daemon (issue 18): searches run in worker processes
(:class:`EnginePool`), off the trio thread, so that the daemon's other clients do not notice
them; :class:`Engines` carries out what the lobby's results ask of the engine (a bot seat's
move, ``genmove``, an ``analyze`` stream) and stops searches no longer needed (the game ended
or left memory, ``stop`` or any other request, the client left).

The lobby stays pure: it names the searches in its results (:data:`~hipparchusd.lobby.results.
EngineJob`, :class:`~hipparchusd.lobby.results.NeedsSearch`); the engine's moves come back to it
as :meth:`~hipparchusd.lobby.Lobby.bot_play` results, carried out in the game's order like any
``play``.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import itertools
import json
import logging
import multiprocessing.connection
import os
import socket
import subprocess
import sys
from collections.abc import Callable, KeysView
from typing import TYPE_CHECKING, Any

import attrs
import trio

from ..engine import WORKER_MODULE
from ..engine.types import Analysis
from ..games.registry import find_kind
from ..jsondata import JSON
from ..lobby import Lobby
from ..lobby.results import AnalysisStream, BotTurn, EngineJob, Result, StopSearches

if TYPE_CHECKING:
    from .pipeline import Pipeline

log = logging.getLogger("hipparchusd.engine")

#: Seconds a stopped or cancelled search may take to answer before its worker is killed.
STOP_TIMEOUT = 2.0


def default_workers() -> int:
    """One worker per core less one (the daemon's own), at least one."""
    return max(1, (os.cpu_count() or 1) - 1)


class EngineError(Exception):
    """A search failed: the engine refused its input or its worker process died. The message
    names the kind of failure only; ``detail`` is the engine's own message, which may quote
    the seat's view (its cards), so it is logged at debug level only (RULINGS H13)."""

    def __init__(self, message: str, detail: str = "") -> None:
        super().__init__(message)
        self.detail = detail


def engine_module(kind: str) -> str:
    """The module of the engine adapter of the game kind ``kind`` (its
    :class:`~hipparchusd.engine.position.AdapterRef`), which a worker imports to search it.

    Raises:
        EngineError: no kind of that name is served, or the kind has no engine (the message
            names the kind).
    """
    try:
        found = find_kind(kind)
    except KeyError:
        raise EngineError(f"no game kind {kind!r} is served") from None
    if found.engine is None:
        raise EngineError(f"the game kind {kind!r} has no engine")
    return found.engine.module


class _Worker:
    """One worker process and the parent's end of its pipe."""

    def __init__(
        self, process: subprocess.Popen[bytes], conn: multiprocessing.connection.Connection
    ) -> None:
        self.process = process
        self.conn = conn

    @property
    def alive(self) -> bool:
        """Whether the process still runs."""
        return self.process.poll() is None

    async def receive(self) -> Any:
        """The next message from the worker.

        Raises:
            EngineError: the worker died (its pipe closed).
        """
        conn = self.conn
        try:
            while not conn.poll():
                await trio.lowlevel.wait_readable(conn.fileno())
            return conn.recv()
        except (EOFError, OSError) as error:
            raise EngineError(f"the engine worker {self.process.pid} died") from error

    def send(self, message: Any) -> None:
        """Send ``message`` (a few hundred bytes: the pipe takes it at once).

        Raises:
            EngineError: the worker died.
        """
        try:
            self.conn.send(message)
        except OSError as error:
            raise EngineError(f"the engine worker {self.process.pid} died") from error

    def kill(self) -> None:
        """End the process (a search that would not stop, or a pool closing)."""
        with contextlib.suppress(OSError):
            self.conn.close()
        if self.process.poll() is None:
            self.process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(1.0)


class EnginePool:
    """At most ``size`` worker processes (:mod:`hipparchusd.engine.worker`), started when first
    needed; a search waits for a free one. Each is a fresh interpreter
    (``python -m hipparchusd.engine.worker``), not a fork of the daemon, whose threads and
    sockets it must not share.

    Raises:
        ValueError: ``size`` below 1.
    """

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"an engine pool needs at least one worker, not {size}")
        self.size = size
        self._slots = trio.Semaphore(size)
        self._idle: list[_Worker] = []
        self._all: set[_Worker] = set()
        self._jobs = itertools.count(1)
        self.closed = False
        #: Searches running or waiting for a worker now.
        self.searches = 0

    async def _take(self) -> _Worker:
        while self._idle:
            candidate = self._idle.pop()
            if candidate.alive:
                return candidate
            self._forget(candidate)
        parent, child = socket.socketpair()
        try:
            command = [sys.executable, "-m", WORKER_MODULE, str(child.fileno())]
            fd = child.fileno()

            def start() -> subprocess.Popen[bytes]:
                return subprocess.Popen(command, pass_fds=(fd,), stdin=subprocess.DEVNULL)

            process = await trio.to_thread.run_sync(start)
        except BaseException:
            parent.close()
            raise
        finally:
            child.close()
        started = _Worker(process, multiprocessing.connection.Connection(parent.detach()))
        self._all.add(started)
        log.info("engine worker %d started (%d of at most %d)", process.pid, len(self._all),
                 self.size)  # fmt: skip
        return started

    def _forget(self, dead: _Worker) -> None:
        self._all.discard(dead)
        dead.kill()

    async def search(
        self,
        kind: str,
        view: JSON,
        level: str,
        *,
        seed: int,
        interval_ms: int | None = None,
        on_progress: Callable[[Analysis], None] | None = None,
        stop: trio.Event | None = None,
    ) -> Analysis:
        """Search ``view`` (one seat's view of a game of ``kind``) at ``level`` (a level word)
        in a worker process: the :class:`Analysis` found. With ``interval_ms``,
        ``on_progress`` gets the analysis so far about that often. Setting ``stop`` ends the
        search early with what it found; cancelling the calling task stops it too (and kills
        the worker if it does not stop within :data:`STOP_TIMEOUT`).

        Raises:
            EngineError: the kind has no engine, the engine refused the view or the level, or
                its worker died.
        """
        if self.closed:
            raise EngineError("the engine is shut down")
        engine = engine_module(kind)
        self.searches += 1
        try:
            async with self._slots:
                process = await self._take()
                job = next(self._jobs)
                finished = False
                failure: EngineError | None = None
                try:
                    process.send(("search", job, engine, view, level, seed, interval_ms))
                    async with trio.open_nursery() as nursery:
                        if stop is not None:
                            nursery.start_soon(self._stop_on, stop, process, job)
                        # Caught here, in the nursery's own body, so that it comes out as
                        # itself rather than in an exception group.
                        try:
                            what, payload = await self._answer(process, job, on_progress)
                        except EngineError as error:
                            failure = error
                        else:
                            finished = True
                        nursery.cancel_scope.cancel()
                finally:
                    await self._settle(process, job, finished)
                if failure is not None:
                    raise failure
                if what == "error":
                    kind, detail = payload
                    raise EngineError(f"the engine refused the search ({kind})", detail)
                analysis: Analysis = payload
                return analysis
        finally:
            self.searches -= 1

    @staticmethod
    async def _answer(
        process: _Worker, job: int, on_progress: Callable[[Analysis], None] | None
    ) -> tuple[str, Any]:
        """Read ``process``'s messages about ``job`` up to its answer: (``"done"``, the
        analysis) or (``"error"``, the message); progress reports go to ``on_progress``."""
        while True:
            what, number, payload = await process.receive()
            if number != job:
                continue
            if what == "progress":
                if on_progress is not None:
                    on_progress(payload)
                continue
            return what, payload

    @staticmethod
    async def _stop_on(stop: trio.Event, process: _Worker, job: int) -> None:
        await stop.wait()
        with contextlib.suppress(EngineError):
            process.send(("stop", job))

    async def _settle(self, process: _Worker, job: int, finished: bool) -> None:
        """Give ``process`` back to the pool once its search ``job`` has answered: at once if
        it has; else (the caller was cancelled, or the worker failed) stop it and wait for the
        answer, shielded, killing the worker if none comes in time."""
        if not finished:
            with trio.CancelScope(shield=True) as scope:
                scope.deadline = trio.current_time() + STOP_TIMEOUT
                try:
                    process.send(("stop", job))
                    while True:
                        what, number, _ = await process.receive()
                        if number == job and what in ("done", "error"):
                            finished = True
                            break
                except EngineError:
                    pass
            if not finished:
                self._forget(process)
                return
        if self.closed:
            self._forget(process)
        else:
            self._idle.append(process)

    async def aclose(self) -> None:
        """Stop every worker (their searches are cancelled by their callers' scopes)."""
        self.closed = True
        workers = list(self._all)
        self._all.clear()
        self._idle.clear()
        for each in workers:
            with contextlib.suppress(EngineError, OSError, ValueError):
                each.send(None)

        def reap() -> None:
            for each in workers:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    each.process.wait(1.0)
                each.kill()

        with trio.CancelScope(shield=True):
            await trio.to_thread.run_sync(reap)


@attrs.define(eq=False)
class _Stream:
    """An ``analyze`` stream running for one connection."""

    job: AnalysisStream
    stop: trio.Event = attrs.field(factory=trio.Event)
    done: trio.Event = attrs.field(factory=trio.Event)
    reason: str = "budget"


class Engines:
    """What the lobby's results ask of the engine, carried out on ``pool``: the engine's seats'
    moves (played through ``pipeline`` in each game's order), ``genmove``'s searches, and
    ``analyze`` streams (one per connection); and the searches stopped when no longer needed.

    ``max_searches`` bounds the searches clients ask for (``genmove``, ``analyze``) running at
    once; one more answers ``limit``. The engine's own seats are not refused: their searches
    wait for a worker.

    :meth:`run` must be running (in the server's nursery) for searches to start.
    """

    def __init__(self, lobby: Lobby, pool: EnginePool, max_searches: int) -> None:
        self.lobby = lobby
        self.pool = pool
        self.max_searches = max_searches
        self.pipeline: Pipeline | None = None
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

    @staticmethod
    def _seed(view: JSON) -> int:
        """The search's seed: a digest of the view searched, so that a search with a playouts
        budget is reproducible (the same position, the same answer: transcripts and bug reports
        can rely on it). The view is the seat's own, so the seed tells nothing of anyone
        else's cards."""
        text = json.dumps(view, sort_keys=True, separators=(",", ":")).encode()
        return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 2

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
        from ..lobby import Response
        from ..protocol import ErrorCode, ProtocolError

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
        pipeline = self.pipeline
        if move is None or pipeline is None:
            self.lobby.bot_failed(job.game_id, job.seat)
            return
        play = functools.partial(self.lobby.bot_play, job.game_id, job.seat, move)
        try:
            await pipeline.sequenced((job.game_id,), play, None)
        except Exception:
            log.exception("game %s: playing the engine's move for seat %d failed", job.game_id,
                          job.seat)  # fmt: skip
            self.lobby.bot_failed(job.game_id, job.seat)

    async def _bot_move(self, job: BotTurn) -> str | None:
        """The move the engine chooses for ``job``; a search that fails is logged and the
        ``random`` level chooses instead, so that the game goes on."""
        seed = self._seed(job.view)
        try:
            analysis = await self.pool.search(job.kind, job.view, job.level, seed=seed)
            return analysis.best
        except EngineError as error:
            log.error("game %s: the engine failed for seat %d at %s: %s", job.game_id, job.seat,
                      job.level, error)  # fmt: skip
            log.debug("game %s seat %d: %s", job.game_id, job.seat, error.detail)
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
        pipeline = self.pipeline
        if pipeline is None:
            return
        conn = pipeline.connections.get(job.session.id)
        if conn is None:
            return
        messages = self.lobby.analysis_messages(
            job.game_id, job.seat, analysis, final=final, reason=reason
        )
        mode = job.session.mode
        for message in messages:
            conn.enqueue(message.encode(mode))
        pipeline.flush()
