"""Every option of the daemon, declared once and validated, in one frozen value.

Each field of :class:`Settings` is an option (:func:`~hipparchusd.option_fields.option`): its
declaration gives the help, unit, default, check and whether a reload applies it, and from it
come ``hipparchusd --help`` and the command line (:mod:`hipparchusd.cli`) and the configuration
file's keys (:mod:`hipparchusd.config_file`). A new option is one field here.
"""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path
from typing import Any

import attrs

from .addresses import AddressSet, parse_networks
from .directories import NO_STATE_DIR, default_admin_socket, default_state_dir, resolve_state_dir

# SettingsError is the settings' error too: offered from here (``as`` marks the re-export).
from .option_fields import SettingsError as SettingsError
from .option_fields import non_negative, one_of, option, port_number, switch, whole

#: The protocol's default TCP port (PROTOCOL.md).
DEFAULT_PORT = 7460
LOG_LEVELS = ("debug", "info", "warning", "error", "critical")
#: ``--log-format``: timestamped (or journald's) text lines, or one JSON object per line.
LOG_FORMATS = ("text", "json")

#: The shortest request line limit: room for an id, a command and a game id, and for the
#: ``? line-too-long`` answer to make sense.
MIN_LINE_BYTES = 64


# Checks of single options (the common ones are in hipparchusd.option_fields) -----------------


def _host(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, str) or not value or any(c.isspace() for c in value):
        raise SettingsError(f"{attribute.name} must be a host name or address, not {value!r}")


