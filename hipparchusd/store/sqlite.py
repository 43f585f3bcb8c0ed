"""Games on disk: a SQLite database in the state directory, written by a child process with
group commit.

Durability. The database runs in WAL mode with ``synchronous=FULL``: every commit syncs the
write-ahead log to the disk before COMMIT returns, so a committed transaction survives the
process being killed (``kill -9``) and the machine losing power, given a disk that honours
``fsync``. (``synchronous=NORMAL`` would survive ``kill -9`` but could lose the last commits at a
power loss, and with them moves the daemon had acknowledged.) A call such as
:meth:`SqliteStore.add_move` returns only after the transaction holding its write has committed.

The writer. ``sqlite3`` blocks, so the trio thread never touches the database after start-up:
one child process (:mod:`hipparchusd.store.writer`, which says why a process and not a thread)
owns the only writing connection and commits what it receives in batches (group commit). Each
call becomes a request; the calls made in one scheduling round of trio go to the child in one
write on a Unix socket, and one task of the store's reads the answers and wakes each caller
once its batch is committed. That task lives in a nursery of :meth:`SqliteStore.open`, an
async context manager: the store is used inside ``async with SqliteStore.open(...) as store:``
and is closed, its reader joined, when the block ends. Reads (loading games at start-up or for a
``resume`` or ``record``) go through the same child, so they see every write made before them.

Bounds. At most ``max_pending`` requests wait at once; further callers wait in turn for room.

Start-up checks (:mod:`.startup`, run by :meth:`SqliteStore.open` in this process before the
child starts) stop with a :class:`~hipparchusd.store.base.StoreError` rather than drop or
overwrite anything.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any, Final

import trio

from ..records import StoredGame, StoredSeat
from ..wording import counted
from . import schema
from .base import StoreError, StoreUnreachable
from .codec import dump, load
from .frames import FrameReader, encode
from .sql import GameRows
from .startup import DB_NAME, open_database, start_writer

#: Seconds between prunings of finished games past retention (also done at start-up).
PRUNE_INTERVAL: Final = 3600.0
_DAY: Final = 86400.0
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
        self.result: Any = None
        self.error: StoreError | None = None

    def answer(self, result: Any, error: StoreError | None) -> None:
        """Record how the call went, and wake its task if it waits for that."""
        self.answered = True
        self.result = result
        self.error = error
        if self.parked:
            trio.lowlevel.reschedule(self.task)


def _refuse_abort(_: Any) -> trio.lowlevel.Abort:
    """A caller waiting for its commit is not cancelled before it is woken (see ``_call``)."""
    return trio.lowlevel.Abort.FAILED


class SqliteStore:
    """The durable :class:`~hipparchusd.store.base.GameStore`: a SQLite database in a state
    directory. Open one with ``async with SqliteStore.open(state_dir) as store:``; it is closed
    when the block ends, or before by :meth:`aclose`.

    It is :attr:`durable`: a game the daemon unloads (adjourns) can come back from it.

    ``transactions`` counts the commits made so far and ``requests`` the calls they carried
    (``requests / transactions`` is the mean group-commit batch). ``writer_pid`` is the writer
    process's id and ``settings`` its connection's ``journal_mode`` and ``synchronous``
    (2: FULL), for tests and monitoring.

    A writer that dies (the OOM killer, ``kill -9``) is replaced: up to
    :data:`RESTART_ATTEMPTS` new writer processes are started, the first after
    :data:`RESTART_DELAY` seconds and each later one after twice the wait before it
    (``restarts`` counts the writers started so). The calls it had fail with
    :class:`~hipparchusd.store.base.StoreUnreachable` (their outcome is in the database,
    which is the truth: :meth:`take_uncertain` names their games, for the server to load them
    again from it), and the calls made meanwhile with a plain ``StoreError`` (never sent).
    When no writer can be started, ``failed`` is set: the daemon must exit so that its
    supervisor restarts it.
    """

    #: What it keeps outlives the process (see ``GameStore.durable``).
    durable = True

    def __init__(
        self,
        *,
        path: Path,
        process: subprocess.Popen[bytes],
        sock: socket.socket,
        settings: dict[str, Any],
        lock_fd: int,
        retention_days: float,
        clock: Callable[[], float],
        max_pending: int,
    ) -> None:
        """Use :meth:`open`."""
        self.path = path
        self.retention_days = retention_days
        self.settings = settings
        self.transactions = 0
        self.requests = 0
        self._process = process
        self._sock = sock
        self._lock_fd = lock_fd
        self._clock = clock
        self._last_prune = clock()
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
        self.restarts = 0
        #: Set when the writer died and no new one could be started (see the class).
        self.failed = trio.Event()
        #: Games whose calls the dead writer had (see :meth:`take_uncertain`).
        self.uncertain: set[str] = set()
        self._released = trio.Event()
        #: The nursery of :meth:`open`, which owns the reader (and a writer's replacement).
        self._nursery: trio.Nursery | None = None

    @property
    def writer_pid(self) -> int:
        """The writer process's id."""
        return self._process.pid

    @classmethod
    @contextlib.asynccontextmanager
    async def open(
        cls,
        state_dir: Path,
        *,
        retention_days: float = 0,
        clock: Callable[[], float] = time.time,
        max_pending: int = 4096,
        migrations: Sequence[schema.Migration] | None = None,
    ) -> AsyncIterator[SqliteStore]:
        """Open (or create) the store in ``state_dir``, creating the directory (mode 0700) if
        needed, and start its writer process.

        Checks, in order: the directory can be created and written; no other process holds its
        lock (waiting up to 2 s for the writer of a daemon just killed to exit); the database
        file, if any, is a SQLite database that passes ``PRAGMA quick_check`` and is a
        hipparchusd store of a schema version this program knows. An older schema is migrated
        (:mod:`hipparchusd.store.schema`) after copying the file to
        ``games.sqlite3.v<N>-<unix time>.bak``. Then finished games older than
        ``retention_days`` days are pruned (0 keeps them forever).

        Args:
            state_dir: the state directory.
            retention_days: days a finished game is kept (0: forever).
            clock: seconds since the epoch (tests move it).
            max_pending: most calls waiting for the writer at once.
            migrations: the migration list (tests only; default :data:`schema.MIGRATIONS`).

        Raises:
            StoreError: any check failed, or the writer process could not start; the message
                names the path and the problem.
            ValueError: a negative ``retention_days`` or a ``max_pending`` below 1.
        """
        if retention_days < 0:
            raise ValueError(f"retention must be 0 (forever) or more days, not {retention_days}")
        if max_pending < 1:
            raise ValueError(f"max_pending must be at least 1, not {max_pending}")
        lock_fd = await trio.to_thread.run_sync(open_database, Path(state_dir), migrations)
        path = Path(state_dir) / DB_NAME
        try:
            process, sock, settings = await start_writer(path, lock_fd)
        except BaseException:
            os.close(lock_fd)
            raise
        store = cls(
            path=path,
            process=process,
            sock=sock,
            settings=settings,
            lock_fd=lock_fd,
            retention_days=retention_days,
            clock=clock,
            max_pending=max_pending,
        )
        try:
            async with trio.open_nursery() as nursery:
                store._nursery = nursery
                nursery.start_soon(store._receive_answers, name="hipparchusd-store-answers")
                try:
                    pruned = await store._prune()
                    log.info(
                        "store %s open (schema version %d, %s; writer pid %d); %s pruned",
                        store.path,
                        schema.latest_version(migrations),
                        f"finished games kept {counted(retention_days, 'day')}"
                        if retention_days
                        else "kept forever",
                        process.pid,
                        counted(pruned, "finished game"),
                    )
                    yield store
                finally:
                    await store.aclose()
        except BaseExceptionGroup as group:
            # The reader raises nothing but Cancelled (it fails the store's calls instead): a
            # group of one came from the block, or from the prune, and goes on as it is.
            if len(group.exceptions) == 1:
                raise group.exceptions[0] from None
            raise

    # -- the GameStore interface --------------------------------------------------------------

    async def load_unfinished(self, *, started: bool | None = None) -> list[StoredGame]:
        """Every unfinished game, oldest first, with its seats and the moves after its snapshot
        (``started``: only the games that have started, or only those that have not).

        Raises:
            StoreError: a stored value cannot be read (e.g. a newer serialization version).
        """
        rows: list[GameRows] = await self._call("load_unfinished", (None, started))
        return [self._stored_game(game, finished=False) for game in rows]

    async def create_game(
        self, game_id: str, kind: str, options: dict[str, str], created_at: float
    ) -> None:
        """Record a new game with its creation options; ``created_at`` in seconds since the
        epoch.

        Raises:
            StoreError: a game of that id is already stored, or the write failed.
        """
        text = dump("options", options)
        await self._call("create_game", (game_id, kind, text, created_at))

    async def add_seat(self, game_id: str, seat: StoredSeat, snapshot: Any = None) -> None:
        """Record a taken seat (its token only as the digest in ``seat.token_hash``). A seat
        recorded before is replaced: a seat freed before the game starts may be taken again.
        With ``snapshot`` (the seat that starts the game), the game's first snapshot is stored
        in the same transaction.

        Raises:
            StoreError: no unfinished game ``game_id``, or the write failed.
        """
        text = None if snapshot is None else dump("snapshot", snapshot)
        now = self._clock()
        await self._call(
            "add_seat", (game_id, seat.seat, seat.name, seat.token_hash, text, now, seat.bot)
        )

    async def remove_seat(self, game_id: str, seat: int) -> None:
        """Forget ``seat`` of the unfinished game ``game_id`` that has not started (no
        snapshot): its holder left before the start.

        Raises:
            StoreError: no such game with ``seat`` recorded is stored, or the write failed.
        """
        await self._call("remove_seat", (game_id, seat))

    async def snapshot(self, game_id: str, snapshot: Any) -> None:
        """Replace the game's snapshot; it covers every move recorded so far.

        Raises:
            StoreError: no unfinished game ``game_id``, or the write failed.
        """
        await self._call("snapshot", (game_id, dump("snapshot", snapshot), self._clock()))

    async def add_move(self, game_id: str, seat: int, move: str, snapshot: Any = None) -> None:
        """Record ``seat``'s move (canonical text); return once it is committed to disk. With
        ``snapshot`` (a move that deals a new round), the snapshot after the move is stored in
        the same transaction.

        Raises:
            StoreError: no unfinished game ``game_id``, or the write failed (the move is then
                not recorded and must not be acknowledged).
        """
        text = None if snapshot is None else dump("snapshot", snapshot)
        await self._call("add_move", (game_id, seat, move, text, self._clock()))

    async def finish(self, game_id: str, record: Any) -> None:
        """Mark the game finished now, keeping ``record`` (its snapshot and move list are
        dropped: the record holds them). Finished games past retention are pruned at most
        every :data:`PRUNE_INTERVAL` seconds, here.

        Raises:
            StoreError: no unfinished game ``game_id``, or the write failed.
        """
        text = dump("record", record)
        now = self._clock()
        await self._call("finish", (game_id, text, now, self._due_prune(now)))

    async def abandon(self, game_id: str, record: Any, last_active: float | None) -> None:
        """End the unfinished game ``game_id`` now as abandoned (RULINGS H14, issue 16 item 3:
        no winner), keeping ``record`` (the game as it stood) under the retention rule like
        any finished game's, and marked ``abandoned``. Refused when the game was active since
        ``last_active`` (the value :meth:`expired_games` gave): a seat resumed it meanwhile;
        ``None`` checks no activity (the server holds the game and ends it).

        Raises:
            StoreError: no unfinished game ``game_id`` inactive since ``last_active``, or the
                write failed.
        """
        text = dump("record", record)
        now = self._clock()
        await self._call("abandon", (game_id, text, now, last_active, self._due_prune(now)))

    async def touch(self, game_ids: Sequence[str]) -> None:
        """Mark the unfinished games ``game_ids`` active now: the daemon adjourned them, and
        their expiry counts from now.

        Raises:
            StoreError: the write failed.
        """
        await self._call("touch", (list(game_ids), self._clock()))

    async def expired_games(self, days: float, limit: int) -> list[tuple[StoredGame, float]]:
        """Up to ``limit`` started, unfinished games that nothing wrote, resumed or adjourned
        for ``days`` days (by this store's clock), least recently active first, each as
        :meth:`load_unfinished` gives it with its last activity (seconds since the epoch, to
        pass to :meth:`abandon`).

        Raises:
            StoreError: a stored game cannot be read, or the read failed.
            ValueError: ``days`` not above 0.
        """
        if not days > 0:
            raise ValueError(f"an expiry must be more than 0 days, not {days}")
        before = self._clock() - days * _DAY
        found: list[tuple[GameRows, float]] = await self._call("expired", (before, limit))
        return [(self._stored_game(rows, finished=False), active) for rows, active in found]

    async def drop_game(self, game_id: str) -> None:
        """Delete the unfinished game ``game_id`` that never started (no snapshot), with its
        seats. Its id stays the latest for :meth:`latest_game_id` if it was.

        Raises:
            StoreError: no unfinished, unstarted game ``game_id`` is stored, or the write
                failed.
        """
        await self._call("drop_game", (game_id,))

    async def load_finished(self, game_id: str) -> StoredGame | None:
        """Finished game ``game_id`` with its record as ``snapshot``, or ``None`` if the store
        holds no finished game of that id.

        Raises:
            StoreError: the stored game cannot be read.
        """
        rows: GameRows | None = await self._call("load_finished", (game_id,))
        return None if rows is None else self._stored_game(rows, finished=True)

    async def find_by_token(self, token_hash: bytes) -> StoredGame | None:
        """The game with a seat whose token digest is ``token_hash``: an unfinished one (seats,
        snapshot and the moves after it, as :meth:`load_unfinished` gives them), else a
        finished one still kept (as :meth:`load_finished` gives it, ``finished`` set), so
        that its seats can learn its result after a restart (issue 16 item 5); or ``None``. An
        unfinished game found so is being resumed: it is marked active now (its expiry, see
        :meth:`expired_games`, starts again).

        Raises:
            StoreError: the stored game cannot be read.
        """
        rows: GameRows | None = await self._call("find_by_token", (token_hash, self._clock()))
        if rows is not None:
            return self._stored_game(rows, finished=False)
        rows = await self._call("find_finished_by_token", (token_hash,))
        return None if rows is None else self._stored_game(rows, finished=True)

    async def adjourned_ids(self) -> list[str]:
        """The ids of the started, unfinished games, oldest first, without loading them: at
        start-up the daemon leaves them adjourned until a seat resumes one (issue 16 item 3).
        """
        ids: list[str] = await self._call("adjourned_ids", ())
        return ids

    async def latest_game_id(self) -> str | None:
        """The id of the game created last (finished, unfinished, dropped or pruned), or
        ``None`` when no game was ever created."""
        latest: str | None = await self._call("latest_game_id", ())
        return latest

    async def aclose(self) -> None:
        """Let every call made so far commit, stop the writer (its closing the database
        checkpoints the log into the main file) and release the state directory; return once
        that is done, even when cancelled (the directory is released before anyone may open
        it again). Idempotent: a second call waits for the first one's end."""
        if self._closed:
            with trio.CancelScope(shield=True):
                await self._released.wait()
            return
        self._closed = True
        try:
            with trio.CancelScope(shield=True):
                if self._outgoing:  # a round of calls not sent yet (see _call)
                    await self._send_outgoing()
                await self._sent.wait()
                with contextlib.suppress(OSError):  # (the writer may be gone already)
                    self._sock.shutdown(socket.SHUT_WR)  # the end of the writer's input
                # The writer commits what it has, answers and exits; the reader reads to the
                # end of its output (or, cancelled, fails the calls still waiting).
                await self._answers_done.wait()
                code = await trio.to_thread.run_sync(self._process.wait)
        finally:
            self._sock.close()
            os.close(self._lock_fd)
            self._released.set()
        if code:
            log.error("store %s: the writer process exited with status %d", self.path, code)
        log.info(
            "store %s closed: %d transactions carried %d requests",
            self.path,
            self.transactions,
            self.requests,
        )

    async def wait_closed(self) -> None:
        """Wait until :meth:`aclose` has released the store (for a task that holds a store
        open on behalf of others until they close it)."""
        await self._released.wait()

    # -- talking to the writer ----------------------------------------------------------------

    async def _call(self, operation: str, arguments: tuple[Any, ...]) -> Any:
        """Have the writer run ``operation`` (a name in
        :data:`hipparchusd.store.writer.OPERATIONS`) with ``arguments``, and wait, not
        cancellably, until its batch is committed; return its result or raise its error.

        Waiting through a cancellation keeps the caller's view true: once sent, the request
        will be committed (or fail), and the caller learns which before it goes on.
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
        """The store's reader, a task of :meth:`open`'s nursery: read the writer's answers and
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
                    for request_id, error, result in answers:
                        request = self._waiting.pop(request_id)
                        request.answer(result, None if error is None else StoreError(error))
                        self._slots.release()
        except OSError as error:  # (a writer that dies with a request unread resets the socket)
            why = f"the store's writer process stopped ({error.strerror or error})"
        except Exception as error:  # a bug: fail every caller rather than leave them asleep
            log.exception("store %s: reading the writer's answers failed", self.path)
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
        old_process, old_sock = self._process, self._sock
        code = await trio.to_thread.run_sync(old_process.wait)
        old_sock.close()
        log.error(
            "store %s: the writer process %d died (status %d)", self.path, old_process.pid, code
        )
        delay = RESTART_DELAY
        for attempt in range(1, RESTART_ATTEMPTS + 1):
            await trio.sleep(delay)
            delay *= 2
            if self._closed:
                return
            try:
                process, sock, settings = await start_writer(self.path, self._lock_fd)
            except OSError as error:
                log.error(
                    "store %s: starting a new writer failed (attempt %d of %d): %s",
                    self.path, attempt, RESTART_ATTEMPTS, error,
                )  # fmt: skip
                continue
            if self._closed:  # closed meanwhile: the new writer has nothing to do
                sock.close()
                await trio.to_thread.run_sync(process.wait)
                return
            self._process, self._sock, self.settings = process, sock, settings
            self._unsent.clear()
            self._answers_done = trio.Event()
            self._broken = None
            self.restarts += 1
            log.warning(
                "store %s: a new writer process %d took over (attempt %d)",
                self.path, process.pid, attempt,
            )  # fmt: skip
            assert self._nursery is not None
            self._nursery.start_soon(self._receive_answers, name="hipparchusd-store-answers")
            return
        log.critical(
            "store %s: no writer process could be started after %d attempts",
            self.path,
            RESTART_ATTEMPTS,
        )
        self.failed.set()

    def take_uncertain(self) -> set[str]:
        """The games whose calls the writer had when it died (their outcome is in the
        database only), since the last call; the server loads them again from the store."""
        games, self.uncertain = self.uncertain, set()
        return games

    def _break(self, why: str) -> None:
        """The writer cannot be reached: fail every waiting call with
        :class:`~hipparchusd.store.base.StoreUnreachable` (the writer may have committed it),
        and every later one with a plain ``StoreError``."""
        if self._broken is None:
            if not self._closed:
                log.error("store %s: %s", self.path, why)
            self._broken = StoreUnreachable(
                f"{why}; a new writer is being started; restart the daemon if none does"
            )
        waiting, self._waiting = self._waiting, {}
        for request in waiting.values():
            if request.game is not None:
                self.uncertain.add(request.game)
            request.answer(None, self._broken)
            self._slots.release()

    # -- helpers --------------------------------------------------------------------------------

    def _due_prune(self, now: float) -> float | None:
        """The ``prune_before`` of a finishing call made at ``now``: finished games past
        retention are pruned at most every :data:`PRUNE_INTERVAL` seconds."""
        if now - self._last_prune < PRUNE_INTERVAL:
            return None
        self._last_prune = now
        return self._prune_before(now)

    def _prune_before(self, now: float) -> float | None:
        """The finish time before which finished games are past retention (None: keep all)."""
        return now - self.retention_days * _DAY if self.retention_days else None

    async def _prune(self) -> int:
        """Delete finished games past retention now; how many."""
        self._last_prune = now = self._clock()
        before = self._prune_before(now)
        if before is None:
            return 0
        pruned: int = await self._call("prune", (before,))
        return pruned

    def _stored_game(self, rows: GameRows, *, finished: bool) -> StoredGame:
        """A :class:`StoredGame` from the writer's rows of a game (a finished game's snapshot
        is its record)."""
        (game_id, kind, options, created_at, stored, abandoned), seats, moves = rows
        where = f"{self.path}, game {game_id}"
        return StoredGame(
            game_id=game_id,
            kind=kind,
            options=load(options, "options", where),
            created_at=created_at,
            seats=tuple(StoredSeat(*seat) for seat in seats),
            snapshot=None
            if stored is None
            else load(stored, "record" if finished else "snapshot", where),
            moves=tuple(moves),
            finished=finished,
            abandoned=bool(abandoned),
        )
