"""The SQL of the SQLite store: one function per operation the writer process runs
(:data:`OPERATIONS`), and :func:`run_batch`, which applies a batch of requests in one
transaction (group commit). Runs in the writer process only; standard library only.

Every operation checks what can refuse it before its first write, or writes with a single
statement (which SQLite undoes by itself when it fails), so an operation that fails (raising
:class:`Refused`, say for an unknown game) has written nothing.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable
from typing import Any, Final

from .batching import Request


class Refused(Exception):
    """An operation cannot be done as asked (e.g. no such game); it wrote nothing. The parent
    raises its message as a :class:`~hipparchusd.store.base.StoreError`."""


def set_snapshot(conn: sqlite3.Connection, game_id: str, text: str, now: float) -> bool:
    """Make ``text`` the snapshot of the unfinished game ``game_id``, covering every move
    recorded so far, active at ``now``; False when no such game is stored."""
    cursor = conn.execute(
        "UPDATE games SET snapshot = ?1, last_active = ?3, snapshot_move_id = "
        "(SELECT coalesce(max(id), 0) FROM moves WHERE game_id = ?2) "
        "WHERE game_id = ?2 AND finished_at IS NULL",
        (text, game_id, now),
    )
    return cursor.rowcount == 1


#: Seconds by which a move may leave its game's ``last_active`` behind (see _mark_active).
MOVE_ACTIVITY_STEP: Final = 3600.0


def _mark_active(
    conn: sqlite3.Connection, game_ids: list[str], now: float, step: float = 0.0
) -> None:
    """The unfinished games ``game_ids`` were active at ``now`` (seconds since the epoch): a
    write, a resume or an adjournment, from which their expiry counts (never backwards).

    With ``step``, only a game last marked ``step`` seconds before ``now`` or earlier is
    marked: moves use it (:data:`MOVE_ACTIVITY_STEP`), since an UPDATE rewrites the game's
    whole row, its snapshot too, and doing so at every commit would multiply what a move
    writes. A game is adjourned, and its expiry counted from then, exactly (``touch``)."""
    conn.execute(
        "UPDATE games SET last_active = ? WHERE finished_at IS NULL "
        f"AND game_id IN ({', '.join('?' * len(game_ids))}) "
        "AND (last_active IS NULL OR last_active <= ?)",
        (now, *game_ids, now - step),
    )


def create_game(
    conn: sqlite3.Connection, game_id: str, kind: str, options: str, created_at: float
) -> None:
    """Insert game ``game_id`` (``options`` as enveloped JSON text) and make it the latest id."""
    try:
        conn.execute(
            "INSERT INTO games (game_id, kind, options, created_at, last_active) "
            "VALUES (?, ?, ?, ?, ?)",
            (game_id, kind, options, created_at, created_at),
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
    now: float,
    bot: str | None = None,
) -> None:
    """Insert or replace a seat of an unfinished game, active at ``now`` (``bot``: the engine's
    level word for a seat the engine plays); with ``snapshot``, store it too."""
    cursor = conn.execute(
        "INSERT INTO seats (game_id, seat, name, token_hash, bot) "
        "SELECT game_id, ?, ?, ?, ? FROM games WHERE game_id = ? AND finished_at IS NULL "
        "ON CONFLICT (game_id, seat) DO UPDATE "
        "SET name = excluded.name, token_hash = excluded.token_hash, bot = excluded.bot",
        (seat, name, token_hash, bot, game_id),
    )
    if cursor.rowcount != 1:
        raise Refused(f"no unfinished game {game_id} is stored")
    if snapshot is not None:
        set_snapshot(conn, game_id, snapshot, now)
    else:
        _mark_active(conn, [game_id], now)


def remove_seat(conn: sqlite3.Connection, game_id: str, seat: int) -> None:
    """Delete ``seat`` of the unfinished game ``game_id`` that has not started."""
    cursor = conn.execute(
        "DELETE FROM seats WHERE game_id = ? AND seat = ? AND game_id IN "
        "(SELECT game_id FROM games WHERE finished_at IS NULL AND snapshot IS NULL)",
        (game_id, seat),
    )
    if cursor.rowcount != 1:
        raise Refused(f"no seat {seat} of an unstarted game {game_id} is stored")


def snapshot(conn: sqlite3.Connection, game_id: str, text: str, now: float) -> None:
    """Replace the snapshot of the unfinished game ``game_id``, active at ``now``."""
    if not set_snapshot(conn, game_id, text, now):
        raise Refused(f"no unfinished game {game_id} is stored")


def add_move(
    conn: sqlite3.Connection,
    game_id: str,
    seat: int,
    move: str,
    snapshot: str | None,
    now: float,
    timing: str | None = None,
) -> None:
    """Insert one move of an unfinished game, with its ``timing`` if any, active at ``now``;
    with ``snapshot``, store it after the move."""
    cursor = conn.execute(
        "INSERT INTO moves (game_id, seat, move, timing) "
        "SELECT game_id, ?, ?, ? FROM games WHERE game_id = ? AND finished_at IS NULL",
        (seat, move, timing, game_id),
    )
    if cursor.rowcount != 1:
        raise Refused(f"no unfinished game {game_id} is stored")
    if snapshot is not None:
        set_snapshot(conn, game_id, snapshot, now)
    else:
        _mark_active(conn, [game_id], now, MOVE_ACTIVITY_STEP)


def insert_moves(
    conn: sqlite3.Connection, moves: list[tuple[str, int, str, str | None]], now: float
) -> list[str | None]:
    """Insert the ``(game id, seat, move, timing)`` rows with one statement, in order, their
    games active at ``now``; the error of each (``None``, or why it was left out: its game is
    not stored unfinished).

    Statements, not rows, set a batch's cost: this is the usual batch under load (one more
    statement marks the games active, rewriting a game's row at most once an hour).
    """
    values = ", ".join(["(?, ?, ?, ?, ?)"] * len(moves))
    parameters = [item for index, move in enumerate(moves) for item in (*move, index)]
    cursor = conn.execute(
        "INSERT INTO moves (game_id, seat, move, timing) "
        f"SELECT v.column1, v.column2, v.column3, v.column4 FROM (VALUES {values}) AS v "
        "JOIN games AS g ON g.game_id = v.column1 AND g.finished_at IS NULL "
        "ORDER BY v.column5",
        parameters,
    )
    _mark_active(conn, sorted({move[0] for move in moves}), now, MOVE_ACTIVITY_STEP)
    if cursor.rowcount == len(moves):
        return [None] * len(moves)
    games = sorted({move[0] for move in moves})
    live = {
        row[0]
        for row in conn.execute(
            "SELECT game_id FROM games WHERE finished_at IS NULL "
            f"AND game_id IN ({', '.join('?' * len(games))})",
            games,
        )
    }
    return [
        None if move[0] in live else f"no unfinished game {move[0]} is stored" for move in moves
    ]


def finish(
    conn: sqlite3.Connection,
    game_id: str,
    record: str,
    finished_at: float,
    prune_before: float | None,
    timing: str | None = None,
) -> None:
    """Mark the game finished with its record and its timing record (if any), drop its moves
    and snapshot; with ``prune_before``, also delete finished games older than that (seconds
    since the epoch)."""
    cursor = conn.execute(
        "UPDATE games SET finished_at = ?, record = ?, timing = ?, snapshot = NULL "
        "WHERE game_id = ? AND finished_at IS NULL",
        (finished_at, record, timing, game_id),
    )
    if cursor.rowcount != 1:
        raise Refused(f"no unfinished game {game_id} is stored")
    conn.execute("DELETE FROM moves WHERE game_id = ?", (game_id,))
    if prune_before is not None:
        prune(conn, prune_before)


def abandon(
    conn: sqlite3.Connection,
    game_id: str,
    record: str,
    finished_at: float,
    last_active: float | None,
    prune_before: float | None,
) -> None:
    """End the unfinished game ``game_id`` as abandoned (RULINGS H14: no winner, its record
    kept): as :func:`finish`, and marked ``abandoned``. Refused unless the game is still
    inactive since ``last_active`` (as :func:`expired` found it): a seat that resumed it
    meanwhile keeps it going; ``None`` checks nothing of the kind (the daemon holds the game
    and ends it). ``record`` is opaque text here."""
    cursor = conn.execute(
        "UPDATE games SET finished_at = ?, record = ?, snapshot = NULL, abandoned = 1 "
        "WHERE game_id = ? AND finished_at IS NULL AND (? IS NULL OR last_active = ?)",
        (finished_at, record, game_id, last_active, last_active),
    )
    if cursor.rowcount != 1:
        raise Refused(f"no unfinished game {game_id} inactive since {last_active} is stored")
    conn.execute("DELETE FROM moves WHERE game_id = ?", (game_id,))
    if prune_before is not None:
        prune(conn, prune_before)


def end_game(
    conn: sqlite3.Connection,
    game_id: str,
    record: str,
    finished_at: float,
    reason: str,
    prune_before: float | None,
    timing: str | None = None,
) -> None:
    """End the unfinished game ``game_id`` as the server's operator asked: as :func:`finish`
    (no winner: ``record`` is the game as it stood, ``timing`` its timing record if any),
    with the operator's ``reason`` in ``operator_end``."""
    cursor = conn.execute(
        "UPDATE games SET finished_at = ?, record = ?, timing = ?, snapshot = NULL, "
        "operator_end = ? WHERE game_id = ? AND finished_at IS NULL",
        (finished_at, record, timing, reason, game_id),
    )
    if cursor.rowcount != 1:
        raise Refused(f"no unfinished game {game_id} is stored")
    conn.execute("DELETE FROM moves WHERE game_id = ?", (game_id,))
    if prune_before is not None:
        prune(conn, prune_before)


