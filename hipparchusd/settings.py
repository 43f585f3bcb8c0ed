"""Every option of the daemon, validated, in one frozen value (set from the command line by
:mod:`hipparchusd.cli`)."""

from __future__ import annotations

import logging
import os
from typing import Any

import attrs

from .addresses import AddressSet

#: The protocol's default TCP port (PROTOCOL.md).
DEFAULT_PORT = 7460
LOG_LEVELS = ("debug", "info", "warning", "error", "critical")


class SettingsError(ValueError):
    """An option with a bad value; the message names the option and says what it accepts."""


def _positive_int(name: str) -> Any:
    def check(_: Any, __: Any, value: int) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise SettingsError(f"{name} must be a whole number >= 1, not {value!r}")

    return check


def _non_negative_int(name: str) -> Any:
    def check(_: Any, __: Any, value: int) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise SettingsError(f"{name} must be a whole number >= 0, not {value!r}")

    return check


def _non_negative(name: str) -> Any:
    def check(_: Any, __: Any, value: float) -> None:
        if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
            raise SettingsError(f"{name} must be a number of seconds >= 0, not {value!r}")

    return check


def _check_port(_: Any, __: Any, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 65535:
        raise SettingsError(f"port must be 0-65535 (0: any free port), not {value!r}")


def _check_line(_: Any, __: Any, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 64:
        raise SettingsError(f"max_line_bytes must be at least 64, not {value!r}")


def _check_level(_: Any, __: Any, value: str) -> None:
    if value not in LOG_LEVELS:
        raise SettingsError(f"log_level must be one of {', '.join(LOG_LEVELS)}, not {value!r}")


def _check_state_dir(_: Any, __: Any, value: str | None) -> None:
    if value is not None and (not isinstance(value, str) or not value or "\0" in value):
        raise SettingsError(f"state_dir must be a directory path (or none), not {value!r}")


def _days(name: str) -> Any:
    def check(_: Any, __: Any, value: float) -> None:
        if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
            raise SettingsError(f"{name} must be a number of days >= 0, not {value!r}")

    return check


_check_retention = _days("retention_days")


def _check_ws_port(_: Any, __: Any, value: int | None) -> None:
    if value is not None:
        _check_port(_, __, value)


def _check_origins(_: Any, __: Any, value: tuple[str, ...]) -> None:
    for origin in value:
        scheme, sep, rest = origin.partition("://")
        if scheme not in ("http", "https") or not sep or not rest or "/" in rest:
            raise SettingsError(
                f"ws_origins must be origins like https://example.org or "
                f"http://localhost:8080 (scheme, host, optional port; no path), not {origin!r}"
            )


def parse_origins(value: str) -> tuple[str, ...]:
    """The origins of a ``--ws-origins`` (or ``ws-origins``) value: separated by spaces or
    commas, each lower-cased, without a trailing ``/``."""
    return tuple(o.rstrip("/").lower() for o in value.replace(",", " ").split())


def _check_trusted(_: Any, __: Any, value: tuple[str, ...]) -> None:
    if not isinstance(value, tuple) or not all(isinstance(item, str) for item in value):
        raise SettingsError("trusted_addresses must be addresses or networks")
    try:
        AddressSet.of(value)
    except ValueError as error:
        raise SettingsError(f"trusted_addresses: {error}") from None


def _check_host(_: Any, __: Any, value: str) -> None:
    if not value or any(c.isspace() for c in value):
        raise SettingsError(f"host must be a host name or address, not {value!r}")


@attrs.frozen(kw_only=True)
class Settings:
    """The daemon's configuration.

    Attributes:
        host: address to listen on (default 127.0.0.1, loopback only).
        port: TCP port (default 7460; 0 picks a free one, logged at start).
        max_line_bytes: longest request line, LF included (bytes; PROTOCOL.md section 1).
        max_connections: open connections at once; the next gets ``? limit`` and is closed.
        max_connections_per_address: open connections from one peer address at once (the
            next gets ``? limit`` and is closed), so that one host cannot take every
            connection slot; ``trusted_addresses`` are exempt.
        request_timeout: seconds a client has to complete a request line (its LF) once the
            line's first byte has arrived; past it the connection gets ``? limit`` and is
            closed (0: no deadline). A partial line never counts as activity for the idle
            timeout.
        max_games: games not finished at once; ``new`` answers ``? limit`` beyond.
        max_games_per_connection: games waiting for players that one connection may hold at
            once (created, joined or watched); ``new``, ``join`` and ``watch`` beyond answer
            ``? limit`` naming this limit.
        max_games_per_address: the same over every connection from one peer address
            (addresses in ``trusted_addresses`` are exempt).
        trusted_addresses: IP addresses and networks exempt from the per-address limits
            (none by default: loopback is not exempt unless listed).
        idle_timeout: seconds after which a connection following no game in progress is
            closed when it has sent no complete request line since (0: never); counted from
            the last request line received, or from when its answers were all carried out if
            that is later (a client that pipelined many requests is not idle while they are
            answered).
        abandon_timeout: seconds after which a game still waiting for players, that no
            connection holds a seat in or watches, is dropped, so that games nobody will join
            do not use up ``max_games`` (0: never). Started games are never dropped.
        adjourn_timeout: seconds after which a started, unfinished game that nobody follows
            (no seat connected, no spectator) is adjourned: unloaded from memory, so that it no
            longer counts against ``max_games``, and kept in the store, whence a seat's
            ``resume`` brings it back (0: never). Never done with no state directory (the
            game could not come back).
        adjourn_expiry_days: days after which an adjourned game that no seat has resumed is
            ended as abandoned (RULINGS H14: no winner, its record kept under
            ``retention_days``); counted from the game's last move, resume or adjournment,
            checked at start-up and every minute (0: never).
        outbound_queue: messages (responses, events) queued for one connection; a connection
            whose queue fills is closed.
        log_level: one of debug, info, warning, error, critical.
        state_dir: the directory whose SQLite database keeps games across restarts
            (:mod:`hipparchusd.store`); ``None`` keeps them in memory only.
        retention_days: days a finished game is kept in the state directory (0: forever).
        grace_period: seconds between the shutdown notice and closing every connection.
        engine_workers: worker processes that run the engine's searches (0: one per core
            less one, at least one).
        max_searches: searches clients may run at once (``genmove``, ``analyze``); one more
            answers ``? limit``. The engine's own seats wait for a worker instead.
        max_search_ms: the longest search a request may ask for (milliseconds).
        max_search_playouts: the most playouts a request may ask for.
        ws_host: address the web listener binds (default 127.0.0.1, loopback only).
        ws_port: port of the web listener: the page over HTTP and the protocol over WebSocket
            (``/ws``); ``None`` (the default) serves no web listener (0: any free port).
        ws_origins: origins besides the page's own whose pages may open a WebSocket (e.g.
            ``https://cards.example.org`` when a reverse proxy serves the page there).

    Raises:
        SettingsError: a value out of range, naming the option.
    """

    host: str = attrs.field(default="127.0.0.1", validator=_check_host)
    port: int = attrs.field(default=DEFAULT_PORT, validator=_check_port)
    max_line_bytes: int = attrs.field(default=4096, validator=_check_line)
    max_connections: int = attrs.field(default=1000, validator=_positive_int("max_connections"))
    max_connections_per_address: int = attrs.field(
        default=50, validator=_positive_int("max_connections_per_address")
    )
    request_timeout: float = attrs.field(default=30.0, validator=_non_negative("request_timeout"))
    max_games: int = attrs.field(default=1000, validator=_positive_int("max_games"))
    max_games_per_connection: int = attrs.field(
        default=10, validator=_positive_int("max_games_per_connection")
    )
    max_games_per_address: int = attrs.field(
        default=50, validator=_positive_int("max_games_per_address")
    )
    trusted_addresses: tuple[str, ...] = attrs.field(default=(), validator=_check_trusted)
    idle_timeout: float = attrs.field(default=300.0, validator=_non_negative("idle_timeout"))
    abandon_timeout: float = attrs.field(default=600.0, validator=_non_negative("abandon_timeout"))
    adjourn_timeout: float = attrs.field(default=3600.0, validator=_non_negative("adjourn_timeout"))
    adjourn_expiry_days: float = attrs.field(default=30.0, validator=_days("adjourn_expiry_days"))
    outbound_queue: int = attrs.field(default=256, validator=_positive_int("outbound_queue"))
    log_level: str = attrs.field(default="info", validator=_check_level)
    state_dir: str | None = attrs.field(default=None, validator=_check_state_dir)
    retention_days: float = attrs.field(default=0, validator=_check_retention)
    grace_period: float = attrs.field(default=5.0, validator=_non_negative("grace_period"))
    ws_host: str = attrs.field(default="127.0.0.1", validator=_check_host)
    ws_port: int | None = attrs.field(default=None, validator=_check_ws_port)
    ws_origins: tuple[str, ...] = attrs.field(default=(), converter=tuple, validator=_check_origins)
    engine_workers: int = attrs.field(default=0, validator=_non_negative_int("engine_workers"))
    max_searches: int = attrs.field(default=16, validator=_positive_int("max_searches"))
    max_search_ms: int = attrs.field(default=10_000, validator=_positive_int("max_search_ms"))
    max_search_playouts: int = attrs.field(
        default=200_000, validator=_positive_int("max_search_playouts")
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
