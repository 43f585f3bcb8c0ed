"""The Hipparchus screen of ``hipparchus-play`` (hipparchusd/games/hipparchus/tui/), driven
headlessly (Textual's pilot) against a daemon in this process and bots in threads: a whole
match by the keyboard (arrows, labels, typed notation) and the mouse, refusals with the
daemon's reason, the rules, and watching a match. What the screen shows is checked against the
server's record replayed through the rules (docs/rules.md).

With ``HIPPARCHUS_TUI_SCREENSHOTS=1`` the mid-game screenshot is also written to docs/
(docs/tui-hipparchus.svg) for the README.
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

from play.tui_harness import (
    SIZE,
    Bot,
    choose,
    fetch_record,
    game_screen,
    made,
    new_game,
    next_turn,
    press,
    screenshot,
    thread_daemon,
    wait_for,
)
from textual.pilot import Pilot

from hipparchusd.client import Client
from hipparchusd.games.hipparchus.codec import converter
from hipparchusd.games.hipparchus.notation import format_hand, format_play
from hipparchusd.games.hipparchus.record import MatchRecord
from hipparchusd.games.hipparchus.rules import RoundState
from hipparchusd.games.hipparchus.tui.look import clumps
from hipparchusd.games.hipparchus.tui.screen import HipparchusScreen
from hipparchusd.play.app import Options, PlayApp
from hipparchusd.play.opponents import LevelScreen
from hipparchusd.play.seats import SeatStore
from hipparchusd.play.widgets import RulesScreen

SYMBOL_LETTERS = {"☉": "S", "☽": "M", "⊕": "E"}


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


def test_a_match_against_the_computer_from_the_waiting_table(tmp_path: Path) -> None:
    asyncio.run(against_the_computer(tmp_path))


async def against_the_computer(tmp_path: Path) -> None:
    """A newcomer alone at a new table: ``b`` offers the levels the server lists (``kinds``),
    weakest first, and seats the engine at the one chosen; the match is played to its end,
    its last round's result shown before the match's (the order they happened), and Enter
    then leaves (there is no lobby to go back to)."""
    with thread_daemon() as daemon:
        with Client.connect(daemon.host, daemon.port, json=True) as client:
            levels = client.request_json("kinds")["about"]["hipparchus"]["levels"]
        options = Options(port=daemon.port, new="hipparchus", options=["seed=8"], data_dir=tmp_path)
        app = PlayApp(options)
        async with app.run_test(size=SIZE) as pilot:
            screen = await game_screen(pilot, app)
            waiting = screen.status_text().plain
            assert "Press b to add a computer opponent." in waiting
            assert f"A person joins with: hipparchus-play --port {daemon.port} --game g1" in waiting
            assert "bot.py" not in waiting
            await press(pilot, "b")
            await wait_for(pilot, lambda: isinstance(app.screen, LevelScreen), what="the levels")
            chooser = app.screen
            assert isinstance(chooser, LevelScreen) and chooser.levels == levels
            # Escape seats nobody; b again, and the level's number seats it.
            await press(pilot, "escape")
            await wait_for(pilot, lambda: app.screen is screen, what="no opponent")
            assert screen.seating.players[1] in (None, "-")
            await press(pilot, "b")
            await wait_for(pilot, lambda: isinstance(app.screen, LevelScreen), what="the levels")
            await press(pilot, str(levels.index("random") + 1))
            await wait_for(pilot, lambda: screen.status == "playing", timeout=60, what="the start")
            assert screen.seating.players[1] == "bot-random" and screen.level == "random"
            assert "bot-random joined (seat 1)" in screen.transcript
            results: list[str] = []
            while await next_turn(pilot, app, screen, results):
                before = screen.moves_made
                await press(pilot, "enter")  # the first legal play
                await made(pilot, screen, before)
            assert screen.over is not None
            # The last round's result came first, then the match's.
            assert results[-1].startswith("Game over\n"), results
            last_round = results[-2]
            assert last_round.startswith("Round ") and last_round.splitlines()[0].endswith(" over")
            # Its table's headers agree with each seat's name: "you score", "bot-random scores".
            header = next(line for line in last_round.splitlines() if "suit" in line)
            assert header.split() == ["suit", "you", "won", "bot-random", "won", "you", "score",
                                      "bot-random", "scores"]  # fmt: skip
            assert screen.status_text().plain == "Game over. Enter or Ctrl+Q leaves."
            await press(pilot, "enter")
            await wait_for(pilot, lambda: app.return_code is not None, what="the exit")
        assert app.return_code == 0


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
            # 30 s without a new line on the screen, however long the whole match takes.
            await wait_for(
                pilot,
                lambda: screen.over is not None,
                timeout=30,
                what="the end",
                progress=lambda: len(screen.transcript),
            )
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
