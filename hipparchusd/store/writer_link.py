"""The daemon's side of a store's writer process (:class:`WriterLink`): calls sent in
batches, each caller woken once its batch is committed, and a writer that dies replaced.

The writer. A database client blocks, so the trio thread never touches the database after
start-up: one child process (:mod:`hipparchusd.store.writer`, which says why a process and not
a thread) owns the only writing connection and commits what it receives in batches (group
commit). Each call becomes a request; the calls made in one scheduling round of trio go to the
child in one write on a Unix socket (:mod:`.frames`), and one task of the link's reads the
answers and wakes each caller once its batch is committed. That task lives in the nursery
given to :meth:`WriterLink.start`, and so does the replacement of a writer that died.

Bounds. At most ``max_pending`` requests wait at once; further callers wait in turn for room.

Answers. Each request's answer carries ``None`` or an error: a message (nothing was stored),
``("uncertain", message)`` when the writer cannot tell whether its database kept it (a
server connection lost during COMMIT: the call fails with
:class:`~hipparchusd.store.base.StoreUnreachable`, as those of a writer that died do), or
``("fenced", message)`` when a shared database refused it because this daemon no longer owns
the game (:class:`~hipparchusd.store.base.GameNotOwned`).

The link knows no database and no operation: what a request names is the writer's business,
and how a writer is started is the store's (the ``start`` callable it is given).
"""

from __future__ import annotations

import contextlib
import logging
import socket
from collections.abc import Awaitable, Callable
from typing import Any, Final

import trio

from .base import GameNotOwned, StoreError, StoreUnreachable
from .frames import FrameReader, encode
from .spawn import Writer

#: Attempts to start a new writer process after the writer died (the OOM killer, ``kill -9``),
#: and the seconds before the first; each later attempt waits twice as long as the one before.
RESTART_ATTEMPTS: Final = 5
RESTART_DELAY: Final = 0.1
#: Bytes read from the writer at a time (below the allocator's mmap threshold: a larger buffer
#: costs three system calls per read).
_RECEIVE_SIZE: Final = 1 << 16

log = logging.getLogger("hipparchusd.store")


class _Request:
    """One call waiting for the writer: the trio task to wake, and how it went.

    ``parked`` says whether the task sleeps waiting for this answer, and so is to be woken:
    until then it may be busy elsewhere (yielding before it sends, or sending its round and
    later ones when its answer comes), where waking it would break trio's own wait.
    """

    __slots__ = ("answered", "error", "game", "parked", "result", "task")

    def __init__(self, task: trio.lowlevel.Task, game: str | None = None) -> None:
        self.task = task
        #: The game the call writes or reads, if it names one (its first argument).
        self.game = game
        self.answered = False
        self.parked = False
        # Whatever the writer's operation returned (rows, ids, counts): its caller knows.
        self.result: Any = None
        self.error: StoreError | None = None

    def answer(self, result: Any, error: StoreError | None) -> None:
        """Record how the call went, and wake its task if it waits for that."""
        self.answered = True
        self.result = result
        self.error = error
        if self.parked:
            trio.lowlevel.reschedule(self.task)


def _refuse_abort(_: object) -> trio.lowlevel.Abort:
    """A caller waiting for its commit is not cancelled before it is woken (see ``call``)."""
    return trio.lowlevel.Abort.FAILED


