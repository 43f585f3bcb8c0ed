"""``hipparchus-play`` driven headlessly (Textual's ``App.run_test`` pilot) against a daemon in
this process and bots in threads: whole games of both kinds, the keyboard (arrows, numbers,
typed notation), the mouse, refusals with the daemon's reason, watching, the lobby, resuming
and leaving. What the screens show is checked against the server's record replayed through
the rules.

With ``HIPPARCHUS_TUI_SCREENSHOTS=1`` the mid-game screenshots are also written to docs/
(docs/tui-hipparchus.svg, docs/tui-planets.svg) for the README.
"""

from __future__ import annotations

import asyncio
import io
import os
import random
import stat
import threading
import time
from pathlib import Path
from typing import Any

import attrs
import pytest
from rich.console import Console
from textual.pilot import Pilot
from tui_harness import (
    Bot,
    ThreadDaemon,
    fetch_record,
    new_game,
    planets_near_its_end,
    press,
    thread_daemon,
    token_of,
    wait_for,
)

from hipparchusd.client import Client
from hipparchusd.games.hipparchus.codec import converter
from hipparchusd.games.hipparchus.notation import format_hand, format_play
from hipparchusd.games.hipparchus.record import MatchRecord
from hipparchusd.games.hipparchus.rules import RoundState
from hipparchusd.games.planets import PlanetsRecord, replay
from hipparchusd.games.planets.codec import converter as planets_converter
from hipparchusd.play.app import Options, PlayApp
from hipparchusd.play.follow import sort_cards
from hipparchusd.play.game_screen import GameScreen, Seating
from hipparchusd.play.hipparchus_screen import HipparchusScreen
from hipparchusd.play.lobby import LobbyScreen
from hipparchusd.play.planets_screen import PlanetsScreen
from hipparchusd.play.seats import SeatStore
from hipparchusd.play.widgets import ChoiceBar, ConfirmScreen, Look, ResultScreen, RulesScreen

SIZE = (132, 40)
DOCS = Path(__file__).resolve().parents[2] / "docs"
SYMBOL_LETTERS = {"☉": "S", "☽": "M", "⊕": "E"}


def screenshot(app: PlayApp, name: str, tmp_path: Path) -> None:
    """Save an SVG of the screen to ``tmp_path`` (and docs/ when asked for)."""
    app.save_screenshot(name, str(tmp_path))
    assert (tmp_path / name).read_text(encoding="utf-8").startswith("<svg")
    if os.environ.get("HIPPARCHUS_TUI_SCREENSHOTS"):
        app.save_screenshot(name, str(DOCS))


async def game_screen(pilot: Pilot[Any], app: PlayApp) -> GameScreen:
    """The game screen, once shown."""
    await wait_for(
        pilot,
        lambda: app.game_screen is not None and app.screen is app.game_screen,
        what="the game screen",
    )
    assert app.game_screen is not None
    return app.game_screen


async def next_turn(pilot: Pilot[Any], app: PlayApp, screen: GameScreen) -> bool:
    """Wait for our next turn (True) or the game's end (False), closing result screens."""
    while True:
        await wait_for(
            pilot,
            lambda: (
                screen.my_turn
                or isinstance(app.screen, ResultScreen)
                or (screen.over is not None and app.screen is screen)
            ),
            what="a turn or a result",
        )
        if isinstance(app.screen, ResultScreen):
            top = app.screen
            await press(pilot, "enter")
            await wait_for(pilot, lambda top=top: app.screen is not top, what="the result to close")
            continue
        if screen.over is not None:
            return False
        if screen.my_turn and app.screen is screen:
            return True


async def click_item(pilot: Pilot[Any], bar_id: str, index: int) -> None:
    """Click item ``index`` of a choice bar (again if the layout moved under the pointer)."""
    for _ in range(5):
        await asyncio.sleep(0.05)  # the bar drawn with its items
        bar = pilot.app.screen.query_one(f"#{bar_id}", ChoiceBar)
        spot = next((spot for spot in bar._spots if spot[3] == index), None)
        if spot is not None and await pilot.click(f"#{bar_id}", offset=(spot[1], spot[0])):
            return
    raise AssertionError(f"could not click item {index} of #{bar_id}")