def touch(conn: sqlite3.Connection, game_ids: list[str], now: float) -> None:
    """Mark the unfinished games ``game_ids`` active at ``now`` (e.g. adjourned then)."""
    if game_ids:
        _mark_active(conn, game_ids, now)


def expired(conn: sqlite3.Connection, before: float, limit: int) -> list[tuple[GameRows, float]]:
    """Up to ``limit`` started, unfinished games last active before ``before``, the least
    recently active first: each one's rows (as :func:`load_unfinished`) and its
    ``last_active`` (for :func:`abandon`)."""
    found: list[tuple[GameRows, float]] = []
    for game_id, last_active in conn.execute(
        "SELECT game_id, last_active FROM games WHERE finished_at IS NULL "
        "AND snapshot IS NOT NULL AND last_active < ? ORDER BY last_active LIMIT ?",
        (before, limit),
    ).fetchall():
        rows = load_unfinished(conn, game_id)
        if rows:
            found.append((rows[0], last_active))
    return found


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


#: One game's rows: (game id, kind, options text, created_at, snapshot text or None (for a
#: finished game, its record text), abandoned (0 or 1), timing text or None (a finished
#: game's timing record), operator_end (the operator's reason for a game the operator ended,
#: else None)), its seats as (seat, name, token digest, bot level or None), its moves after
#: the snapshot as (seat, move) in order, and the timing text (or None) of every one of its
#: moves, those the snapshot covers too, in order (no moves for a finished game).
GameRows = tuple[
    tuple[str, str, str, float, str | None, int, str | None, str | None],
    list[tuple[int, str, bytes, str | None]],
    list[tuple[int, str]],
    list[str | None],
]


