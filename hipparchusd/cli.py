"""The ``hipparchusd`` command line: options to :class:`~hipparchusd.settings.Settings`, then
run the daemon.

A first word naming a subcommand (see :data:`SUBCOMMANDS`) runs that instead, e.g.
``hipparchusd export [--game ID] [--since DATE] [--state-dir DIR]``; with no subcommand,
``hipparchusd [options]`` serves.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable, Sequence

from . import __version__
from .settings import DEFAULT_PORT, LOG_LEVELS, Settings, SettingsError
from .store.export import export_main
from .store.statedir import resolve_state_dir

#: Subcommands by name: each takes the arguments after its name and returns an exit status.
SUBCOMMANDS: dict[str, Callable[[list[str]], int]] = {"export": export_main}


def build_parser() -> argparse.ArgumentParser:
    """The parser of the daemon's options (defaults from :class:`Settings`)."""
    d = Settings()
    parser = argparse.ArgumentParser(
        prog="hipparchusd",
        description=(
            "Game engine daemon for the card game Hipparchus: serves protocol 1 "
            "(protocol/PROTOCOL.md) over TCP. Stop it with SIGINT or SIGTERM."
        ),
        epilog=(f"subcommands: {', '.join(SUBCOMMANDS)}" if SUBCOMMANDS else None),
    )
    add = parser.add_argument
    add("--version", action="version", version=f"hipparchusd {__version__}")
    add("--host", default=d.host, help=f"address to listen on (default {d.host})")
    add(
        "--port",
        type=int,
        default=d.port,
        help=f"TCP port (default {DEFAULT_PORT}; 0 picks a free port and logs it)",
    )
    add(
        "--max-line-bytes",
        type=int,
        default=d.max_line_bytes,
        help=f"longest request line in bytes, LF included; longer lines are answered "
        f"'? line-too-long' (default {d.max_line_bytes})",
    )
    add(
        "--max-connections",
        type=int,
        default=d.max_connections,
        help=f"open connections at once; one more gets '? limit' and is closed "
        f"(default {d.max_connections})",
    )
    add(
        "--max-games",
        type=int,
        default=d.max_games,
        help=f"unfinished games at once; 'new' beyond answers '? limit' (default {d.max_games})",
    )
    add(
        "--idle-timeout",
        type=float,
        default=d.idle_timeout,
        metavar="SECONDS",
        help=f"close a silent connection that follows no game in progress after this long; "
        f"0 never does (default {d.idle_timeout:g})",
    )
    add(
        "--abandon-timeout",
        type=float,
        default=d.abandon_timeout,
        metavar="SECONDS",
        help=f"drop a game still waiting for players that no connection holds a seat in or "
        f"watches after this long, freeing its place under --max-games; started games are "
        f"kept; 0 never drops (default {d.abandon_timeout:g})",
    )
    add(
        "--outbound-queue",
        type=int,
        default=d.outbound_queue,
        metavar="MESSAGES",
        help=f"responses and events queued per connection; a client that does not read "
        f"and lets it fill is disconnected (default {d.outbound_queue})",
    )
    add(
        "--log-level",
        choices=LOG_LEVELS,
        default=d.log_level,
        help=f"log to stderr from this level (default {d.log_level}; debug adds protocol errors)",
    )
    add(
        "--state-dir",
        metavar="DIR|none",
        help="where games are kept across restarts and crashes (a SQLite database); 'none' "
        "keeps them in memory only (default: $STATE_DIRECTORY under systemd, else the user's "
        "data directory, e.g. ~/.local/share/hipparchusd)",
    )
    add(
        "--retention-days",
        type=float,
        default=d.retention_days,
        metavar="DAYS",
        help="keep finished games in the state directory this many days; 0 keeps them "
        "forever (default 0)",
    )
    add(
        "--grace-period",
        type=float,
        default=d.grace_period,
        metavar="SECONDS",
        help=f"on SIGINT/SIGTERM, how long connections may finish before they are closed "
        f"(default {d.grace_period:g})",
    )
    return parser


def _state_dir(value: str | None) -> str | None:
    """The ``--state-dir`` value as a path, ``None`` for ``none`` (see
    :func:`hipparchusd.store.statedir.resolve_state_dir`)."""
    path = resolve_state_dir(value)
    return None if path is None else str(path)


def parse_settings(argv: Sequence[str]) -> Settings:
    """Parse the daemon's options into :class:`Settings`.

    Raises:
        SystemExit: bad options (argparse prints the usage and the error; status 2).
    """
    parser = build_parser()
    ns = parser.parse_args(list(argv))
    try:
        return Settings(
            host=ns.host,
            port=ns.port,
            max_line_bytes=ns.max_line_bytes,
            max_connections=ns.max_connections,
            max_games=ns.max_games,
            idle_timeout=ns.idle_timeout,
            abandon_timeout=ns.abandon_timeout,
            outbound_queue=ns.outbound_queue,
            log_level=ns.log_level,
            state_dir=_state_dir(ns.state_dir),
            retention_days=ns.retention_days,
            grace_period=ns.grace_period,
        )
    except SettingsError as error:
        parser.error(str(error))


def configure_logging(settings: Settings) -> None:
    """Log to stderr at ``settings.log_level``, one line per record."""
    logging.basicConfig(
        level=settings.logging_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``hipparchusd`` with ``argv`` (default ``sys.argv[1:]``); the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in SUBCOMMANDS:
        return SUBCOMMANDS[args[0]](args[1:])
    settings = parse_settings(args)
    configure_logging(settings)
    from .server import run

    try:
        return run(settings)
    except OSError as error:
        logging.getLogger("hipparchusd").error("cannot serve: %s", error)
        return 1
