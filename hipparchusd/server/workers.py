"""The engine's worker processes (:class:`EnginePool`): each search runs in a process of its
own (:mod:`hipparchusd.engine.worker`), off the trio thread, so that the daemon's other clients
do not notice it. This module is a worker's life: starting the process, the pipe both ways, a
search's messages up to its answer, stopping it, and killing a worker that does not stop. What a
search is for (a bot seat, ``genmove``, an ``analyze`` stream) is :mod:`.engines`'.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import multiprocessing.connection
import socket
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import trio

from ..engine import WORKER_MODULE
from ..engine.types import Analysis, Level, within
from ..games.registry import find_kind
from ..jsondata import JSON

log = logging.getLogger("hipparchusd.engine")

#: Seconds a stopped or cancelled search may take to answer before its worker is killed.
STOP_TIMEOUT = 2.0


class EngineError(Exception):
    """A search failed: the engine refused its input or its worker process died. The message
    names the kind of failure only; ``detail`` is the engine's own message, which may quote
    the seat's view (its cards), so it is logged at debug level only (RULINGS H13)."""

    def __init__(self, message: str, detail: str = "") -> None:
        super().__init__(message)
        self.detail = detail


class NoTime(EngineError):
    """The search's decision would have no time left for it once a worker took it (a timed
    game's bot seat, RULINGS T1): nothing was searched; the caller plays a cheap move."""


#: Milliseconds a clocked search keeps back from its decision's time: sending it, and the
#: answer's way back (the budget's reserve, :func:`hipparchusd.clocks.decision_budget`, is
#: for a search that starts at once).
CLOCK_MARGIN_MS = 50
#: The shortest clocked search worth a worker (milliseconds); with less, :class:`NoTime`.
MIN_CLOCKED_MS = 20


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
        until: float | None = None,
    ) -> Analysis:
        """Search ``view`` (one seat's view of a game of ``kind``) at ``level`` (a level word)
        in a worker process: the :class:`Analysis` found. With ``interval_ms``,
        ``on_progress`` gets the analysis so far about that often. Setting ``stop`` ends the
        search early with what it found; cancelling the calling task stops it too (and kills
        the worker if it does not stop within :data:`STOP_TIMEOUT`). With ``until`` (a timed
        decision's end, :func:`trio.current_time` seconds), the search's time is held to what
        is left of it once a worker takes it, less :data:`CLOCK_MARGIN_MS`.

        Raises:
            NoTime: with ``until``, less than :data:`MIN_CLOCKED_MS` would be left for it.
            EngineError: the kind has no engine, the engine refused the view or the level, or
                its worker died.
        """
        if self.closed:
            raise EngineError("the engine is shut down")
        engine = engine_module(kind)
        self.searches += 1
        try:
            if until is None:
                await self._slots.acquire()
            else:
                # Waiting for a worker past the point of any use would only make the seat late.
                with trio.move_on_at(until - (CLOCK_MARGIN_MS + MIN_CLOCKED_MS) / 1000) as wait:
                    await self._slots.acquire()
                if wait.cancelled_caught:
                    raise NoTime("no worker was free in time for the decision")
            try:
                process = await self._take()
                if until is not None:
                    # After the take: a worker just started has taken some of the time.
                    try:
                        level = self._in_time(level, until)
                    except EngineError:
                        self._idle.append(process)
                        raise
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
                self._slots.release()
        finally:
            self.searches -= 1

    @staticmethod
    def _in_time(level: str, until: float) -> str:
        """``level`` held to the time left until ``until`` less :data:`CLOCK_MARGIN_MS`.

        Raises:
            NoTime: less than :data:`MIN_CLOCKED_MS` would be left.
        """
        left = round((until - trio.current_time()) * 1000) - CLOCK_MARGIN_MS
        if left < MIN_CLOCKED_MS:
            raise NoTime("no time left for a search")
        try:
            return str(within(Level.parse(level), left))
        except ValueError as error:
            raise EngineError(f"bad level {level!r}") from error

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
