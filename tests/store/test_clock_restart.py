"""Clocks across a ``kill -9`` (RULINGS T6, issue 27): each seat's remaining time is stored with
every acknowledged move; a daemon killed with SIGKILL and started again on the same state
directory resumes every clock exactly where the last acknowledged move left it, and charges
nobody for the time it was down."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio
from test_restart import kill

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the daemon tests' client
from daemon.client import Client

#: tests/conftest.py's ``DaemonProcess``.
DaemonProcess = Any

DEAL = "SMSMSMSMSMEEEE/EEESSSSMMMMEES/ME"
#: Seconds the daemon stays down: time a clock must not be charged for.
DOWN = 2.0


async def clock_of(client: Client, game: str) -> dict[str, Any]:
    """``time_left <game>`` (JSON mode)."""
    answer: dict[str, Any] = (await client.ok(f"time_left {game}")).json()
    return answer


async def test_clocks_resume_where_the_last_acknowledged_move_left_them_after_kill_9(
    daemon_factory: Callable[..., DaemonProcess], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state_dir = tmp_path / "state"
    daemon = daemon_factory("--state-dir", str(state_dir))
    a, b = await Client.connect(daemon.port), await Client.connect(daemon.port)
    for client in (a, b):
        await client.ok("format json")
    game = (await a.ok(f"new hipparchus leader=0 deal={DEAL} clock=5m+3s")).json()["game"]
    await a.ok(f"join {game} 0 name=ann")
    token = (await b.ok(f"join {game} 1 name=bob")).json()["token"]
    # Three acknowledged moves, each a little time apart (the times only have to differ).
    for client, move in ((a, "1S@1"), (b, "2S@4"), (b, "1M@8")):
        await trio.sleep(0.3)
        await client.ok(f"play {game} {move}")
    before = await clock_of(a, game)
    # What the last acknowledged move left: seat 0 to move, its bank untouched since then.
    assert before["running"] == [0]
    banks = before["bank_ms"]
    assert 300_000 - 60_000 < banks[0] <= 300_000 + 3000  # decided once, and not slowly
    assert 300_000 - 60_000 < banks[1] <= 300_000 + 2 * 3000  # decided twice
    kill(daemon, state_dir)
    await a.aclose()
    await b.aclose()
    time.sleep(DOWN)

    daemon = daemon_factory("--state-dir", str(state_dir))
    c = await Client.connect(daemon.port)
    await c.ok("format json")
    asked = trio.current_time()
    resumed = (await c.ok(f"resume {token}")).json()
    after = await clock_of(c, game)
    since = trio.current_time() - asked
    # Exactly the stored banks, and the seat to move charged only for the time since its game
    # was loaded again: none of the time the daemon was down (T6).
    assert after["bank_ms"] == banks
    assert after["running"] == [0]
    assert banks[0] - round(since * 1000) - 1 <= after["left_ms"][0] <= banks[0]
    assert resumed["clock"]["bank_ms"] == banks
    assert resumed["presence"] == ["away", "here"]
    with capsys.disabled():
        print(
            f"\nT6 kill -9: banks before {banks} ms, after restart {after['bank_ms']} ms; "
            f"seat 0 charged {banks[0] - after['left_ms'][0]} ms, within the "
            f"{since * 1000:.0f} ms since its game was loaded (none of the {DOWN:g} s down)",
        )
    await c.aclose()
