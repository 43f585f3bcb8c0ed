"""Games on disk: a SQLite database in the state directory, written by one thread with group commit.

Durability. The database runs in WAL mode with ``synchronous=FULL``: every commit syncs the
write-ahead log to the disk before COMMIT returns, so a committed transaction survives the
process being killed (``kill -9``) and the machine losing power, given a disk that honours
``fsync``. (``synchronous=NORMAL`` would survive ``kill -9`` but could lose the last commits at a
power loss, and with them moves the daemon had acknowledged.) A call such as
:meth:`SqliteStore.add_move` returns only after the transaction holding its write has committed.

Threading. ``sqlite3`` blocks, so one writer thread owns the only connection and the trio thread
never touches it. Each call becomes a request on a queue; the caller sleeps (in trio) until the
writer thread wakes it through the trio token.

Group commit. The writer takes every request waiting on the queue at once (up to ``_MAX_BATCH``)
and applies them in order in one transaction; a request that fails (say, a move for an unknown
game) has written nothing, and only its caller gets the error. Consecutive moves go in with one
INSERT (``_insert_moves`` says why that matters). One COMMIT, one ``fsync``, then
releases every caller of the batch. While a commit is under way new requests gather into the
next batch, so under load the cost of a sync is shared by many moves, and durability does not
cap throughput. Under load, a batch much smaller than the one before waits 0.3 ms for its
fellows (``_COMMIT_DELAY``).

Bounds. At most ``max_pending`` requests wait at once; further callers wait in turn for room.

Start-up checks (:meth:`SqliteStore.open`) stop with a :class:`~hipparchusd.store.base.StoreError`
rather than drop or overwrite anything: a state directory that cannot be created or written, a
second daemon on the same directory, a file that is not a SQLite database, a database that
fails ``PRAGMA quick_check``, or one whose schema is newer than this program.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

import trio

from . import schema
from .base import StoredGame, StoredSeat, StoreError
from .codec import dump, load

#: The database file inside the state directory.
DB_NAME: Final = "games.sqlite3"
#: The lock file that keeps a second daemon off the same state directory.
LOCK_NAME: Final = "lock"
#: The first bytes of every SQLite 3 database file.
_SQLITE_MAGIC: Final = b"SQLite format 3\x00"
#: Seconds the writer waits for more requests when a batch comes out much smaller than the one
#: before (see ``_write_loop``).
_COMMIT_DELAY: Final = 0.0003
#: Most requests committed in one transaction.
_MAX_BATCH: Final = 1024
#: Seconds between prunings of finished games past retention (also done at start-up).
PRUNE_INTERVAL: Final = 3600.0
_DAY: Final = 86400.0

_Action = Callable[[sqlite3.Connection], Any]

log = logging.getLogger("hipparchusd.store")


#: A move to record: (game id, seat, canonical move text).
_Move = tuple[str, int, str]


class _Request:
    """One call waiting for the writer: what to do, the trio task to wake, and how it went.
    ``move`` is set for :meth:`SqliteStore.add_move`, whose requests the writer inserts
    together (see ``_insert_moves``)."""

    __slots__ = ("action", "error", "move", "result", "task")

    def __init__(
        self, action: _Action, task: trio.lowlevel.Task | None, move: _Move | None = None
    ) -> None:
        self.action = action
        self.task = task
        self.move = move
        self.result: Any = None
        self.error: StoreError | None = None


_STOP: Final = _Request(lambda conn: None, None)


def _refuse_abort(_: Any) -> trio.lowlevel.Abort:
    """A caller waiting for its commit is not cancelled before it is woken (see ``_call``)."""
    return trio.lowlevel.Abort.FAILED


def _set_snapshot(conn: sqlite3.Connection, game_id: str, text: str) -> bool:
    """Make ``text`` the snapshot of the unfinished game ``game_id``, covering every move
    recorded so far; False when no such game is stored."""
    cursor = conn.execute(
        "UPDATE games SET snapshot = ?1, snapshot_move_id = "
        "(SELECT coalesce(max(id), 0) FROM moves WHERE game_id = ?2) "
        "WHERE game_id = ?2 AND finished_at IS NULL",
        (text, game_id),
    )
    return cursor.rowcount == 1


class SqliteStore:
    """The durable :class:`~hipparchusd.store.base.GameStore`: a SQLite database in a state
    directory. Make one with :meth:`open`; close it with :meth:`aclose`.

    It is :attr:`durable`: a game the daemon unloads (adjourns) can come back from it.

    ``transactions`` counts the commits made so far and ``requests`` the calls they carried
    (``requests / transactions`` is the mean group-commit batch).
    """

    #: What it keeps outlives the process (see ``GameStore.durable``).
    durable = True

    def __init__(
        self,
        *,
        path: Path,
        conn: sqlite3.Connection,
        lock_fd: int,
        retention_days: float,
        clock: Callable[[], float],
        max_pending: int,
    ) -> None:
        """Use :meth:`open`."""
        self.path = path
        self.retention_days = retention_days
        self.transactions = 0
        self.requests = 0
        self._conn = conn
        self._lock_fd = lock_fd
        self._clock = clock
        self._last_prune = clock()
        self._token = trio.lowlevel.current_trio_token()
        self._slots = trio.Semaphore(max_pending)
        # Guards _closed/_broken against the put of a request, so no request can be queued
        # after the writer has stopped taking them.
        self._lock = threading.Lock()
        # Held by the writer while it gathers and runs a batch; tests hold it to make a batch.
        self._gate = threading.Lock()
        self._queue: queue.SimpleQueue[_Request] = queue.SimpleQueue()
        self._closed = False
        self._broken: StoreError | None = None
        self._thread = threading.Thread(
            target=self._write_loop, name="hipparchusd-store-writer", daemon=True
        )
        self._thread.start()

    @classmethod
    async def open(
        cls,
        state_dir: Path,
        *,
        retention_days: float = 0,
        clock: Callable[[], float] = time.time,
        max_pending: int = 4096,
        migrations: Sequence[schema.Migration] | None = None,
    ) -> SqliteStore:
        """Open (or create) the store in ``state_dir``, creating the directory (mode 0700) if
        needed.

        Checks, in order: the directory can be created and written; no other process holds its
        lock; the database file, if any, is a SQLite database that passes ``PRAGMA
        quick_check`` and is a hipparchusd store of a schema version this program knows. An
        older schema is migrated (:mod:`hipparchusd.store.schema`) after copying the file to
        ``games.sqlite3.v<N>-<unix time>.bak``. Then finished games older than
        ``retention_days`` days are pruned (0 keeps them forever).

        Args:
            state_dir: the state directory.
            retention_days: days a finished game is kept (0: forever).
            clock: seconds since the epoch (tests move it).
            max_pending: most calls queued for the writer at once.
            migrations: the migration list (tests only; default :data:`schema.MIGRATIONS`).

        Raises:
            StoreError: any check failed; the message names the path and the problem.
            ValueError: a negative ``retention_days`` or a ``max_pending`` below 1.
        """
        if retention_days < 0:
            raise ValueError(f"retention must be 0 (forever) or more days, not {retention_days}")
        if max_pending < 1:
            raise ValueError(f"max_pending must be at least 1, not {max_pending}")
        conn, lock_fd = await trio.to_thread.run_sync(_open_database, Path(state_dir), migrations)
        store = cls(
            path=Path(state_dir) / DB_NAME,
            conn=conn,
            lock_fd=lock_fd,
            retention_days=retention_days,
            clock=clock,
            max_pending=max_pending,
        )
        try:
            pruned = await store._call(store._prune)
        except BaseException:
            await store.aclose()
            raise
        log.info(
            "store %s open (schema version %d, %s); %d finished games pruned",
            store.path,
            schema.latest_version(migrations),
            f"finished games kept {retention_days:g} days" if retention_days else "kept forever",
            pruned,
        )
        return store

    # -- the GameStore interface --------------------------------------------------------------

    async def load_unfinished(self) -> list[StoredGame]:
        """Every unfinished game, oldest first, with its seats and the moves after its snapshot.

        Raises:
            StoreError: a stored value cannot be read (e.g. a newer serialization version).
        """
        games: list[StoredGame] = await self._call(self._load_unfinished)
        return games

    async def create_game(
        self, game_id: str, kind: str, options: dict[str, str], created_at: float
    ) -> None:
        """Record a new game with its creation options; ``created_at`` in seconds since the
        epoch.

        Raises:
            StoreError: a game of that id is already stored, or the write failed.
        """
        text = dump("options", options)

        def action(conn: sqlite3.Connection) -> None:
            try:
                conn.execute(
                    "INSERT INTO games (game_id, kind, options, created_at) VALUES (?, ?, ?, ?)",
                    (game_id, kind, text, created_at),
                )
            except sqlite3.IntegrityError:
                raise StoreError(f"game {game_id} is already stored") from None
            # Kept apart from the games table: the newest game may be dropped (drop_game) or
            # pruned, and its id must still not be given out again after a restart.
            conn.execute(
                "INSERT INTO meta (key, value) VALUES ('latest_game_id', ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (game_id,),
            )

        await self._call(action)

    async def add_seat(self, game_id: str, seat: StoredSeat, snapshot: Any = None) -> None:
        """Record a taken seat (its token only as the digest in ``seat.token_hash``). A seat
        recorded before is replaced: a seat freed before the game starts may be taken again.
        With ``snapshot`` (the seat that starts the game), the game's first snapshot is stored
        in the same transaction.

        Raises:
            StoreError: no unfinished game ``game_id``, or the write failed.
        """
        text = None if snapshot is None else dump("snapshot", snapshot)

        def action(conn: sqlite3.Connection) -> None:
            cursor = conn.execute(
                "INSERT INTO seats (game_id, seat, name, token_hash) "
                "SELECT game_id, ?, ?, ? FROM games WHERE game_id = ? AND finished_at IS NULL "
                "ON CONFLICT (game_id, seat) DO UPDATE "
                "SET name = excluded.name, token_hash = excluded.token_hash",
                (seat.seat, seat.name, seat.token_hash, game_id),
            )
            if cursor.rowcount != 1:
                raise StoreError(f"no unfinished game {game_id} is stored")
            if text is not None:
                _set_snapshot(conn, game_id, text)

        await self._call(action)

    async def remove_seat(self, game_id: str, seat: int) -> None:
        """Forget ``seat`` of the unfinished game ``game_id`` that has not started (no
        snapshot): its holder left before the start.

        Raises:
            StoreError: no such game with ``seat`` recorded is stored, or the write failed.
        """

        def action(conn: sqlite3.Connection) -> None:
            cursor = conn.execute(
                "DELETE FROM seats WHERE game_id = ? AND seat = ? AND game_id IN "
                "(SELECT game_id FROM games WHERE finished_at IS NULL AND snapshot IS NULL)",
                (game_id, seat),
            )
            if cursor.rowcount != 1:
                raise StoreError(f"no seat {seat} of an unstarted game {game_id} is stored")

        await self._call(action)

    async def snapshot(self, game_id: str, snapshot: Any) -> None:
        """Replace the game's snapshot; it covers every move recorded so far.

        Raises:
            StoreError: no unfinished game ``game_id``, or the write failed.
        """
        text = dump("snapshot", snapshot)

        def action(conn: sqlite3.Connection) -> None:
            if not _set_snapshot(conn, game_id, text):
                raise StoreError(f"no unfinished game {game_id} is stored")

        await self._call(action)

    async def add_move(self, game_id: str, seat: int, move: str, snapshot: Any = None) -> None:
        """Record ``seat``'s move (canonical text); return once it is committed to disk. With
        ``snapshot`` (a move that deals a new round), the snapshot after the move is stored in
        the same transaction.

        Raises:
            StoreError: no unfinished game ``game_id``, or the write failed (the move is then
                not recorded and must not be acknowledged).
        """
        text = None if snapshot is None else dump("snapshot", snapshot)

        def action(conn: sqlite3.Connection) -> None:
            cursor = conn.execute(
                "INSERT INTO moves (game_id, seat, move) "
                "SELECT game_id, ?, ? FROM games WHERE game_id = ? AND finished_at IS NULL",
                (seat, move, game_id),
            )
            if cursor.rowcount != 1:
                raise StoreError(f"no unfinished game {game_id} is stored")
            if text is not None:
                _set_snapshot(conn, game_id, text)

        # Only plain moves join the batched INSERT of moves (see _run_batch).
        await self._call(action, (game_id, seat, move) if text is None else None)

    async def finish(self, game_id: str, record: Any) -> None:
        """Mark the game finished now, keeping ``record`` (its snapshot and move list are
        dropped: the record holds them). Finished games past retention are pruned at most
        every :data:`PRUNE_INTERVAL` seconds, here.

        Raises:
            StoreError: no unfinished game ``game_id``, or the write failed.
        """
        text = dump("record", record)
        finished_at = self._clock()

        def action(conn: sqlite3.Connection) -> None:
            cursor = conn.execute(
                "UPDATE games SET finished_at = ?, record = ?, snapshot = NULL "
                "WHERE game_id = ? AND finished_at IS NULL",
                (finished_at, text, game_id),
            )
            if cursor.rowcount != 1:
                raise StoreError(f"no unfinished game {game_id} is stored")
            conn.execute("DELETE FROM moves WHERE game_id = ?", (game_id,))
            if self._clock() - self._last_prune >= PRUNE_INTERVAL:
                self._prune(conn)

        await self._call(action)

    async def drop_game(self, game_id: str) -> None:
        """Delete the unfinished game ``game_id`` that never started (no snapshot), with its
        seats. Its id stays the latest for :meth:`latest_game_id` if it was.

        Raises:
            StoreError: no unfinished, unstarted game ``game_id`` is stored, or the write
                failed.
        """

        def action(conn: sqlite3.Connection) -> None:
            cursor = conn.execute(
                "DELETE FROM games WHERE game_id = ? AND finished_at IS NULL AND snapshot IS NULL",
                (game_id,),
            )
            if cursor.rowcount != 1:
                raise StoreError(f"no unstarted game {game_id} is stored")

        await self._call(action)

    async def load_finished(self, game_id: str) -> StoredGame | None:
        """Finished game ``game_id`` with its record as ``snapshot``, or ``None`` if the store
        holds no finished game of that id.

        Raises:
            StoreError: the stored game cannot be read.
        """

        def action(conn: sqlite3.Connection) -> StoredGame | None:
            row = conn.execute(
                "SELECT kind, options, created_at, record FROM games "
                "WHERE game_id = ? AND finished_at IS NOT NULL",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            kind, options, created_at, record = row
            where = f"{self.path}, game {game_id}"
            seats = conn.execute(
                "SELECT seat, name, token_hash FROM seats WHERE game_id = ? ORDER BY seat",
                (game_id,),
            ).fetchall()
            return StoredGame(
                game_id=game_id,
                kind=kind,
                options=load(options, "options", where),
                created_at=created_at,
                seats=tuple(StoredSeat(seat, name, bytes(digest)) for seat, name, digest in seats),
                snapshot=load(record, "record", where),
                moves=(),
                finished=True,
            )

        game: StoredGame | None = await self._call(action)
        return game

    async def find_by_token(self, token_hash: bytes) -> StoredGame | None:
        """The unfinished game with a seat whose token digest is ``token_hash`` (seats,
        snapshot and the moves after it, as :meth:`load_unfinished` gives them), or ``None``:
        no unfinished game has such a seat (finished games are not searched).

        Raises:
            StoreError: the stored game cannot be read.
        """

        def action(conn: sqlite3.Connection) -> StoredGame | None:
            row = conn.execute(
                "SELECT s.game_id FROM seats AS s JOIN games AS g USING (game_id) "
                "WHERE s.token_hash = ? AND g.finished_at IS NULL LIMIT 1",
                (token_hash,),
            ).fetchone()
            if row is None:
                return None
            found = self._load_unfinished(conn, row[0])
            return found[0] if found else None

        game: StoredGame | None = await self._call(action)
        return game

    async def latest_game_id(self) -> str | None:
        """The id of the game created last (finished, unfinished, dropped or pruned), or
        ``None`` when no game was ever created."""

        def action(conn: sqlite3.Connection) -> str | None:
            row = conn.execute("SELECT value FROM meta WHERE key = 'latest_game_id'").fetchone()
            if row is None:
                # A database written before the key was kept.
                row = conn.execute(
                    "SELECT game_id FROM games ORDER BY rowid DESC LIMIT 1"
                ).fetchone()
            return None if row is None else str(row[0])

        latest: str | None = await self._call(action)
        return latest

    async def aclose(self) -> None:
        """Let every queued call commit, stop the writer, close the database (which
        checkpoints the log into the main file) and release the state directory. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._queue.put(_STOP)
        with trio.CancelScope(shield=True):
            await trio.to_thread.run_sync(self._thread.join)
        os.close(self._lock_fd)
        log.info(
            "store %s closed: %d transactions carried %d requests",
            self.path,
            self.transactions,
            self.requests,
        )

    # -- the writer ---------------------------------------------------------------------------

    async def _call(self, action: _Action, move: _Move | None = None) -> Any:
        """Queue ``action`` for the writer and wait, not cancellably, until its batch is
        committed; return its result or raise its error.

        Waiting through a cancellation keeps the caller's view true: once queued, the action
        will be committed (or fail), and the caller learns which before it goes on.
        """
        try:
            self._slots.acquire_nowait()  # no checkpoint: calls keep the order they are made in
        except trio.WouldBlock:
            await self._slots.acquire()
        request = _Request(action, trio.lowlevel.current_task(), move)
        with self._lock:
            failure = self._broken or (StoreError("the store is closed") if self._closed else None)
            if failure is None:
                self._queue.put(request)
        if failure is not None:
            self._slots.release()
            raise failure
        # No checkpoint since the put, so the wake-up (run in this thread) comes after this.
        await trio.lowlevel.wait_task_rescheduled(_refuse_abort)
        if request.error is not None:
            raise request.error
        return request.result

    def _write_loop(self) -> None:
        """The writer thread: take what is queued, run it as one transaction, wake the callers;
        until the stop request."""
        batch: list[_Request] = []
        previous = 0
        try:
            while True:
                batch = [self._queue.get()]
                with self._gate:
                    self._drain(batch)
                    # Under load (the last batch held several requests), a batch much smaller
                    # than the last means its fellows are still on their way: waiting a little
                    # for them (as PostgreSQL's commit_delay) saves commits, and the trio
                    # thread's wake-ups, at the cost of this much latency, only under load.
                    if previous > 1 and len(batch) < previous // 2 and batch[-1] is not _STOP:
                        time.sleep(_COMMIT_DELAY)
                        self._drain(batch)
                    previous = len(batch)
                    stopping = batch[-1] is _STOP  # nothing is queued after the stop request
                    if stopping:
                        batch.pop()
                    if batch:
                        self._run_batch(batch)
                        self._wake(batch)
                    batch = []
                if stopping:
                    break
        except BaseException as error:  # a bug: fail every caller rather than leave them asleep
            failure = StoreError(f"the store's writer failed ({error!r}); restart the daemon")
            with self._lock:
                self._broken = failure
                while True:
                    try:
                        batch.append(self._queue.get_nowait())
                    except queue.Empty:
                        break
            batch = [request for request in batch if request is not _STOP]
            for request in batch:
                request.error = failure
            self._wake(batch)
            raise
        finally:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()

    def _drain(self, batch: list[_Request]) -> None:
        """Add to ``batch`` what is queued now, up to ``_MAX_BATCH`` in all."""
        while len(batch) < _MAX_BATCH:
            try:
                batch.append(self._queue.get_nowait())
            except queue.Empty:
                break

    def _run_batch(self, batch: list[_Request]) -> None:
        """Apply ``batch`` in one transaction and commit it.

        A request that fails is left out and only its caller gets the error: every action
        checks what can refuse it before its first write, or writes with a single statement
        (which SQLite undoes by itself when it fails), so a failed action has written nothing.
        An error that ends the transaction (a full disk, an I/O error) fails the whole batch.
        A batch of moves alone, the usual case under load, is one INSERT, its own transaction.
        """
        conn = self._conn
        try:
            if all(request.move for request in batch):
                self._insert_moves(conn, batch)
            else:
                conn.execute("BEGIN IMMEDIATE")
                start = 0
                while start < len(batch):
                    end = start + 1
                    while end < len(batch) and batch[start].move and batch[end].move:
                        end += 1
                    if end - start > 1:
                        self._insert_moves(conn, batch[start:end])
                    else:
                        self._run_request(conn, batch[start])
                    start = end
                conn.execute("COMMIT")
        except sqlite3.Error as error:
            if conn.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
            failure = StoreError(f"writing to {self.path} failed ({error}); nothing was stored")
            for request in batch:
                request.result = None
                request.error = request.error or failure
            return
        self.transactions += 1
        self.requests += len(batch)

    def _run_request(self, conn: sqlite3.Connection, request: _Request) -> None:
        """Run one request's action, keeping its result or its error."""
        try:
            request.result = request.action(conn)
        except Exception as error:
            if not conn.in_transaction:
                raise  # SQLite rolled the transaction back: the batch fails
            request.error = (
                error if isinstance(error, StoreError) else StoreError(f"{self.path}: {error}")
            )

    def _insert_moves(self, conn: sqlite3.Connection, run: list[_Request]) -> None:
        """Record consecutive ``add_move`` requests with one statement, whatever their number.

        Statements, not rows, set a commit's latency: during each SQLite call the writer lets
        go of the GIL, and a busy trio thread hands it back only at its next switch interval.
        A move for a game that is not stored unfinished is not inserted (the join leaves it
        out) and its caller gets the error.
        """
        moves = [request.move for request in run if request.move is not None]
        values = ", ".join(["(?, ?, ?, ?)"] * len(moves))
        parameters = [item for index, move in enumerate(moves) for item in (*move, index)]
        cursor = conn.execute(
            "INSERT INTO moves (game_id, seat, move) "
            f"SELECT v.column1, v.column2, v.column3 FROM (VALUES {values}) AS v "
            "JOIN games AS g ON g.game_id = v.column1 AND g.finished_at IS NULL "
            "ORDER BY v.column4",
            parameters,
        )
        if cursor.rowcount == len(moves):
            return
        games = sorted({game_id for game_id, _, _ in moves})
        live = {
            row[0]
            for row in conn.execute(
                "SELECT game_id FROM games WHERE finished_at IS NULL "
                f"AND game_id IN ({', '.join('?' * len(games))})",
                games,
            )
        }
        for request, (game_id, _, _) in zip(run, moves, strict=True):
            if game_id not in live:
                request.error = StoreError(f"no unfinished game {game_id} is stored")

    def _wake(self, batch: list[_Request]) -> None:
        """Wake ``batch``'s callers in the trio thread."""

        def wake() -> None:
            for request in batch:
                assert request.task is not None
                trio.lowlevel.reschedule(request.task)
                self._slots.release()

        with contextlib.suppress(trio.RunFinishedError):
            self._token.run_sync_soon(wake)

    # -- actions run by the writer ------------------------------------------------------------

    def _prune(self, conn: sqlite3.Connection) -> int:
        """Delete finished games past retention; return how many."""
        self._last_prune = self._clock()
        if not self.retention_days:
            return 0
        cutoff = self._last_prune - self.retention_days * _DAY
        cursor = conn.execute(
            "DELETE FROM games WHERE finished_at IS NOT NULL AND finished_at < ?", (cutoff,)
        )
        return cursor.rowcount

    def _load_unfinished(
        self, conn: sqlite3.Connection, only: str | None = None
    ) -> list[StoredGame]:
        """Every unfinished game, oldest first; with ``only``, just the unfinished game of
        that id (an empty list when there is none)."""
        where = "g.finished_at IS NULL" + ("" if only is None else " AND g.game_id = :only")
        parameters = {"only": only}
        seats: dict[str, list[StoredSeat]] = {}
        for game_id, seat, name, token_hash in conn.execute(
            "SELECT s.game_id, s.seat, s.name, s.token_hash FROM seats AS s "
            f"JOIN games AS g USING (game_id) WHERE {where} ORDER BY s.seat",
            parameters,
        ):
            seats.setdefault(game_id, []).append(StoredSeat(seat, name, bytes(token_hash)))
        moves: dict[str, list[tuple[int, str]]] = {}
        for game_id, seat, move in conn.execute(
            "SELECT m.game_id, m.seat, m.move FROM moves AS m JOIN games AS g USING (game_id) "
            f"WHERE {where} AND m.id > g.snapshot_move_id ORDER BY m.id",
            parameters,
        ):
            moves.setdefault(game_id, []).append((seat, move))
        games = []
        for game_id, kind, options, created_at, snapshot in conn.execute(
            "SELECT game_id, kind, options, created_at, snapshot FROM games AS g "
            f"WHERE {where} ORDER BY created_at, rowid",
            parameters,
        ):
            where = f"{self.path}, game {game_id}"
            games.append(
                StoredGame(
                    game_id=game_id,
                    kind=kind,
                    options=load(options, "options", where),
                    created_at=created_at,
                    seats=tuple(seats.get(game_id, ())),
                    snapshot=None if snapshot is None else load(snapshot, "snapshot", where),
                    moves=tuple(moves.get(game_id, ())),
                    finished=False,
                )
            )
        return games


