"""The planets screen of ``hipparchus-play`` (hipparchusd/games/planets/tui/), driven headlessly
(Textual's pilot) against a daemon in this process and bots in threads: the pass (Space, clicks,
typed cards), the cards (arrows, numbers, names, clicks), a card that is not legal (refused with
the reason), shooting the moon, the hands' and the game's end, and watching. What the screen
shows is checked against the server's record replayed through the rules (docs/planets.md).

With ``HIPPARCHUS_TUI_SCREENSHOTS=1`` the screenshots are also written to docs/
(docs/tui-planets.svg, docs/tui-planets-pass.svg) for the README.
"""

from __future__ import annotations

import asyncio
import io
import random
import threading
from pathlib import Path
from typing import Any

import attrs
import pytest
from play.tui_harness import (
    SIZE,
    Bot,
    bots_saw,
    choose,
    click_item,
    fetch_record,
    game_screen,
    made,
    next_turn,
    preloaded,
    press,
    resign,
    result_text,
    row_of,
    screenshot,
    seat_in_order,
    thread_daemon,
    token_of,
    wait_for,
)
from rich.console import Console
from textual.pilot import Pilot

from hipparchusd.games.base import Pick as GamePick
from hipparchusd.games.planets import PlanetsRecord, replay
from hipparchusd.games.planets.codec import converter as planets_converter
from hipparchusd.games.planets.tui.follow import sort_cards
from hipparchusd.games.planets.tui.screen import PlanetsScreen
from hipparchusd.games.registry import KINDS
from hipparchusd.play.app import Options, PlayApp, parse_args
from hipparchusd.play.widgets import ResultScreen
from hipparchusd.store.base import MemoryStore


def planets_near_its_end(players: int, seed: int, names: list[str], over: int = 80) -> MemoryStore:
    """A planets game (``g1``) played at random by the rules, stopped at the start of the
    first hand after which a total may exceed 100 (some total is over ``over``), every seat
    taken (:func:`token_of` gives the tokens): a short way to a game's end."""
    kind = KINDS["planets"]
    options = {"players": str(players), "seed": str(seed)}
    game = kind.create(options)
    game.start()
    rng = random.Random(seed)
    while True:
        view: Any = game.view_data(None)
        at_start = view["phase"] == "pass" and not view["passed"]
        at_start = at_start or (
            view["phase"] == "play" and not view["tricks"] and not view["trick"]
        )
        if at_start and max(view["totals"]) > over:
            break
        if game.outcome is not None:
            raise ValueError(f"seed {seed}: the game ended before a total passed {over}")
        seat = min(game.seats_to_move())
        legal = game.legal(seat)
        if isinstance(legal, GamePick):
            word = ",".join(rng.sample(list(legal.items), legal.count))
        else:
            word = rng.choice(list(legal.moves))
        game.play_word(seat, word)
    return preloaded("planets", options, game, names)


def test_planets_to_the_end_of_a_restored_game(tmp_path: Path) -> None:
    asyncio.run(planets_end(tmp_path))