def load_unfinished(
    conn: sqlite3.Connection, only: str | None = None, started: bool | None = None
) -> list[GameRows]:
    """Every unfinished game (``only``: just that one, if unfinished; ``started``: only those
    with a snapshot, or only those without), oldest first, with its seats and the moves after
    its snapshot."""
    where = "g.finished_at IS NULL" + ("" if only is None else " AND g.game_id = :only")
    if started is not None:
        where += " AND g.snapshot IS NOT NULL" if started else " AND g.snapshot IS NULL"
    parameters = {"only": only}
    seats: dict[str, list[tuple[int, str, bytes, str | None]]] = {}
    for game_id, seat, name, token_hash, bot in conn.execute(
        "SELECT s.game_id, s.seat, s.name, s.token_hash, s.bot FROM seats AS s "
        f"JOIN games AS g USING (game_id) WHERE {where} ORDER BY s.seat",
        parameters,
    ):
        seats.setdefault(game_id, []).append((seat, name, bytes(token_hash), bot))
    moves: dict[str, list[tuple[int, str]]] = {}
    timings: dict[str, list[str | None]] = {}
    # Every move's timing, and the moves after the snapshot: one read of the game's moves.
    for game_id, seat, move, timing, after in conn.execute(
        "SELECT m.game_id, m.seat, m.move, m.timing, m.id > g.snapshot_move_id "
        f"FROM moves AS m JOIN games AS g USING (game_id) WHERE {where} ORDER BY m.id",
        parameters,
    ):
        timings.setdefault(game_id, []).append(timing)
        if after:
            moves.setdefault(game_id, []).append((seat, move))
    return [
        (row, seats.get(row[0], []), moves.get(row[0], []), timings.get(row[0], []))
        for row in conn.execute(
            "SELECT game_id, kind, options, created_at, snapshot, abandoned, NULL, NULL "
            f"FROM games AS g WHERE {where} ORDER BY created_at, rowid",
            parameters,
        )
    ]


