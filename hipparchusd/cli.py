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
from pathlib import Path
from typing import Any

import attrs

from . import __version__
from .addresses import parse_networks
from .config_file import (
    DEFAULT_CONFIG_PATH,
    EX_CONFIG,
    ConfigError,
    config_path,
    load_settings,
    state_dir_setting,
)
from .logs import configure_logging
from .settings import DEFAULT_PORT, LOG_LEVELS, Settings, SettingsError, parse_origins
from .store.export import export_main
from .systemd.activation import ActivationError, activated_listener_groups
from .systemd.notify import Notifier

log = logging.getLogger("hipparchusd")

#: The options that set a :class:`Settings` field (the rest steer the command itself).
SETTINGS_FIELDS = frozenset(field.name for field in attrs.fields(Settings))


def match_main(argv: list[str]) -> int:
    """``hipparchusd match ...`` (:mod:`hipparchusd.match`), imported only when run."""
    from .match import main as run_match

    return run_match(argv)


#: Subcommands by name: each takes the arguments after its name and returns an exit status.
SUBCOMMANDS: dict[str, Callable[[list[str]], int]] = {"export": export_main, "match": match_main}


def build_parser() -> argparse.ArgumentParser:
    """The parser of the daemon's options (defaults from :class:`Settings`)."""
    d = Settings()
    parser = argparse.ArgumentParser(
        prog="hipparchusd",
        description=(
            "Game engine daemon for the card game Hipparchus: serves protocol 1 "
            "(protocol/PROTOCOL.md) over TCP. Stop it with SIGINT or SIGTERM (a second one "
            "stops at once); SIGHUP reloads the configuration file."
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
        "--max-connections-per-address",
        type=int,
        default=d.max_connections_per_address,
        metavar="CONNECTIONS",
        help=f"open connections from one peer address at once; one more gets '? limit' and "
        f"is closed; --trusted-addresses are exempt (default {d.max_connections_per_address})",
    )
    add(
        "--request-timeout",
        type=float,
        default=d.request_timeout,
        metavar="SECONDS",
        help=f"time to complete a request line once its first byte arrived; past it the "
        f"connection gets '? limit' and is closed; 0 never (default {d.request_timeout:g})",
    )
    add(
        "--max-games",
        type=int,
        default=d.max_games,
        help=f"unfinished games at once; 'new' beyond answers '? limit' (default {d.max_games})",
    )
    add(
        "--max-games-per-connection",
        type=int,
        default=d.max_games_per_connection,
        metavar="GAMES",
        help=f"games waiting for players one connection may create, join or watch at once; "
        f"'new', 'join' and 'watch' beyond answer '? limit' (default "
        f"{d.max_games_per_connection})",
    )
    add(
        "--max-games-per-address",
        type=int,
        default=d.max_games_per_address,
        metavar="GAMES",
        help=f"the same over all connections from one peer address (default "
        f"{d.max_games_per_address}); --trusted-addresses are exempt",
    )
    add(
        "--trusted-addresses",
        type=_networks,
        default=d.trusted_addresses,
        metavar="ADDR[,NET...]",
        help="comma-separated IP addresses or networks (e.g. 127.0.0.1,10.0.0.0/8) exempt "
        "from the per-address limits; none by default, not even loopback",
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
        "--adjourn-timeout",
        type=float,
        default=d.adjourn_timeout,
        metavar="SECONDS",
        help=f"adjourn a started game that no connection holds a seat in or watches after "
        f"this long: it leaves memory and --max-games, stays in the state directory, and a "
        f"seat's 'resume <token>' brings it back; never with --state-dir none; 0 never "
        f"adjourns (default {d.adjourn_timeout:g})",
    )
    add(
        "--adjourn-expiry-days",
        type=float,
        default=d.adjourn_expiry_days,
        metavar="DAYS",
        help=f"end as abandoned (no winner; its record kept under --retention-days) an "
        f"adjourned game that no seat resumes within this many days of its last move, resume "
        f"or adjournment; 0 never does (default {d.adjourn_expiry_days:g})",
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
        type=state_dir_setting,
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
        "--grace",
        type=float,
        default=d.grace_period,
        metavar="SECONDS",
        help=f"on SIGINT/SIGTERM, how long connections may finish before they are closed "
        f"(default {d.grace_period:g})",
    )
    add(
        "--engine-workers",
        type=int,
        default=d.engine_workers,
        metavar="N",
        help="worker processes for the engine's searches (bot seats, genmove, analyze); 0: "
        "one per core less one, at least one (default 0)",
    )
    add(
        "--max-searches",
        type=int,
        default=d.max_searches,
        metavar="N",
        help=f"genmove and analyze searches running at once; one more answers '? limit' "
        f"(default {d.max_searches})",
    )
    add(
        "--max-search-ms",
        type=int,
        default=d.max_search_ms,
        metavar="MS",
        help=f"longest search budget a request may ask for, in milliseconds "
        f"(default {d.max_search_ms})",
    )
    add(
        "--max-search-playouts",
        type=int,
        default=d.max_search_playouts,
        metavar="N",
        help=f"most playouts a request may ask for (default {d.max_search_playouts})",
    )
    add(
        "--ws-host",
        default=d.ws_host,
        help=f"address the web listener binds (default {d.ws_host}, loopback only)",
    )
    add(
        "--ws-port",
        type=int,
        metavar="PORT",
        help="serve the web page over HTTP and the protocol over WebSocket (at /ws) on this "
        "port (0 picks a free one); off unless given",
    )
    add(
        "--ws-origins",
        type=parse_origins,
        metavar="ORIGINS",
        help="origins besides the page's own whose pages may open a WebSocket, separated by "
        "spaces or commas, e.g. 'https://cards.example.org' (default: the page's own only)",
    )
    add(
        "--config",
        metavar="PATH",
        help=f"TOML configuration file whose keys are these long options without '--', e.g. "
        f"'max-games = 50'; options given here win over it (default {DEFAULT_CONFIG_PATH} "
        f"when it exists; '' for none)",
    )
    add(
        "--check-config",
        action="store_true",
        help=f"check the configuration file and the options, say OK and exit 0; or name the "
        f"offending key and exit {EX_CONFIG}",
    )
    # Defaults come from Settings (and the file), so that the namespace holds only the options
    # actually given: those win over the configuration file.
    for action in parser._actions:
        if action.dest in SETTINGS_FIELDS:
            action.default = argparse.SUPPRESS
    return parser


def _networks(text: str) -> tuple[str, ...]:
    try:
        return parse_networks(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def given_options(ns: argparse.Namespace) -> dict[str, Any]:
    """The settings fields set on the command line in ``ns``."""
    return {name: value for name, value in vars(ns).items() if name in SETTINGS_FIELDS}


def parse_settings(argv: Sequence[str]) -> Settings:
    """Parse the daemon's options into :class:`Settings`: the defaults, then the configuration
    file (``--config``, or the default file when it exists), then the options given.

    Raises:
        SystemExit: bad options or a bad configuration file (argparse prints the usage and the
            error; status 2).
    """
    parser = build_parser()
    ns = parser.parse_args(list(argv))
    try:
        return load_settings(config_path(ns.config), given_options(ns))
    except (ConfigError, SettingsError) as error:
        parser.error(str(error))


def check_config(path: Path | None, load: Callable[[], Settings]) -> int:
    """``--check-config``: print ``<file>: OK`` and return 0, or print the error (naming the
    offending key) to stderr and return :data:`EX_CONFIG`."""
    try:
        load()
    except (ConfigError, SettingsError) as error:
        print(f"hipparchusd: {error}", file=sys.stderr)
        return EX_CONFIG
    print(f"{path}: OK" if path is not None else "no configuration file; options: OK")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``hipparchusd`` with ``argv`` (default ``sys.argv[1:]``); the exit status: 0 after
    a clean stop, 1 when the address cannot be bound, 2 for bad options, :data:`EX_CONFIG`
    (78) for a bad configuration file or unusable sockets from systemd."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in SUBCOMMANDS:
        return SUBCOMMANDS[args[0]](args[1:])
    parser = build_parser()
    ns = parser.parse_args(args)
    path = config_path(ns.config)
    given = given_options(ns)

    def load() -> Settings:
        return load_settings(path, given)

    if ns.check_config:
        return check_config(path, load)
    try:
        settings = load()
    except ConfigError as error:
        print(f"hipparchusd: {error}", file=sys.stderr)
        return EX_CONFIG
    except SettingsError as error:
        parser.error(str(error))
    configure_logging(settings.log_level)
    if path is not None:
        log.info("configuration file %s", path)
    try:
        listeners, web_listeners = activated_listener_groups()
    except ActivationError as error:
        log.error("socket activation: %s", error)
        return EX_CONFIG
    notifier = Notifier.from_environment()
    from .server import run

    # Passed sockets replace the bound ones: a web socket passed alone still serves the web
    # only, and the protocol binds its own only when nothing at all was passed.
    activated = bool(listeners or web_listeners)
    try:
        return run(
            settings,
            listeners=listeners if activated else None,
            web_listeners=web_listeners if activated else None,
            notifier=notifier,
            load_settings=load,
        )
    except OSError as error:
        log.error("cannot serve: %s", error)
        return 1
