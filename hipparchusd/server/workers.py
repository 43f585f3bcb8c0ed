"""The engine's worker processes (:class:`EnginePool`): each search runs in a process of its
own (:mod:`hipparchusd.engine.worker`), off the trio thread, so that the daemon's other clients
do not notice it. This module is a worker's life: starting the process (with the daemon, before
it greets anyone, or on demand), the pipe both ways, a search's messages up to its answer,
stopping it, and killing and replacing a worker that dies or misses a deadline. What a search
is for (a bot seat, ``genmove``, an ``analyze`` stream) is :mod:`.engines`'.

Every exchange with a worker has a deadline (issue 24 item 5): it must say it is ready within
:data:`START_TIMEOUT` of its start, send something at least every ``timeout`` seconds while a
search runs (it reports it is alive every :data:`~hipparchusd.engine.worker.HEARTBEAT_SECONDS`),
answer a stop within ``stop_timeout`` (:data:`STOP_TIMEOUT` unless told), and take each message
within ``timeout``. A worker that misses one (a stopped or wedged process) is killed and
replaced, and its search fails as :class:`EngineError` with ``lost`` set. Messages are read and
written without blocking, so a worker that stops halfway through a message holds up nothing but
its own search.

Searches wait for a worker in a :class:`~.fairqueue.FairQueue`: by turns across the addresses
and the flows (a connection, a game) they are asked for, not first come, first served.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import pickle
import socket
import struct
import subprocess
import sys
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Final

import attrs
import trio

from ..engine import WORKER_MODULE
from ..engine.types import Analysis, Level, within
from ..games.registry import find_kind
from ..jsondata import JSON
from .fairqueue import FairQueue

log = logging.getLogger("hipparchusd.engine")

#: Seconds a worker has, once started, to import the engines and say it is ready.
START_TIMEOUT: Final = 60.0
#: Seconds a stopped or cancelled search may take to answer before its worker is killed.
STOP_TIMEOUT: Final = 2.0
#: Seconds between two attempts at starting a worker after one failed (doubling, at most 30).
RESTART_DELAY: Final = 1.0
#: Seconds an ending worker has to exit by itself before it is killed.
EXIT_TIMEOUT: Final = 1.0

#: A message's length, as :mod:`multiprocessing.connection` writes it (the worker's side).
_LENGTH = struct.Struct("!i")
_LONG_LENGTH = struct.Struct("!Q")

#: Who a search is for, for the queue's turns: a peer address and a flow within it.
Owner = tuple[str, Hashable]


class EngineError(Exception):
    """A search failed: the engine refused its input, or its worker process died or missed a
    deadline (``lost``: the search may be tried again, on another worker). The message names
    the kind of failure only; ``detail`` is the engine's own message, which may quote the
    seat's view (its cards), so it is logged at debug level only (RULINGS H13)."""

    def __init__(self, message: str, detail: str = "", *, lost: bool = False) -> None:
        super().__init__(message)
        self.detail = detail
        self.lost = lost


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


def within_deadline(level: str, seconds_left: float | None) -> str:
    """The level word ``level`` with its time budget cut to ``seconds_left`` (at least a
    millisecond, :func:`~hipparchusd.engine.types.within`), for a search that must end by a
    deadline however long it waited for a worker; ``level`` itself without a deadline or for
    a level that does not search."""
    parsed = Level.parse(level)
    if seconds_left is None or parsed.name != "ismcts":
        return level
    return str(within(parsed, max(1, int(seconds_left * 1000))))


class NoTime(EngineError):
    """The search's decision would have no time left for it once a worker took it (a timed
    game's bot seat, RULINGS T1): nothing was searched; the caller plays a cheap move."""


#: Milliseconds a clocked search keeps back from its decision's time: sending it, and the
#: answer's way back (the budget's reserve, :func:`hipparchusd.clocks.decision_budget`, is
#: for a search that starts at once).
CLOCK_MARGIN_MS = 50
#: The shortest clocked search worth a worker (milliseconds); with less, :class:`NoTime`.
MIN_CLOCKED_MS = 20


