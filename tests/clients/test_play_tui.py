"""``hipparchus-play`` driven through whole matches by scripted input (pexpect) against the
Python bot. What it shows is checked against the server's record, replayed through the rules:
the hand in its real order (the ``hand`` event's order, cards removed as played, RULINGS H1),
the numbered legal plays (what ``legal`` answers), the opponent's plays, and the result."""

from __future__ import annotations

import importlib.metadata
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
from harness import REPO, Endpoint, fetch_record, python_bot, replay_outcome

from hipparchusd.games.hipparchus.game import MatchRecord
from hipparchusd.games.hipparchus.notation import format_hand, format_play
from hipparchusd.games.hipparchus.rules import RoundState
from hipparchusd.serialization import converter

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
SYMBOL_LETTERS = {"☉": "S", "☽": "M", "⊕": "E"}
PROMPT = r"Your play \(number or notation, \? for help\): "
MATCH_OVER = r"Match over: winner seat (\d) \([^)]*\), round wins (\d)-(\d)"


def tui_command() -> list[str]:
    """The installed console script if it is next to this interpreter, else ``-m``."""
    script = Path(sys.executable).with_name("hipparchus-play")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "hipparchusd.play"]


def expected_turns(record: dict[str, object], seat: int) -> list[tuple[str, list[str], str]]:
    """For each time ``seat`` had to move, in order: (its hand, the legal plays in canonical
    notation, the play it made), from the record replayed through the rules."""
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


def shown_hand(line: str) -> str:
    """``1[SS] 3[M]`` (or with symbols) -> ``SSM``, checking each clump's shown position."""
    hand = ""
    for position, cards in re.findall(r"(\d+)\[([^\]]+)\]", line):
        letters = "".join(SYMBOL_LETTERS.get(card, card) for card in cards)
        assert int(position) == len(hand) + 1, line
        assert len(set(letters)) == 1, f"a clump holds one suit: {line}"
        hand += letters
    return hand


def test_console_script_is_installed_with_the_package() -> None:
    scripts = importlib.metadata.entry_points(group="console_scripts")
    assert any(
        ep.name == "hipparchus-play" and ep.value == "hipparchusd.play.app:main" for ep in scripts
    )


@pytest.mark.parametrize(
    ("ascii_mode", "tui_creates"), [(True, True), (False, False)], ids=["ascii", "symbols"]
)
def test_whole_match_against_bot(
    daemon: Endpoint, ascii_mode: bool, tui_creates: bool, tmp_path: Path
) -> None:
    """One match with letters, the terminal client creating the game (and fixing the leader);
    one with suit symbols, joining a game the bot created."""
    rng = random.Random(5)
    where = ["--host", daemon.host, "--port", str(daemon.port)]
    bot_args = [*python_bot(), *where, "--name", "botty", "--seed", "3"]
    args = [*where, "--name", "human"] + (["--ascii"] if ascii_mode else [])
    bot = None
    if tui_creates:
        args += ["--seed", "31", "--leader", "0"]
    else:
        bot = subprocess.Popen(
            [*bot_args, "--create"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        assert bot.stdout is not None
        first_line = bot.stdout.readline()
        seated = re.match(r"game=(\S+) seat=\d", first_line)
        assert seated, first_line
        args += ["--game", seated.group(1)]
    env = {**os.environ, "TERM": "dumb", "COLUMNS": "100", "LINES": "60", "LANG": "C.UTF-8"}
    env["NO_COLOR"] = "1"
    env.pop("LC_ALL", None)
    command = tui_command()
    log = (tmp_path / "tui.log").open("w", encoding="utf-8")
    child = pexpect.spawn(
        command[0],
        [*command[1:], *args],
        env=env,
        encoding="utf-8",
        dimensions=(60, 100),
        timeout=30,
        cwd=str(REPO),
    )
    child.logfile_read = log
    try:
        if tui_creates:
            child.expect(r"Created game (\S+)\.")
            game = ANSI.sub("", child.match.group(1))
        child.expect(r"You sit at seat (\d) of game (\S+)\.")
        seat = int(child.match.group(1))
        game = ANSI.sub("", child.match.group(2))
        if bot is None:
            bot = subprocess.Popen(
                [*bot_args, "--game", game],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        shown: list[tuple[str, list[str]]] = []
        chosen: list[str] = []
        transcript = ""
        while child.expect([PROMPT, MATCH_OVER]) == 0:
            before = ANSI.sub("", child.before)
            transcript += before
            hand_line = re.search(r"^Hand: (.*)$", before, re.MULTILINE)
            assert hand_line and "Legal plays:" in before, before
            hand = shown_hand(hand_line.group(1))
            legal_block = before.split("Legal plays:", 1)[1]
            legal = re.findall(r"\[(\d+)\] (\d[SME]@\d+)", legal_block)
            assert [int(n) for n, _ in legal] == list(range(1, len(legal) + 1)), legal_block
            moves = [move for _, move in legal]
            shown.append((hand, moves))
            if len(shown) == 1:
                # A wrong answer is refused and asked again; nothing is played.
                child.sendline("9Z@99")
                child.expect("is not one of the legal plays")
                child.expect(PROMPT)
                assert "Hand:" not in child.before
            index = rng.randrange(len(moves))
            chosen.append(moves[index])
            child.sendline(str(index + 1) if rng.random() < 0.5 else moves[index].lower())
        transcript += ANSI.sub("", child.before)
        winner, wins = (
            int(child.match.group(1)),
            (int(child.match.group(2)), int(child.match.group(3))),
        )
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
        bot_out, bot_err = bot.communicate(timeout=30)
        assert bot.returncode == 0, bot_err
    finally:
        child.close(force=True)
        log.close()
        if bot is not None and bot.poll() is None:
            bot.kill()

    record = fetch_record(daemon, game)
    turns = expected_turns(record, seat)
    assert [(hand, legal) for hand, legal, _ in turns] == shown
    assert [play for _, _, play in turns] == chosen
    assert (winner, wins) == replay_outcome(record)
    assert f"winner={winner} " in bot_out
    # Each round's new hand is shown as dealt (the `hand` event's order, RULINGS H1).
    match_record = converter.structure(record["record"], MatchRecord)
    new_hands = [
        shown_hand(line) for line in re.findall(r"^Your new hand: (.*)$", transcript, re.M)
    ]
    assert new_hands == [format_hand(r.deal.hands[seat]) for r in match_record.rounds]
    # The opponent's plays were shown as they happened, in order.
    opponent_plays = re.findall(r"^botty played (\d[SME]@\d+)", transcript, re.MULTILINE)
    expected_opponent = []
    for round_record in match_record.rounds:
        state = RoundState.start(round_record.deal, round_record.leader)
        for play in round_record.plays:
            if state.to_move != seat:
                expected_opponent.append(format_play(play))
            state = state.play(play)
    assert opponent_plays == expected_opponent
