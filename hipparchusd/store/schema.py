"""The SQLite store's table layout, its version, and the path from older layouts to this one.

The database records its layout version in ``meta`` (key ``schema_version``). Version 0 is the
empty database. ``MIGRATIONS[n]`` takes a database from version ``n`` to ``n + 1``, so
:data:`MIGRATIONS` read in order is the whole history of the layout, and a database of any
older version is brought up to date by running the missing steps in order.

To change the layout: append a function to :data:`MIGRATIONS` (never edit one that has been
released: databases in the field were made by it) and add a test that migrates a database made
at the previous version. The new version is ``len(MIGRATIONS)``.

Every migration runs inside one transaction together with the update of ``schema_version``, so a
crash or an error during a migration leaves the database at its old version. Before migrating a
database that holds data, the store copies it aside
(:meth:`hipparchusd.store.sqlite.SqliteStore.open`).

What the layout holds (version 6):

- ``meta(key, value)``: ``schema_version``, ``application`` (``hipparchusd``), ``last_opened``
  (Unix time and pid of the last process that opened it for writing), ``latest_game_id`` (the
  game created last, kept when its row is dropped or pruned; absent in databases written before
  it was kept, which fall back to the newest row of ``games``).
- ``games``: one row per game. ``options`` (the creation options), ``snapshot`` (the latest game
  record, ``NULL`` until the game starts) and ``record`` (the final record, once finished) are
  JSON in the project's versioned envelope (:func:`hipparchusd.serialization.envelope`).
  ``snapshot_move_id`` is the id of the last move the snapshot covers (0: none). ``created_at``
  and ``finished_at`` are seconds since the Unix epoch. ``last_active`` (version 4, seconds
  since the epoch) is when an unfinished game was last written (a move: to within an hour,
  :func:`hipparchusd.store.sql.insert_moves`), resumed or adjourned: a started game inactive
  for the adjourn expiry is ended as abandoned (issue 16 item 3, RULINGS H14 in
  docs/rules.md), which sets ``abandoned`` (version 4; 0 or 1) with its ``finished_at`` and
  ``record``. ``timing`` (version 5, enveloped JSON) is a finished game's timing record (its
  time control, each decision's time, the moves the server made for a seat, an abort, a flag
  or a claim: issue 27), ``NULL`` for a game that has none. ``operator_end`` (version 6) is
  ``NULL`` unless the server's operator ended the game (``hipparchusd admin end``: no winner,
  its record the game as it stood), and then the reason the operator gave (``''`` for none).
- ``seats(game_id, seat, name, token_hash, bot)``: the SHA-256 digest of each seat's resume
  token, indexed (``seats_by_token``, version 2) for the ``resume`` of an adjourned game;
  ``bot`` (version 3) is the engine's level word for a seat the daemon's engine plays, else
  ``NULL``.
- ``moves(id, game_id, seat, move, timing)``: every move of an unfinished game, ``id``
  increasing in the order moves were recorded (across games), ``move`` the game's canonical
  move text, ``timing`` (version 5, enveloped JSON) what the decision cost and every seat's
  clock after it in a timed game, or that the server made it for the seat (RULINGS T2, T4),
  else ``NULL``. A finished game keeps its record instead.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence

from .base import StoreError

#: Marks a database as this program's, in ``meta``.
APPLICATION = "hipparchusd"

Migration = Callable[[sqlite3.Connection], None]


def _create_v1(conn: sqlite3.Connection) -> None:
    """Version 0 (empty) to 1: the first layout."""
    conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT")
    conn.execute(
        """CREATE TABLE games (
            game_id TEXT PRIMARY KEY,
            kind TEXT NOT NULL,
            options TEXT NOT NULL,
            created_at REAL NOT NULL,
            snapshot TEXT,
            snapshot_move_id INTEGER NOT NULL DEFAULT 0,
            finished_at REAL,
            record TEXT
        ) STRICT"""
    )
    conn.execute("CREATE INDEX games_by_finish ON games (finished_at)")
    conn.execute(
        """CREATE TABLE seats (
            game_id TEXT NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,
            token_hash BLOB NOT NULL,
            PRIMARY KEY (game_id, seat)
        ) STRICT, WITHOUT ROWID"""
    )
    conn.execute(
        """CREATE TABLE moves (
            id INTEGER PRIMARY KEY,
            game_id TEXT NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            move TEXT NOT NULL
        ) STRICT"""
    )
    conn.execute("CREATE INDEX moves_by_game ON moves (game_id, id)")
    conn.execute("INSERT INTO meta (key, value) VALUES ('application', ?)", (APPLICATION,))


def _index_tokens_v2(conn: sqlite3.Connection) -> None:
    """Version 1 to 2: seats indexed by token digest. ``resume`` of a token no loaded game
    has asks the store for its game (an adjourned one, ``GameStore.find_by_token``); without
    the index each such ``resume``, a wrong token's too, would read the seats of every
    unfinished game in the writer."""
    conn.execute("CREATE INDEX seats_by_token ON seats (token_hash)")


def _bot_seats_v3(conn: sqlite3.Connection) -> None:
    """Version 2 to 3: ``seats.bot``, the engine's level word for a seat the daemon's engine
    plays (``bot``; issue 18), ``NULL`` for every other seat, so that the engine's seats
    play on after a restart."""
    conn.execute("ALTER TABLE seats ADD COLUMN bot TEXT")


def _track_activity_v4(conn: sqlite3.Connection) -> None:
    """Version 3 to 4: ``games.last_active`` and ``games.abandoned``, so that a started game
    nobody resumes within the expiry is ended as abandoned (RULINGS H14). An unfinished game
    of an older database gets the migration's time as its last activity (when it was last
    played is not recorded): its expiry counts from the upgrade, never from before it. The
    partial index finds the expired games without reading the finished ones."""
    conn.execute("ALTER TABLE games ADD COLUMN last_active REAL")
    conn.execute("ALTER TABLE games ADD COLUMN abandoned INTEGER NOT NULL DEFAULT 0")
    conn.execute(
        "UPDATE games SET last_active = (julianday('now') - 2440587.5) * 86400.0 "
        "WHERE finished_at IS NULL"
    )
    conn.execute(
        "CREATE INDEX games_by_activity ON games (last_active) "
        "WHERE finished_at IS NULL AND snapshot IS NOT NULL"
    )


def _timing_v5(conn: sqlite3.Connection) -> None:
    """Version 4 to 5: ``moves.timing`` and ``games.timing`` (issue 27, RULINGS T1-T6), so that
    a timed game's clocks survive a restart where its last acknowledged move left them, and
    the time each decision took, and the moves the server made for a seat, stay in its
    record. ``NULL`` for everything stored before, as for an untimed game's own moves."""
    conn.execute("ALTER TABLE moves ADD COLUMN timing TEXT")
    conn.execute("ALTER TABLE games ADD COLUMN timing TEXT")