class _Lost(Exception):
    """The worker died or missed a deadline (the message says which)."""


class _Worker:
    """One worker process and the parent's end of its socket pair, read and written as
    :mod:`multiprocessing.connection` frames messages (a length, then a pickle)."""

    def __init__(self, process: subprocess.Popen[bytes], sock: trio.socket.SocketType) -> None:
        self.process = process
        self.pid = process.pid
        self.stream = trio.SocketStream(sock)
        self._buffer = bytearray()

    async def send(self, message: Any) -> None:
        """Send ``message`` (a few kilobytes at most).

        Raises:
            _Lost: the worker died.
        """
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        try:
            await self.stream.send_all(_LENGTH.pack(len(data)) + data)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            raise _Lost(f"the engine worker {self.pid} died") from None

    async def receive(self) -> Any:
        """The next message from the worker.

        Raises:
            _Lost: the worker died (its end closed).
        """
        while True:
            message = self._take_frame()
            if message is not None:
                return pickle.loads(message)
            try:
                data = await self.stream.receive_some(65536)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                data = b""
            if not data:
                raise _Lost(f"the engine worker {self.pid} died")
            self._buffer += data

    def _take_frame(self) -> bytes | None:
        buffer = self._buffer
        if len(buffer) < _LENGTH.size:
            return None
        (size,) = _LENGTH.unpack_from(buffer)
        start = _LENGTH.size
        if size == -1:
            if len(buffer) < start + _LONG_LENGTH.size:
                return None
            (size,) = _LONG_LENGTH.unpack_from(buffer, start)
            start += _LONG_LENGTH.size
        if len(buffer) < start + size:
            return None
        frame = bytes(buffer[start : start + size])
        del buffer[: start + size]
        return frame

    async def end(self, *, graceful: bool = True) -> None:
        """Ask the worker to exit (``graceful``) and kill it if it has not within
        :data:`EXIT_TIMEOUT`, or kill it at once (a stopped process too), and reap it; never
        raises, even when cancelled (shielded)."""
        with trio.CancelScope(shield=True):
            if graceful:
                with trio.move_on_after(EXIT_TIMEOUT):
                    with contextlib.suppress(_Lost):
                        await self.send(None)
                    while self.process.poll() is None:
                        await trio.sleep(0.01)
            with contextlib.suppress(OSError):
                self.process.kill()
            with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                await self.stream.aclose()
            # A killed process is gone at once; waiting for it takes a thread, not the loop.
            await trio.to_thread.run_sync(self.process.wait)


@attrs.define(eq=False)
class _Job:
    """One search asked of the pool: its message's parts, how it reports and stops, and how it
    ended (``outcome``: the worker's answer or the failure)."""

    number: int
    engine: str
    view: JSON
    level: str
    seed: int
    interval_ms: int | None
    on_progress: Callable[[Analysis], None] | None
    stop: trio.Event
    deadline: float | None
    #: A timed decision's end (trio's clock; issue 27), or ``None``.
    until: float | None = None
    done: trio.Event = attrs.field(factory=trio.Event)
    answer: tuple[str, Any] | None = None
    failure: EngineError | None = None

    def end(self, answer: tuple[str, Any] | None, failure: EngineError | None = None) -> None:
        self.answer, self.failure = answer, failure
        self.done.set()