async def planets_end(tmp_path: Path) -> None:
    """A six-seat game near its end (some total over 96), restored by the daemon: we resume
    seat 0 with its token, five bots the others, and play the last hands out: the pass
    (Space, clicks, typed cards), the cards (arrows, numbers, names, clicks), a card that is
    not legal (refused with the reason), the hands' and the game's end."""
    names = ["human", "bob", "carol", "dave", "erin", "finn"]
    store = planets_near_its_end(6, 17, names, over=96)  # seed 17: one hand to the end
    rng = random.Random(9)
    with thread_daemon(store) as daemon:
        app = PlayApp(Options(port=daemon.port, resume=token_of(0), data_dir=tmp_path))
        async with app.run_test(size=SIZE) as pilot:
            screen = await game_screen(pilot, app)
            assert isinstance(screen, PlanetsScreen)
            bots = [Bot(daemon, "g1", names[s], s, token=token_of(s)) for s in range(1, 6)]
            for bot in bots:
                bot.start()
            turns = 0
            refused = False
            shot = False
            passes = 0
            while await next_turn(pilot, app, screen):
                turns += 1
                before = screen.moves_made
                if screen.pick is not None:
                    passes += 1
                    await pass_cards(pilot, screen)
                elif screen.choices:
                    await press(pilot, "enter")
                else:
                    hand = screen.hand_list()
                    legal = list(screen.cards)
                    dim = [item.style == "dim" for item in screen.hand_items()]
                    assert [card not in legal for card in hand] == dim
                    if not refused and any(dim):
                        refused = True
                        await click_item(pilot, "hand", dim.index(True))
                        await wait_for(pilot, lambda: bool(screen.refusal), what="refusal")
                        assert screen.refusal.startswith("Refused ")
                        assert screen.refusal.endswith(
                            ("you must follow " + _suit_led(screen), "lead another suit")
                        )
                    trick = (screen.view or {}).get("trick") or {}
                    if not shot and len(trick.get("cards") or []) >= 3:
                        shot = True  # mid-trick, with the last trick's reason shown
                        await asyncio.sleep(0.2)
                        screenshot(app, "tui-planets.svg", tmp_path)
                    index = rng.randrange(len(legal))
                    await choose(pilot, screen, turns % 4, index, legal[index])
                await made(pilot, screen, before)
            over = screen.over
            assert over is not None
        bots_saw(bots, over)
        record = fetch_record(daemon, "g1")
    state = replay(planets_converter.structure(record["record"], PlanetsRecord))
    totals = list(state.totals)
    assert over["scores"] == totals and max(totals) > 100
    assert over["winners"] == [s for s, t in enumerate(totals) if t == min(totals)]
    assert refused and shot and passes >= 1
    logged = [line for line in screen.transcript if line.startswith("Trick ")]
    assert logged and all("the highest" in line for line in logged)


def _suit_led(screen: PlanetsScreen) -> str:
    from hipparchusd.games.planets.tui.follow import PLANETS_SUITS

    trick = (screen.view or {}).get("trick") or {}
    cards = trick.get("cards") or ["?"]
    return PLANETS_SUITS.get(str(cards[0])[0], "?")


async def pass_cards(pilot: Pilot[Any], screen: PlanetsScreen) -> None:
    """Mark the pass's cards: the first with Space, the next with a click, the rest typed;
    Enter passes them. The hand shown is what ``legal`` offers."""
    pick = screen.pick
    assert pick is not None
    hand = screen.hand_list()
    assert list(pick.items) == hand
    assert screen.turn_prompt().plain.startswith(f"Pass {pick.count} cards")
    cursor = screen.cursor
    await press(pilot, "space")
    await wait_for(pilot, lambda: len(screen.marked) == 1, what="the first mark")
    other = (cursor + 1) % len(hand)
    await click_item(pilot, "hand", other)
    await wait_for(pilot, lambda: len(screen.marked) == 2, what="the click's mark")
    for card in [c for c in hand if c not in screen.marked][: pick.count - 2]:
        count = len(screen.marked)
        await press(pilot, *card)
        await wait_for(pilot, lambda card=card: screen.buffer == card, what="typing")
        await press(pilot, "enter")
        await wait_for(pilot, lambda count=count: len(screen.marked) == count + 1)
    assert screen.marked[:2] == [hand[cursor], hand[other]]
    assert [item.label.plain.startswith("+") for item in screen.hand_items()] == [
        card in screen.marked for card in hand
    ]
    await press(pilot, "enter")


def test_the_first_planets_hand_from_the_pass_to_its_end(tmp_path: Path) -> None:
    asyncio.run(planets_first_hand(tmp_path))


