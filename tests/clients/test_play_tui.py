"""``hipparchus-play`` driven through whole matches by scripted input (pexpect) against the
Python bot. What it shows is checked against the server's record, replayed through the rules:
the hand in its real order (the ``hand`` event's order, cards removed as played, RULINGS H1),
the numbered legal plays (what ``legal`` answers), the opponent's plays, and the result."""

from __future__ import annotations

import importlib.metadata
import os
import random
import re
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pexpect
import pytest
from harness import REPO, Endpoint, fetch_record, python_bot, replay_outcome

from hipparchusd.games.hipparchus.codec import converter
from hipparchusd.games.hipparchus.notation import format_cards, format_hand, format_play
from hipparchusd.games.hipparchus.record import MatchRecord
from hipparchusd.games.hipparchus.rules import RoundState

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


def spawn_tui(args: list[str], log_path: Path) -> pexpect.spawn:
    """hipparchus-play in a 100x60 pseudo-terminal, without colour, logging to ``log_path``."""
    env = {**os.environ, "TERM": "dumb", "COLUMNS": "100", "LINES": "60", "LANG": "C.UTF-8"}
    env["NO_COLOR"] = "1"
    env.pop("LC_ALL", None)
    command = tui_command()
    child = pexpect.spawn(
        command[0],
        [*command[1:], *args],
        env=env,
        encoding="utf-8",
        dimensions=(60, 100),
        timeout=30,
        cwd=str(REPO),
    )
    child.logfile_read = log_path.open("a", encoding="utf-8")
    return child


def next_turn(child: pexpect.spawn) -> tuple[str, str, list[str]] | None:
    """Wait for the next prompt: (the text shown since the last one, the hand shown, the legal
    plays shown, in their numbered order), or ``None`` when the match is over instead (then
    ``child.match`` holds the result line)."""
    if child.expect([PROMPT, MATCH_OVER]) == 1:
        return None
    before = ANSI.sub("", child.before)
    hand_line = re.search(r"^Hand: (.*)$", before, re.MULTILINE)
    assert hand_line and "Legal plays:" in before, before
    legal_block = before.split("Legal plays:", 1)[1]
    legal = re.findall(r"\[(\d+)\] (\d[SME]@\d+)", legal_block)
    assert [int(n) for n, _ in legal] == list(range(1, len(legal) + 1)), legal_block
    return before, shown_hand(hand_line.group(1)), [move for _, move in legal]


def answer(child: pexpect.spawn, moves: list[str], rng: random.Random) -> str:
    """Choose a random legal play, by its number or (lower-case) notation; return it."""
    index = rng.randrange(len(moves))
    child.sendline(str(index + 1) if rng.random() < 0.5 else moves[index].lower())
    return moves[index]


def result_line(child: pexpect.spawn) -> tuple[int, tuple[int, int]]:
    """(winner, round wins) from the ``Match over`` line just matched."""
    match = child.match
    return int(match.group(1)), (int(match.group(2)), int(match.group(3)))