async def made(pilot: Pilot[Any], screen: GameScreen, before: int) -> None:
    """Wait until the daemon accepted our move."""
    try:
        await wait_for(pilot, lambda: screen.moves_made > before, what="the move's answer")
    except AssertionError:
        state = (screen.my_turn, screen.selected, screen.buffer, screen.refusal)
        raise AssertionError(f"no move made: {state} {screen.transcript[-5:]}") from None


def shown_hipparchus_hand(screen: HipparchusScreen) -> str:
    """The hand as the hand bar shows it (``a ☉☉  b ☽``), checking that the clumps are
    lettered a, b, c... from the left."""
    hand = ""
    for index, item in enumerate(screen.hand_items()):
        letter, cards = item.label.plain.split(" ")
        assert letter == "abcdefghijklmn"[index]
        letters = "".join(SYMBOL_LETTERS.get(card, card) for card in cards)
        assert len(set(letters)) == 1, "a clump holds one suit"
        hand += letters
    return hand or "-"


def expected_labels(hand: str, legal: list[str]) -> list[str]:
    """Each legal play's label as the rules place it: the letter of the clump (H2: a maximal
    run of one suit) that starts at the play's position, counted from the left, then the
    count (``2E@5`` in ``SSMEEE``... is ``c2``)."""
    starts = [i + 1 for i in range(len(hand)) if i == 0 or hand[i] != hand[i - 1]]
    labels = []
    for play in legal:
        cards, _, position = play.partition("@")
        labels.append("abcdefghijklmn"[starts.index(int(position))] + cards[:-1])
    return labels


def expected_turns(record: dict[str, Any], seat: int) -> list[tuple[str, list[str], str]]:
    """Each time ``seat`` had to play: its hand, the legal plays and the play it made, from the
    record replayed through the rules."""
    match_record = converter.structure(record["record"], MatchRecord)
    turns = []
    for round_record in match_record.rounds:
        state = RoundState.start(round_record.deal, round_record.leader)
        for play in round_record.plays:
            if state.to_move == seat:
                legal = [format_play(p) for p in state.legal_plays()]
                turns.append((format_hand(state.hands[seat]), legal, format_play(play)))
            state = state.play(play)
    return turns


def trick_winners(record: dict[str, Any]) -> list[int | None]:
    """Every trick's winner (``None`` for an H6 trick), in order, replayed by the rules."""
    match_record = converter.structure(record["record"], MatchRecord)
    winners: list[int | None] = []
    for round_record in match_record.rounds:
        state = RoundState.start(round_record.deal, round_record.leader)
        for play in round_record.plays:
            state = state.play(play)
            if state.lead is None and state.tricks:
                winners.append(state.tricks[-1].winner)
    return winners


# --- Hipparchus -----------------------------------------------------------------------------


def test_each_game_must_provide_the_screen_hooks() -> None:
    """The per-game hooks are abstract: the shared screen alone cannot be made; each game's can."""
    connection: Any = None  # only kept by the constructor

    def make(screen_class: type[GameScreen], kind: str) -> GameScreen:
        seating = Seating("g1", kind, 0, "token", ["you", None])
        return screen_class(
            connection,
            seating,
            None,
            0,
            Look(),
            on_finished=lambda *_: None,
            forget_token=lambda: None,
        )

    assert GameScreen.__abstractmethods__ == {
        "to_move",
        "reduce",
        "explain",
        "load_turn",
        "title_text",
        "seat_panel",
        "center",
    }
    with pytest.raises(TypeError, match="abstract"):
        make(GameScreen, "hipparchus")
    assert isinstance(make(HipparchusScreen, "hipparchus"), HipparchusScreen)
    assert isinstance(make(PlanetsScreen, "planets"), PlanetsScreen)


def test_a_whole_hipparchus_match_against_a_bot(tmp_path: Path) -> None:
    asyncio.run(hipparchus_match(tmp_path))


