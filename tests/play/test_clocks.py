"""The terminal client's clocks (issue 27): how a clock is drawn, how it runs down from what the
server said, and headlessly a timed Hipparchus game whose seat panels show both clocks, the
running one counting down and a low one warned; then an opponent away for the absence grace,
announced, and the game claimed with Ctrl+K."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from rich.text import Text

from hipparchusd.client import Client
from hipparchusd.play.app import Options, PlayApp
from hipparchusd.play.clocks import Clocks, clock_text
from hipparchusd.play.game_screen import seat_header
from play.tui_harness import SIZE, game_screen, press, thread_daemon, wait_for

DEAL = "SMSMSMSMSMEEEE/EEESSSSMMMMEES/ME"


def test_a_clock_is_drawn_as_a_clock_shows_it() -> None:
    assert clock_text(300_000) == "5:00"
    assert clock_text(61_999) == "1:01"
    assert clock_text(10_000) == "0:10"
    assert clock_text(9_999) == "9.9"
    assert clock_text(250) == "0.2"
    assert clock_text(-5) == "0.0"
    assert clock_text(3_725_000) == "1:02:05"
    assert clock_text(3 * 86_400_000 + 7_200_000) == "3d 2h"


class FakeTime:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_clocks_run_down_from_what_the_server_said() -> None:
    time = FakeTime()
    clocks = Clocks(time)
    assert not clocks.timed and clocks.text(0) == Text("")
    clocks.to_move({"seats": [0], "left_ms": [60_000]})
    time.now = 102.5
    assert clocks.left(0) == 57_500 and clocks.left(1) is None
    assert clocks.text(0).plain == " 0:57" and clocks.text(0).style == "bold"
    # Seat 0 moved; seat 1 decides: seat 0's clock stops where it stood.
    clocks.to_move({"seats": [1], "left_ms": [60_000]})
    time.now = 155.0
    assert clocks.left(0) == 57_500 and clocks.left(1) == 7500
    assert clocks.text(1).style == "bold red"  # low: under ten seconds
    clocks.stop()
    time.now = 200.0
    assert clocks.left(1) == 7500 and clocks.running == frozenset()
    clocks.from_state({"running": [0], "left_ms": [1000, 2000]})
    time.now = 200.4
    assert (clocks.left(0), clocks.left(1)) == (600, 2000)


def test_an_untimed_to_move_shows_no_clock() -> None:
    clocks = Clocks(FakeTime())
    clocks.to_move({"seats": [0]})
    assert not clocks.timed and clocks.text(0).plain == ""


def test_a_timed_game_shows_the_clocks_and_an_absent_opponent_can_be_claimed(
    tmp_path: Path,
) -> None:
    asyncio.run(timed_and_claimed(tmp_path))


async def timed_and_claimed(tmp_path: Path) -> None:
    with thread_daemon() as daemon:
        options = [f"deal={DEAL}", "leader=1", "clock=8s+1s", "first_move=off", "absence=0.5s"]
        app = PlayApp(
            Options(port=daemon.port, new="hipparchus", options=options, data_dir=tmp_path)
        )
        async with app.run_test(size=SIZE) as pilot:
            screen = await game_screen(pilot, app)
            game = screen.seating.game
            opponent = Client.connect(daemon.host, daemon.port, json=True)
            opponent.request_json("join", game, "name=bob")
            await wait_for(pilot, lambda: screen.clocks.running == {1}, what="bob to lead")
            # Bob's clock runs down, ours stands at its bank; under ten seconds both are low
            # (red), the running one bold.
            assert re.search(r" [78]\.\d$", seat_header(screen, 1).plain)
            await wait_for(
                pilot, lambda: " 6." in seat_header(screen, 1).plain, what="bob's clock to run"
            )
            ours = seat_header(screen, 0)
            assert ours.plain.endswith(" 8.0")
            assert [span.style for span in ours.spans][-1] == "red"
            assert [span.style for span in seat_header(screen, 1).spans][-1] == "bold red"
            # Bob goes away: after the absence grace he is absent, and Ctrl+K claims.
            opponent.close()
            await wait_for(pilot, lambda: screen.absent == {1}, what="bob absent")
            assert "absent" in seat_header(screen, 1).plain
            assert any("You may claim the game (Ctrl+K)" in line for line in screen.transcript)
            await press(pilot, "ctrl+k")
            await wait_for(pilot, lambda: screen.over is not None, what="the claim")
            assert screen.over is not None and screen.over.get("claimed") is True
            assert any("claimed: bob was away" in line for line in screen.transcript)