def spawn_bot(args: list[str]) -> subprocess.Popen[str]:
    """The Python bot with ``args``, its stdout and stderr piped as text."""
    return subprocess.Popen(
        [*python_bot(), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def stop(tuis: list[pexpect.spawn | None], bot: subprocess.Popen[str] | None) -> None:
    """Close the terminal clients (and their logs) and kill the bot if it still runs."""
    for tui in tuis:
        if tui is not None:
            tui.close(force=True)
            tui.logfile_read.close()
    if bot is not None and bot.poll() is None:
        bot.kill()


def check_turns(
    daemon: Endpoint, game: str, seat: int, shown: list[tuple[str, list[str]]], chosen: list[str]
) -> dict[str, Any]:
    """Assert that the hands and legal plays ``shown`` at ``seat``'s turns, and the plays
    ``chosen``, are the rules' for ``game``'s record; return the record."""
    record = fetch_record(daemon, game)
    turns = expected_turns(record, seat)
    assert [(hand, legal) for hand, legal, _ in turns] == shown
    assert [play for _, _, play in turns] == chosen
    return record


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
    bot_args = [*where, "--name", "botty", "--seed", "3"]
    args = [*where, "--name", "human"] + (["--ascii"] if ascii_mode else [])
    bot = None
    if tui_creates:
        args += ["--seed", "31", "--leader", "0"]
    else:
        bot = spawn_bot([*bot_args, "--create"])
        assert bot.stdout is not None
        first_line = bot.stdout.readline()
        seated = re.match(r"game=(\S+) seat=\d", first_line)
        assert seated, first_line
        args += ["--game", seated.group(1)]
    child = spawn_tui(args, tmp_path / "tui.log")
    try:
        child.expect(r"You sit at seat (\d) of game (\S+)\.")
        seat = int(child.match.group(1))
        game = ANSI.sub("", child.match.group(2))
        if bot is None:
            bot = spawn_bot([*bot_args, "--game", game])
        shown: list[tuple[str, list[str]]] = []
        chosen: list[str] = []
        transcript = ""
        while (turn := next_turn(child)) is not None:
            before, hand, moves = turn
            transcript += before
            shown.append((hand, moves))
            if len(shown) == 1:
                # A wrong answer is refused and asked again; nothing is played.
                child.sendline("[/]9Z@99")  # rich markup in it must be shown, not parsed
                child.expect("is not one of the legal plays")
                child.expect(PROMPT)
                assert "Hand:" not in child.before
            chosen.append(answer(child, moves, rng))
        transcript += ANSI.sub("", child.before)
        winner, wins = result_line(child)
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
        bot_out, bot_err = bot.communicate(timeout=30)
        assert bot.returncode == 0, bot_err
    finally:
        stop([child], bot)

    record = check_turns(daemon, game, seat, shown, chosen)
    assert (winner, wins) == replay_outcome(record)
    # The bot prints the generic game-over fields: the winner, and each seat's round wins.
    assert f"winners={winner} scores={wins[0]},{wins[1]} resigned=-" in bot_out
    # Each round's new hand is shown as dealt (the `hand` event's order, RULINGS H1).
    match_record = converter.structure(record["record"], MatchRecord)
    new_hands = [
        shown_hand(line) for line in re.findall(r"^Your new hand: (.*)$", transcript, re.M)
    ]
    assert new_hands == [format_hand(r.deal.hands[seat]) for r in match_record.rounds]
    # The opponent's plays were shown as they happened, in order, as count and suit only
    # (RULINGS H13: where in its hand they came from is hidden).
    opponent_plays = re.findall(r"^botty played (\d[SME]\S*)", transcript, re.MULTILINE)
    expected_opponent = []
    for round_record in match_record.rounds:
        state = RoundState.start(round_record.deal, round_record.leader)
        for play in round_record.plays:
            if state.to_move != seat:
                expected_opponent.append(format_cards(play))
            state = state.play(play)
    assert opponent_plays == expected_opponent


def test_resume_after_a_dropped_connection(daemon: Endpoint, tmp_path: Path) -> None:
    """The terminal client is killed at its 4th turn; ``--resume <token>`` in a new one shows
    the same position again and plays the match to its end."""
    rng = random.Random(8)
    where = ["--host", daemon.host, "--port", str(daemon.port)]
    first = spawn_tui([*where, "--ascii", "--seed", "41", "--leader", "0"], tmp_path / "a.log")
    bot = None
    second = None
    try:
        first.expect(r"You sit at seat (\d) of game (\S+)\. Your seat's token .* is (\w+)\.")
        seat, game, token = int(first.match.group(1)), first.match.group(2), first.match.group(3)
        bot = spawn_bot([*where, "--game", game, "--seed", "4"])
        shown: list[tuple[str, list[str]]] = []
        chosen: list[str] = []
        for _ in range(3):
            turn = next_turn(first)
            assert turn is not None
            shown.append(turn[1:])
            chosen.append(answer(first, turn[2], rng))
        pending = next_turn(first)
        assert pending is not None
        first.close(force=True)  # the connection drops with a turn to play

        second = spawn_tui([*where, "--ascii", "--resume", token], tmp_path / "b.log")
        second.expect(f"You are back at seat {seat} of game {game}")
        turn = next_turn(second)
        assert turn is not None and turn[1:] == pending[1:]
        while turn is not None:
            shown.append(turn[1:])
            chosen.append(answer(second, turn[2], rng))
            turn = next_turn(second)
        result = result_line(second)
        second.expect(pexpect.EOF)
        second.close()
        assert second.exitstatus == 0
        _, bot_err = bot.communicate(timeout=30)
        assert bot.returncode == 0, bot_err
    finally:
        stop([first, second], bot)

    assert result == replay_outcome(check_turns(daemon, game, seat, shown, chosen))


def test_resigning_ends_the_match_for_the_bot(daemon: Endpoint, tmp_path: Path) -> None:
    """'resign' asks for confirmation; 'n' keeps playing, 'y' ends the match: the bot wins, and
    the record says who resigned."""
    where = ["--host", daemon.host, "--port", str(daemon.port)]
    child = spawn_tui([*where, "--ascii", "--seed", "52"], tmp_path / "tui.log")
    bot = None
    try:
        child.expect(r"You sit at seat (\d) of game (\S+)\.")
        seat, game = int(child.match.group(1)), child.match.group(2)
        bot = spawn_bot([*where, "--game", game])
        turn = next_turn(child)
        assert turn is not None
        child.sendline("resign")
        child.expect(r"Resign the whole match\? \[y/N\] ")
        child.sendline("n")
        child.expect(PROMPT)
        child.sendline("resign")
        child.expect(r"Resign the whole match\? \[y/N\] ")
        child.sendline("y")
        child.expect(MATCH_OVER)
        winner, _ = result_line(child)
        child.expect(pexpect.EOF)
        assert "(you resigned)" in child.before
        bot_out, bot_err = bot.communicate(timeout=30)
        assert bot.returncode == 0, bot_err
    finally:
        stop([child], bot)
    assert winner == 1 - seat
    record = fetch_record(daemon, game)
    assert record["record"]["resigned"] == seat
    assert replay_outcome(record)[0] == winner
    assert f"winners={winner} scores=" in bot_out and f" resigned={seat}" in bot_out


def test_refusals_and_unreachable_servers_exit_1_with_the_reason(
    daemon: Endpoint, capsys: pytest.CaptureFixture[str]
) -> None:
    from hipparchusd.play.app import main

    with socket.socket() as probe:  # a port with nobody listening
        probe.bind(("127.0.0.1", 0))
        dead_port = probe.getsockname()[1]

    where = ["--host", daemon.host, "--port", str(daemon.port), "--ascii"]
    assert main([*where, "--game", "g999999"]) == 1
    assert "unknown-game" in capsys.readouterr().out
    assert main([*where, "--resume", "not-a-token"]) == 1
    assert "bad-token" in capsys.readouterr().out
    assert main(["--host", "127.0.0.1", "--port", str(dead_port), "--ascii"]) == 1
    assert "hipparchus-play:" in capsys.readouterr().out


# --- watching (--watch GAME): a spectator's transcript against the record ---------------------

WATCH_OVER = r"Match over: winner seat (\d) \((\w+)\), round wins (\d)-(\d)\."
CLUMP = re.compile(r"\d+\[[^\]]*\]")
ROUND_RULE = re.compile(r"^─* Round (\d+) ─*$|^-* Round (\d+) -*$")
WATCHED_LINES = [
    (re.compile(r"^(\w+) \(seat (\d)\) leads the first trick\.$"), "lead"),
    (re.compile(r"^(\w+) \(seat (\d)\) played (\d[SME]) [SME]+ \((\d+) cards left\)$"), "play"),
    (re.compile(r"^Trick \d+: .*: (\w+) \(seat (\d)\) won it\.$"), "trick"),
    (re.compile(r"^Trick \d+: (\w+) \(seat (\d)\) cannot follow"), "no-follow"),
    (
        re.compile(r"^(\w+) \(seat 0\) holds (\d+) cards, (\w+) \(seat 1\) holds (\d+) cards$"),
        "sizes",
    ),
    (re.compile(r"^Round \d+ over: .*?; (\w+) \(seat (\d)\) won the round"), "round"),
    (re.compile(r"^(\w+) \(seat (\d)\) still held: (.*)$"), "held"),
    (re.compile(r"^Face down: ([SME]+)$"), "face-down"),
    (re.compile(WATCH_OVER), "match"),
]


def watched(transcript: str) -> list[tuple[object, ...]]:
    """The spectator's transcript as a list of facts, in the order shown: ``("play", seat,
    name, cards, hand size)``, ``("trick", winner, name)``, ... (see :func:`expected_watch`).
    A line showing a hand other than a round's revealed hands is a fact no record gives."""
    facts: list[tuple[object, ...]] = []
    for line in ANSI.sub("", transcript).replace("\r", "").splitlines():
        line = line.strip()
        for pattern, kind in WATCHED_LINES:
            match = pattern.match(line)
            if match is None:
                continue
            groups = match.groups()
            if kind == "play":
                facts.append(("play", int(groups[1]), groups[0], groups[2], int(groups[3])))
            elif kind in ("lead", "trick", "round"):
                facts.append((kind, int(groups[1]), groups[0]))
            elif kind == "no-follow":
                facts.append(("no-follow", int(groups[1])))
            elif kind == "sizes":
                facts.append(("sizes", groups[0], int(groups[1]), groups[2], int(groups[3])))
            elif kind == "held":
                facts.append(("held", int(groups[1]), groups[0], shown_hand(groups[2])))
            elif kind == "face-down":
                facts.append(("face-down", groups[0]))
            else:
                facts.append(("match", int(groups[0]), groups[1], int(groups[2]), int(groups[3])))
            break
        else:
            if CLUMP.search(line) or "Hand:" in line:
                facts.append(("a hand shown", line))
    return facts


def expected_watch(record: dict[str, Any], start: int = 0) -> list[tuple[object, ...]]:
    """What a spectator must show of ``record``'s match, replayed through the rules, as the
    facts :func:`watched` reads: every round's leader, each play (seat, name, cards, hand size
    after it), each trick's winner (and both hand sizes after it: the table), each H6 trick,
    each round's winner and the hands it reveals, and the match's winner. ``start`` plays
    were made before the spectator came: it sees the hand sizes then, and what follows."""
    match_record = converter.structure(record["record"], MatchRecord)
    names = [str(name) for name in record["players"]]
    facts: list[tuple[object, ...]] = []
    made = 0

    def sizes(state: RoundState) -> tuple[object, ...]:
        return ("sizes", names[0], state.hands[0].size, names[1], state.hands[1].size)

    for round_record in match_record.rounds:
        state = RoundState.start(round_record.deal, round_record.leader)
        if made >= start:
            facts.append(("lead", state.leader, names[state.leader]))
        for play in round_record.plays:
            if made == start and start:
                facts.append(sizes(state))
            seat = state.to_move
            assert seat is not None
            state = state.play(play)
            made += 1
            if made <= start:
                continue
            facts.append(("play", seat, names[seat], format_cards(play), state.hands[seat].size))
            if state.lead is None and state.tricks:
                winner = state.tricks[-1].winner
                if winner is None:
                    facts.append(("no-follow", 1 - state.tricks[-1].leader))
                else:
                    facts += [("trick", winner, names[winner]), sizes(state)]
        assert state.result is not None
        winner = state.result.winner
        facts.append(("round", winner, names[winner]))
        facts += [("held", seat, names[seat], str(state.hands[seat])) for seat in (0, 1)]
        facts.append(("face-down", "".join(suit.letter for suit in round_record.deal.face_down)))
    winner, wins = replay_outcome(record)
    assert winner is not None
    facts.append(("match", winner, names[winner], *wins))
    return facts


def assert_no_hand_during_rounds(transcript: str) -> None:
    """RULINGS H13: between a round's start and its ``Round N over`` line, no hand is shown
    (no clump rendering ``1[SS]``, no ``Hand:``); the revealed hands come after it. A
    spectator may come in mid-round: until a round is over, it is in one."""
    in_round = True
    for line in ANSI.sub("", transcript).replace("\r", "").splitlines():
        line = line.strip()
        if ROUND_RULE.match(line):
            in_round = True
        elif line.startswith("Round ") and " over: " in line:
            in_round = False
        elif in_round:
            assert not CLUMP.search(line) and "Hand:" not in line, line
            assert "still held" not in line and "Face down" not in line, line
    assert "Your new hand" not in transcript


def new_game(daemon: Endpoint, *options: str) -> str:
    """A new hipparchus game's id (nobody seated)."""
    from hipparchusd.client import Client

    with Client.connect(daemon.host, daemon.port, json=True) as client:
        return str(client.request_json("new", "hipparchus", *options)["game"])


def test_watching_a_match_between_two_bots(daemon: Endpoint, tmp_path: Path) -> None:
    """--watch on a game nobody has joined yet waits for it, then shows the match between two
    bots as the record has it, and exits 0 at its end; watching it again once it is over
    shows the result at once."""
    game = new_game(daemon, "seed=17")
    where = ["--host", daemon.host, "--port", str(daemon.port), "--ascii"]
    child = spawn_tui([*where, "--watch", game], tmp_path / "watch.log")
    bots: list[subprocess.Popen[str]] = []
    try:
        child.expect("Waiting for the game to start")
        for name, seed in (("alpha", "1"), ("beta", "2")):
            bots.append(spawn_bot([*where[:4], "--game", game, "--name", name, "--seed", seed]))
        child.timeout = 60
        child.expect(WATCH_OVER)
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
        for bot in bots:
            _, bot_err = bot.communicate(timeout=30)
            assert bot.returncode == 0, bot_err
    finally:
        stop([child], None)
        for bot in bots:
            if bot.poll() is None:
                bot.kill()
    transcript = (tmp_path / "watch.log").read_text(encoding="utf-8")
    record = fetch_record(daemon, game)
    assert watched(transcript) == expected_watch(record)
    assert_no_hand_during_rounds(transcript)

    again = spawn_tui([*where, "--watch", game], tmp_path / "again.log")
    try:
        again.expect(WATCH_OVER)
        assert int(again.match.group(1)) == replay_outcome(record)[0]
        again.expect(pexpect.EOF)
        again.close()
        assert again.exitstatus == 0
    finally:
        stop([again], None)


def test_watching_a_match_in_progress_shows_no_hand(daemon: Endpoint, tmp_path: Path) -> None:
    """A spectator who comes in the middle of a trick sees the table as it is (hand sizes, the
    lead), then every play as the scripted players make it, and no hand until a round is
    over (RULINGS H13); it never asks for anything and exits 0 at the match's end."""
    from hipparchusd.client import Client

    rng = random.Random(23)
    game = new_game(daemon, "seed=29", "leader=0")
    where = ["--host", daemon.host, "--port", str(daemon.port), "--ascii"]
    child = None
    with (
        Client.connect(daemon.host, daemon.port, json=True) as first,
        Client.connect(daemon.host, daemon.port, json=True) as second,
    ):
        seats = [first, second]
        for seat, name in enumerate(("north", "south")):
            seats[seat].request_json("join", game, str(seat), f"name={name}")

        def move() -> tuple[int, str] | None:
            """One random legal play by the seat to move: (seat, count and suit)."""
            view = first.request_json("state", game)["view"]
            seat = view["to_move"]
            if seat is None:
                return None
            legal = seats[seat].request_json("legal", game)["moves"]
            played = seats[seat].request_json("play", game, rng.choice(legal)["move"])["move"]
            return seat, str(played).split("@")[0]

        start = 3
        for _ in range(start):
            assert move() is not None
        try:
            child = spawn_tui([*where, "--watch", game], tmp_path / "watch.log")
            child.expect(r"holds \d+ cards")
            while (made := move()) is not None:
                seat, cards = made
                child.expect(rf"\(seat {seat}\) played {cards} ")
            child.expect(WATCH_OVER)
            child.expect(pexpect.EOF)
            child.close()
            assert child.exitstatus == 0
        finally:
            stop([child], None)
    transcript = (tmp_path / "watch.log").read_text(encoding="utf-8")
    assert_no_hand_during_rounds(transcript)
    record = fetch_record(daemon, game)
    assert watched(transcript) == expected_watch(record, start)
