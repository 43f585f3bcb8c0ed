"""The PostgreSQL store's nodes (issue 28): registering a daemon under its name, renewing its
lease on the database's clock, retiring it (drained), and reserving game numbers. Runs in the
writer process only."""

from __future__ import annotations

from typing import Any

import psycopg


def register_node(
    conn: psycopg.Connection[Any],
    node: str,
    lease: float,
    pid: int,
    host: str,
    force: bool,
) -> tuple[str, Any]:
    """Register ``node`` (at start, or after its lease lapsed) with a lease of ``lease``
    seconds from now on the database's clock: ``("ok", epoch)``, its new epoch, which voids
    every claim the node made before (its games are claimable by anyone, itself included).
    While another process holds a live lease under that name, and unless ``force`` (the
    caller knows that process is dead), ``("busy", (pid, host, seconds left))`` and nothing
    is changed: two daemons must never share a name."""
    row = conn.execute(
        "SELECT pid, host, extract(epoch FROM lease_until - clock_timestamp())::float8 "
        "FROM nodes WHERE name = %s AND lease_until > clock_timestamp() FOR UPDATE",
        (node,),
    ).fetchone()
    if row is not None and not force:
        return ("busy", (row[0], row[1], float(row[2])))
    registered = conn.execute(
        "INSERT INTO nodes (name, epoch, lease_until, started_at, pid, host) "
        "VALUES (%(node)s, 1, clock_timestamp() + make_interval(secs => %(lease)s), "
        "clock_timestamp(), %(pid)s, %(host)s) "
        "ON CONFLICT (name) DO UPDATE SET epoch = nodes.epoch + 1, "
        "lease_until = excluded.lease_until, started_at = excluded.started_at, "
        "pid = excluded.pid, host = excluded.host RETURNING epoch",
        {"node": node, "lease": lease, "pid": pid, "host": host},
    ).fetchone()
    assert registered is not None
    return ("ok", int(registered[0]))


def renew(
    conn: psycopg.Connection[Any], node: str, epoch: int, lease: float
) -> tuple[bool, list[tuple[str, int]]]:
    """Extend the live lease of ``node`` at ``epoch`` to ``lease`` seconds from now (by the
    database's clock): whether it was still live (a lapsed lease is never extended: the node
    must register again), and the live nodes as ``(name, epoch)``."""
    renewed = conn.execute(
        "UPDATE nodes SET lease_until = clock_timestamp() + make_interval(secs => %(lease)s) "
        "WHERE name = %(node)s AND epoch = %(epoch)s AND lease_until > clock_timestamp() "
        "RETURNING 1",
        {"node": node, "epoch": epoch, "lease": lease},
    ).fetchone()
    live = conn.execute(
        "SELECT name, epoch FROM nodes WHERE lease_until > clock_timestamp() ORDER BY name"
    ).fetchall()
    return renewed is not None, [(str(name), int(number)) for name, number in live]


def retire(conn: psycopg.Connection[Any], node: str, epoch: int) -> int:
    """``node`` at ``epoch`` stops (drained, or shut down): its lease ends now, so that other
    nodes may claim its unfinished games at once (they stay marked as its, so that the node
    started again under the same name takes back those nobody claimed meanwhile); how many
    it owned."""
    owned = conn.execute(
        "SELECT count(*) FROM games WHERE owner = %s AND owner_epoch = %s AND finished_at IS NULL",
        (node, epoch),
    ).fetchone()
    conn.execute(
        "UPDATE nodes SET lease_until = clock_timestamp() WHERE name = %s AND epoch = %s",
        (node, epoch),
    )
    return int(owned[0]) if owned else 0


def release(conn: psycopg.Connection[Any], game_ids: list[str], node: str, epoch: int) -> None:
    """``node`` gives up the unfinished games ``game_ids`` it owns (it unloaded them): they
    have no owner, and the next node that needs one claims it."""
    conn.execute(
        "UPDATE games SET owner = NULL, owner_epoch = NULL WHERE game_id = ANY(%s) "
        "AND owner = %s AND owner_epoch = %s AND finished_at IS NULL",
        (game_ids, node, epoch),
    )


def reserve_ids(conn: psycopg.Connection[Any], count: int) -> int:
    """Reserve ``count`` game numbers for one node; the first (the block is ``first`` to
    ``first + count - 1``). The row's lock makes concurrent reservations take turns."""
    row = conn.execute(
        "UPDATE meta SET value = (value::bigint + %s)::text WHERE key = 'next_game_number' "
        "RETURNING value::bigint - %s",
        (count, count),
    ).fetchone()
    assert row is not None
    return int(row[0])
