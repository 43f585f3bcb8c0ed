"""High card played in the terminal client (issue 22: any game plays in ``hipparchus-play``
without a screen of its own). The kind names no screen, so the client's generic screen plays it
through ``to-move``, ``legal`` (a pick of one card), ``play`` and ``game-over`` alone, headless
(Textual's pilot), against two bots, to the end; and a spectator follows a match of three bots.

Every expected value comes from the rules in tinygame/game.py applied to the deal and the picks
of the record, never from what the client showed."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from play.tui_harness import (
    SIZE,
    Bot,
    bots_saw,
    choose,
    fetch_record,
    game_screen,
    made,
    new_game,
    next_turn,
    press,
    screenshot,
    seat_in_order,
    serving,
    thread_daemon,
    wait_for,
)

from hipparchusd.play.app import Options, PlayApp
from hipparchusd.play.generic_screen import GenericScreen
from hipparchusd.play.widgets import ChoiceBar, RulesScreen

from .game import SEATS
from .kind import HIGHCARD


def expected_result(record: dict[str, Any]) -> tuple[list[int], list[int], list[list[int]]]:
    """The winners, the scores and each seat's hand before each of its picks, by the rules of
    tinygame/game.py: each round the three cards picked are compared, the highest wins the
    round; the seats with the most round wins win."""
    data = record["record"]
    hands = [list(hand) for hand in data["hands"]]
    before: list[list[int]] = []
    round_cards: dict[int, int] = {}
    wins = [0] * SEATS
    for seat, card in data["picks"]:
        if seat == 0:
            before.append(sorted(hands[0]))
        hands[seat].remove(card)
        round_cards[seat] = card
        if len(round_cards) == SEATS:
            wins[max(round_cards, key=round_cards.__getitem__)] += 1
            round_cards = {}
    winners = [seat for seat in range(SEATS) if wins[seat] == max(wins)]
    return winners, wins, before


def test_a_whole_high_card_match_in_the_terminal_client(tmp_path: Path) -> None:
    asyncio.run(high_card_match(tmp_path))


async def high_card_match(tmp_path: Path) -> None:
    """Five rounds, our card chosen each way the screen offers (arrows and Enter, typed, a
    click, Space then Enter); the cards offered are our hand as the rules leave it."""
    rng = random.Random(4)
    with serving(HIGHCARD), thread_daemon() as daemon:
        options = Options(
            port=daemon.port, new="highcard", options=["best_of=5", "seed=11"], data_dir=tmp_path
        )
        app = PlayApp(options)
        async with app.run_test(size=SIZE) as pilot:
            screen = await game_screen(pilot, app)
            assert isinstance(screen, GenericScreen) and screen.seating.seat == 0
            game = screen.seating.game
            bots = [Bot(daemon, game, name, seed) for seed, name in enumerate(("bob", "cy"))]
            await seat_in_order(pilot, bots)  # bob in seat 1, the other in 2
            offered: list[list[int]] = []
            while await next_turn(pilot, app, screen):
                pick = screen.pick
                assert pick is not None and pick.count == 1 and pick.to is None
                view = screen.view or {}
                assert list(pick.items) == [str(card) for card in view["hand"]]
                assert [item.label.plain for item in screen.move_items()] == list(pick.items)
                assert screen.turn_prompt().plain.startswith("Your move: choose 1 item")
                offered.append([int(item) for item in pick.items])
                if len(offered) == 1:
                    await press(pilot, "?")
                    await wait_for(pilot, lambda: isinstance(app.screen, RulesScreen))
                    assert HIGHCARD.summary[1:] in app.screen.text  # the server's summary
                    await press(pilot, "escape")
                    await wait_for(pilot, lambda: app.screen is screen, what="the rules closed")
                if len(offered) == 2:  # once drawn: the view taken again, the cards offered
                    bar = screen.query_one("#moves", ChoiceBar)
                    await wait_for(pilot, lambda bar=bar: not screen.stale and bool(bar.items))
                    await asyncio.sleep(0.2)
                    screenshot(app, "tui-generic.svg", tmp_path)
                index = rng.randrange(len(pick.items))
                before = screen.moves_made
                way = len(offered) % 5
                if way == 4:  # Space marks the item, Enter plays the marked item
                    steps = (index - screen.selected) % screen.selectable()
                    await press(pilot, *["right"] * steps, "space")
                    await wait_for(pilot, lambda: len(screen.marked) == 1, what="the mark")
                    assert screen.move_items()[index].label.plain == "+" + pick.items[index]
                    await press(pilot, "enter")
                else:
                    item = pick.items[index]
                    await choose(pilot, screen, way, index, item, item)
                await made(pilot, screen, before)
            over = screen.over
            assert over is not None
        bots_saw(bots, over)
        record = fetch_record(daemon, game)
    winners, scores, hands = expected_result(record)
    assert (over["winners"], over["scores"]) == (winners, scores)
    assert offered == hands and len(offered) == 5
    # Each round's reveal is logged with its fields, the winner named.
    revealed = [line for line in screen.transcript if line.startswith("revealed")]
    assert len(revealed) == 5 and all(" winner=" in line for line in revealed)
    names = {0: "you", 1: "bob", 2: "cy"}
    result = next(line for line in screen.transcript if line.startswith("Game over: "))
    assert result.startswith("Game over: " + " and ".join(names[seat] for seat in winners))
    assert result.endswith(", ".join(f"{names[s]} {score}" for s, score in enumerate(scores)))


def test_watching_a_high_card_match_between_three_bots(tmp_path: Path) -> None:
    asyncio.run(watch(tmp_path))


async def watch(tmp_path: Path) -> None:
    """A spectator sees the seats' picks as they come, never a hand (the spectators' view has
    none), the reveals, and the result the rules give."""
    with serving(HIGHCARD), thread_daemon() as daemon:
        game = new_game(daemon, "highcard", "best_of=4")
        app = PlayApp(Options(port=daemon.port, watch=game, delay=0.0, data_dir=tmp_path))
        async with app.run_test(size=SIZE) as pilot:
            screen = await game_screen(pilot, app)
            assert isinstance(screen, GenericScreen) and screen.seating.seat is None
            bots = [Bot(daemon, game, name, seed) for seed, name in enumerate(("a", "b", "c"))]
            for bot in bots:
                bot.start()
            # Generous: three bots play four rounds in this process in well under a second.
            await wait_for(pilot, lambda: screen.over is not None, timeout=60, what="the end")
            # The view is taken again once the events read are applied.
            await wait_for(pilot, lambda: not screen.stale, what="the last view")
            for bot in bots:
                bot.join(10)
            assert screen.over == bots[0].result
            assert screen.view is not None and screen.view["hand"] is None
            assert screen.move_items() == []
        record = fetch_record(daemon, game)
    winners, scores, _ = expected_result(record)
    assert (screen.over["winners"], screen.over["scores"]) == (winners, scores)
    assert sum(line.startswith("revealed") for line in screen.transcript) == 4
    assert not any(line.startswith("dealt") for line in screen.transcript)
