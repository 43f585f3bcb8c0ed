"""The SQLite store's writer process: the only connection that writes, with group commit.

:class:`~hipparchusd.store.sqlite.SqliteStore` starts this module as a child process
(``python -m hipparchusd.store.writer``) once it has checked and migrated the database, and
talks to it over a Unix socket pair. Why a process and not a thread: the trio thread is the
daemon's bottleneck, and a writer thread in the same interpreter takes the GIL back after
every SQLite call, each time making the trio thread wait and switch. Measured with
``bench/bench_durable.py``, that hand-over cost the trio thread more CPU per move than the
rest of durability together (see the closing notes of issue 5).

The conversation, in frames (:func:`encode`: a 4-byte big-endian length, then a pickle):

- child to parent, once at start: ``("ready", settings)``, the connection's journal mode and
  synchronous level (for tests and logs); or ``("failed", message)`` and exit 1.
- parent to child: a list of requests ``(request id, operation, arguments)``; an operation
  is a name in :data:`OPERATIONS`.
- child to parent, once the requests it took together are committed: ``(transactions,
  answers)``, where ``answers`` holds one ``(request id, error message or None, result)`` per
  request and ``transactions`` is how many commits carried them (0 when the batch failed).

Group commit. The child takes every request that has arrived (up to :data:`MAX_BATCH`) and
applies them in order in one transaction; a request that fails (say, a move for an unknown
game) has written nothing, and only its own answer carries the error. Consecutive moves go in
with one INSERT. One COMMIT, one ``fsync``, then the answers. While a commit is under way new
requests gather in the socket for the next batch, so under load the cost of a sync is shared by
many moves. A batch much smaller than the one before waits :data:`COMMIT_DELAY` seconds for its
fellows (as PostgreSQL's ``commit_delay``).

Ending. The child stops at the end of its input: after the parent's :meth:`aclose`, or when the
parent dies (the kernel closes its end), in which case any batch in hand is still committed
(nothing acknowledged depends on it) before the child exits. It ignores SIGINT, SIGTERM and
SIGHUP, which a terminal or systemd sends to the whole process group: the parent decides when
writing ends. It holds the state directory's lock (inherited from the parent) until it exits,
so no second daemon opens the database while it may still write.

This module imports nothing beyond the standard library: the child starts in a few tens of
milliseconds.
"""

from __future__ import annotations

import argparse
import contextlib
import pickle
import signal
import socket
import sqlite3
import struct
import time
from collections.abc import Callable, Iterator
from typing import Any, Final

#: Most requests committed in one transaction.
MAX_BATCH: Final = 1024
#: Seconds the child waits for more requests when a batch comes out much smaller than the one
#: before.
COMMIT_DELAY: Final = 0.0003
#: Bytes read from the socket at a time (below the allocator's mmap threshold).
_READ_SIZE: Final = 1 << 16
_LENGTH = struct.Struct(">I")


class Refused(Exception):
    """An operation cannot be done as asked (e.g. no such game); it wrote nothing. The parent
    raises its message as a :class:`~hipparchusd.store.base.StoreError`."""


# -- framing (both sides) ---------------------------------------------------------------------


def encode(message: Any) -> bytes:
    """``message`` as one frame: 4-byte big-endian length, then its pickle."""
    body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return _LENGTH.pack(len(body)) + body