async def hipparchus_match(tmp_path: Path) -> None:
    rng = random.Random(5)
    with thread_daemon() as daemon:
        options = Options(
            port=daemon.port,
            new="hipparchus",
            options=["seed=31", "leader=0"],
            name="human",
            data_dir=tmp_path,
        )
        app = PlayApp(options)
        async with app.run_test(size=SIZE) as pilot:
            app.look = app.look.__class__(symbols=True)
            screen = await game_screen(pilot, app)
            assert isinstance(screen, HipparchusScreen)
            assert screen.status_text().plain.startswith("Waiting for players to join")
            game, seat = screen.seating.game, screen.seating.seat
            assert seat == 0
            bot = Bot(daemon, game, "bob", 3)
            bot.start()
            shown: list[tuple[str, list[str]]] = []
            chosen: list[str] = []
            shot = False
            while await next_turn(pilot, app, screen):
                hand = shown_hipparchus_hand(screen)
                legal = [str(move["move"]) for move in screen.moves]
                shown.append((hand, legal))
                # Each play is labelled by the clump it takes from, as lettered above it.
                labels = [item.label.plain.split(" ")[0] for item in screen.move_items()]
                assert labels == expected_labels(hand, legal)
                assert screen.status_text().plain.startswith("Your turn")
                if len(shown) == 1:
                    await refuse_a_clump_split(pilot, screen, hand)
                    await refuse_bad_labels(pilot, screen, hand, labels)
                    await press(pilot, "?")
                    await wait_for(pilot, lambda: isinstance(app.screen, RulesScreen))
                    await press(pilot, "escape")
                    await wait_for(pilot, lambda: app.screen is screen)
                if not shot and len(shown) >= 5 and (screen.view or {}).get("lead"):
                    shot = True  # mid-trick: bob has led, our answer is chosen
                    await asyncio.sleep(0.2)
                    screenshot(app, "tui-hipparchus.svg", tmp_path)
                index = rng.randrange(len(legal))
                before = screen.moves_made
                await choose(pilot, screen, len(shown) % 4, index, legal[index], labels[index])
                await made(pilot, screen, before)
                chosen.append(legal[index])
            over = screen.over
            assert over is not None and shot
            assert "Game over" in screen.status_text().plain
            await press(pilot, "enter")
            await wait_for(pilot, lambda: app.return_code is not None, what="the exit")
        assert app.return_code == 0
        bot.join(10)
        assert bot.error is None and bot.result == over
        record = fetch_record(daemon, game)
    turns = expected_turns(record, 0)
    assert shown == [(hand, legal) for hand, legal, _ in turns]
    assert chosen == [play for _, _, play in turns]
    # Each finished trick was logged with its winner, as the rules have it (H7).
    logged = [line for line in screen.transcript if line.startswith("Trick ")]
    names = {0: "you", 1: "bob"}
    expected = [
        f"{names[w]} won it." if w is not None else "had no legal answer"
        for w in trick_winners(record)
    ]
    assert len(logged) == len(expected)
    for line, words in zip(logged, expected, strict=True):
        assert words in line, line
    assert any("Different suits: " in line for line in logged)
    assert any(line.startswith(("Sun:", "Moon:", "Earth:")) for line in screen.transcript)
    assert over["winners"] == [record["record"]["winner"]]
    assert SeatStore(tmp_path).load() == []  # the game is over: no seat to resume


async def refuse_a_clump_split(pilot: Pilot[Any], screen: HipparchusScreen, hand: str) -> None:
    """Type a play that splits a clump of 2 or 3: refused with the daemon's reason (H2)."""
    from hipparchusd.play.widgets import clumps

    position, run = next((p, r) for p, r in clumps(hand) if 2 <= len(r) <= 3)
    word = f"1{run[0].lower()}@{position}"
    await press(pilot, *word)
    await wait_for(pilot, lambda: screen.buffer == word)
    await press(pilot, "enter")
    await wait_for(pilot, lambda: bool(screen.refusal), what="the refusal")
    assert screen.refusal == f"Refused {word}: a clump of {len(run)} is played whole"
    assert screen.my_turn


async def refuse_bad_labels(
    pilot: Pilot[Any], screen: HipparchusScreen, hand: str, labels: list[str]
) -> None:
    """Labels that name no legal play are refused by the client, saying what they could
    mean; nothing is sent."""
    count = sum(1 for i in range(len(hand)) if i == 0 or hand[i] != hand[i - 1])
    tries: list[tuple[str, str]] = []
    if count < 14:  # a letter past the last clump
        last, beyond = "abcdefghijklmn"[count - 1], "abcdefghijklmn"[count]
        tries.append((beyond, f"no clump {beyond}: your clumps are a to {last}"))
    letter = labels[0][0]
    counts = " or ".join(label for label in labels if label[0] == letter)
    tries.append((f"{letter}9", f"{letter}9 is not a legal play: choose {counts}"))
    before = screen.moves_made
    for typed, refusal in tries:
        await press(pilot, *typed)
        await wait_for(pilot, lambda typed=typed: screen.buffer == typed, what="the typing")
        await press(pilot, "enter")
        await wait_for(pilot, lambda refusal=refusal: screen.refusal == refusal, what=refusal)
    assert screen.moves_made == before and screen.my_turn


