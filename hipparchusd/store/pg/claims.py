"""Reading the PostgreSQL store's games, and claiming them (issue 28): a claim takes a game
whose owner is gone for the asking node, incrementing its fence under the row's lock
(:mod:`.fencing`). Runs in the writer process only."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeAlias

import psycopg

from ..sql import GameRows
from .fencing import GAME_COLUMNS, LIVE_NODE, OWNER_GONE, Fenced, mark_active, params

#: A game as a claim gives it: its rows and the fence the claim set.
Claimed: TypeAlias = tuple[GameRows, int]


def _rows(conn: psycopg.Connection[Any], game_ids: Sequence[str]) -> dict[str, GameRows]:
    """The rows of the unfinished games ``game_ids`` (as SQLite's ``load_unfinished``: seats,
    and the moves after the snapshot), by id."""
    if not game_ids:
        return {}
    ids = list(game_ids)
    seats: dict[str, list[tuple[int, str, bytes, str | None]]] = {}
    for game_id, seat, name, token_hash, bot in conn.execute(
        "SELECT game_id, seat, name, token_hash, bot FROM seats WHERE game_id = ANY(%s) "
        "ORDER BY game_id, seat",
        (ids,),
    ):
        seats.setdefault(game_id, []).append((seat, name, bytes(token_hash), bot))
    moves: dict[str, list[tuple[int, str]]] = {}
    timings: dict[str, list[str | None]] = {}
    # Every move's timing (issue 27), and the moves after the snapshot: one read.
    for game_id, seat, move, timing, after in conn.execute(
        "SELECT m.game_id, m.seat, m.move, m.timing, m.id > g.snapshot_move_id "
        "FROM moves AS m JOIN games AS g USING (game_id) WHERE g.game_id = ANY(%s) "
        "ORDER BY m.id",
        (ids,),
    ):
        timings.setdefault(game_id, []).append(timing)
        if after:
            moves.setdefault(game_id, []).append((seat, move))
    found: dict[str, GameRows] = {}
    for row in conn.execute(
        f"SELECT {GAME_COLUMNS} FROM games AS g WHERE g.game_id = ANY(%s) "
        "AND g.finished_at IS NULL",
        (ids,),
    ):
        game_id = row[0]
        found[game_id] = (
            (*row, None, None),  # an unfinished game has no timing record nor operator's end
            seats.get(game_id, []),
            moves.get(game_id, []),
            timings.get(game_id, []),
        )
    return found


def _claim(
    conn: psycopg.Connection[Any],
    where: str,
    asked: dict[str, Any],
    limit: int,
    order: str = "g.created_at, g.game_id",
) -> list[Claimed]:
    """Claim up to ``limit`` unfinished games matching ``where`` (SQL on ``g``) whose owner is
    gone (:data:`OWNER_GONE`), for the live node of ``asked`` (:func:`~.fencing.params`):
    each one's fence is incremented; the first in ``order`` (SQL on ``g``), skipping rows
    another transaction has locked (its owner is writing it: that owner is live). The claimed
    games' rows come in the order of creation."""
    claimed = conn.execute(
        "UPDATE games AS g SET owner = %(node)s, owner_epoch = %(epoch)s, fence = g.fence + 1 "
        "WHERE g.game_id IN (SELECT g.game_id FROM games AS g WHERE g.finished_at IS NULL "
        f"AND ({where}) AND {OWNER_GONE} ORDER BY {order} LIMIT %(limit)s "
        f"FOR UPDATE SKIP LOCKED) AND EXISTS ({LIVE_NODE}) RETURNING g.game_id, g.fence",
        {**asked, "limit": limit},
    ).fetchall()
    fences = {str(game_id): int(fence) for game_id, fence in claimed}
    rows = _rows(conn, list(fences))
    ordered = sorted(rows.values(), key=lambda game: (game[0][3], game[0][0]))
    return [(game, fences[game[0][0]]) for game in ordered]


#: What :func:`locate` found: ``("none", None)``: no such game; ``("finished", rows)``: a
#: finished game, its record in the snapshot's place; ``("owned", (node, game id))``: an
#: unfinished game another live node owns; ``("claimed", (rows, fence))``: claimed for the
#: asking node now.
Located: TypeAlias = tuple[str, Any]