async def planets_first_hand(tmp_path: Path) -> None:
    """A three-seat game created from the client (seed 7), two bots: the pass chosen with the
    keyboard and the mouse and confirmed, ``waiting for`` the seats still passing, the cards
    received, the whole first hand played to its ``hand-over``; all checked against the
    record replayed through the rules (docs/planets.md)."""
    rng = random.Random(3)
    with thread_daemon() as daemon:
        options = Options(
            port=daemon.port,
            new="planets",
            options=["players=3", "seed=7"],
            name="human",
            data_dir=tmp_path,
        )
        app = PlayApp(options)
        async with app.run_test(size=SIZE) as pilot:
            screen = await game_screen(pilot, app)
            assert isinstance(screen, PlanetsScreen) and screen.seating.seat == 0
            game = screen.seating.game
            gates = [threading.Event(), threading.Event()]
            bots = [
                Bot(daemon, game, name, seed, gate=gate)
                for seed, (name, gate) in enumerate(zip(("bob", "carol"), gates, strict=True))
            ]
            await seat_in_order(pilot, bots)  # bob in seat 1, the other in 2
            assert [bot.seat for bot in bots] == [1, 2]
            await wait_for(pilot, lambda: screen.my_turn and screen.pick is not None, what="pass")
            pick = screen.pick
            assert pick is not None and pick.count == 4 and list(pick.to or []) == [1] * 4
            dealt = screen.hand_list()
            assert list(pick.items) == dealt and len(dealt) == 18
            assert "fixed deal" in screen.title_text().plain
            assert "pass 4 cards to the left" in screen.title_text().plain
            assert screen.status_text().plain.startswith("Pass 4 cards to bob: ")
            # The keyboard: Space marks the card under the cursor, the arrows move it.
            await press(pilot, "space")
            await wait_for(pilot, lambda: screen.marked == [dealt[0]], what="Space's mark")
            await press(pilot, "right", "right", "space")
            await wait_for(pilot, lambda: len(screen.marked) == 2, what="the second mark")
            # The mouse: a click marks, a second click unmarks.
            for index in (4, 7, 7, 9):
                count = len(screen.marked)
                await click_item(pilot, "hand", index)
                await wait_for(pilot, lambda count=count: len(screen.marked) != count)
            chosen = [dealt[0], dealt[2], dealt[4], dealt[9]]
            assert screen.marked == chosen
            marks = [item.label.plain.startswith("+") for item in screen.hand_items()]
            assert marks == [card in chosen for card in dealt]
            moves = [item.label.plain for item in screen.move_items()]
            drawn = screen.deck.name  # a card as the screen draws it (♄m: the Saturn Moon)
            assert moves == [f"{drawn(card)} → bob" for card in chosen] + ["[ Pass ]"]
            assert screen.move_cursor() == 4  # [ Pass ]: Enter passes the cards marked
            await asyncio.sleep(0.2)
            screenshot(app, "tui-planets-pass.svg", tmp_path)
            before = screen.moves_made
            await press(pilot, "enter")
            await made(pilot, screen, before)
            assert screen.view is not None and screen.view["my_pass"] == sort_cards(chosen)
            # The others pass one by one: whose pass is awaited is shown.
            await wait_for(
                pilot, lambda: screen.status_text().plain == "waiting for bob, carol...", what="b,c"
            )
            assert "you pass " + " ".join(map(drawn, sort_cards(chosen))) in _center(screen)
            # Our pass is logged once, with its cards and where they go.
            passes = [line for line in screen.transcript if line.lower().startswith("you pass")]
            assert passes == ["You passed " + " ".join(map(drawn, chosen)) + " to bob"]
            gates[0].set()
            await wait_for(
                pilot, lambda: screen.status_text().plain == "waiting for carol...", what="carol"
            )
            assert "2 of 3 have passed" in _center(screen)  # bob and we have
            gates[1].set()
            await wait_for(pilot, lambda: bool((screen.view or {}).get("received")), what="cards")
            received = list((screen.view or {}).get("received") or [])
            await wait_for(pilot, lambda: "you received" in _center(screen), what="the centre")
            assert "you received " + " ".join(map(drawn, received)) in _center(screen)
            hand_after = screen.hand_list()
            # The whole hand, our cards chosen every way, up to its end.
            shown_legal: list[list[str]] = []
            played: list[str] = []
            while True:
                await wait_for(
                    pilot,
                    lambda: (
                        isinstance(app.screen, ResultScreen)
                        or (screen.my_turn and screen.pick is None and bool(screen.cards))
                    ),
                    what="a turn or the hand's end",
                )
                if isinstance(app.screen, ResultScreen):
                    break
                legal = list(screen.cards)
                dim = [item.style == "dim" for item in screen.hand_items()]
                assert [card not in legal for card in screen.hand_list()] == dim
                shown_legal.append(legal)
                index = rng.randrange(len(legal))
                before = screen.moves_made
                await choose(pilot, screen, len(played) % 4, index, legal[index])
                await made(pilot, screen, before)
                played.append(legal[index])
            shown = result_text(app)
            logged = [line for line in screen.transcript if line.startswith("Trick ")]
            received_line = next(x for x in screen.transcript if x.startswith("You received "))
            # Resign so that the game ends and its record can be read.
            await press(pilot, "enter")
            await wait_for(pilot, lambda: app.screen is screen, what="the result to close")
            await resign(pilot, app, screen)
        for bot in bots:
            bot.join(10)
            assert bot.error is None
        record = planets_converter.structure(fetch_record(daemon, game)["record"], PlanetsRecord)
    first = record.hands[0]
    names = {0: "you", 1: "bob", 2: "carol"}
    # The pass: ours as chosen, what we received and from whom, the hand it made.
    assert [str(card) for card in first.passes[0] or ()] == chosen
    after_pass = replay(attrs.evolve(record, hands=(attrs.evolve(first, plays=()),)))
    cards, givers = after_pass.hand.received(0)
    assert received == [str(card) for card in cards] and set(givers) == {2}
    assert received_line == "You received " + " ".join(map(drawn, received)) + " from carol"
    kept = [card for card in dealt if card not in chosen]
    assert hand_after == sort_cards(kept + received)
    assert dealt == [str(card) for card in first.deal[0]]
    # Every turn: the legal cards the rules allow, and the card played is in the record.
    state = after_pass
    expected_legal: list[list[str]] = []
    ours: list[str] = []
    winners: list[int] = []
    for card in first.plays:
        if state.hand.player == 0:
            expected_legal.append([str(c) for c in state.hand.legal_cards()])
            ours.append(str(card))
        tricks = len(state.hand.tricks)
        state = state.play(card)
        if len(state.hand.tricks) > tricks:
            winners.append(state.hand.tricks[-1].winner)
    assert shown_legal == expected_legal and played == ours
    # Each trick logged with its winner, as the rules have it (P5).
    assert len(logged) == len(winners) == 18
    for number, (line, winner) in enumerate(zip(logged, winners, strict=True), start=1):
        assert line.startswith(f"Trick {number}: {names[winner]} take"), line
    # The hand's end as shown: points taken, added and totals per seat, as the rules score it.
    result = state.results[0]
    assert result.shooter is None
    assert shown.startswith("Hand 1 over")
    for seat, label in names.items():
        row = row_of(shown, label)
        expected = [
            label,
            str(result.points[seat]),
            f"{result.added[seat]:+d}",
            str(result.totals[seat]),
        ]
        assert row == expected, shown


