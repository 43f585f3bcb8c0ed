"""Log lines for journald (``<N>`` priority prefixes, no timestamps) or for people (timestamps)."""

from __future__ import annotations

import io
import json
import logging
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

import pytest

from hipparchusd.logs import configure_logging, journal_stream_matches, set_level, syslog_priority


@pytest.fixture
def stream(tmp_path: Path) -> Iterator[TextIO]:
    """A file standing in for stderr, and the root logger restored afterwards."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    with (tmp_path / "stderr").open("w+") as file:
        yield file
    root.handlers[:] = handlers
    root.setLevel(level)


def journal_env(stream: TextIO) -> dict[str, str]:
    """``$JOURNAL_STREAM`` as systemd would set it for ``stream``."""
    status = os.fstat(stream.fileno())
    return {"JOURNAL_STREAM": f"{status.st_dev}:{status.st_ino}"}


def written(stream: TextIO) -> list[str]:
    stream.flush()
    stream.seek(0)
    return stream.read().splitlines()


def log_samples() -> None:
    log = logging.getLogger("hipparchusd.server")
    log.debug("protocol error: syntax")
    log.info("connection opened from 127.0.0.1:5000")
    log.warning("connection limit reached")
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        log.exception("handler crashed")


def test_under_journald_priority_prefixes_and_no_timestamps(stream: TextIO) -> None:
    assert configure_logging("debug", stream=stream, environ=journal_env(stream)) is True
    log_samples()
    lines = written(stream)
    assert lines[:4] == [
        "<7>hipparchusd.server: protocol error: syntax",
        "<6>hipparchusd.server: connection opened from 127.0.0.1:5000",
        "<4>hipparchusd.server: connection limit reached",
        "<3>hipparchusd.server: handler crashed",
    ]
    # The traceback: every line its own journal entry, at the same priority.
    assert lines[4] == "<3>Traceback (most recent call last):"
    assert lines[-1] == "<3>RuntimeError: boom"
    assert all(line.startswith("<3>") for line in lines[4:])


def test_on_a_terminal_timestamps_and_level_names(stream: TextIO) -> None:
    assert configure_logging("info", stream=stream, environ={}) is False
    log_samples()
    lines = written(stream)
    stamp = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}"
    assert re.fullmatch(
        stamp + r" INFO     hipparchusd\.server: connection opened from .*", lines[0]
    )
    assert re.fullmatch(
        stamp + r" WARNING  hipparchusd\.server: connection limit reached", lines[1]
    )
    assert not any("protocol error" in line for line in lines)  # below the level
    assert not any(line.startswith("<") for line in lines)


def test_a_journal_stream_that_is_not_stderr_is_ignored(stream: TextIO, tmp_path: Path) -> None:
    # E.g. a child whose stderr was redirected to a file still inherits JOURNAL_STREAM.
    with (tmp_path / "other").open("w") as other:
        env = journal_env(other)
    assert not journal_stream_matches(stream, env)
    assert configure_logging("info", stream=stream, environ=env) is False


@pytest.mark.parametrize("value", ["", "12", "a:b", "1:2:3", ":"])
def test_malformed_journal_stream(stream: TextIO, value: str) -> None:
    assert not journal_stream_matches(stream, {"JOURNAL_STREAM": value})


def test_a_stream_without_descriptor(stream: TextIO) -> None:
    assert not journal_stream_matches(io.StringIO(), journal_env(stream))


def test_configuring_again_replaces_our_handler(stream: TextIO) -> None:
    configure_logging("info", stream=stream, environ={})
    configure_logging("info", stream=stream, environ=journal_env(stream))
    logging.getLogger("x").info("once")
    assert written(stream) == ["<6>x: once"]


def test_set_level_changes_what_is_logged(stream: TextIO) -> None:
    configure_logging("warning", stream=stream, environ=journal_env(stream))
    logging.getLogger("x").info("hidden")
    set_level("INFO")
    logging.getLogger("x").info("shown")
    assert written(stream) == ["<6>x: shown"]
    with pytest.raises(ValueError, match="unknown log level 'loud'"):
        set_level("loud")


def test_syslog_priorities() -> None:
    assert [syslog_priority(level) for level in (10, 20, 25, 30, 40, 50, 60)] == [
        7,
        6,
        4,
        4,
        3,
        2,
        2,
    ]
    assert syslog_priority(5) == 7


def test_json_lines_have_the_stable_fields_and_nothing_else(stream: TextIO) -> None:
    configure_logging("info", stream=stream, environ={}, log_format="json")
    log = logging.getLogger("hipparchusd.server")
    log.info(
        "connection %d opened from %s",
        7,
        "127.0.0.1:5000",
        extra={"event": "connection-opened", "connection": 7, "token": "s3cr3t"},
    )
    log.warning("game %s: seat %d is slow", "g3", 1, extra={"game": "g3", "seat": 1})
    try:
        raise ValueError("boom")
    except ValueError:
        log.exception("it failed")
    first, second, third = (json.loads(line) for line in written(stream))
    assert list(first) == ["time", "level", "logger", "event", "message", "connection"]
    assert first["level"] == "info" and first["logger"] == "hipparchusd.server"
    assert first["event"] == "connection-opened" and first["connection"] == 7
    assert first["message"] == "connection 7 opened from 127.0.0.1:5000"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", first["time"])
    assert "s3cr3t" not in json.dumps(first)  # only the stable fields are written
    # An entry that names no event is known by its message's template.
    assert second["event"] == "game %s: seat %d is slow"
    assert (second["game"], second["seat"], second["level"]) == ("g3", 1, "warning")
    assert "ValueError: boom" in third["traceback"]


def test_json_lines_under_journald_keep_the_priority_prefix(stream: TextIO) -> None:
    configure_logging("info", stream=stream, environ=journal_env(stream), log_format="json")
    logging.getLogger("hipparchusd").warning("careful")
    (line,) = written(stream)
    assert line.startswith("<4>{")
    assert json.loads(line[3:])["message"] == "careful"


def test_an_unknown_log_format_is_refused(stream: TextIO) -> None:
    with pytest.raises(ValueError, match="unknown log format 'xml'"):
        configure_logging("info", stream=stream, log_format="xml")