class FrameReader:
    """Splits the bytes received into messages (:func:`encode`'s inverse); ``feed`` bytes in
    whatever pieces they come."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[Any]:
        """The messages completed by ``data``, in order (possibly none)."""
        buffer = self._buffer
        buffer += data
        messages = []
        start = 0
        while len(buffer) - start >= 4:
            (length,) = _LENGTH.unpack_from(buffer, start)
            end = start + 4 + length
            if end > len(buffer):
                break
            messages.append(pickle.loads(buffer[start + 4 : end]))
            start = end
        del buffer[:start]
        return messages

    @property
    def partial(self) -> bool:
        """Whether part of a frame is waiting for the rest."""
        return bool(self._buffer)


# -- operations (run in the child, one per request) -------------------------------------------


def set_snapshot(conn: sqlite3.Connection, game_id: str, text: str) -> bool:
    """Make ``text`` the snapshot of the unfinished game ``game_id``, covering every move
    recorded so far; False when no such game is stored."""
    cursor = conn.execute(
        "UPDATE games SET snapshot = ?1, snapshot_move_id = "
        "(SELECT coalesce(max(id), 0) FROM moves WHERE game_id = ?2) "
        "WHERE game_id = ?2 AND finished_at IS NULL",
        (text, game_id),
    )
    return cursor.rowcount == 1


def create_game(
    conn: sqlite3.Connection, game_id: str, kind: str, options: str, created_at: float
) -> None:
    """Insert game ``game_id`` (``options`` as enveloped JSON text) and make it the latest id."""
    try:
        conn.execute(
            "INSERT INTO games (game_id, kind, options, created_at) VALUES (?, ?, ?, ?)",
            (game_id, kind, options, created_at),
        )
    except sqlite3.IntegrityError:
        raise Refused(f"game {game_id} is already stored") from None
    # Kept apart from the games table: the newest game may be dropped (drop_game) or pruned,
    # and its id must still not be given out again after a restart.
    conn.execute(
        "INSERT INTO meta (key, value) VALUES ('latest_game_id', ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (game_id,),
    )


def add_seat(
    conn: sqlite3.Connection,
    game_id: str,
    seat: int,
    name: str,
    token_hash: bytes,
    snapshot: str | None,
) -> None:
    """Insert or replace a seat of an unfinished game; with ``snapshot``, store it too."""
    cursor = conn.execute(
        "INSERT INTO seats (game_id, seat, name, token_hash) "
        "SELECT game_id, ?, ?, ? FROM games WHERE game_id = ? AND finished_at IS NULL "
        "ON CONFLICT (game_id, seat) DO UPDATE "
        "SET name = excluded.name, token_hash = excluded.token_hash",
        (seat, name, token_hash, game_id),
    )
    if cursor.rowcount != 1:
        raise Refused(f"no unfinished game {game_id} is stored")
    if snapshot is not None:
        set_snapshot(conn, game_id, snapshot)


def remove_seat(conn: sqlite3.Connection, game_id: str, seat: int) -> None:
    """Delete ``seat`` of the unfinished game ``game_id`` that has not started."""
    cursor = conn.execute(
        "DELETE FROM seats WHERE game_id = ? AND seat = ? AND game_id IN "
        "(SELECT game_id FROM games WHERE finished_at IS NULL AND snapshot IS NULL)",
        (game_id, seat),
    )
    if cursor.rowcount != 1:
        raise Refused(f"no seat {seat} of an unstarted game {game_id} is stored")


def snapshot(conn: sqlite3.Connection, game_id: str, text: str) -> None:
    """Replace the snapshot of the unfinished game ``game_id``."""
    if not set_snapshot(conn, game_id, text):
        raise Refused(f"no unfinished game {game_id} is stored")


def add_move(
    conn: sqlite3.Connection, game_id: str, seat: int, move: str, snapshot: str | None
) -> None:
    """Insert one move of an unfinished game; with ``snapshot``, store it after the move."""
    cursor = conn.execute(
        "INSERT INTO moves (game_id, seat, move) "
        "SELECT game_id, ?, ? FROM games WHERE game_id = ? AND finished_at IS NULL",
        (seat, move, game_id),
    )
    if cursor.rowcount != 1:
        raise Refused(f"no unfinished game {game_id} is stored")
    if snapshot is not None:
        set_snapshot(conn, game_id, snapshot)


def insert_moves(conn: sqlite3.Connection, moves: list[tuple[str, int, str]]) -> list[str | None]:
    """Insert the ``(game id, seat, move)`` rows with one statement, in order; the error of
    each (``None``, or why it was left out: its game is not stored unfinished).

    Statements, not rows, set a batch's cost: this is the usual batch under load.
    """
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
        return [None] * len(moves)
    games = sorted({game_id for game_id, _, _ in moves})
    live = {
        row[0]
        for row in conn.execute(
            "SELECT game_id FROM games WHERE finished_at IS NULL "
            f"AND game_id IN ({', '.join('?' * len(games))})",
            games,
        )
    }
    return [
        None if game_id in live else f"no unfinished game {game_id} is stored"
        for game_id, _, _ in moves
    ]


def finish(
    conn: sqlite3.Connection,
    game_id: str,
    record: str,
    finished_at: float,
    prune_before: float | None,
) -> None:
    """Mark the game finished with its record, drop its moves and snapshot; with
    ``prune_before``, also delete finished games older than that (seconds since the epoch)."""
    cursor = conn.execute(
        "UPDATE games SET finished_at = ?, record = ?, snapshot = NULL "
        "WHERE game_id = ? AND finished_at IS NULL",
        (finished_at, record, game_id),
    )
    if cursor.rowcount != 1:
        raise Refused(f"no unfinished game {game_id} is stored")
    conn.execute("DELETE FROM moves WHERE game_id = ?", (game_id,))
    if prune_before is not None:
        prune(conn, prune_before)


def drop_game(conn: sqlite3.Connection, game_id: str) -> None:
    """Delete the unfinished game ``game_id`` that never started, with its seats."""
    cursor = conn.execute(
        "DELETE FROM games WHERE game_id = ? AND finished_at IS NULL AND snapshot IS NULL",
        (game_id,),
    )
    if cursor.rowcount != 1:
        raise Refused(f"no unstarted game {game_id} is stored")


def prune(conn: sqlite3.Connection, before: float) -> int:
    """Delete finished games finished before ``before``; how many."""
    cursor = conn.execute(
        "DELETE FROM games WHERE finished_at IS NOT NULL AND finished_at < ?", (before,)
    )
    return cursor.rowcount


#: One game's rows: (game id, kind, options text, created_at, snapshot text or None; for a
#: finished game, its record text), its seats as (seat, name, token digest) and its moves
#: after the snapshot as (seat, move) in order (none for a finished game).
GameRows = tuple[
    tuple[str, str, str, float, str | None],
    list[tuple[int, str, bytes]],
    list[tuple[int, str]],
]


def load_unfinished(conn: sqlite3.Connection, only: str | None = None) -> list[GameRows]:
    """Every unfinished game (``only``: just that one, if unfinished), oldest first, with its
    seats and the moves after its snapshot."""
    where = "g.finished_at IS NULL" + ("" if only is None else " AND g.game_id = :only")
    parameters = {"only": only}
    seats: dict[str, list[tuple[int, str, bytes]]] = {}
    for game_id, seat, name, token_hash in conn.execute(
        "SELECT s.game_id, s.seat, s.name, s.token_hash FROM seats AS s "
        f"JOIN games AS g USING (game_id) WHERE {where} ORDER BY s.seat",
        parameters,
    ):
        seats.setdefault(game_id, []).append((seat, name, bytes(token_hash)))
    moves: dict[str, list[tuple[int, str]]] = {}
    for game_id, seat, move in conn.execute(
        "SELECT m.game_id, m.seat, m.move FROM moves AS m JOIN games AS g USING (game_id) "
        f"WHERE {where} AND m.id > g.snapshot_move_id ORDER BY m.id",
        parameters,
    ):
        moves.setdefault(game_id, []).append((seat, move))
    return [
        (row, seats.get(row[0], []), moves.get(row[0], []))
        for row in conn.execute(
            "SELECT game_id, kind, options, created_at, snapshot FROM games AS g "
            f"WHERE {where} ORDER BY created_at, rowid",
            parameters,
        )
    ]


def find_by_token(conn: sqlite3.Connection, token_hash: bytes) -> GameRows | None:
    """The rows of the unfinished game with a seat whose token digest is ``token_hash``."""
    row = conn.execute(
        "SELECT s.game_id FROM seats AS s JOIN games AS g USING (game_id) "
        "WHERE s.token_hash = ? AND g.finished_at IS NULL LIMIT 1",
        (token_hash,),
    ).fetchone()
    if row is None:
        return None
    found = load_unfinished(conn, row[0])
    return found[0] if found else None


def load_finished(conn: sqlite3.Connection, game_id: str) -> GameRows | None:
    """The rows of the finished game ``game_id`` (its record in the snapshot's place)."""
    row = conn.execute(
        "SELECT game_id, kind, options, created_at, record FROM games "
        "WHERE game_id = ? AND finished_at IS NOT NULL",
        (game_id,),
    ).fetchone()
    if row is None:
        return None
    seats = conn.execute(
        "SELECT seat, name, token_hash FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
    ).fetchall()
    return tuple(row), [(seat, name, bytes(digest)) for seat, name, digest in seats], []


def latest_game_id(conn: sqlite3.Connection) -> str | None:
    """The id of the game created last, or ``None``."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'latest_game_id'").fetchone()
    if row is None:
        # A database written before the key was kept.
        row = conn.execute("SELECT game_id FROM games ORDER BY rowid DESC LIMIT 1").fetchone()
    return None if row is None else str(row[0])


#: The operations a request may name.
OPERATIONS: Final[dict[str, Callable[..., Any]]] = {
    function.__name__: function
    for function in (
        create_game,
        add_seat,
        remove_seat,
        snapshot,
        add_move,
        finish,
        drop_game,
        prune,
        load_unfinished,
        find_by_token,
        load_finished,
        latest_game_id,
    )
}

#: A request: (request id, operation name, arguments).
Request = tuple[int, str, tuple[Any, ...]]
#: An answer: (request id, error message or None, result).
Answer = tuple[int, str | None, Any]


def _is_plain_move(request: Request) -> bool:
    return request[1] == "add_move" and request[2][3] is None


def run_batch(
    conn: sqlite3.Connection, batch: list[Request], where: str
) -> tuple[int, list[Answer]]:
    """Apply ``batch`` in one transaction and commit it: (commits made, the answers).

    A request that fails is left out and only its answer carries the error: every operation
    checks what can refuse it before its first write, or writes with a single statement
    (which SQLite undoes by itself when it fails), so a failed operation has written nothing.
    An error that ends the transaction (a full disk, an I/O error) fails the whole batch.
    A batch of moves alone, the usual case under load, is one INSERT, its own transaction.
    """
    errors: list[str | None] = [None] * len(batch)
    results: list[Any] = [None] * len(batch)
    try:
        if all(_is_plain_move(request) for request in batch):
            errors = insert_moves(conn, [request[2][:3] for request in batch])
        else:
            conn.execute("BEGIN IMMEDIATE")
            start = 0
            while start < len(batch):
                end = start + 1
                while (
                    end < len(batch) and _is_plain_move(batch[start]) and _is_plain_move(batch[end])
                ):
                    end += 1
                if end - start > 1:
                    moves = [request[2][:3] for request in batch[start:end]]
                    errors[start:end] = insert_moves(conn, moves)
                else:
                    _, name, arguments = batch[start]
                    try:
                        results[start] = OPERATIONS[name](conn, *arguments)
                    except Exception as error:
                        if not conn.in_transaction:
                            raise  # SQLite rolled the transaction back: the batch fails
                        errors[start] = (
                            str(error) if isinstance(error, Refused) else f"{where}: {error}"
                        )
                start = end
            conn.execute("COMMIT")
    except sqlite3.Error as error:
        if conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        failure = f"writing to {where} failed ({error}); nothing was stored"
        return 0, [(request[0], failure, None) for request in batch]
    return 1, [
        (request[0], error, result)
        for request, error, result in zip(batch, errors, results, strict=True)
    ]


# -- the child's main loop --------------------------------------------------------------------


def _batches(sock: socket.socket) -> Iterator[list[Request]]:
    """The batches to commit, in order, until the parent closes its end: each batch is what
    has arrived when the last one is done (waiting for the first request), up to
    :data:`MAX_BATCH` requests."""
    reader = FrameReader()
    pending: list[Request] = []
    previous = 0
    ended = False
    while not ended or pending:
        if not pending and not ended:
            data = sock.recv(_READ_SIZE)  # blocks: nothing to do until a request comes
            ended = not data
            for frame in reader.feed(data):
                pending.extend(frame)
            if not pending:
                continue
        ended = _take_waiting(sock, reader, pending) or ended
        # Under load (the last batch held several requests), a batch much smaller than the
        # last means its fellows are on their way: waiting a little for them saves commits.
        if not ended and previous > 1 and len(pending) < previous // 2:
            time.sleep(COMMIT_DELAY)
            ended = _take_waiting(sock, reader, pending)
        batch, pending = pending[:MAX_BATCH], pending[MAX_BATCH:]
        previous = len(batch)
        yield batch


def _take_waiting(sock: socket.socket, reader: FrameReader, pending: list[Request]) -> bool:
    """Add to ``pending`` every request already received; True at the end of the input."""
    while len(pending) < MAX_BATCH:
        try:
            data = sock.recv(_READ_SIZE, socket.MSG_DONTWAIT)
        except BlockingIOError:
            return False
        if not data:
            return True
        for frame in reader.feed(data):
            pending.extend(frame)
    return False


def serve(sock: socket.socket, database: str) -> None:
    """Open ``database`` (already checked and migrated by the parent), say ``ready``, then
    commit batches and answer them until the input ends."""
    try:
        conn = sqlite3.connect(database, isolation_level=None, timeout=30)
        journal = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        synchronous = conn.execute("PRAGMA synchronous").fetchone()[0]
    except sqlite3.Error as error:
        sock.sendall(encode(("failed", f"cannot open {database} for writing ({error})")))
        raise SystemExit(1) from None
    try:
        sock.sendall(encode(("ready", {"journal_mode": journal, "synchronous": synchronous})))
        for batch in _batches(sock):
            answer = encode(run_batch(conn, batch, database))
            with contextlib.suppress(OSError):  # the parent is gone: the rest still commits
                sock.sendall(answer)
    finally:
        conn.close()


def main(argv: list[str] | None = None) -> None:
    """``python -m hipparchusd.store.writer --fd N DATABASE``: serve the parent on the
    inherited socket ``N``."""
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_IGN)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fd", type=int, required=True, help="the socket to the daemon")
    parser.add_argument("database", help="the database file")
    args = parser.parse_args(argv)
    with socket.socket(fileno=args.fd) as sock:
        sock.setblocking(True)
        serve(sock, args.database)


if __name__ == "__main__":
    main()
