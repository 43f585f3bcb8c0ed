"""The PostgreSQL store's writes of games, each fenced (:mod:`.fencing`): as SQLite's
(:mod:`hipparchusd.store.sql`), an operation checks what can refuse it before its first write,
or writes with one statement, so an operation refused (:class:`~.fencing.Refused`) has
written nothing. Runs in the writer process only."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg

from ..sql import MOVE_ACTIVITY_STEP
from .fencing import LIVE_NODE, Fenced, Owner, Refused, mark_active, params, why_refused


def create_game(
    conn: psycopg.Connection[Any],
    game_id: str,
    kind: str,
    options: str,
    created_at: float,
    node: str,
    epoch: int,
) -> int:
    """Insert game ``game_id``, owned by ``node`` (with a live lease at ``epoch``); its fence."""
    row = conn.execute(
        "INSERT INTO games (game_id, kind, options, created_at, last_active, owner, "
        "owner_epoch, fence) SELECT %(game)s, %(kind)s, %(options)s, %(created)s, "
        f"%(created)s, %(node)s, %(epoch)s, 1 WHERE EXISTS ({LIVE_NODE}) "
        "ON CONFLICT (game_id) DO NOTHING RETURNING fence",
        {
            "game": game_id,
            "kind": kind,
            "options": options,
            "created": created_at,
            "node": node,
            "epoch": epoch,
        },
    ).fetchone()
    if row is not None:
        return int(row[0])
    if conn.execute("SELECT 1 FROM games WHERE game_id = %s", (game_id,)).fetchone():
        raise Refused(f"game {game_id} is already stored")
    raise Fenced(f"the lease of node {node} (epoch {epoch}) is over; nothing was stored")


def _set_snapshot(
    conn: psycopg.Connection[Any], game_id: str, text: str, now: float, owner: Owner, fence: int
) -> bool:
    cursor = conn.execute(
        "UPDATE games AS g SET snapshot = %(text)s, last_active = %(now)s, snapshot_move_id = "
        "(SELECT coalesce(max(id), 0) FROM moves WHERE game_id = %(game)s) "
        "WHERE g.game_id = %(game)s AND g.finished_at IS NULL AND g.fence = %(fence)s "
        f"AND EXISTS ({LIVE_NODE})",
        params(owner, fence, text=text, now=now, game=game_id),
    )
    return cursor.rowcount == 1


def add_seat(
    conn: psycopg.Connection[Any],
    game_id: str,
    seat: int,
    name: str,
    token_hash: bytes,
    snapshot: str | None,
    now: float,
    bot: str | None,
    node: str,
    epoch: int,
    fence: int,
) -> None:
    """Insert or replace a seat of an unfinished game this node owns; with ``snapshot``, store
    it too (the seat that starts the game)."""
    owner = (node, epoch)
    cursor = conn.execute(
        "INSERT INTO seats (game_id, seat, name, token_hash, bot) "
        "SELECT g.game_id, %(seat)s, %(name)s, %(token)s, %(bot)s FROM games AS g "
        "WHERE g.game_id = %(game)s AND g.finished_at IS NULL AND g.fence = %(fence)s "
        f"AND EXISTS ({LIVE_NODE}) FOR SHARE OF g "
        "ON CONFLICT (game_id, seat) DO UPDATE "
        "SET name = excluded.name, token_hash = excluded.token_hash, bot = excluded.bot",
        params(owner, fence, seat=seat, name=name, token=token_hash, bot=bot, game=game_id),
    )
    if cursor.rowcount != 1:
        raise why_refused(conn, game_id, owner, fence, "unfinished game")
    if snapshot is not None:
        _set_snapshot(conn, game_id, snapshot, now, owner, fence)
    else:
        mark_active(conn, [game_id], now)


def remove_seat(
    conn: psycopg.Connection[Any], game_id: str, seat: int, node: str, epoch: int, fence: int
) -> None:
    """Delete ``seat`` of the unstarted game ``game_id`` this node owns."""
    owner = (node, epoch)
    cursor = conn.execute(
        "DELETE FROM seats AS s USING games AS g WHERE s.game_id = %(game)s "
        "AND s.seat = %(seat)s AND g.game_id = s.game_id AND g.finished_at IS NULL "
        f"AND g.snapshot IS NULL AND g.fence = %(fence)s AND EXISTS ({LIVE_NODE})",
        params(owner, fence, game=game_id, seat=seat),
    )
    if cursor.rowcount != 1:
        error = why_refused(conn, game_id, owner, fence, "seat of an unstarted game")
        if not isinstance(error, Fenced):
            error = Refused(f"no seat {seat} of an unstarted game {game_id} is stored")
        raise error


def snapshot(
    conn: psycopg.Connection[Any],
    game_id: str,
    text: str,
    now: float,
    node: str,
    epoch: int,
    fence: int,
) -> None:
    """Replace the snapshot of the unfinished game ``game_id`` this node owns."""
    owner = (node, epoch)
    if not _set_snapshot(conn, game_id, text, now, owner, fence):
        raise why_refused(conn, game_id, owner, fence, "unfinished game")


def add_move(
    conn: psycopg.Connection[Any],
    game_id: str,
    seat: int,
    move: str,
    snapshot: str | None,
    now: float,
    node: str,
    epoch: int,
    fence: int,
    timing: str | None = None,
) -> None:
    """Insert one move of an unfinished game this node owns, with its ``timing`` if any; with
    ``snapshot``, store it after the move."""
    owner = (node, epoch)
    cursor = conn.execute(
        "INSERT INTO moves (game_id, seat, move, timing) "
        "SELECT g.game_id, %(seat)s, %(move)s, %(timing)s "
        "FROM games AS g WHERE g.game_id = %(game)s AND g.finished_at IS NULL "
        f"AND g.fence = %(fence)s AND EXISTS ({LIVE_NODE}) FOR SHARE OF g",
        params(owner, fence, seat=seat, move=move, game=game_id, timing=timing),
    )
    if cursor.rowcount != 1:
        raise why_refused(conn, game_id, owner, fence, "unfinished game")
    if snapshot is not None:
        _set_snapshot(conn, game_id, snapshot, now, owner, fence)
    else:
        mark_active(conn, [game_id], now, MOVE_ACTIVITY_STEP)


def insert_moves(
    conn: psycopg.Connection[Any],
    moves: Sequence[tuple[str, int, str, int, str | None]],
    now: float,
    owner: Owner,
) -> list[str | tuple[str, str] | None]:
    """Insert the ``(game id, seat, move, fence, timing)`` rows of games this node owns with one
    statement, in order, their games active at ``now``; the error of each (``None``; a
    message; or ``("fenced", message)``)."""
    game_ids = [move[0] for move in moves]
    inserted = conn.execute(
        "INSERT INTO moves (game_id, seat, move, timing) "
        "SELECT v.game_id, v.seat, v.move, v.timing "
        "FROM unnest(%(games)s::text[], %(seats)s::int[], %(moves)s::text[], "
        "%(fences)s::bigint[], %(timings)s::text[]) "
        "WITH ORDINALITY AS v (game_id, seat, move, fence, timing, ord) "
        "JOIN games AS g ON g.game_id = v.game_id AND g.finished_at IS NULL "
        f"AND g.fence = v.fence WHERE EXISTS ({LIVE_NODE}) ORDER BY v.ord FOR SHARE OF g",
        params(
            owner,
            games=game_ids,
            seats=[move[1] for move in moves],
            moves=[move[2] for move in moves],
            fences=[move[3] for move in moves],
            timings=[move[4] for move in moves],
        ),
    ).rowcount
    games = sorted(set(game_ids))
    mark_active(conn, games, now, MOVE_ACTIVITY_STEP)
    if inserted == len(moves):
        return [None] * len(moves)
    errors: dict[str, str | tuple[str, str] | None] = {}
    for game_id, _, _, fence, _ in moves:
        if game_id not in errors:
            written = conn.execute(
                "SELECT 1 FROM games AS g WHERE g.game_id = %(game)s AND g.finished_at IS NULL "
                f"AND g.fence = %(fence)s AND EXISTS ({LIVE_NODE})",
                params(owner, fence, game=game_id),
            ).fetchone()
            if written is not None:
                errors[game_id] = None
            else:
                why = why_refused(conn, game_id, owner, fence, "unfinished game")
                errors[game_id] = ("fenced", str(why)) if isinstance(why, Fenced) else str(why)
    return [errors[game_id] for game_id in game_ids]


def finish(
    conn: psycopg.Connection[Any],
    game_id: str,
    record: str,
    finished_at: float,
    prune_before: float | None,
    node: str,
    epoch: int,
    fence: int,
    timing: str | None = None,
    operator_end: str | None = None,
) -> None:
    """Mark the game finished with its record and its timing record if any (no owner from
    now on: a finished game needs none), and ``operator_end`` (:func:`end_game`); drop its
    moves and snapshot; with ``prune_before``, also delete finished games older than that."""
    owner = (node, epoch)
    cursor = conn.execute(
        "UPDATE games AS g SET finished_at = %(at)s, record = %(record)s, "
        "timing = %(timing)s, operator_end = %(ended)s, snapshot = NULL, "
        "owner = NULL, owner_epoch = NULL WHERE g.game_id = %(game)s "
        f"AND g.finished_at IS NULL AND g.fence = %(fence)s AND EXISTS ({LIVE_NODE})",
        params(
            owner,
            fence,
            at=finished_at,
            record=record,
            game=game_id,
            timing=timing,
            ended=operator_end,
        ),
    )
    if cursor.rowcount != 1:
        raise why_refused(conn, game_id, owner, fence, "unfinished game")
    conn.execute("DELETE FROM moves WHERE game_id = %s", (game_id,))
    if prune_before is not None:
        prune(conn, prune_before)


def abandon(
    conn: psycopg.Connection[Any],
    game_id: str,
    record: str,
    finished_at: float,
    last_active: float | None,
    prune_before: float | None,
    node: str,
    epoch: int,
    fence: int,
) -> None:
    """End the unfinished game ``game_id`` (this node claimed it, :func:`expired`) as
    abandoned, as :func:`finish`, refused unless it is still inactive since ``last_active``;
    ``None`` checks nothing of the kind (the daemon holds the game and ends it: ``end``)."""
    owner = (node, epoch)
    cursor = conn.execute(
        "UPDATE games AS g SET finished_at = %(at)s, record = %(record)s, snapshot = NULL, "
        "abandoned = true, owner = NULL, owner_epoch = NULL WHERE g.game_id = %(game)s "
        "AND g.finished_at IS NULL AND g.fence = %(fence)s "
        "AND (CAST(%(active)s AS double precision) IS NULL OR g.last_active = %(active)s) "
        f"AND EXISTS ({LIVE_NODE})",
        params(owner, fence, at=finished_at, record=record, game=game_id, active=last_active),
    )
    if cursor.rowcount != 1:
        why = why_refused(conn, game_id, owner, fence, "unfinished game")
        if not isinstance(why, Fenced):
            why = Refused(f"no unfinished game {game_id} inactive since {last_active} is stored")
        raise why
    conn.execute("DELETE FROM moves WHERE game_id = %s", (game_id,))
    if prune_before is not None:
        prune(conn, prune_before)


def end_game(
    conn: psycopg.Connection[Any],
    game_id: str,
    record: str,
    finished_at: float,
    reason: str,
    prune_before: float | None,
    node: str,
    epoch: int,
    fence: int,
    timing: str | None = None,
) -> None:
    """End the unfinished game ``game_id`` this node owns as the server's operator asked
    (issue 26): as :func:`finish` (no winner: ``record`` is the game as it stood, ``timing``
    its timing record if any), with the operator's ``reason`` in ``operator_end``."""
    finish(conn, game_id, record, finished_at, prune_before, node, epoch, fence, timing, reason)


def touch(conn: psycopg.Connection[Any], game_ids: list[str], now: float) -> None:
    """Mark the unfinished games ``game_ids`` active at ``now`` (e.g. adjourned then)."""
    if game_ids:
        mark_active(conn, game_ids, now)


def drop_game(
    conn: psycopg.Connection[Any], game_id: str, node: str, epoch: int, fence: int
) -> None:
    """Delete the unstarted game ``game_id`` this node owns, with its seats."""
    owner = (node, epoch)
    cursor = conn.execute(
        "DELETE FROM games AS g WHERE g.game_id = %(game)s AND g.finished_at IS NULL "
        f"AND g.snapshot IS NULL AND g.fence = %(fence)s AND EXISTS ({LIVE_NODE})",
        params(owner, fence, game=game_id),
    )
    if cursor.rowcount != 1:
        why = why_refused(conn, game_id, owner, fence, "unstarted game")
        raise why


def prune(conn: psycopg.Connection[Any], before: float) -> int:
    """Delete finished games finished before ``before``; how many."""
    return conn.execute(
        "DELETE FROM games WHERE finished_at IS NOT NULL AND finished_at < %s", (before,)
    ).rowcount