class WriterLink:
    """The link to a store's writer process: :meth:`call` sends a request and returns its
    answer once the batch holding it is committed.

    ``transactions`` counts the commits made so far and ``requests`` the calls they carried
    (``requests / transactions`` is the mean group-commit batch); ``process`` is the writer
    process now and ``settings`` what it reported at start.

    A writer that dies (the OOM killer, ``kill -9``) is replaced: up to
    :data:`RESTART_ATTEMPTS` new writer processes are started with ``start``, the first after
    :data:`RESTART_DELAY` seconds and each later one after twice the wait before it
    (``restarts`` counts the writers started so). The calls it had fail with
    :class:`~hipparchusd.store.base.StoreUnreachable` (their outcome is in the database,
    which is the truth: :meth:`take_uncertain` names their games), and the calls made
    meanwhile with a plain ``StoreError`` (never sent). When no writer can be started,
    ``failed`` is set: the daemon must exit so that its supervisor restarts it.

    Args:
        writer: the writer process, started and ready.
        start: starts a new writer (raising ``OSError`` when it cannot), for a replacement.
        where: the store, as log lines and errors name it (e.g. its database's path).
        max_pending: most calls waiting for the writer at once (at least 1).
    """

    def __init__(
        self,
        writer: Writer,
        *,
        start: Callable[[], Awaitable[Writer]],
        where: str,
        max_pending: int,
    ) -> None:
        self.process, self._sock, self.settings = writer
        self.transactions = 0
        self.requests = 0
        self.restarts = 0
        #: Called with the number of calls each commit carried (a group commit's batch), for
        #: the daemon's metrics; ``None``: nobody asks.
        self.on_commit: Callable[[int], None] | None = None
        #: Set when the writer died and no new one could be started (see the class).
        self.failed = trio.Event()
        self._start = start
        self._where = where
        self._slots = trio.Semaphore(max_pending)
        self._waiting: dict[int, _Request] = {}
        self._last_id = 0
        self._outgoing: list[tuple[int, str, tuple[Any, ...]]] = []
        self._flush_due = False
        self._unsent = bytearray()
        self._sent = trio.Event()
        self._sent.set()
        self._closed = False
        self._broken: StoreError | None = None
        self._answers_done = trio.Event()
        #: Games whose calls the dead writer had (see :meth:`take_uncertain`).
        self._uncertain: set[str] = set()
        #: The nursery of :meth:`start`, which owns the reader (and a writer's replacement).
        self._nursery: trio.Nursery | None = None

    def start(self, nursery: trio.Nursery) -> None:
        """Start reading the writer's answers, in a task of ``nursery`` (which must outlive
        :meth:`aclose`: it also runs the replacement of a writer that dies)."""
        self._nursery = nursery
        nursery.start_soon(self._receive_answers, name="hipparchusd-store-answers")

    async def call(self, operation: str, arguments: tuple[Any, ...]) -> Any:
        """Have the writer run ``operation`` (a name the writer knows) with ``arguments``,
        and wait, not cancellably, until its batch is committed; return its result.

        Waiting through a cancellation keeps the caller's view true: once sent, the request
        will be committed (or fail), and the caller learns which before it goes on.

        Raises:
            StoreError: the writer refused it, or the link is closed or broken (never sent).
            StoreUnreachable: the writer stopped while it had the request.
        """
        try:
            self._slots.acquire_nowait()  # no checkpoint: calls keep the order they are made in
        except trio.WouldBlock:
            await self._slots.acquire()
        if self._broken is not None or self._closed:
            self._slots.release()
            # Never sent: its outcome is known (nothing), unlike the calls the break caught.
            raise StoreError(str(self._broken) if self._broken else "the store is closed")
        self._last_id += 1
        game = arguments[0] if arguments and isinstance(arguments[0], str) else None
        request = self._waiting[self._last_id] = _Request(trio.lowlevel.current_task(), game)
        self._outgoing.append((self._last_id, operation, arguments))
        if not self._flush_due:
            # The first call of this scheduling round sends the round's calls in one write,
            # once the other tasks of the round have had their turn to add theirs.
            self._flush_due = True
            await trio.lowlevel.cancel_shielded_checkpoint()
            await self._send_outgoing()
        if not request.answered:  # (answered already if it failed to send, or came quickly)
            request.parked = True
            await trio.lowlevel.wait_task_rescheduled(_refuse_abort)
        if request.error is not None:
            raise request.error
        return request.result

    def take_uncertain(self) -> set[str]:
        """The games whose calls the writer had when it died, or whose calls' outcome it could
        not tell, or that the database said this daemon no longer owns (their truth is in the
        database only), since the last call."""
        games, self._uncertain = self._uncertain, set()
        return games

    async def aclose(self) -> None:
        """Let every call made so far commit, then stop the writer (the end of its input) and
        wait for it to exit; return once it has, even when cancelled. Calls made from now on
        fail. Call it once."""
        self._closed = True
        try:
            with trio.CancelScope(shield=True):
                if self._outgoing:  # a round of calls not sent yet (see call)
                    await self._send_outgoing()
                await self._sent.wait()
                with contextlib.suppress(OSError):  # (the writer may be gone already)
                    self._sock.shutdown(socket.SHUT_WR)  # the end of the writer's input
                # The writer commits what it has, answers and exits; the reader reads to the
                # end of its output (or, cancelled, fails the calls still waiting).
                await self._answers_done.wait()
                code = await trio.to_thread.run_sync(self.process.wait)
        finally:
            self._sock.close()
        if code:
            log.error("store %s: the writer process exited with status %d", self._where, code)

    async def _send_outgoing(self) -> None:
        """Send the calls gathered so far to the writer, after any still being sent. Only one
        task sends at a time; the others leave their bytes to it, so frames keep their order."""
        self._flush_due = False
        if not self._outgoing:
            return
        self._unsent += encode(self._outgoing)
        self._outgoing = []
        if not self._sent.is_set():
            return  # the task sending now sends these too
        self._sent = trio.Event()
        try:
            while self._unsent:
                try:
                    sent = self._sock.send(self._unsent)
                except BlockingIOError:
                    with trio.CancelScope(shield=True):
                        await trio.lowlevel.wait_writable(self._sock)
                    continue
                del self._unsent[:sent]
        except OSError as error:
            self._unsent.clear()
            self._break(f"sending to the store's writer process failed ({error})")
        finally:
            self._sent.set()

    async def _receive_answers(self) -> None:
        """The link's reader, a task of :meth:`start`'s nursery: read the writer's answers and
        wake their callers, until the writer's output ends (then fail whoever still waits).
        Raises nothing but ``Cancelled``: a failure fails the calls instead."""
        frames = FrameReader()
        why = "the store's writer process stopped"
        died = True  # unless cancelled: then the store is closing, and no writer is replaced
        try:
            while True:
                await trio.lowlevel.wait_readable(self._sock)
                try:
                    data = self._sock.recv(_RECEIVE_SIZE)
                except BlockingIOError:
                    continue
                if not data:
                    break
                for transactions, answers in frames.feed(data):
                    self.transactions += transactions
                    self.requests += len(answers)
                    if transactions and self.on_commit is not None:
                        self.on_commit(len(answers))
                    for request_id, error, result in answers:
                        request = self._waiting.pop(request_id)
                        failure = None if error is None else self._error(request, error)
                        request.answer(result, failure)
                        self._slots.release()
        except OSError as error:  # (a writer that dies with a request unread resets the socket)
            why = f"the store's writer process stopped ({error.strerror or error})"
        except Exception as error:  # a bug: fail every caller rather than leave them asleep
            log.exception("store %s: reading the writer's answers failed", self._where)
            why = f"reading from the store's writer process failed ({error!r})"
        except BaseException:
            died = False
            raise
        finally:
            if self._waiting or not self._closed:
                self._break(why)
            self._answers_done.set()
            if died and not self._closed and self._nursery is not None:
                self._nursery.start_soon(self._restart_writer, name="hipparchusd-store-restart")

    async def _restart_writer(self) -> None:
        """Replace the dead writer (see the class): reap it, then start a new one, with
        bounded retries and backoff; set :attr:`failed` if none starts."""
        old_process, old_sock = self.process, self._sock
        code = await trio.to_thread.run_sync(old_process.wait)
        old_sock.close()
        log.error(
            "store %s: the writer process %d died (status %d)", self._where, old_process.pid, code
        )
        delay = RESTART_DELAY
        for attempt in range(1, RESTART_ATTEMPTS + 1):
            await trio.sleep(delay)
            delay *= 2
            if self._closed:
                return
            try:
                process, sock, settings = await self._start()
            except OSError as error:
                log.error(
                    "store %s: starting a new writer failed (attempt %d of %d): %s",
                    self._where, attempt, RESTART_ATTEMPTS, error,
                )  # fmt: skip
                continue
            if self._closed:  # closed meanwhile: the new writer has nothing to do
                sock.close()
                await trio.to_thread.run_sync(process.wait)
                return
            self.process, self._sock, self.settings = process, sock, settings
            self._unsent.clear()
            self._answers_done = trio.Event()
            self._broken = None
            self.restarts += 1
            log.warning(
                "store %s: a new writer process %d took over (attempt %d)",
                self._where, process.pid, attempt,
            )  # fmt: skip
            assert self._nursery is not None
            self._nursery.start_soon(self._receive_answers, name="hipparchusd-store-answers")
            return
        log.critical(
            "store %s: no writer process could be started after %d attempts",
            self._where,
            RESTART_ATTEMPTS,
        )
        self.failed.set()

    def _error(self, request: _Request, error: str | tuple[str, str]) -> StoreError:
        """The error a writer's answer carries: a message (nothing was stored);
        ``("uncertain", message)`` when the writer cannot tell whether its database kept the
        request (a connection lost during COMMIT): a
        :class:`~hipparchusd.store.base.StoreUnreachable`; or ``("fenced", message)`` when
        the database refused it because this daemon no longer owns the game: a
        :class:`~hipparchusd.store.base.GameNotOwned`. The game of either of the last two is
        noted for :meth:`take_uncertain`: the database holds its truth."""
        if isinstance(error, str):
            return StoreError(error)
        tag, message = error
        if request.game is not None:
            self._uncertain.add(request.game)
        return GameNotOwned(message) if tag == "fenced" else StoreUnreachable(message)

    def _break(self, why: str) -> None:
        """The writer cannot be reached: fail every waiting call with
        :class:`~hipparchusd.store.base.StoreUnreachable` (the writer may have committed it),
        and every later one with a plain ``StoreError``."""
        if self._broken is None:
            if not self._closed:
                log.error("store %s: %s", self._where, why)
            self._broken = StoreUnreachable(
                f"{why}; a new writer is being started; restart the daemon if none does"
            )
        waiting, self._waiting = self._waiting, {}
        for request in waiting.values():
            if request.game is not None:
                self._uncertain.add(request.game)
            request.answer(None, self._broken)
            self._slots.release()


class LinkedStore:
    """What a store whose writes go through a :class:`WriterLink` (``_link``, set by the
    subclass's constructor) tells of its writer: the figures the daemon's metrics and the
    benchmarks read (issue 26), the same for every such store."""

    _link: WriterLink

    @property
    def writer_pid(self) -> int:
        """The writer process's id."""
        return self._link.process.pid

    @property
    def settings(self) -> dict[str, object]:
        """What the writer reported of its connection at start (e.g. SQLite's
        ``journal_mode`` and ``synchronous``, PostgreSQL's ``synchronous_commit``)."""
        return self._link.settings

    @property
    def transactions(self) -> int:
        """Commits made so far (with ``requests``: the mean group-commit batch)."""
        return self._link.transactions

    @property
    def requests(self) -> int:
        """Calls the commits so far carried."""
        return self._link.requests

    @property
    def restarts(self) -> int:
        """New writers started after a writer died."""
        return self._link.restarts

    def observe_commits(self, observer: Callable[[int], None]) -> None:
        """Call ``observer`` after each commit with the number of calls it carried."""
        self._link.on_commit = observer

    @property
    def failed(self) -> trio.Event:
        """Set when the writer died and no new one could be started."""
        return self._link.failed
