"""Finished games out of the store as JSON, for ``hipparchusd export``.

The export is one versioned envelope of kind ``games`` whose data is a list, oldest finish
first, of::

    {"game_id": "g1", "kind": <the kind's name>, "options": {"seed": "11"},
     "created_at": "2026-11-30T22:51:28+00:00", "finished_at": "2026-11-30T23:05:02+00:00",
     "seats": [{"seat": 0, "name": "ann"}, {"seat": 1, "name": "bob"}],
     "abandoned": false, "operator_end": null, "record": {...}}

``record`` is the game's record as the project's cattrs converter unstructures it (for
Hipparchus a :class:`~hipparchusd.games.hipparchus.MatchRecord`: every deal and play), so
``replay(converter.structure(item["record"], MatchRecord))`` replays the game exactly. Resume
tokens are never exported. ``abandoned`` is true for a game that nobody resumed within the
daemon's adjourn expiry (RULINGS H14): it ended with no winner, and its record holds the game
as it stood then (replaying it gives that unfinished position). ``operator_end`` is, for a game
the daemon's operator ended (``hipparchusd admin end``: no winner, its record the game as it
stood), the reason given (``""`` for none), else ``null``.

The database is opened read-only, so an export may run while the daemon serves games.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sqlite3
import sys
from collections.abc import Iterator, Sequence
from datetime import UTC, date, datetime
from pathlib import Path
from urllib.parse import quote

from ..codec import envelope
from ..directories import resolve_state_dir
from ..jsondata import JSON
from . import schema
from .base import StoreError
from .codec import STORE_VERSION, load
from .startup import DB_NAME


def parse_since(text: str) -> datetime:
    """A ``--since`` value: an ISO 8601 date (``2026-11-30``, midnight UTC) or date and time
    (``2026-11-30T18:00``, UTC unless it names an offset).

    Raises:
        ValueError: neither.
    """
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(
            f"--since wants an ISO 8601 date or date and time (e.g. 2026-11-30), not {text!r}"
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds")


@contextlib.contextmanager
def _read_only(path: Path) -> Iterator[sqlite3.Connection]:
    if not path.is_file():
        raise StoreError(f"there is no game database at {path}")
    try:
        conn = sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True)
    except sqlite3.Error as error:
        raise StoreError(f"cannot open {path}: {error}") from None
    try:
        yield conn
    except sqlite3.DatabaseError as error:
        raise StoreError(f"{path} cannot be read ({error})") from None
    finally:
        conn.close()


def export_games(
    state_dir: Path, *, game_id: str | None = None, since: datetime | date | None = None
) -> dict[str, object]:
    """The finished games in ``state_dir``'s store as an export envelope (module docstring).

    Args:
        state_dir: the daemon's state directory.
        game_id: only this game.
        since: only games finished at or after this moment (a date means its midnight, UTC).

    Raises:
        StoreError: no database there, it cannot be read, its schema is not this program's
            (a newer one is refused; an older one must first be migrated by starting the
            daemon on it), or a stored record cannot be read.
    """
    path = Path(state_dir) / DB_NAME
    if isinstance(since, date) and not isinstance(since, datetime):
        since = datetime(since.year, since.month, since.day, tzinfo=UTC)
    query = (
        "SELECT game_id, kind, options, created_at, finished_at, record, abandoned, operator_end "
        "FROM games WHERE finished_at IS NOT NULL"
    )
    parameters: list[str | float] = []
    if game_id is not None:
        query += " AND game_id = ?"
        parameters.append(game_id)
    if since is not None:
        query += " AND finished_at >= ?"
        parameters.append(since.timestamp())
    query += " ORDER BY finished_at, rowid"
    with _read_only(path) as conn:
        version = schema.read_version(conn, str(path))
        schema.check_version(version, str(path))
        if version < schema.latest_version():
            raise StoreError(
                f"{path} has schema version {version}; start hipparchusd on it once to "
                f"migrate it to {schema.latest_version()} before exporting"
            )
        games: list[JSON] = []
        rows = conn.execute(query, parameters).fetchall()
        for row_id, kind, options, created_at, finished_at, record, abandoned, ended in rows:
            where = f"{path}, game {row_id}"
            seats: list[JSON] = [
                {"seat": seat, "name": name}
                for seat, name in conn.execute(
                    "SELECT seat, name FROM seats WHERE game_id = ? ORDER BY seat", (row_id,)
                )
            ]
            games.append(
                {
                    "game_id": row_id,
                    "kind": kind,
                    "options": load(options, "options", where),
                    "created_at": _iso(created_at),
                    "finished_at": _iso(finished_at),
                    "seats": seats,
                    "abandoned": bool(abandoned),
                    "operator_end": ended,
                    "record": load(record, "record", where),
                }
            )
    return envelope("games", STORE_VERSION, games)


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``hipparchusd export``'s options."""
    parser = argparse.ArgumentParser(
        prog="hipparchusd export",
        description=(
            "Write the finished games kept in a state directory as JSON that replays exactly "
            "through the rules engine. Safe while the daemon runs (the database is only read)."
        ),
    )
    parser.add_argument("--game", metavar="ID", help="only this game")
    parser.add_argument(
        "--since",
        metavar="DATE",
        help="only games finished at or after DATE (ISO 8601: 2026-11-30 or 2026-11-30T18:00; UTC "
        "unless an offset is given)",
    )
    parser.add_argument(
        "--state-dir",
        metavar="DIR",
        help="the daemon's state directory (default: $STATE_DIRECTORY under systemd, else "
        "the user's data directory, e.g. ~/.local/share/hipparchusd)",
    )
    parser.add_argument(
        "--output", "-o", metavar="FILE", help="write to FILE instead of standard output"
    )
    return parser


def export_main(argv: Sequence[str]) -> int:
    """``hipparchusd export [--game ID] [--since DATE] [--state-dir DIR] [-o FILE]``: print the
    export (module docstring) as one line of JSON. Returns the exit status: 0 done, 1 the store
    cannot be read or the game asked for is not there (the reason on stderr), 2 bad options."""
    parser = build_parser()
    ns = parser.parse_args(list(argv))
    since = None
    if ns.since is not None:
        try:
            since = parse_since(ns.since)
        except ValueError as error:
            parser.error(str(error))
    state_dir = resolve_state_dir(ns.state_dir)
    if state_dir is None:
        parser.error("--state-dir none keeps no games: there is nothing to export")
    try:
        exported = export_games(state_dir, game_id=ns.game, since=since)
    except StoreError as error:
        print(f"hipparchusd export: {error}", file=sys.stderr)
        return 1
    if ns.game is not None and not exported["data"]:
        print(
            f"hipparchusd export: no finished game {ns.game} in {state_dir / DB_NAME}",
            file=sys.stderr,
        )
        return 1
    text = json.dumps(exported, separators=(",", ":")) + "\n"
    if ns.output is None:
        sys.stdout.write(text)
    else:
        try:
            Path(ns.output).write_text(text)
        except OSError as error:
            print(f"hipparchusd export: cannot write {ns.output}: {error}", file=sys.stderr)
            return 1
    return 0
