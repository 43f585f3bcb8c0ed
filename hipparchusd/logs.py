"""Logging set-up: journald-friendly under systemd, human-readable on a terminal.

Under systemd, stderr is a stream to journald, which stamps every line with its own time and
reads a ``<N>`` prefix (a syslog priority, 0-7) as the line's priority (sd-daemon(3)). So there we
write ``<6>hipparchusd.server: connection opened ...`` without timestamps, and ``journalctl -p
warning`` filters properly. systemd announces the stream in ``$JOURNAL_STREAM`` as
``device:inode``; as systemd.exec(5) advises, we trust it only if it matches stderr, because a
child whose stderr was redirected still inherits the variable.

Anywhere else (a terminal, a file) lines carry a timestamp and the level name.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping
from typing import TextIO

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


class _OurHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Marks the handler :func:`configure_logging` installed, so that it can replace it."""


def configure_logging(
    level: str | int = "info",
    *,
    stream: TextIO | None = None,
    environ: Mapping[str, str] | None = None,
) -> bool:
    """Send the root logger's records at ``level`` and above to ``stream`` (default stderr), in
    the journal format when ``stream`` is the journald stream, else as timestamped text.

    Calling it again replaces the handler it installed (other handlers are left alone).
    Returns whether the journal format was chosen.

    Raises:
        ValueError: ``level`` is not a logging level name or number.
    """
    out = sys.stderr if stream is None else stream
    journal = journal_stream_matches(out, environ)
    handler = _OurHandler(out)
    handler.setFormatter(JournalFormatter() if journal else logging.Formatter(TEXT_FORMAT))
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
