"""Logging set-up: journald-friendly under systemd, human-readable on a terminal.

Under systemd, stderr is a stream to journald, which stamps every line with its own time and
reads a ``<N>`` prefix (a syslog priority, 0-7) as the line's priority (sd-daemon(3)). So there we
write ``<6>hipparchusd.server: connection opened ...`` without timestamps, and ``journalctl -p
warning`` filters properly. systemd announces the stream in ``$JOURNAL_STREAM`` as
``device:inode``; as systemd.exec(5) advises, we trust it only if it matches stderr, because a
child whose stderr was redirected still inherits the variable.

Anywhere else (a terminal, a file) lines carry a timestamp and the level name.

With ``--log-format json`` each entry is one JSON object on one line instead (issue 26), for
journald's and log shippers' indexes, with stable fields (:data:`JSON_FIELDS`): ``time`` (ISO
8601, UTC, milliseconds), ``level``, ``logger``, ``event`` (a short name such as
``connection-opened``, or for an entry that gives none its message's template, without the
values), ``message``, and where they apply ``game``, ``connection`` and ``seat``, which the
daemon's code passes as ``extra`` (:data:`CONTEXT_FIELDS`); a traceback comes as
``traceback``. Nothing else is copied into an entry, so that no field can carry what the
message does not (the messages name no card and no token). Under journald the priority prefix
still comes first: ``<6>{"time": ...}``.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, TextIO

from pythonjsonlogger.json import JsonFormatter

SYSLOG_PRIORITIES = {
    logging.CRITICAL: 2,
    logging.ERROR: 3,
    logging.WARNING: 4,
    logging.INFO: 6,
    logging.DEBUG: 7,
}
"""Python level to syslog priority (crit, err, warning, info, debug)."""

TEXT_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"
JOURNAL_FORMAT = "%(name)s: %(message)s"


def syslog_priority(levelno: int) -> int:
    """The syslog priority for a Python logging level: that of the nearest standard level at or
    above it (a custom level 25 is logged as a warning, 4), 2 (crit) above CRITICAL."""
    for level in sorted(SYSLOG_PRIORITIES):
        if levelno <= level:
            return SYSLOG_PRIORITIES[level]
    return SYSLOG_PRIORITIES[logging.CRITICAL]


def journal_stream_matches(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """Whether ``stream`` is the journald stream that ``$JOURNAL_STREAM`` (``device:inode``, in
    decimal) announces, per systemd.exec(5). False when the variable is absent or malformed, or
    the stream has no file descriptor."""
    value = (os.environ if environ is None else environ).get("JOURNAL_STREAM", "")
    device, _, inode = value.partition(":")
    if not (device.isdigit() and inode.isdigit()):
        return False
    try:
        status = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return False
    return (status.st_dev, status.st_ino) == (int(device), int(inode))


class JournalFormatter(logging.Formatter):
    """``<N>logger: message``, with the ``<N>`` syslog priority repeated on every line of a
    multi-line message (a traceback), since journald reads each line as its own entry."""

    def __init__(self) -> None:
        super().__init__(JOURNAL_FORMAT)

    def format(self, record: logging.LogRecord) -> str:
        prefix = f"<{syslog_priority(record.levelno)}>"
        return "\n".join(prefix + line for line in super().format(record).splitlines())


#: The fields of a JSON entry, in order (those after ``message`` only when they apply).
JSON_FIELDS = ("time", "level", "logger", "event", "message", "game", "connection", "seat")
#: The fields a log call may give as ``extra`` (``extra={"event": ..., "game": ...}``).
CONTEXT_FIELDS = ("event", "game", "connection", "seat")


class JsonLineFormatter(JsonFormatter):
    """One JSON object per entry with the fields of :data:`JSON_FIELDS` (python-json-logger
    serializes it), after journald's ``<N>`` priority prefix when ``journal``."""

    def __init__(self, *, journal: bool = False) -> None:
        super().__init__(["message"], json_ensure_ascii=False)
        self.journal = journal

    def add_fields(
        self, log_data: dict[str, Any], record: logging.LogRecord, message_dict: dict[str, Any]
    ) -> None:
        """Fill ``log_data`` with the entry's fields, and nothing else of the record."""
        log_data["time"] = datetime.fromtimestamp(record.created, UTC).isoformat(
            timespec="milliseconds"
        )
        log_data["level"] = record.levelname.lower()
        log_data["logger"] = record.name
        event = getattr(record, "event", None)
        log_data["event"] = event if isinstance(event, str) else str(record.msg)
        log_data["message"] = record.message
        for field in CONTEXT_FIELDS[1:]:
            value = getattr(record, field, None)
            if isinstance(value, str | int) and not isinstance(value, bool):
                log_data[field] = value
        if "exc_info" in message_dict:
            log_data["traceback"] = message_dict["exc_info"]
        if "stack_info" in message_dict:
            log_data["stack"] = message_dict["stack_info"]

    def format(self, record: logging.LogRecord) -> str:
        """The entry's line (without its LF)."""
        line = super().format(record)
        return f"<{syslog_priority(record.levelno)}>{line}" if self.journal else line


class _OurHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Marks the handler :func:`configure_logging` installed, so that it can replace it."""


def configure_logging(
    level: str | int = "info",
    *,
    stream: TextIO | None = None,
    environ: Mapping[str, str] | None = None,
    log_format: str = "text",
) -> bool:
    """Send the root logger's records at ``level`` and above to ``stream`` (default stderr), in
    the journal format when ``stream`` is the journald stream, else as timestamped text; or,
    with ``log_format`` ``json``, as JSON lines (:class:`JsonLineFormatter`, with the journal's
    priority prefix on the journald stream).

    Calling it again replaces the handler it installed (other handlers are left alone).
    Returns whether the journal format was chosen.

    Raises:
        ValueError: ``level`` is not a logging level name or number, or ``log_format`` is
            neither ``text`` nor ``json``.
    """
    out = sys.stderr if stream is None else stream
    journal = journal_stream_matches(out, environ)
    handler = _OurHandler(out)
    formatter: logging.Formatter
    if log_format == "json":
        formatter = JsonLineFormatter(journal=journal)
    elif log_format == "text":
        formatter = JournalFormatter() if journal else logging.Formatter(TEXT_FORMAT)
    else:
        raise ValueError(f"unknown log format {log_format!r} (text or json)")
    handler.setFormatter(formatter)
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, _OurHandler)]:
        root.removeHandler(old)
    root.addHandler(handler)
    set_level(level)
    return journal


def set_level(level: str | int) -> None:
    """Change the level of the root logger, e.g. on SIGHUP; ``level`` is a name (any case) or a
    number.

    Raises:
        ValueError: an unknown level name.
    """
    if isinstance(level, str):
        number = logging.getLevelName(level.upper())
        if not isinstance(number, int):
            raise ValueError(f"unknown log level {level!r}")
        level = number
    logging.getLogger().setLevel(level)