async def choose(
    pilot: Pilot[Any], screen: GameScreen, way: int, index: int, word: str, label: str = ""
) -> None:
    """Make the move ``index`` (``word``) one of four ways: arrows and Enter, its label (its
    number in the list when it has none), its notation typed in lower case, or two clicks."""
    if way == 0:
        steps = (index - screen.selected) % screen.selectable()
        await press(pilot, *["right"] * steps)
        await wait_for(pilot, lambda: screen.selected == index, what="the selection")
        await press(pilot, "enter")
    elif way in (1, 2):
        typed = (label or str(index + 1)) if way == 1 else word.lower()
        await press(pilot, *typed)
        await wait_for(pilot, lambda: screen.buffer == typed, what="the typing")
        await press(pilot, "enter")
    else:  # a click selects, a click on the selected move makes it
        if screen.selected != index:
            await click_item(pilot, "moves", index)
            await wait_for(pilot, lambda: screen.selected == index, what="the click")
        await click_item(pilot, "moves", index)


# --- planets ----------------------------------------------------------------------------------


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
        for bot in bots:
            bot.join(10)
            assert bot.error is None and bot.result == over
        record = fetch_record(daemon, "g1")
    state = replay(planets_converter.structure(record["record"], PlanetsRecord))
    totals = list(state.totals)
    assert over["scores"] == totals and max(totals) > 100
    assert over["winners"] == [s for s, t in enumerate(totals) if t == min(totals)]
    assert refused and shot and passes >= 1
    logged = [line for line in screen.transcript if line.startswith("Trick ")]
    assert logged and all("the highest" in line for line in logged)


def _suit_led(screen: PlanetsScreen) -> str:
    from hipparchusd.play.follow import PLANETS_SUITS

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


def result_text(app: PlayApp) -> str:
    """The result screen on top, as plain text (its title and body)."""
    top = app.screen
    assert isinstance(top, ResultScreen)
    console = Console(width=100, record=True, file=io.StringIO())
    console.print(top.title_text)
    console.print(top.body)
    return console.export_text()


def row_of(text: str, label: str) -> list[str]:
    """The words of the table row of ``label`` in a result's text (seat, took, added,
    total)."""
    rows = [
        words
        for words in (line.split() for line in text.splitlines())
        if words[:1] == [label] and len(words) == 4
    ]
    assert len(rows) == 1, (label, text)
    return rows[0]


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
            for bot in bots:
                bot.start()  # one at a time, so that bob sits in seat 1 and carol in 2
                await wait_for(pilot, lambda bot=bot: bot.seat >= 0, what=f"{bot.name} seated")
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
            assert moves == [f"{card} → bob" for card in chosen] + ["[ Pass ]"]
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
            assert "you pass " + " ".join(sort_cards(chosen)) in _center(screen)
            gates[0].set()
            await wait_for(
                pilot, lambda: screen.status_text().plain == "waiting for carol...", what="carol"
            )
            assert "2 of 3 have passed" in _center(screen)  # bob and we have
            gates[1].set()
            await wait_for(pilot, lambda: bool((screen.view or {}).get("received")), what="cards")
            received = list((screen.view or {}).get("received") or [])
            await wait_for(pilot, lambda: "you received" in _center(screen), what="the centre")
            assert "you received " + " ".join(received) in _center(screen)
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
            await press(pilot, "ctrl+r")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="ask")
            await press(pilot, "y")
            await wait_for(pilot, lambda: screen.over is not None, what="the resignation")
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
    assert received_line == "You received " + ", ".join(f"{c} from carol" for c in received)
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
            for bot in bots:
                bot.start()  # one at a time, so that bob sits in seat 1 and carol in 2
                await wait_for(pilot, lambda bot=bot: bot.seat >= 0, what=f"{bot.name} seated")
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
            await press(pilot, "ctrl+r")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="ask")
            await press(pilot, "y")
            await wait_for(pilot, lambda: screen.over is not None, what="the resignation")
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