def _operator_end_v6(conn: sqlite3.Connection) -> None:
    """Version 5 to 6: ``games.operator_end``, so that a game the server's operator ended
    (issue 26) is recorded as such, with the reason given, rather than as won or abandoned.
    Every game of an older database ended otherwise: ``NULL``."""
    conn.execute("ALTER TABLE games ADD COLUMN operator_end TEXT")


#: ``MIGRATIONS[n]`` takes a database from version ``n`` to ``n + 1``.
MIGRATIONS: Sequence[Migration] = (
    _create_v1,
    _index_tokens_v2,
    _bot_seats_v3,
    _track_activity_v4,
    _timing_v5,
    _operator_end_v6,
)


def latest_version(migrations: Sequence[Migration] | None = None) -> int:
    """The layout version this program writes: the number of migrations."""
    return len(MIGRATIONS if migrations is None else migrations)


def read_version(conn: sqlite3.Connection, where: str) -> int:
    """The layout version of the database open on ``conn`` (0 when it is empty).

    Raises:
        StoreError: the database holds tables but is not a hipparchusd store, or its recorded
            version is not a number. ``where`` names the file in the message.
    """
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}
    if not tables:
        return 0
    if "meta" not in tables:
        raise StoreError(f"{where} is not a hipparchusd database (it has no meta table)")
    rows = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    if rows.get("application") != APPLICATION:
        raise StoreError(f"{where} is not a hipparchusd database")
    version = rows.get("schema_version")
    if version is None or not str(version).isdigit():
        raise StoreError(f"{where} records no valid schema version ({version!r})")
    return int(version)


def check_version(version: int, where: str, migrations: Sequence[Migration] | None = None) -> None:
    """Refuse a database written by a newer program.

    Raises:
        StoreError: ``version`` is beyond :func:`latest_version`.
    """
    latest = latest_version(migrations)
    if version > latest:
        raise StoreError(
            f"{where} has schema version {version}, newer than this hipparchusd understands "
            f"(up to {latest}); run a newer hipparchusd on it, or use another --state-dir"
        )


def migrate(
    conn: sqlite3.Connection, where: str, migrations: Sequence[Migration] | None = None
) -> int:
    """Bring the database open on ``conn`` (autocommit mode) up to :func:`latest_version`, one
    transaction per step; return the version it had.

    Raises:
        StoreError: the database is not ours, is newer than this program, or a step failed (the
            database then stays at the last version reached).
    """
    steps = MIGRATIONS if migrations is None else migrations
    found = read_version(conn, where)
    check_version(found, where, steps)
    for version in range(found, len(steps)):
        try:
            conn.execute("BEGIN IMMEDIATE")
            steps[version](conn)
            conn.execute(
                "INSERT INTO meta (key, value) VALUES ('schema_version', ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (str(version + 1),),
            )
            conn.execute("COMMIT")
        except Exception as error:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise StoreError(
                f"migrating {where} from schema version {version} to {version + 1} failed "
                f"({error}); the database is unchanged at version {version}"
            ) from error
    return found
