"""The daemon as a process: the console entry point, options, logs, signals."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio

from hipparchusd.cli import parse_settings
from hipparchusd.directories import default_admin_socket
from hipparchusd.settings import Settings, SettingsError
from hipparchusd.store.statedir import default_state_dir

from .client import Client
from .helpers import HAND0, HAND1, seated_game


async def test_a_game_against_the_subprocess_and_a_clean_sigterm(daemon: Any) -> None:
    a = await Client.connect(daemon.port)
    b = await Client.connect(daemon.port)
    game = await seated_game(a, b)
    await a.ok(f"play {game} 1S@1")
    await a.events_until(["turn"])
    assert daemon.stop() == 0
    log = daemon.log()
    assert "shutting down" in log and "stopped" in log
    assert re.search(r"connection \d+ opened from 127\.0\.0\.1:\d+", log)
    assert re.search(rf"game {game} started", log)
    # No hand ever reaches the log at INFO.
    assert HAND0 not in log and HAND1 not in log
    await a.aclose()
    await b.aclose()


def test_sigint_during_a_connection_exits_0_after_the_grace(
    daemon_factory: Callable[..., Any],
) -> None:
    daemon = daemon_factory("--state-dir", "none", "--grace-period", "0.3")
    import socket

    with socket.create_connection((daemon.host, daemon.port)) as conn:
        reader = conn.makefile("rb")
        assert reader.readline().startswith(b"* server hello")
        daemon.process.send_signal(signal.SIGINT)
        assert reader.readline() == b"* server shutdown grace=0.3\n"
        started = time.monotonic()
        assert reader.readline() == b""  # closed at the grace deadline
        assert time.monotonic() - started < 5
    assert daemon.process.wait(10) == 0


def test_port_0_logs_the_bound_port(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "hipparchusd", "--port", "0", "--state-dir", "none"],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        # The listening line comes once the listeners are bound; before it, others may (the
        # admin channel's socket): a few lines, each written at start-up, are read.
        lines = []
        for _ in range(5):
            lines.append(process.stderr.readline())
            match = re.search(r"listening on 127\.0\.0\.1 port (\d+)", lines[-1])
            if match:
                break
        assert match and int(match.group(1)) > 0, lines
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(10) == 0


def test_help_explains_every_option() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "hipparchusd", "--help"], capture_output=True, text=True, check=True
    ).stdout
    for option in (
        "--host", "--port", "--max-line-bytes", "--max-connections", "--max-games",
        "--idle-timeout", "--outbound-queue", "--log-level", "--state-dir", "--grace-period",
        "--retention-days",
    ):  # fmt: skip
        assert option in out
    assert "7460" in out and "127.0.0.1" in out


def test_defaults_and_validation() -> None:
    # The default state directory is the user's data directory ($STATE_DIRECTORY under systemd).
    # The admin channel's socket is in the user's runtime directory ($RUNTIME_DIRECTORY under
    # systemd).
    assert parse_settings([]) == Settings(
        state_dir=str(default_state_dir()), admin_socket=str(default_admin_socket())
    )
    assert Settings().port == 7460 and Settings().host == "127.0.0.1"
    settings = parse_settings(["--port", "0", "--idle-timeout", "1.5", "--state-dir", "none"])
    assert settings.port == 0 and settings.idle_timeout == 1.5 and settings.state_dir is None
    with pytest.raises(SettingsError, match="port"):
        Settings(port=70000)
    with pytest.raises(SettingsError, match="max_games"):
        Settings(max_games=0)
    with pytest.raises(SettingsError, match="state_dir"):
        Settings(state_dir="")
    with pytest.raises(SettingsError, match="retention_days"):
        Settings(retention_days=-1)
    result = subprocess.run(
        [sys.executable, "-m", "hipparchusd", "--max-connections", "0"],
        capture_output=True,
        text=True,
        env={**os.environ},
    )
    assert result.returncode == 2 and "max_connections" in result.stderr


def test_the_address_in_use_is_a_clear_error(daemon: Any) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "hipparchusd", "--port", str(daemon.port)],
        capture_output=True,
        text=True,
        timeout=20,
    )
    assert result.returncode == 1 and "cannot serve" in result.stderr
    # Which address, and the option that moves it: the OS's "Address already in use" names neither.
    assert f"127.0.0.1 port {daemon.port} is in use" in result.stderr
    assert "--port gives another" in result.stderr


async def test_shutdown_lets_a_request_in_flight_finish(daemon: Any) -> None:
    c = await Client.connect(daemon.port)
    daemon.process.send_signal(signal.SIGTERM)
    with trio.fail_after(5):
        assert (await c.next_event()).startswith("* server shutdown grace=")
    assert (await c.ok("name")).lines == ["hipparchusd"]
    await c.aclose()


def test_a_first_word_naming_a_subcommand_runs_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from hipparchusd import cli

    seen: list[list[str]] = []
    monkeypatch.setitem(cli.SUBCOMMANDS, "export", lambda args: seen.append(args) or 3)
    assert cli.main(["export", "--all", "g1"]) == 3
    assert seen == [["--all", "g1"]]