def _center(screen: PlanetsScreen) -> str:
    """The middle of the table as plain text."""
    console = Console(width=60, record=True, file=io.StringIO())
    console.print(screen.center())
    return console.export_text()


# --- watching, leaving, resuming, the lobby -----------------------------------------------------


def test_watching_a_hipparchus_match_between_two_bots(tmp_path: Path) -> None:
    asyncio.run(watch_match(tmp_path))


async def watch_match(tmp_path: Path) -> None:
    """--watch before anyone joins: the match as it happens, paced by --delay, no hand ever
    shown during a round (RULINGS H13), the results closing by themselves, the end."""
    with thread_daemon() as daemon:
        game = new_game(daemon, "hipparchus", "seed=17")
        delay = 0.01
        app = PlayApp(Options(port=daemon.port, watch=game, delay=delay, data_dir=tmp_path))
        async with app.run_test(size=SIZE) as pilot:
            screen = await game_screen(pilot, app)
            assert screen.seating.seat is None
            assert screen.status_text().plain.startswith("Waiting for players")
            bots = [Bot(daemon, game, name, seed) for seed, name in enumerate(("ann", "bea"))]
            started = time.monotonic()
            for bot in bots:
                bot.start()
            await wait_for(pilot, lambda: screen.over is not None, timeout=30, what="the end")
            # Paced: a pause after every play (and trick, and round) shown.
            plays = sum(" played " in line for line in screen.transcript)
            assert time.monotonic() - started >= plays * delay
            assert screen.hand_items() == []
            for bot in bots:
                bot.join(10)
            assert screen.over == bots[0].result
        record = fetch_record(daemon, game)
    assert not any(line.startswith("Your hand") for line in screen.transcript)
    logged = [line for line in screen.transcript if line.startswith("Trick ")]
    assert len(logged) == len(trick_winners(record))
    assert any(line.startswith("Totals:") for line in screen.transcript)


def test_leaving_before_the_start_frees_the_seat_and_says_so(tmp_path: Path) -> None:
    asyncio.run(leave_early(tmp_path))


async def leave_early(tmp_path: Path) -> None:
    """Ctrl+C while waiting for an opponent: the message says the seat is free (it is, the
    game had not started) and the saved token is forgotten."""
    with thread_daemon() as daemon:
        app = PlayApp(Options(port=daemon.port, new="planets", data_dir=tmp_path))
        async with app.run_test(size=SIZE) as pilot:
            screen = await game_screen(pilot, app)
            game = screen.seating.game
            assert [s.game for s in SeatStore(tmp_path).load()] == [game]
            await press(pilot, "ctrl+c")
            await wait_for(pilot, lambda: app.return_code is not None, what="the exit")
        assert app.return_code == 130
        assert "your seat is free again" in app.exit_message
        assert SeatStore(tmp_path).load() == []
        with Client.connect(daemon.host, daemon.port, json=True) as client:
            await_free = client.request_json("games")["games"]
        assert [g["players"] for g in await_free if g["game"] == game] == [[None] * 4]


def test_leaving_a_started_game_keeps_the_seat_and_the_lobby_offers_it_back(
    tmp_path: Path,
) -> None:
    asyncio.run(leave_and_come_back(tmp_path))