class EnginePool:
    """``size`` worker processes (:mod:`hipparchusd.engine.worker`), each importing the engine
    modules ``engines`` before it is ready, kept running by :meth:`run`: started with it
    (``on_demand``: by the first search that needs one), and each one that dies or misses a
    deadline (``timeout`` and ``stop_timeout`` seconds, see the module) killed and replaced. A
    search waits for a free one, by turns across its owners (:meth:`search`). Each is a fresh
    interpreter (``python -m hipparchusd.engine.worker``), not a fork of the daemon, whose
    threads and sockets it must not share. ``name`` says which searches it runs, for the logs.

    Raises:
        ValueError: ``size`` below 1, or ``timeout`` not above a heartbeat's interval.
    """

    def __init__(
        self,
        size: int,
        *,
        engines: Sequence[str] = (),
        timeout: float = 10.0,
        on_demand: bool = False,
        stop_timeout: float = STOP_TIMEOUT,
        name: str = "engine",
    ) -> None:
        if size < 1:
            raise ValueError(f"an engine pool needs at least one worker, not {size}")
        if timeout < 1:
            raise ValueError(f"a worker's deadline is at least a second, not {timeout}")
        self.size = size
        self.engines = tuple(engines)
        self.timeout = timeout
        self.stop_timeout = stop_timeout
        self.on_demand = on_demand
        self.name = name
        self.closed = False
        #: Searches asked for and not yet answered (running or waiting for a worker).
        self.searches = 0
        #: Workers killed or found dead and replaced since the pool started.
        self.restarts = 0
        #: Workers ready for searches now.
        self.ready = 0
        #: The engine modules the last worker to start had loaded when it said it was ready.
        self.loaded: tuple[str, ...] = ()
        self._workers: set[_Worker] = set()
        self._queue: FairQueue[_Job] = FairQueue()
        #: The workers waiting for a search, and (``on_demand``) the slots waiting for a
        #: search to start a worker for.
        self._idle = trio.lowlevel.ParkingLot()
        self._cold = trio.lowlevel.ParkingLot()
        self._jobs = itertools.count(1)

    @property
    def pids(self) -> list[int]:
        """The process ids of the workers running now."""
        return sorted(worker.pid for worker in self._workers)

    @property
    def waiting(self) -> int:
        """Searches waiting for a worker now (the queue's depth)."""
        return len(self._queue)

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Keep the workers running until cancelled, then end them. ``task_status.started``
        comes once each has started and said it is ready, or failed to (each within
        :data:`START_TIMEOUT`); at once when ``on_demand``."""
        try:
            async with trio.open_nursery() as nursery:
                firsts = [trio.Event() for _ in range(self.size)]
                for first in firsts:
                    nursery.start_soon(self._slot, first)
                for first in firsts:
                    await first.wait()
                task_status.started()
        finally:
            self.closed = True
            # Searches still waiting fail rather than wait for workers that will not come.
            while (job := self._queue.take()) is not None:
                job.end(None, EngineError("the engine is shut down"))

    async def search(
        self,
        kind: str,
        view: JSON,
        level: str,
        *,
        seed: int,
        owner: Owner = ("", None),
        interval_ms: int | None = None,
        on_progress: Callable[[Analysis], None] | None = None,
        stop: trio.Event | None = None,
        deadline: float | None = None,
        until: float | None = None,
    ) -> Analysis:
        """Search ``view`` (one seat's view of a game of ``kind``) at ``level`` (a level word)
        in a worker process: the :class:`Analysis` found. It waits for a worker by turns with
        the other searches (``owner``: the address and flow it is asked for; see
        :class:`~.fairqueue.FairQueue`). With ``interval_ms``, ``on_progress`` gets the
        analysis so far about that often. Setting ``stop`` ends the search early with what it
        found; cancelling the calling task stops it too (and the worker is killed if it does
        not stop within :data:`STOP_TIMEOUT`). With ``deadline`` (trio's clock), its time
        budget is cut to what is left of it when a worker takes it. With ``until`` (a timed
        decision's end, trio's clock), likewise less :data:`CLOCK_MARGIN_MS`, and it waits
        for a worker only while a search would still be worth making.

        Raises:
            NoTime: with ``until``, less than :data:`MIN_CLOCKED_MS` would be left for it.
            EngineError: the kind has no engine, the engine refused the view or the level, or
                its worker died or missed a deadline (``lost``), or the pool is shut down.
        """
        if self.closed:
            raise EngineError("the engine is shut down")
        job = _Job(
            next(self._jobs),
            engine_module(kind),
            view,
            level,
            seed,
            interval_ms,
            on_progress,
            stop if stop is not None else trio.Event(),
            deadline,
            until,
        )
        self.searches += 1
        try:
            self._queue.put(owner[0], owner[1], job)
            (self._idle if self._idle else self._cold).unpark()
            try:
                if until is not None:
                    # Waiting for a worker past the point of any use would only make the seat
                    # late; once a worker has it, it runs to its answer.
                    latest = until - (CLOCK_MARGIN_MS + MIN_CLOCKED_MS) / 1000
                    with trio.move_on_at(latest):
                        await job.done.wait()
                    if not job.done.is_set() and self._queue.remove(job):
                        raise NoTime("no worker was free in time for the decision")
                await job.done.wait()
            except NoTime:
                raise
            except BaseException:
                # Cancelled: out of the queue if it waits there; else stopped, and its worker
                # is given back (or killed) by the worker's own task once it answers.
                if not self._queue.remove(job):
                    job.on_progress = None
                    job.stop.set()
                raise
        finally:
            self.searches -= 1
        if job.failure is not None:
            raise job.failure
        assert job.answer is not None
        what, payload = job.answer
        if what == "error":
            name, detail = payload
            raise EngineError(f"the engine refused the search ({name})", detail)
        analysis: Analysis = payload
        return analysis

    # -- a worker's life -------------------------------------------------------------------

    async def _slot(self, first: trio.Event) -> None:
        """Keep one worker: start it (on demand: once a search waits), serve searches with
        it until it is lost, then start another, forever. ``first`` is set once the first
        start has succeeded or failed."""
        delay = RESTART_DELAY
        while True:
            if self.on_demand:
                first.set()
                while not self._queue:
                    await self._cold.park()
            try:
                worker = await self._start()
            except EngineError as error:
                log.error("%s: %s; trying again in %g s", self.name, error, delay)
                first.set()
                # A search waiting now would wait for a worker that may never start: it fails
                # (a bot seat then plays its random move; genmove answers internal).
                job = self._queue.take()
                if job is not None:
                    job.end(None, EngineError(f"no engine worker could be started: {error}"))
                await trio.sleep(delay)
                delay = min(2 * delay, 30.0)
                continue
            delay = RESTART_DELAY
            self.ready += 1
            self._workers.add(worker)
            first.set()
            graceful = True
            try:
                await self._serve(worker)
            except _Lost as lost:
                log.error("%s: %s; killed and replaced", self.name, lost)
                graceful = False
            finally:
                self.ready -= 1
                self._workers.discard(worker)
                await worker.end(graceful=graceful)
            self.restarts += 1

    async def _start(self) -> _Worker:
        """A new worker process, ready (its engines imported) within :data:`START_TIMEOUT`.

        Raises:
            EngineError: it could not be started, exited, or was not ready in time (killed).
        """
        parent, child = socket.socketpair()
        fd = child.fileno()
        command = [sys.executable, "-m", WORKER_MODULE, str(fd), *self.engines]

        def start() -> subprocess.Popen[bytes]:
            return subprocess.Popen(command, pass_fds=(fd,), stdin=subprocess.DEVNULL)

        try:
            process = await trio.to_thread.run_sync(start)
        except OSError as error:
            parent.close()
            raise EngineError(f"cannot start a worker: {error}") from None
        finally:
            child.close()
        worker = _Worker(process, trio.socket.from_stdlib_socket(parent))
        message: Any = None
        with trio.move_on_after(START_TIMEOUT):
            with contextlib.suppress(_Lost):
                message = await worker.receive()
        if not (isinstance(message, tuple) and message[:1] == ("ready",)):
            await worker.end(graceful=False)
            late = f"was not ready in {START_TIMEOUT:g} s"
            why = "exited" if process.poll() is not None else late
            raise EngineError(f"the engine worker {process.pid} {why} while starting")
        self.loaded = tuple(message[2] or ())
        log.info("%s: engine worker %d started (%s)", self.name, process.pid,
                 ", ".join(self.loaded) or "no engine loaded")  # fmt: skip
        return worker

    async def _serve(self, worker: _Worker) -> None:
        """Carry out searches on ``worker``, taken by turns from the queue, until it is lost.

        Raises:
            _Lost: it died or missed a deadline (its search has failed).
        """
        while True:
            job = self._queue.take()
            if job is None:
                await self._idle.park()
                continue
            await self._exchange(worker, job)

    async def _exchange(self, worker: _Worker, job: _Job) -> None:
        """Send ``job`` to ``worker`` and read its messages up to its answer, within the
        deadlines; a stop asked for meanwhile is passed on (with its own deadline).

        Raises:
            _Lost: the worker died or missed a deadline (``job`` has failed with ``lost``).
        """
        lost: _Lost | None = None
        try:
            async with trio.open_nursery() as nursery:
                receiving: list[trio.CancelScope] = []

                async def wake_on_stop() -> None:
                    await job.stop.wait()
                    for scope in receiving:
                        scope.cancel()

                nursery.start_soon(wake_on_stop)
                # Caught here, in the nursery's own body, so that it comes out as itself
                # rather than in an exception group.
                try:
                    await self._talk(worker, job, receiving)
                except _Lost as error:
                    lost = error
                nursery.cancel_scope.cancel()
        finally:
            if not job.done.is_set():
                failure = lost or _Lost("the engine is shut down")
                job.end(None, EngineError(str(failure), lost=lost is not None))
        if lost is not None:
            raise lost

    async def _talk(self, worker: _Worker, job: _Job, receiving: list[trio.CancelScope]) -> None:
        """:meth:`_exchange`'s messages; ``receiving`` holds the scope of the read under way,
        which the job's stop cancels so that the stop is sent at once.

        Raises:
            _Lost: the worker died or missed a deadline.
        """
        now = trio.current_time()
        left = None if job.deadline is None else job.deadline - now
        if job.until is not None:
            # After the take: a worker just started has taken some of the decision's time.
            clocked = job.until - now - CLOCK_MARGIN_MS / 1000
            if clocked * 1000 < MIN_CLOCKED_MS:
                job.end(None, NoTime("no time left for a search"))
                return
            left = clocked if left is None else min(left, clocked)
        level = within_deadline(job.level, left)
        # The search is also stopped when that time is up: a game may give one decision
        # several moves' budgets (Position.budget_scale), which a clock or a deadline must
        # still bound; stopped, the search answers with what it found.
        ends = None if left is None else now + left
        message = ("search", job.number, job.engine, job.view, level, job.seed, job.interval_ms)
        await self._send(worker, message)
        stop_sent = False
        while True:
            time_up = ends is not None and trio.current_time() >= ends
            if not stop_sent and (job.stop.is_set() or time_up):
                await self._send(worker, ("stop", job.number))
                stop_sent = True
            limit = self.stop_timeout if stop_sent else self.timeout
            wait = limit
            if not stop_sent and ends is not None:
                wait = min(limit, max(0.0, ends - trio.current_time()))
            with trio.move_on_after(wait) as scope:
                receiving[:] = [scope]
                received = await worker.receive()
            receiving.clear()
            if scope.cancelled_caught:
                if trio.current_time() < scope.deadline or wait < limit:
                    continue  # woken by the stop, or the time is up: send the stop
                what = "answer a stop" if stop_sent else "send anything"
                raise _Lost(f"the engine worker {worker.pid} did not {what} within {limit:g} s")
            kind, number, payload = received
            if number != job.number or kind == "alive":
                continue
            if kind == "progress":
                if job.on_progress is not None:
                    job.on_progress(payload)
                continue
            job.end((kind, payload))
            return

    async def _send(self, worker: _Worker, message: Any) -> None:
        """Send ``message`` to ``worker`` within the deadline.

        Raises:
            _Lost: the worker died, or did not take it in time.
        """
        with trio.move_on_after(self.timeout) as scope:
            await worker.send(message)
        if scope.cancelled_caught:
            raise _Lost(f"the engine worker {worker.pid} took no message in {self.timeout:g} s")