def test_a_game_against_three_computer_opponents_in_one_command(tmp_path: Path) -> None:
    asyncio.run(against_the_computer(tmp_path))


async def against_the_computer(tmp_path: Path) -> None:
    """``--new planets --bot ismcts --bot heuristic --bot heuristic``: one command seats the
    player and the daemon's engine in the three other seats, each named after its level and
    the two of one level told apart; the hand is played and explained, a player's name
    written as it is even where a sentence starts with it."""
    with thread_daemon() as daemon:
        argv = ["--port", str(daemon.port), "--new", "planets", "--seed", "4"]
        argv += ["--bot", "ismcts", "--bot", "heuristic", "--bot", "heuristic"]
        app = PlayApp(attrs.evolve(parse_args(argv), data_dir=tmp_path))
        async with app.run_test(size=SIZE) as pilot:
            app.look = app.look.__class__(symbols=True)
            screen = await game_screen(pilot, app)
            assert isinstance(screen, PlanetsScreen) and screen.seating.seat == 0
            # Generous: the engine's seats are taken one request after the other, on a
            # machine that may be loaded.
            await wait_for(pilot, lambda: screen.status == "playing", timeout=60, what="the start")
            bots = ["bot-ismcts", "bot-heuristic", "bot-heuristic-2"]
            assert screen.seating.players == ["player0", *bots]
            for seat, name in enumerate(bots, start=1):
                assert f"{name} joined (seat {seat})" in screen.transcript
            shot = False
            reasons: set[str] = set()  # the last trick's reason, as the middle shows it
            while True:
                # Each engine move takes up to its budget (100 ms): generous for a loaded one.
                await wait_for(
                    pilot,
                    lambda: isinstance(app.screen, ResultScreen) or screen.my_turn,
                    timeout=60,
                    what="a turn or the hand's end",
                )
                if isinstance(app.screen, ResultScreen):
                    break
                view = screen.view or {}
                if screen.notes:
                    reasons.add(screen.notes[-1].plain)
                if screen.pick is not None:  # the pass: the first cards of the hand
                    count = screen.pick.count
                    await press(pilot, *["space", "right"] * count)
                    await wait_for(pilot, lambda n=count: len(screen.marked) == n, what="marks")
                elif not shot and len(view.get("tricks") or []) >= (3 if _trick_led(view) else 6):
                    # Mid-trick with three tricks explained in the log, or our lead later in
                    # the hand: the engine's seats may duck under every card we lead, so that
                    # we lead every trick from the second on.
                    shot = True
                    await asyncio.sleep(0.2)
                    screenshot(app, "tui-planets-computer.svg", tmp_path)
                before = screen.moves_made
                await press(pilot, "enter")
                await made(pilot, screen, before)
            assert shot and result_text(app).startswith("Hand 1 over")
            await press(pilot, "enter")
            await wait_for(pilot, lambda: app.screen is screen, what="the result to close")
            await resign(pilot, app, screen)
        game = screen.seating.game
        record = fetch_record(daemon, game)
    assert record["players"] == ["player0", *bots]
    # Every trick is explained with its winner as written: "bot-heuristic-2 takes it", never
    # "Bot-heuristic-2", in the log and in the middle of the table.
    logged = [line for line in screen.transcript if line.startswith("Trick ")]
    first = planets_converter.structure(record["record"], PlanetsRecord).hands[0]
    assert len(logged) == len(first.plays) // 4  # the first hand's tricks; the second's pass
    names = ["you", *bots]
    for line in logged:
        taker = line.split(": ", 1)[1].split(" take")[0]
        assert taker in names, line
    takers = {reason.split(" take")[0] for reason in reasons}
    assert takers <= {"You", *bots} and takers & set(bots), reasons