async def leave_and_come_back(tmp_path: Path) -> None:
    """Ctrl+Q during a game: the seat stays reserved and its token is kept, readable by the
    user alone; the lobby, opened again, offers the seat back, and Enter takes it."""
    with thread_daemon() as daemon:
        app = PlayApp(Options(port=daemon.port, new="hipparchus", data_dir=tmp_path))
        async with app.run_test(size=SIZE) as pilot:
            screen = await game_screen(pilot, app)
            game = screen.seating.game
            bot = Bot(daemon, game, "bob", 1)
            bot.start()
            await wait_for(pilot, lambda: screen.status == "playing", what="the start")
            await press(pilot, "ctrl+q")
            await wait_for(pilot, lambda: app.return_code is not None, what="the exit")
        assert app.return_code == 130
        assert "your seat stays reserved" in app.exit_message
        saved = SeatStore(tmp_path)
        assert [s.game for s in saved.load()] == [game]
        assert stat.S_IMODE(saved.path.stat().st_mode) == 0o600
        assert stat.S_IMODE(saved.directory.stat().st_mode) == 0o700

        # --resume without a token takes the saved seat back; leaving again keeps it.
        back = PlayApp(Options(port=daemon.port, resume="", data_dir=tmp_path))
        async with back.run_test(size=SIZE) as pilot:
            screen = await game_screen(pilot, back)
            assert screen.seating.game == game and screen.seating.seat == 0
            await press(pilot, "ctrl+c")
            await wait_for(pilot, lambda: back.return_code is not None, what="the exit")
        assert back.return_code == 130 and "stays reserved" in back.exit_message
        assert [s.game for s in saved.load()] == [game]

        again = PlayApp(Options(port=daemon.port, data_dir=tmp_path))
        async with again.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(again.screen, ConfirmScreen), what="offer")
            await press(pilot, "enter")
            screen = await game_screen(pilot, again)
            assert screen.seating.game == game and screen.seating.seat == 0
            assert screen.view is not None and screen.view["seat"] == 0
            await press(pilot, "ctrl+r")
            await wait_for(pilot, lambda: isinstance(again.screen, ConfirmScreen), what="ask")
            await press(pilot, "y")
            await wait_for(pilot, lambda: screen.over is not None, what="the resignation")
            assert screen.over["resigned"] == 0
        bot.join(10)
        assert bot.result is not None and bot.result["winners"] == [1]
        assert SeatStore(tmp_path).load() == []


def test_the_lobby_lists_creates_and_watches(tmp_path: Path) -> None:
    asyncio.run(lobby(tmp_path))


async def lobby(tmp_path: Path) -> None:
    """The lobby lists the games; ``n`` creates one of the kind and options typed and joins
    it."""
    with thread_daemon() as daemon:
        waiting = new_game(daemon, "planets", "players=3")
        app = PlayApp(Options(port=daemon.port, data_dir=tmp_path, name="zed"))
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), what="lobby")
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            await wait_for(pilot, lambda: bool(lobby.games), what="the games")
            assert [g["game"] for g in lobby.games] == [waiting]
            lobby.query_one("#kind").value = "planets"  # type: ignore[attr-defined]
            lobby.query_one("#options").value = "players=5 seed=3"  # type: ignore[attr-defined]
            await lobby.action_new()
            screen = await game_screen(pilot, app)
            assert isinstance(screen, PlanetsScreen)
            assert screen.seating.seat == 0 and screen.seating.players[0] == "zed"
            assert len(screen.seating.players) == 5
            await press(pilot, "ctrl+q")
            await wait_for(pilot, lambda: app.return_code is not None, what="the exit")


def test_a_dropped_connection_says_the_seat_is_kept(tmp_path: Path) -> None:
    asyncio.run(dropped(tmp_path))


async def dropped(tmp_path: Path) -> None:
    """The daemon goes away during a game: the client leaves with status 1, saying why and
    that the seat is kept for ``--resume``."""
    daemon = ThreadDaemon()
    daemon.start()
    try:
        app = PlayApp(Options(port=daemon.port, new="hipparchus", data_dir=tmp_path))
        async with app.run_test(size=SIZE) as pilot:
            screen = await game_screen(pilot, app)
            bot = Bot(daemon, screen.seating.game, "bob", 2)
            bot.start()
            await wait_for(pilot, lambda: screen.status == "playing", what="the start")
            daemon.stop()
            await wait_for(pilot, lambda: app.return_code is not None, what="the exit")
        assert app.return_code == 1
        assert "--resume takes it back" in app.exit_message
        assert [s.game for s in SeatStore(tmp_path).load()] == [screen.seating.game]
    finally:
        daemon.stop()


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
            await wait_for(pilot, lambda: screen.over is not None, timeout=30, what="the end")
            for bot in bots:
                bot.join(10)
            assert screen.over == bots[0].result
            assert screen.hand_items() == []
    assert not any(line.startswith(("Your hand", "You received")) for line in screen.transcript)
    logged = [line for line in screen.transcript if line.startswith("Trick ")]
    assert logged and all("the highest" in line for line in logged)