def _open_database(
    state_dir: Path, migrations: Sequence[schema.Migration] | None
) -> tuple[sqlite3.Connection, int]:
    """The checks and set-up of :meth:`SqliteStore.open`, off the trio thread: the open,
    migrated connection (autocommit mode) and the held lock's file descriptor."""
    _check_writable(state_dir)
    lock_fd = _lock(state_dir)
    try:
        conn = _connect(state_dir / DB_NAME, migrations)
        _sync_directory(state_dir)
    except BaseException:
        os.close(lock_fd)
        raise
    return conn, lock_fd


def _sync_directory(state_dir: Path) -> None:
    """Make the directory entries of the files just created durable (SQLite syncs the
    directory for its log files, not for the database file it creates)."""
    fd = os.open(state_dir, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _check_writable(state_dir: Path) -> None:
    try:
        state_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as error:
        raise StoreError(
            f"cannot create the state directory {state_dir}: {error.strerror or error}"
        ) from None
    probe = state_dir / f".probe-{os.getpid()}"
    try:
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, b"hipparchusd")
            os.fsync(fd)
        finally:
            os.close(fd)
        os.unlink(probe)
    except OSError as error:
        raise StoreError(
            f"the state directory {state_dir} cannot be written: {error.strerror or error}"
        ) from None