def locate(conn: psycopg.Connection[Any], game_id: str, node: str, epoch: int) -> Located:
    """Where game ``game_id`` is (:data:`Located`), claiming it for ``node`` at ``epoch``
    when it is unfinished and its owner is gone (or ``node`` itself, unloaded)."""
    row = conn.execute(
        "SELECT finished_at IS NOT NULL, owner, owner_epoch FROM games WHERE game_id = %s",
        (game_id,),
    ).fetchone()
    if row is None:
        return ("none", None)
    if row[0]:
        return ("finished", load_finished(conn, game_id))
    asked = params((node, epoch), game=game_id)
    claimed = _claim(conn, "g.game_id = %(game)s", asked, 1)
    if claimed:
        return ("claimed", claimed[0])
    if conn.execute(LIVE_NODE, asked).fetchone() is None:
        raise Fenced(f"the lease of node {node} (epoch {epoch}) is over; nothing was claimed")
    owner = conn.execute(
        "SELECT owner, finished_at IS NOT NULL FROM games WHERE game_id = %s", (game_id,)
    ).fetchone()
    if owner is None:
        return ("none", None)
    if owner[1]:
        return ("finished", load_finished(conn, game_id))
    return ("owned", (owner[0], game_id))


def locate_token(
    conn: psycopg.Connection[Any], token_hash: bytes, now: float, node: str, epoch: int
) -> Located:
    """:func:`locate` of the game with a seat whose token digest is ``token_hash`` (an
    unfinished one first); a game claimed so is being resumed, so it is active at ``now``."""
    row = conn.execute(
        "SELECT s.game_id FROM seats AS s JOIN games AS g USING (game_id) "
        "WHERE s.token_hash = %s ORDER BY g.finished_at IS NOT NULL LIMIT 1",
        (token_hash,),
    ).fetchone()
    if row is None:
        return ("none", None)
    found = locate(conn, row[0], node, epoch)
    if found[0] == "claimed":
        mark_active(conn, [row[0]], now)
    return found


def startup(conn: psycopg.Connection[Any], node: str, epoch: int) -> list[Claimed]:
    """Claim for ``node`` (registered anew at ``epoch``) the unfinished games it owned before
    that a restarting daemon loads at once: those waiting for players. A started game stays
    stored until a seat or a spectator needs it, one the engine alone plays too: nobody
    follows it at a start, and loaded at every start such games would fill max-games for good
    (issue 24 item 6, as the SQLite store's start-up)."""
    where = "g.owner = %(node)s AND g.snapshot IS NULL"
    return _claim(conn, where, params((node, epoch)), 100_000)


def orphans(conn: psycopg.Connection[Any], limit: int, node: str, epoch: int) -> list[Claimed]:
    """Claim for ``node`` up to ``limit`` started, unfinished games whose owner is gone and
    whose every seat the engine plays: nobody would resume them, so a live node takes them
    over and plays on (issue 28: bot seats move with the game)."""
    where = (
        "g.snapshot IS NOT NULL AND g.owner IS NOT NULL AND g.owner <> %(node)s "
        "AND EXISTS (SELECT 1 FROM seats AS s WHERE s.game_id = g.game_id) AND NOT EXISTS "
        "(SELECT 1 FROM seats AS s WHERE s.game_id = g.game_id AND s.bot IS NULL)"
    )
    return _claim(conn, where, params((node, epoch)), limit)


def expired(
    conn: psycopg.Connection[Any], before: float, limit: int, node: str, epoch: int
) -> list[tuple[Claimed, float]]:
    """Claim for ``node`` up to ``limit`` started, unfinished games nobody owns (or whose
    owner is gone) last active before ``before``, the least recently active first, each with
    its ``last_active``: the node ends them as abandoned (:func:`abandon`), and a claim
    keeps two nodes from ending the same one."""
    where = "g.snapshot IS NOT NULL AND g.last_active < %(before)s"
    asked = params((node, epoch), before=before)
    claimed = _claim(conn, where, asked, limit, "g.last_active, g.game_id")
    actives = dict(
        conn.execute(
            "SELECT game_id, last_active FROM games WHERE game_id = ANY(%s)",
            ([game[0][0] for game, _ in claimed],),
        ).fetchall()
    )
    found = [(claim, float(actives[claim[0][0][0]])) for claim in claimed]
    return sorted(found, key=lambda item: item[1])


def owned_games(conn: psycopg.Connection[Any], game_ids: list[str]) -> list[GameRows]:
    """The rows of the unfinished games ``game_ids`` (those a node owns), oldest first."""
    found = _rows(conn, game_ids)
    return sorted(found.values(), key=lambda game: (game[0][3], game[0][0]))


def load_finished(conn: psycopg.Connection[Any], game_id: str) -> GameRows | None:
    """The rows of the finished game ``game_id`` (its record in the snapshot's place)."""
    row = conn.execute(
        "SELECT game_id, kind, options, created_at, record, abandoned::int, timing, "
        "operator_end FROM games WHERE game_id = %s AND finished_at IS NOT NULL",
        (game_id,),
    ).fetchone()
    if row is None:
        return None
    seats = conn.execute(
        "SELECT seat, name, token_hash, bot FROM seats WHERE game_id = %s ORDER BY seat",
        (game_id,),
    ).fetchall()
    taken = [(seat, name, bytes(digest), bot) for seat, name, digest, bot in seats]
    return tuple(row), taken, [], []
