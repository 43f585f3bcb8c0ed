"""What every write of the PostgreSQL store checks (issue 28): the node that makes it, with a
live lease, and the game's fencing counter (:data:`LIVE_NODE`, :data:`OWNER_GONE`), and the
refusals (:class:`Refused`, :class:`Fenced`). Runs in the writer process only.

Every write of a game names the node that writes it, the node's ``epoch`` and the game's
``fence`` as the node got it when it created or claimed the game (the last arguments of each
write), and its statement joins the game's row on that fence and the node's row on a live
lease, by the database's clock (``clock_timestamp()``), locking the game's row (``FOR SHARE``,
or the UPDATE's own lock) until COMMIT. A claim (:mod:`.claims`) increments the fence under the
row's lock, and only once the owner's lease is over; so a node that lost its lease or its game,
however long it was paused, has every write refused (:class:`Fenced`), and no write it made
before the claim can commit after it.
"""

from __future__ import annotations

from typing import Any, Final, TypeAlias

import psycopg

#: The node a write is made for: its name and the epoch of its registration.
Owner: TypeAlias = tuple[str, int]


class Refused(Exception):
    """An operation cannot be done as asked (e.g. no such game); it wrote nothing."""


class Fenced(Refused):
    """A write refused because its node does not own the game any more (another node claimed
    it) or its lease is over: it wrote nothing, and the node must give the game up."""


#: The node of a write's parameters (``node``, ``epoch``) holds a live lease now.
LIVE_NODE: Final = (
    "SELECT 1 FROM nodes AS n WHERE n.name = %(node)s AND n.epoch = %(epoch)s "
    "AND n.lease_until > clock_timestamp()"
)
#: A game's owner is gone: none, or a node whose epoch moved on or whose lease is over.
OWNER_GONE: Final = (
    "(g.owner IS NULL OR g.owner = %(node)s OR NOT EXISTS (SELECT 1 FROM nodes AS o "
    "WHERE o.name = g.owner AND o.epoch = g.owner_epoch AND o.lease_until > clock_timestamp()))"
)
#: A game's own columns, as :data:`hipparchusd.store.sql.GameRows` has them first.
GAME_COLUMNS: Final = "g.game_id, g.kind, g.options, g.created_at, g.snapshot, g.abandoned::int"


def why_refused(
    conn: psycopg.Connection[Any], game_id: str, owner: Owner, fence: int, what: str
) -> Refused:
    """Why a fenced write of ``game_id`` found no row: the node's lease is over, the game is
    another node's now, or there is no such unfinished game (``what`` says which, e.g.
    ``unfinished game``)."""
    node, epoch = owner
    live = conn.execute(LIVE_NODE, {"node": node, "epoch": epoch}).fetchone()
    if live is None:
        return Fenced(
            f"the lease of node {node} (epoch {epoch}) is over: game {game_id} may be another "
            "node's now; nothing was stored"
        )
    row = conn.execute(
        "SELECT fence, finished_at IS NULL FROM games WHERE game_id = %s", (game_id,)
    ).fetchone()
    if row is not None and row[1] and row[0] != fence:
        return Fenced(f"game {game_id} was claimed by another node; nothing was stored")
    return Refused(f"no {what} {game_id} is stored")


def params(owner: Owner, fence: int | None = None, **more: Any) -> dict[str, Any]:
    """A statement's named parameters: the ``node`` and ``epoch`` of ``owner``, the game's
    ``fence``, and ``more``."""
    return {"node": owner[0], "epoch": owner[1], "fence": fence, **more}


def mark_active(
    conn: psycopg.Connection[Any], game_ids: list[str], now: float, step: float = 0.0
) -> None:
    """The unfinished games ``game_ids`` were active at ``now`` (see SQLite's, which explains
    ``step``)."""
    conn.execute(
        "UPDATE games SET last_active = %s WHERE finished_at IS NULL AND game_id = ANY(%s) "
        "AND (last_active IS NULL OR last_active <= %s)",
        (now, game_ids, now - step),
    )