def _line_bytes(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < MIN_LINE_BYTES:
        raise SettingsError(f"{attribute.name} must be at least {MIN_LINE_BYTES}, not {value!r}")


def _state_dir(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if value is not None and (not isinstance(value, str) or not value or "\0" in value):
        raise SettingsError(f"{attribute.name} must be a directory path (or none), not {value!r}")


def _trusted(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, tuple) or not all(isinstance(item, str) for item in value):
        raise SettingsError(f"{attribute.name} must be addresses or networks")
    try:
        AddressSet.of(value)
    except ValueError as error:
        raise SettingsError(f"{attribute.name}: {error}") from None


def _at_least_a_second(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 1:
        raise SettingsError(f"{attribute.name} must be at least 1 (seconds), not {value!r}")


def _origins(_: object, attribute: attrs.Attribute[Any], value: tuple[str, ...]) -> None:
    for origin in value:
        scheme, sep, rest = origin.partition("://")
        if scheme not in ("http", "https") or not sep or not rest or "/" in rest:
            raise SettingsError(
                f"{attribute.name} must be origins like https://example.org or "
                f"http://localhost:8080 (scheme, host, optional port; no path), not {origin!r}"
            )


def _store_url(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if value is None:
        return
    if not isinstance(value, str) or not value.startswith(("postgresql://", "postgres://")):
        raise SettingsError(
            f"{attribute.name} must be a PostgreSQL URL (postgresql://user@host:port/database), "
            f"not {value!r}"
        )
    if _has_password(value):
        raise SettingsError(
            f"{attribute.name} must not hold a password (logs and ps would show it): put it in "
            "~/.pgpass or $PGPASSWORD"
        )


def _bus_url(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if value is None:
        return
    if not isinstance(value, str) or not value.startswith("redis://"):
        raise SettingsError(
            f"{attribute.name} must be a Redis URL (redis://host:port/database), not {value!r}"
        )
    if _has_password(value):
        raise SettingsError(
            f"{attribute.name} must not hold a password (logs and ps would show it): put it in "
            "$HIPPARCHUSD_BUS_PASSWORD"
        )


def _has_password(url: str) -> bool:
    """Whether ``url`` has a password in its authority (``scheme://user:password@host``)."""
    authority = url.partition("://")[2].partition("/")[0]
    return ":" in authority.rpartition("@")[0]


def _node_name(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if value is not None and (
        not isinstance(value, str) or re.fullmatch(r"[A-Za-z0-9_.\-]{1,63}", value) is None
    ):
        raise SettingsError(
            f"{attribute.name} must be 1-63 characters of A-Z a-z 0-9 _ . -, not {value!r}"
        )


def _at_least_one(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 1:
        raise SettingsError(f"{attribute.name} must be a number of seconds >= 1, not {value!r}")


# Text values (the command line's, and the configuration file's strings) -----------------------


def parse_origins(value: str) -> tuple[str, ...]:
    """The origins of a ``--ws-origins`` (or ``ws-origins``) value: separated by spaces or
    commas, each lower-cased, without a trailing ``/``."""
    return tuple(o.rstrip("/").lower() for o in value.replace(",", " ").split())


def parse_state_dir(value: str) -> str | None:
    """The ``state_dir`` setting for a ``--state-dir`` (or ``state-dir``) value: the directory
    (``~`` expanded), or ``None`` for ``none`` (games kept in memory; see
    :func:`hipparchusd.directories.resolve_state_dir`).

    Raises:
        ValueError: an empty value, more likely a slip (an unset variable) than a wish for
            the default, which is had by not giving the option.
    """
    if not value:
        raise ValueError('must not be empty (use "none" to keep games in memory)')
    path = resolve_state_dir(value)
    return None if path is None else str(path)


def _default_state_dir() -> str:
    return str(default_state_dir())


def _socket_path(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if value is not None and (not isinstance(value, str) or not value or "\0" in value):
        raise SettingsError(f"{attribute.name} must be a socket path (or none), not {value!r}")


def parse_socket_path(value: str) -> str | None:
    """The ``admin_socket`` setting for an ``--admin-socket`` (or ``admin-socket``) value: the
    path (``~`` expanded), or ``None`` for ``none`` (no admin channel).

    Raises:
        ValueError: an empty value.
    """
    if not value:
        raise ValueError('must not be empty (use "none" for no admin channel)')
    if value == NO_STATE_DIR:
        return None
    return str(Path(value).expanduser())


def _default_admin_socket() -> str:
    return str(default_admin_socket())


@attrs.frozen(kw_only=True)
class Settings:
    """The daemon's configuration: one field per option, each declared with its help (what
    ``hipparchusd --help`` says of it), unit, default and check.

    Raises:
        SettingsError: a value out of range, naming the option.
    """

    host: str = option(
        "127.0.0.1",
        _host,
        help="address the protocol's TCP listener binds, unless systemd passes the sockets",
        metavar="HOST",
    )
    port: int = option(
        DEFAULT_PORT,
        port_number,
        help="TCP port of the protocol, unless systemd passes the sockets; 0 picks a free one "
        "and logs it",
        metavar="PORT",
    )
    max_line_bytes: int = option(
        4096,
        _line_bytes,
        help="longest request line, LF included; a longer line is answered '? line-too-long' and "
        "discarded; a reload applies it to new connections only",
        unit="bytes",
        reloadable=True,
    )
    max_connections: int = option(
        1000,
        whole(1),
        help="open connections at once; one more gets '? limit' and is closed",
        unit="connections",
        reloadable=True,
    )
    max_connections_per_address: int = option(
        50,
        whole(1),
        help="open connections from one peer address at once, so that one host cannot take "
        "every slot; one more gets '? limit' and is closed; --trusted-addresses are exempt",
        unit="connections",
        reloadable=True,
    )
    request_timeout: float = option(
        30.0,
        non_negative,
        help="time a client has to complete a request line (its LF) once the line's first byte "
        "arrived; past it the connection gets '? limit' and is closed; a partial line is never "
        "activity for --idle-timeout; 0: no deadline",
        unit="seconds",
        reloadable=True,
    )
    max_games: int = option(
        1000,
        whole(1),
        help="unfinished games at once; 'new' beyond answers '? limit'",
        unit="games",
        reloadable=True,
    )
    max_games_per_connection: int = option(
        10,
        whole(1),
        help="games waiting for players that one connection may hold at once (created, joined "
        "or watched); 'new', 'join' and 'watch' beyond answer '? limit' naming this limit",
        unit="games",
        reloadable=True,
    )
    max_games_per_address: int = option(
        50,
        whole(1),
        help="the same over all connections from one peer address; --trusted-addresses are exempt",
        unit="games",
        reloadable=True,
    )
    trusted_addresses: tuple[str, ...] = option(
        (),
        _trusted,
        help="comma-separated IP addresses or networks (e.g. 127.0.0.1,10.0.0.0/8) exempt from "
        "the per-address limits",
        metavar="ADDR[,NET...]",
        parse=parse_networks,
        default_text="none, not even loopback",
        reloadable=True,
    )
    idle_timeout: float = option(
        300.0,
        non_negative,
        help="close a connection that follows no game in progress once it has sent no complete "
        "request line for this long (counted from its last one, or from when its answers were "
        "all carried out if that is later); 0: never",
        unit="seconds",
        reloadable=True,
    )
    abandon_timeout: float = option(
        600.0,
        non_negative,
        help="drop a game still waiting for players that no connection holds a seat in or "
        "watches after this long, freeing its place under --max-games; started games are never "
        "dropped; 0: never",
        unit="seconds",
        reloadable=True,
    )
    adjourn_timeout: float = option(
        3600.0,
        non_negative,
        help="adjourn a started game that nobody follows (no seat connected, no spectator) "
        "after this long: it leaves memory and --max-games, stays in the state directory, and "
        "a seat's 'resume <token>' brings it back; never with --state-dir none; 0: never",
        unit="seconds",
        reloadable=True,
    )
    adjourn_expiry_days: float = option(
        30.0,
        non_negative,
        help="end as abandoned (no winner, docs/rules.md H14; its record kept under "
        "--retention-days) an adjourned game that no seat resumes within this long of its last "
        "move, resume or adjournment; checked at start-up and every minute; 0: never",
        unit="days",
        reloadable=True,
    )
    outbound_queue: int = option(
        256,
        whole(1),
        help="responses and events queued for one connection; a client that does not read and "
        "lets it fill is disconnected; a reload applies it to new connections only",
        unit="messages",
        reloadable=True,
    )
    log_level: str = option(
        "info",
        one_of,
        help="log to stderr from this level (any case); debug adds protocol errors",
        parse=str.lower,
        choices=LOG_LEVELS,
        reloadable=True,
    )
    log_format: str = option(
        "text",
        one_of,
        help="text: one line per entry (timestamped, or with journald's priority prefix under "
        "systemd); json: one JSON object per line with the fields time, level, logger, event, "
        "message and, where they apply, game, connection and seat (never a card or a token)",
        parse=str.lower,
        choices=LOG_FORMATS,
        reloadable=True,
    )
    state_dir: str | None = option(
        None,
        _state_dir,
        help="where games are kept across restarts and crashes (a SQLite database); 'none' "
        "keeps them in memory only",
        metavar="DIR|none",
        parse=parse_state_dir,
        default_text="$STATE_DIRECTORY under systemd, else the user's data directory, e.g. "
        "~/.local/share/hipparchusd",
        environ_default=_default_state_dir,
    )
    retention_days: float = option(
        0.0,
        non_negative,
        help="keep finished games in the state directory this long; 0: forever",
        unit="days",
    )
    admin_socket: str | None = option(
        None,
        _socket_path,
        help="the admin channel's Unix socket (hipparchusd admin ...), readable by the daemon's "
        "user only; 'none': no admin channel",
        metavar="PATH|none",
        parse=parse_socket_path,
        default_text="admin.sock in $RUNTIME_DIRECTORY under systemd, else in the user's runtime "
        "directory, e.g. $XDG_RUNTIME_DIR/hipparchusd",
        environ_default=_default_admin_socket,
    )
    metrics_host: str = option(
        "127.0.0.1",
        _host,
        help="address the Prometheus metrics listener binds, unless systemd passes its socket",
        metavar="HOST",
    )
    metrics_port: int | None = option(
        None,
        attrs.validators.optional(port_number),
        help="serve Prometheus metrics over HTTP (at /metrics) on this port; 0 picks a free one",
        metavar="PORT",
        default_text="off",
    )
    drain_timeout: float = option(
        3600.0,
        non_negative,
        help="how long a drain (hipparchusd admin drain, or a stop with --drain-on-stop) waits "
        "for the games in progress to end or adjourn before the shutdown goes on without them "
        "(they stay in the state directory); 0: no wait",
        unit="seconds",
        reloadable=True,
    )
    drain_on_stop: bool = option(
        False,
        switch,
        help="on SIGTERM (systemctl stop), drain first: refuse new games, wait for the games in "
        "progress to end or adjourn (up to --drain-timeout), then shut down; a second SIGTERM "
        "shuts down at once, a third stops at once",
        reloadable=True,
    )
    grace_period: float = option(
        5.0,
        non_negative,
        help="on SIGINT or SIGTERM, how long connections may finish after the shutdown notice "
        "before they are closed",
        unit="seconds",
        aliases=("--grace",),
        reloadable=True,
    )
    engine_workers: int = option(
        0,
        whole(0),
        help="worker processes for the engine's searches (bot seats, genmove, analyze); 0: one "
        "per core less one, at least one",
        unit="processes",
    )
    engine_start: str = option(
        "with-daemon",
        one_of,
        help="when the engine's worker processes start: with the daemon, before it greets "
        "anyone, so that the first search is as quick as any; or on demand, by the first "
        "search that needs one (a daemon that seldom searches)",
        choices=("with-daemon", "on-demand"),
    )
    engine_timeout: float = option(
        10.0,
        _at_least_a_second,
        help="the longest a worker may go without a word during a search (it reports every "
        "quarter second) or take over any other exchange; one that misses it is killed and "
        "replaced, its searches answered '? internal' and its bot seats searched again",
        unit="seconds",
        reloadable=True,
    )
    max_searches: int = option(
        16,
        whole(1),
        help="genmove and analyze searches that clients may run at once; one more answers "
        "'? limit' (the engine's own seats wait for a worker instead)",
        unit="searches",
        reloadable=True,
    )
    max_searches_per_address: int = option(
        4,
        whole(1),
        help="the same from the connections of one peer address (a connection runs one at "
        "a time); --trusted-addresses are exempt",
        unit="searches",
        reloadable=True,
    )
    max_engine_games_per_connection: int = option(
        4,
        whole(1),
        help="games whose every seat is the engine's that one connection may have created and "
        "started, not finished; the 'bot' that would start one more answers '? limit'",
        unit="games",
        reloadable=True,
    )
    max_engine_games_per_address: int = option(
        8,
        whole(1),
        help="the same over the connections of one peer address; --trusted-addresses are exempt",
        unit="games",
        reloadable=True,
    )
    max_search_ms: int = option(
        10_000,
        whole(1),
        help="longest search a request may ask for, in milliseconds",
        unit="milliseconds",
        metavar="MS",
        reloadable=True,
    )
    max_search_playouts: int = option(
        200_000,
        whole(1),
        help="most playouts a request may ask for",
        unit="playouts",
        reloadable=True,
    )
    ws_host: str = option(
        "127.0.0.1",
        _host,
        help="address the web listener binds, unless systemd passes the sockets",
        metavar="HOST",
    )
    ws_port: int | None = option(
        None,
        attrs.validators.optional(port_number),
        help="serve the web page over HTTP and the protocol over WebSocket (at /ws) on this "
        "port; 0 picks a free one",
        metavar="PORT",
        default_text="off",
    )
    ws_origins: tuple[str, ...] = option(
        (),
        _origins,
        converter=tuple,
        help="origins besides the page's own whose pages may open a WebSocket (e.g. "
        "'https://cards.example.org' when a reverse proxy serves the page there), separated by "
        "spaces or commas",
        metavar="ORIGINS",
        parse=parse_origins,
        default_text="the page's own only",
        reloadable=True,
    )

    store: str | None = option(
        None,
        _store_url,
        help="keep the games in this PostgreSQL database (postgresql://user@host:port/db), "
        "which several daemons may share (each game owned by one at a time), instead of "
        "SQLite in --state-dir; its password, if any, in ~/.pgpass or $PGPASSWORD",
        metavar="URL",
        default_text="SQLite in --state-dir",
    )
    node: str | None = option(
        None,
        _node_name,
        help="this daemon's name among those sharing --store (each its own; a restart under "
        "the same name takes back the games it left)",
        metavar="NAME",
        default_text="the host's name and the process id",
    )
    node_lease: float = option(
        10.0,
        _at_least_one,
        help="how long this daemon owns its games in --store without renewing its lease (on "
        "the database's clock, renewed every third of it); once it lapses, other daemons may "
        "claim them and its writes are refused",
        unit="seconds",
    )
    bus: str | None = option(
        None,
        _bus_url,
        help="the Redis server (redis://host:port/db) through which daemons sharing --store "
        "forward requests for the games another owns, and their answers and events; its "
        "password, if any, in $HIPPARCHUSD_BUS_PASSWORD",
        metavar="URL",
        default_text="none: a request for a game another daemon owns answers '? internal'",
    )
    forward_timeout: float = option(
        10.0,
        _at_least_one,
        help="how long a request forwarded to the daemon that owns its game may take before "
        "it is answered '? internal' (the outcome then unknown) and the connection closed",
        unit="seconds",
        reloadable=True,
    )
    reuse_port: str = option(
        "off",
        one_of,
        help="'on' binds --port with SO_REUSEPORT, so that several daemons on one machine "
        "share it and the kernel spreads the connections among them",
        choices=("off", "on"),
    )

    @property
    def workers(self) -> int:
        """The engine's worker processes: ``engine_workers``, or one per core less one."""
        if self.engine_workers:
            return self.engine_workers
        return max(1, (os.cpu_count() or 1) - 1)

    @property
    def trusted(self) -> AddressSet:
        """``trusted_addresses`` as an :class:`~hipparchusd.addresses.AddressSet`."""
        return AddressSet.of(self.trusted_addresses)

    @property
    def logging_level(self) -> int:
        """``log_level`` as a :mod:`logging` level number."""
        level: int = getattr(logging, self.log_level.upper())
        return level