#: Three seats where seat 0, after the left pass of :data:`SHOOT_PASSES`, wins every trick
#: whatever is played and so takes every point card (RULINGS P8): it holds all of Venus, the
#: top four Saturns (above seat 2's S1-S5) and Jupiter 5 to Sun (above seat 1's J1-J4). The
#: same deal as tests/daemon/planets_play.py.
SHOOT_DEAL = [
    "V1,V2,V3,V4,V5,V6,V7,VM,VS,J1,J2,J3,J4,J5,J6,J7,JM,JS",
    "E1,E2,E3,E4,E5,E6,E7,EM,ES,M1,M2,M3,M4,M5,M6,M7,MM,MS",
    "N1,N2,N3,N4,N5,N6,N7,NM,NS,S1,S2,S3,S4,S5,S6,S7,SM,SS",
]
SHOOT_PASSES = ["J1,J2,J3,J4", "E1,E2,E3,E4", "S6,S7,SM,SS"]


@pytest.mark.parametrize("choice", ["self", "others"])
def test_shooting_the_moon_through_the_client(tmp_path: Path, choice: str) -> None:
    asyncio.run(shoot(tmp_path, choice))


async def shoot(tmp_path: Path, choice: str) -> None:
    """A fixed deal (``deal=``) where our seat takes every point card: we pass J1-J4 with the
    keyboard, play the hand out, and are offered ``self`` or ``others`` (P8); ``self`` is
    chosen with the arrows and Enter, ``others`` with two clicks; the hand's end shows the
    totals the rules give (P13)."""
    rng = random.Random(choice)
    with thread_daemon() as daemon:
        options = Options(
            port=daemon.port,
            new="planets",
            options=["players=3", "dealer=1", "deal=" + "/".join(SHOOT_DEAL)],
            name="human",
            data_dir=tmp_path,
        )
        app = PlayApp(options)
        async with app.run_test(size=SIZE) as pilot:
            screen = await game_screen(pilot, app)
            assert isinstance(screen, PlanetsScreen) and screen.seating.seat == 0
            game = screen.seating.game
            bots = [
                Bot(daemon, game, name, seat, script=[SHOOT_PASSES[seat]])
                for seat, name in ((1, "bob"), (2, "carol"))
            ]
            await seat_in_order(pilot, bots)  # bob in seat 1, the other in 2
            assert [bot.seat for bot in bots] == [1, 2]
            await wait_for(pilot, lambda: screen.my_turn and screen.pick is not None, what="pass")
            assert screen.hand_list()[:4] == ["J1", "J2", "J3", "J4"]
            await press(pilot, "space", "right", "space", "right", "space", "right", "space")
            await wait_for(pilot, lambda: len(screen.marked) == 4, what="the marks")
            before = screen.moves_made
            await press(pilot, "enter")
            await made(pilot, screen, before)
            tricks = 0
            while True:
                await wait_for(pilot, lambda: screen.my_turn and screen.pick is None, what="turn")
                if screen.choices:
                    break
                legal = list(screen.cards)
                index = rng.randrange(len(legal))
                before = screen.moves_made
                await choose(pilot, screen, tricks % 4, index, legal[index])
                await made(pilot, screen, before)
                tricks += 1
            assert tricks == 18 and sorted(screen.choices) == ["others", "self"]
            assert screen.turn_prompt().plain.startswith("You took every point card! choose:")
            assert "you shot the moon" in _center(screen)
            assert [item.label.plain for item in screen.move_items()] == [
                f"{n} {word}" for n, word in enumerate(screen.choices, start=1)
            ]
            index = screen.choices.index(choice)
            before = screen.moves_made
            if choice == "self":
                steps = (index - screen.selected) % len(screen.choices)
                await press(pilot, *["right"] * steps)
                await wait_for(pilot, lambda: screen.selected == index, what="the selection")
                await press(pilot, "enter")
            else:
                if screen.selected != index:
                    await click_item(pilot, "moves", index)
                    await wait_for(pilot, lambda: screen.selected == index, what="the click")
                await click_item(pilot, "moves", index)
            await made(pilot, screen, before)
            await wait_for(pilot, lambda: isinstance(app.screen, ResultScreen), what="hand-over")
            shown = result_text(app)
            await press(pilot, "enter")
            await wait_for(pilot, lambda: app.screen is screen, what="the result to close")
            await resign(pilot, app, screen)
        for bot in bots:
            bot.join(10)
            assert bot.error is None
        record = planets_converter.structure(fetch_record(daemon, game)["record"], PlanetsRecord)
    first = record.hands[0]
    assert first.choice is not None and first.choice.value == choice
    state = replay(attrs.evolve(record, hands=(first,)))
    result = state.results[0]
    assert result.shooter == 0 and result.points == (23, 0, 0)
    assert result.totals == ((-23, 0, 0) if choice == "self" else (0, 23, 23))
    for seat, label in enumerate(("you", "bob", "carol")):
        row = row_of(shown, label)
        assert row == [
            label,
            str(result.points[seat]),
            f"{result.added[seat]:+d}",
            str(result.totals[seat]),
        ], shown
    what = "23 off their own total" if choice == "self" else "23 added to every opponent"
    assert f"you took every point card and chose {choice}: {what}" in " ".join(shown.split())