def _lock(state_dir: Path) -> int:
    """Take the state directory's lock for the life of the process (or until close); write
    our pid in it for the message a second daemon would see."""
    path = state_dir / LOCK_NAME
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as error:
        raise StoreError(f"cannot open the lock file {path}: {error.strerror or error}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
        os.close(fd)
        raise StoreError(
            f"the state directory {state_dir} is in use by another hipparchusd (pid {holder})"
        ) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return fd


def _connect(path: Path, migrations: Sequence[schema.Migration] | None) -> sqlite3.Connection:
    damaged = "move it aside or restore it from a backup; hipparchusd will not overwrite it"
    if path.exists() and path.stat().st_size > 0:
        with path.open("rb") as file:
            if file.read(len(_SQLITE_MAGIC)) != _SQLITE_MAGIC:
                raise StoreError(f"{path} is not a SQLite database (damaged?); {damaged}")
    elif not path.exists():
        # Readable by the daemon's user alone: snapshots hold the hands of games in progress
        # (RULINGS H13). SQLite gives its log files the database file's mode.
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except OSError as error:
            raise StoreError(f"cannot create {path}: {error.strerror or error}") from None
    try:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=30)
    except sqlite3.Error as error:
        raise StoreError(f"cannot open {path}: {error}") from None
    try:
        problems = [row[0] for row in conn.execute("PRAGMA quick_check").fetchall()]
        if problems != ["ok"]:
            raise StoreError(f"{path} is damaged ({'; '.join(problems[:3])}); {damaged}")
        version = schema.read_version(conn, str(path))
        schema.check_version(version, str(path), migrations)  # before changing anything
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if mode != "wal":
            raise StoreError(f"{path}: cannot use write-ahead logging there (mode {mode})")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        if 0 < version < schema.latest_version(migrations):
            _back_up(conn, path, version)
        schema.migrate(conn, str(path), migrations)
        try:  # SQLite opens a file it may not write read-only, silently: write now to know
            conn.execute(
                "INSERT INTO meta (key, value) VALUES ('last_opened', ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (f"{time.time():.0f} pid {os.getpid()}",),
            )
        except sqlite3.OperationalError as error:
            raise StoreError(f"{path} cannot be written ({error})") from None
    except sqlite3.DatabaseError as error:
        conn.close()
        raise StoreError(f"{path} cannot be read ({error}); {damaged}") from None
    except BaseException:
        conn.close()
        raise
    return conn


def _back_up(conn: sqlite3.Connection, path: Path, version: int) -> None:
    """Copy the database aside before migrating it: ``<name>.v<version>-<unix time>.bak``."""
    target = path.with_name(f"{path.name}.v{version}-{int(time.time())}.bak")
    try:
        os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        raise StoreError(f"a backup {target} already exists; try again in a second") from None
    copy = sqlite3.connect(target)
    try:
        conn.backup(copy)
    finally:
        copy.close()
