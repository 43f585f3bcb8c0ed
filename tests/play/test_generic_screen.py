"""The generic screen (hipparchusd/play/generic_screen.py) plays gifts (tests/gifts/), a game no
part of the client knows, in both forms of ``legal``: a pick of two numbers with targets, then a
list of bonus moves; and its parts without a screen (the view's tree, an event's line).

Every expected value comes from the rules of tests/gifts/ applied to the record, never from what
the client showed."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import Any

from gifts import GIFTS, SEATS
from rich.console import Console

from hipparchusd.play.app import Options, PlayApp
from hipparchusd.play.generic_screen import GenericScreen, json_text, json_tree
from play.tui_harness import (
    SIZE,
    Bot,
    bots_saw,
    click_item,
    fetch_record,
    game_screen,
    made,
    press,
    seat_in_order,
    serving,
    thread_daemon,
    wait_for,
)


def plain(renderable: Any) -> str:
    """A rich renderable as plain text, 100 columns wide."""
    console = Console(width=100, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def test_json_is_shown_as_a_tree_with_scalar_lists_on_one_line() -> None:
    view = {"seat": 0, "hand": [3, 7], "picked": [True, False], "rounds": [[1, 2, 3]], "x": None}
    lines = [line.strip(" │├└─") for line in plain(json_tree("view", view)).splitlines()]
    assert lines == [
        "view",
        "seat: 0",
        "hand: 3, 7",
        "picked: true, false",
        "rounds",
        "[0]: 1, 2, 3",
        "x: null",
    ]
    assert json_text([]) == "[]"


def test_gifts_in_the_generic_screen(tmp_path: Path) -> None:
    asyncio.run(gifts_game(tmp_path))


async def gifts_game(tmp_path: Path) -> None:
    """Our two gifts marked (Space, then a click), shown with the seat each goes to, played
    with Enter; a bonus that is no move refused with the daemon's reason; the bonus chosen by
    its number; the end as the rules score it."""
    with serving(GIFTS), thread_daemon() as daemon:
        app = PlayApp(Options(port=daemon.port, new="gifts", name="ann", data_dir=tmp_path))
        async with app.run_test(size=SIZE) as pilot:
            screen = await game_screen(pilot, app)
            assert isinstance(screen, GenericScreen) and screen.seating.seat == 0
            game = screen.seating.game
            bots = [Bot(daemon, game, name, seed) for seed, name in enumerate(("bob", "cy"))]
            await seat_in_order(pilot, bots)  # bob in seat 1, the other in 2
            await wait_for(pilot, lambda: screen.my_turn, what="our gifts")
            pick = screen.pick
            assert pick is not None and pick.count == 2 and pick.to == (1, 2)
            assert [item.label.plain for item in screen.move_items()] == list(pick.items)
            assert screen.turn_prompt().plain.startswith("Your move: choose 2 items for bob, cy")
            await press(pilot, "right", "right", "space")  # the third item: 3
            await wait_for(pilot, lambda: screen.marked == ["3"], what="Space's mark")
            await click_item(pilot, "moves", 4)  # 5
            await wait_for(
                pilot, lambda: screen.marked == ["3", "5"], what=f"the click's mark {screen.marked}"
            )
            shown = [item.label.plain for item in screen.move_items()]
            assert shown == ["1", "2", "+3 → bob", "4", "+5 → cy", "6", "[ Play ]"]
            before = screen.moves_made
            await press(pilot, "enter")
            await made(pilot, screen, before)
            assert "You played 3,5" in screen.transcript

            await wait_for(pilot, lambda: screen.my_turn, what="our bonus")
            assert screen.pick is None and screen.moves == ["b1", "b2", "b3"]
            assert [item.label.plain for item in screen.move_items()] == ["1 b1", "2 b2", "3 b3"]
            await press(pilot, "b", "9", "enter")
            refusal = "Refused b9: take a bonus of b1, b2 or b3, not 'b9'"
            await wait_for(pilot, lambda: screen.refusal == refusal, what="the refusal")
            assert screen.my_turn
            before = screen.moves_made
            await press(pilot, "2", "enter")
            await made(pilot, screen, before)
            assert "You played b2" in screen.transcript
            await wait_for(pilot, lambda: screen.over is not None, what="the end")
            await wait_for(pilot, lambda: not screen.stale, what="the last view")
            view_shown = plain(screen.center())
        over = screen.over
        bots_saw(bots, over)
        record = fetch_record(daemon, game)["record"]
    scores = [0] * SEATS
    received: list[int] = []
    for _, to, number in record["gifts"]:
        scores[to] += number
        if to == 0:
            received.append(number)
    for seat, bonus in enumerate(record["bonuses"]):
        scores[seat] += bonus
    assert [(giver, to, n) for giver, to, n in record["gifts"] if giver == 0] == [
        (0, 1, 3),
        (0, 2, 5),
    ]
    assert record["bonuses"][0] == 2
    assert over is not None and over["scores"] == scores
    assert over["winners"] == [seat for seat in range(SEATS) if scores[seat] == max(scores)]
    # What we received, in the view shown (in the order given, which the record does not keep).
    line = next(line for line in view_shown.splitlines() if "received: " in line)
    assert sorted(int(n) for n in line.split("received: ")[1].split(", ")) == sorted(received)
    # The others' gifts were logged as events with the seat's name; what they gave was not.
    assert any(line.startswith("gave  seat=1 (bob)") for line in screen.transcript)
