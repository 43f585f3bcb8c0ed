"""Draining a daemon process for an upgrade (issue 26): ``hipparchusd admin drain``, or SIGTERM
with ``--drain-on-stop``, refuses new games, adjourns the games nobody follows, waits for the
games in progress to end, then exits 0; a new daemon on the same state directory resumes the
adjourned ones. Every wait is bounded by the progress it waits for (generously: the machine
may be loaded), never by a guess of how long something takes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import trio

from .client import Client
from .helpers import seated_game

#: Seconds within which a daemon must do what it was asked (generous: a loaded machine).
PATIENCE = 60.0


def admin(daemon: Any, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``hipparchusd admin ARGS`` as an operator runs it, finding the socket by default in the
    daemon's runtime directory (tests/conftest.py gives it one)."""
    env = {**os.environ, "RUNTIME_DIRECTORY": str(tmp_path / f"run-{daemon.port}")}
    return subprocess.run(
        [sys.executable, "-m", "hipparchusd", "admin", "--config", "", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=PATIENCE,
        check=False,
    )


async def exit_status(daemon: Any) -> int:
    """The daemon's exit status, once it has exited by itself."""
    return await trio.to_thread.run_sync(daemon.process.wait, PATIENCE)


async def play_one_move(game: str, players: tuple[Client, Client], seat: int) -> None:
    move = (await players[seat].ok(f"legal {game}")).lines[0].split()[0]
    await players[seat].ok(f"play {game} {move}")


async def test_a_drain_waits_for_the_games_in_progress_then_exits(
    daemon_factory: Callable[..., Any], tmp_path: Path
) -> None:
    state = tmp_path / "state"
    daemon = daemon_factory("--state-dir", str(state), "--grace-period", "0.5")
    a, b = await Client.connect(daemon.port), await Client.connect(daemon.port)
    played = await seated_game(a, b)
    c, d = await Client.connect(daemon.port), await Client.connect(daemon.port)
    left, token = await new_game_with_tokens(c, d)
    await c.aclose()
    await d.aclose()

    drained = admin(daemon, tmp_path, "drain")
    assert drained.returncode == 0, drained.stderr
    assert "draining" in drained.stdout
    await a.fail("new hipparchus", "maintenance")
    # The game nobody follows is adjourned at once (kept in the store for its seats' resume).
    with trio.fail_after(PATIENCE):
        while left in admin(daemon, tmp_path, "games").stdout:
            await trio.sleep(0.1)
    # The game in progress goes on; the daemon waits for it.
    await play_one_move(played, (a, b), 0)
    assert daemon.process.poll() is None
    assert "draining: 1 game in progress" in admin(daemon, tmp_path, "status").stdout
    await a.ok(f"resign {played}")
    assert await exit_status(daemon) == 0
    assert "drained: no game in progress" in daemon.log()

    # The next daemon has both: the ended one finished, the adjourned one to resume.
    after = daemon_factory("--state-dir", str(state))
    e = await Client.connect(after.port)
    assert (await e.ok(f"record {played}")).fields()["game"] == played
    await e.fail(f"state {left}", "unknown-game")  # adjourned, until a seat resumes it
    resumed = (await e.ok(f"resume {token}")).fields()
    assert resumed["game"] == left and resumed["status"] == "playing"


async def test_sigterm_drains_first_with_drain_on_stop(
    daemon_factory: Callable[..., Any], tmp_path: Path
) -> None:
    state = tmp_path / "state"
    daemon = daemon_factory("--state-dir", str(state), "--drain-on-stop", "--grace-period", "0.5")
    a, b = await Client.connect(daemon.port), await Client.connect(daemon.port)
    game = await seated_game(a, b)
    daemon.process.send_signal(signal.SIGTERM)
    # Still serving, but draining: new games are refused.
    with trio.fail_after(PATIENCE):
        while "draining" not in admin(daemon, tmp_path, "status").stdout:
            await trio.sleep(0.1)
    await a.fail("new hipparchus", "maintenance")
    await play_one_move(game, (a, b), 0)
    await b.ok(f"resign {game}")
    assert await exit_status(daemon) == 0


async def test_a_drain_that_times_out_keeps_the_games_in_the_store(
    daemon_factory: Callable[..., Any], tmp_path: Path
) -> None:
    state = tmp_path / "state"
    daemon = daemon_factory(
        "--state-dir", str(state), "--drain-timeout", "0.5", "--grace-period", "0.5"
    )
    a, b = await Client.connect(daemon.port), await Client.connect(daemon.port)
    game = await new_game_with_tokens(a, b)
    assert admin(daemon, tmp_path, "drain").returncode == 0
    assert await exit_status(daemon) == 0
    assert "drain timeout" in daemon.log()
    after = daemon_factory("--state-dir", str(state))
    c = await Client.connect(after.port)
    resumed = (await c.ok(f"resume {game[1]}")).fields()
    assert resumed["game"] == game[0] and resumed["status"] == "playing"


async def new_game_with_tokens(a: Client, b: Client) -> tuple[str, str]:
    """A started game of ``a`` and ``b``: its id and ``a``'s token."""
    game = (await a.ok("new hipparchus")).fields()["game"]
    token = (await a.ok(f"join {game} 0 name=ann")).fields()["token"]
    await b.ok(f"join {game} 1 name=bea")
    return game, token