def adjourned_ids(conn: sqlite3.Connection) -> list[str]:
    """The ids of the unfinished games that have started (a snapshot), oldest first: the games
    a restart leaves adjourned until a seat resumes one, read without their rows."""
    return [
        game_id
        for (game_id,) in conn.execute(
            "SELECT game_id FROM games WHERE finished_at IS NULL AND snapshot IS NOT NULL "
            "ORDER BY created_at, rowid"
        )
    ]


def find_by_token(conn: sqlite3.Connection, token_hash: bytes, now: float) -> GameRows | None:
    """The rows of the unfinished game with a seat whose token digest is ``token_hash``; a
    seat resumes it, so it is active at ``now`` (its expiry starts again)."""
    row = conn.execute(
        "SELECT s.game_id FROM seats AS s JOIN games AS g USING (game_id) "
        "WHERE s.token_hash = ? AND g.finished_at IS NULL LIMIT 1",
        (token_hash,),
    ).fetchone()
    if row is None:
        return None
    _mark_active(conn, [row[0]], now)
    found = load_unfinished(conn, row[0])
    return found[0] if found else None


def find_finished_by_token(conn: sqlite3.Connection, token_hash: bytes) -> GameRows | None:
    """The rows of the finished game with a seat whose token digest is ``token_hash``, as
    :func:`load_finished` gives them (kept as long as the retention rule keeps the game)."""
    row = conn.execute(
        "SELECT s.game_id FROM seats AS s JOIN games AS g USING (game_id) "
        "WHERE s.token_hash = ? AND g.finished_at IS NOT NULL LIMIT 1",
        (token_hash,),
    ).fetchone()
    return None if row is None else load_finished(conn, row[0])


def load_finished(conn: sqlite3.Connection, game_id: str) -> GameRows | None:
    """The rows of the finished game ``game_id`` (its record in the snapshot's place)."""
    row = conn.execute(
        "SELECT game_id, kind, options, created_at, record, abandoned, timing, operator_end "
        "FROM games "
        "WHERE game_id = ? AND finished_at IS NOT NULL",
        (game_id,),
    ).fetchone()
    if row is None:
        return None
    seats = conn.execute(
        "SELECT seat, name, token_hash, bot FROM seats WHERE game_id = ? ORDER BY seat",
        (game_id,),
    ).fetchall()
    taken = [(seat, name, bytes(digest), bot) for seat, name, digest, bot in seats]
    return tuple(row), taken, [], []


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
        abandon,
        end_game,
        touch,
        expired,
        drop_game,
        prune,
        load_unfinished,
        adjourned_ids,
        find_by_token,
        find_finished_by_token,
        load_finished,
        latest_game_id,
    )
}

#: An answer: (request id, error message or None, result).
Answer = tuple[int, str | None, Any]


def _is_plain_move(request: Request) -> bool:
    return request[1] == "add_move" and request[2][3] is None


def _insert_plain_moves(conn: sqlite3.Connection, batch: list[Request]) -> list[str | None]:
    """:func:`insert_moves` of the plain ``add_move`` requests ``batch`` (game, seat, move,
    no snapshot, time, timing), their games active at the latest of their times."""
    rows = [(*request[2][:3], request[2][5] if len(request[2]) > 5 else None) for request in batch]
    return insert_moves(conn, rows, max(request[2][4] for request in batch))


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
            errors = _insert_plain_moves(conn, batch)
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
                    errors[start:end] = _insert_plain_moves(conn, batch[start:end])
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