def _trick_led(view: dict[str, Any]) -> bool:
    """Whether a card of the trick in progress is on the table."""
    return bool((view.get("trick") or {}).get("cards"))


def _center(screen: PlanetsScreen) -> str:
    """The middle of the table as plain text."""
    console = Console(width=60, record=True, file=io.StringIO())
    console.print(screen.center())
    return console.export_text()


def test_watching_planets_to_its_end(tmp_path: Path) -> None:
    asyncio.run(watch_planets(tmp_path))


async def watch_planets(tmp_path: Path) -> None:
    """A spectator of a six-seat planets game near its end (six bots): every trick explained,
    no hand, no pass shown, the end."""
    names = ["ann", "bob", "cy", "dee", "eve", "fay"]
    with thread_daemon(planets_near_its_end(6, 17, names, over=96)) as daemon:
        app = PlayApp(Options(port=daemon.port, watch="g1", delay=0.0, data_dir=tmp_path))
        async with app.run_test(size=SIZE) as pilot:
            screen = await game_screen(pilot, app)
            assert isinstance(screen, PlanetsScreen) and screen.seating.seat is None
            bots = [Bot(daemon, "g1", names[s], s, token=token_of(s)) for s in range(6)]
            for bot in bots:
                bot.start()
            # 30 s without a new line on the screen, however long the whole hand takes.
            await wait_for(
                pilot,
                lambda: screen.over is not None,
                timeout=30,
                what="the end",
                progress=lambda: len(screen.transcript),
            )
            for bot in bots:
                bot.join(10)
            assert screen.over == bots[0].result
            assert screen.hand_items() == []
    assert not any(line.startswith(("Your hand", "You received")) for line in screen.transcript)
    logged = [line for line in screen.transcript if line.startswith("Trick ")]
    assert logged and all("the highest" in line for line in logged)


