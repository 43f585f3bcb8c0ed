"""The PostgreSQL store's tables, their version, and the path from older layouts to this one.

As for SQLite (:mod:`hipparchusd.store.schema`), the database records its layout version in
``meta`` (key ``schema_version``), ``MIGRATIONS[n]`` takes a database from version ``n`` to
``n + 1``, a released migration is never edited, and each step runs in one transaction with
the update of the version. Several daemons may start at once on one database: the migration
holds a transaction-level advisory lock (:data:`MIGRATION_LOCK`), so one migrates and the
others then find it done. Runs in the writer process (psycopg); the daemon never imports it.

What the layout holds (version 2: version 1 and each move's and each finished game's
timing, as SQLite's version 5; version 3: the operator's end of a game, ``games.operator_end``,
as SQLite's version 6), beside what the SQLite layout keeps (the same columns,
with PostgreSQL's types):

- ``meta(key, value)``: ``schema_version``, ``application`` (``hipparchusd``),
  ``next_game_number`` (the first game number no daemon has reserved yet: each daemon reserves
  a block of numbers for the games it creates, so that ids never collide), ``cluster_id`` (a
  random id, which names the daemons' bus channels: two clusters may share one Redis).
- ``nodes(name, epoch, lease_until, started_at, pid, host)``: one row per daemon name. A
  daemon registering (at start, or after its lease lapsed) increments ``epoch``; it renews
  ``lease_until`` on the database's clock (``clock_timestamp()``), and a node is live while
  ``lease_until`` is in the future.
- ``games.owner``, ``games.owner_epoch``, ``games.fence``: the node (and its epoch) that owns
  the game now, if any, and the game's fencing counter, incremented by every claim. Every write
  of a game names the fence its writer got when it claimed the game and is checked against it,
  and against the writer's live lease, in the same statement: a daemon that lost the game
  (paused, partitioned) has its writes refused.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

#: Marks a database as this program's, in ``meta``.
APPLICATION: Final = "hipparchusd"
#: The advisory lock key held while the layout is checked and migrated ('hipp' in ASCII).
MIGRATION_LOCK: Final = 0x68697070

#: A migration step: given a cursor inside the step's transaction.
Migration = Callable[[Any], None]


def _create_v1(cur: Any) -> None:
    """Version 0 (empty) to 1: the first layout."""
    cur.execute("CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL)")
    cur.execute(
        """CREATE TABLE nodes (
            name text PRIMARY KEY,
            epoch bigint NOT NULL,
            lease_until timestamptz NOT NULL,
            started_at timestamptz NOT NULL,
            pid integer,
            host text
        )"""
    )
    cur.execute(
        """CREATE TABLE games (
            game_id text PRIMARY KEY,
            kind text NOT NULL,
            options text NOT NULL,
            created_at double precision NOT NULL,
            snapshot text,
            snapshot_move_id bigint NOT NULL DEFAULT 0,
            finished_at double precision,
            record text,
            last_active double precision,
            abandoned boolean NOT NULL DEFAULT false,
            owner text,
            owner_epoch bigint,
            fence bigint NOT NULL DEFAULT 0
        )"""
    )
    cur.execute("CREATE INDEX games_by_finish ON games (finished_at)")
    cur.execute(
        "CREATE INDEX games_by_activity ON games (last_active) "
        "WHERE finished_at IS NULL AND snapshot IS NOT NULL"
    )
    cur.execute("CREATE INDEX games_by_owner ON games (owner) WHERE finished_at IS NULL")
    cur.execute(
        """CREATE TABLE seats (
            game_id text NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
            seat integer NOT NULL,
            name text NOT NULL,
            token_hash bytea NOT NULL,
            bot text,
            PRIMARY KEY (game_id, seat)
        )"""
    )
    cur.execute("CREATE INDEX seats_by_token ON seats (token_hash)")
    cur.execute(
        """CREATE TABLE moves (
            id bigserial PRIMARY KEY,
            game_id text NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
            seat integer NOT NULL,
            move text NOT NULL
        )"""
    )
    cur.execute("CREATE INDEX moves_by_game ON moves (game_id, id)")
    cur.execute(
        "INSERT INTO meta (key, value) VALUES ('application', %s), ('next_game_number', '1'), "
        "('cluster_id', gen_random_uuid()::text)",
        (APPLICATION,),
    )


def _v1_to_v2(cur: Any) -> None:
    """Version 2, as SQLite's version 5 (issue 27): each move's timing (``moves.timing``) and
    a finished game's timing record (``games.timing``), enveloped JSON or NULL (an untimed
    game's), so that a timed game's clocks survive its owner's failure."""
    cur.execute("ALTER TABLE moves ADD COLUMN timing text")
    cur.execute("ALTER TABLE games ADD COLUMN timing text")


def _v2_to_v3(cur: Any) -> None:
    """Version 3, as SQLite's version 6 (issue 26): ``games.operator_end``, ``NULL`` unless
    the server's operator ended the game (``hipparchusd admin end``: no winner, its record the
    game as it stood), and then the reason the operator gave (``''`` for none). Every game of
    an older database ended otherwise: ``NULL``."""
    cur.execute("ALTER TABLE games ADD COLUMN operator_end text")


#: ``MIGRATIONS[n]`` takes a database from version ``n`` to ``n + 1``.
MIGRATIONS: Sequence[Migration] = (_create_v1, _v1_to_v2, _v2_to_v3)


class SchemaError(Exception):
    """The database is not one this program can use (not hipparchusd's, or newer); the
    message says which and what to do."""


def latest_version(migrations: Sequence[Migration] | None = None) -> int:
    """The layout version this program writes: the number of migrations."""
    return len(MIGRATIONS if migrations is None else migrations)


def read_version(cur: Any, where: str) -> int:
    """The layout version of the database (0 when its ``public`` schema holds no table).

    Raises:
        SchemaError: it holds tables but is not a hipparchusd store, or its recorded version
            is not a number.
    """
    cur.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
    tables = {row[0] for row in cur.fetchall()}
    if not tables:
        return 0
    if "meta" not in tables:
        raise SchemaError(f"{where} is not a hipparchusd database (it has no meta table)")
    cur.execute("SELECT key, value FROM meta")
    rows = dict(cur.fetchall())
    if rows.get("application") != APPLICATION:
        raise SchemaError(f"{where} is not a hipparchusd database")
    version = rows.get("schema_version")
    if version is None or not str(version).isdigit():
        raise SchemaError(f"{where} records no valid schema version ({version!r})")
    return int(version)


def migrate(conn: Any, where: str, migrations: Sequence[Migration] | None = None) -> int:
    """Bring the database on ``conn`` (a psycopg connection, not in a transaction) up to
    :func:`latest_version`, one transaction per step, under :data:`MIGRATION_LOCK`; return
    the version it had.

    Raises:
        SchemaError: the database is not ours, or is newer than this program.
        psycopg.Error: a step failed (the database stays at the last version reached).
    """
    steps = MIGRATIONS if migrations is None else migrations
    with conn.transaction(), conn.cursor() as cur:
        cur.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        found = read_version(cur, where)
    latest = len(steps)
    if found > latest:
        raise SchemaError(
            f"{where} has schema version {found}, newer than this hipparchusd understands "
            f"(up to {latest}); run a newer hipparchusd on it, or use another database"
        )
    version = found
    while version < latest:
        with conn.transaction(), conn.cursor() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            version = read_version(cur, where)  # another daemon may have migrated meanwhile
            if version >= latest:
                break
            steps[version](cur)
            cur.execute(
                "INSERT INTO meta (key, value) VALUES ('schema_version', %s) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (str(version + 1),),
            )
            version += 1
    return found