def test_a_small_terminal_shows_the_hand_and_the_cards(tmp_path: Path) -> None:
    asyncio.run(small_terminal(tmp_path))


async def small_terminal(tmp_path: Path) -> None:
    """In an 80x24 terminal, the smallest a person is likely to have, a three-seat hand (18
    cards, the most a planets hand holds) shows the whole table's screen without scrolling:
    the hand and, at a card's turn, the legal cards above the keys' footer, at the pass and
    at the first card."""
    names = ["human", "bob", "carol"]
    with thread_daemon(planets_near_its_end(3, 5, names, over=0)) as daemon:
        app = PlayApp(Options(port=daemon.port, resume=token_of(0), data_dir=tmp_path))
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await game_screen(pilot, app)
            assert isinstance(screen, PlanetsScreen)
            bots = [Bot(daemon, "g1", names[s], s, token=token_of(s)) for s in (1, 2)]
            for bot in bots:
                bot.start()
            assert await next_turn(pilot, app, screen)
            assert screen.pick is not None and len(screen.hand_list()) == 18
            await pilot.pause()
            _assert_fits(screen, "#hand")
            before = screen.moves_made
            await pass_cards(pilot, screen)
            await made(pilot, screen, before)
            assert await next_turn(pilot, app, screen)
            assert screen.cards, "a card's turn follows the pass"
            await pilot.pause()
            _assert_fits(screen, "#hand", "#moves")
            await resign(pilot, app, screen)
            for bot in bots:
                bot.join(10)


def _assert_fits(screen: PlanetsScreen, *bars: str) -> None:
    """The play area needs no scrolling, and the choice ``bars`` (the hand, the moves) are
    drawn above the footer."""
    area = screen.query_one("#play-area")
    footer = screen.query_one("Footer")
    assert area.max_scroll_y == 0
    for name in bars:
        bar = screen.query_one(name)
        assert bar.region.height > 0 and bar.region.bottom <= footer.region.y, name
