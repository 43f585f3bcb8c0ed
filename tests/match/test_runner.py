"""``hipparchusd match``: a few games between built-in levels on a daemon it starts, with
duplicate deals (each deal played with the seats swapped), its JSON results and their resume;
the SPRT stopping a match; an external bot speaking the protocol as a player."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from hipparchusd.cli import main as cli_main
from hipparchusd.match.config import Config, GameResult, Player
from hipparchusd.match.runner import Runner, run_match
from hipparchusd.match.stats import Sprt

REPO = Path(__file__).resolve().parents[2]


def test_random_against_heuristic_with_duplicate_deals_and_a_resume(tmp_path: Path) -> None:
    output = tmp_path / "match.json"
    common = ["random", "heuristic", "--concurrency", "2", "--engine-workers", "1", "--quiet"]
    assert cli_main(["match", *common, "--games", "4", "--output", str(output)]) == 0
    data = json.loads(output.read_text())
    games = data["games"]
    assert [(g["deal"], g["rotation"]) for g in games] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    # Rotation 0: seat 0 plays p0; rotation 1: the seats swapped.
    assert [tuple(g["players"]) for g in games] == [(0, 1), (1, 0)] * 2
    for game in games:
        # Hipparchus: the seat that won more rounds wins the match (docs/rules.md).
        (winner,) = game["winners"]
        assert game["scores"][winner] == max(game["scores"])
    summary = data["summary"]
    first = summary["first"]
    p0_wins = sum(1 for g in games if g["players"][g["winners"][0]] == 0)
    assert (first["wins"], first["losses"], first["draws"]) == (p0_wins, 4 - p0_wins, 0)
    assert sum(summary["pentanomial"]) == 2  # two complete pairs
    assert summary["score"] == pytest.approx(p0_wins / 4)
    rates = [row["win_rate"] for row in summary["players"]]
    assert rates == pytest.approx([p0_wins / 4, 1 - p0_wins / 4])
    # Run again with more games: the four played are kept, two more are played.
    assert cli_main(["match", *common, "--games", "6", "--output", str(output)]) == 0
    again = json.loads(output.read_text())["games"]
    assert again[:4] == games and len(again) == 6
    assert [(g["deal"], g["rotation"]) for g in again[4:]] == [(2, 0), (2, 1)]
    # The same file for another match is refused, and left alone.
    before = output.read_text()
    other = ["heuristic", "random", "--quiet", "--games", "2", "--output", str(output)]
    assert cli_main(["match", *other]) == 1
    assert output.read_text() == before


class FixedRunner(Runner):
    """A runner whose games the first player always wins (no daemon)."""

    def play(self, deal: int, rotation: int) -> GameResult:
        holders = (0, 1) if rotation == 0 else (1, 0)
        winner = holders.index(0)
        scores = tuple(2 if seat == winner else 0 for seat in range(2))
        return GameResult(deal, rotation, holders, (winner,), scores, None, f"g{deal}-{rotation}")


def test_the_sprt_stops_a_decided_match(tmp_path: Path) -> None:
    config = Config("hipparchus", ("a", "b"), (), 1, 2)
    players = (Player.parse("random"), Player.parse("heuristic"))
    runner = FixedRunner("127.0.0.1", 1, config, players)
    sprt = Sprt(elo0=0, elo1=100, alpha=0.05, beta=0.05)
    output = tmp_path / "sprt.json"
    results = run_match(runner, 500, 1, output, sprt, progress=False)
    # Every game won: the LLR crosses ln(19) long before 1000 games.
    assert 2 <= len(results) < 60
    decided = json.loads(output.read_text())["summary"]["sprt"]
    assert decided["decision"] == "H1" and decided["llr"] >= decided["upper"]


def test_an_external_protocol_bot_plays_its_seats(tmp_path: Path) -> None:
    output = tmp_path / "bot.json"
    bot = f"cmd:{sys.executable} {REPO / 'clients' / 'python' / 'bot.py'} --seed 3"
    args = ["match", "heuristic", bot, "--games", "2", "--engine-workers", "1", "--quiet"]
    assert cli_main([*args, "--output", str(output), "--bot-logs", str(tmp_path / "logs")]) == 0
    games = json.loads(output.read_text())["games"]
    assert len(games) == 2
    logs = sorted((tmp_path / "logs").iterdir())
    assert len(logs) == 2 and all("seat=" in log.read_text() for log in logs)


#: A protocol bot that makes its first move and then no other: its clock runs out.
STALLER = """
import argparse, socket
parser = argparse.ArgumentParser()
for option in ("--host", "--port", "--game", "--name"):
    parser.add_argument(option)
args = parser.parse_args()
stream = socket.create_connection((args.host, int(args.port))).makefile("rwb")
stream.readline()
def ask(line):
    stream.write(line.encode() + b"\\n")
    stream.flush()
    while True:
        answer = stream.readline()
        if answer[:1] in (b"=", b"?"):
            while stream.readline().strip():
                pass
            return answer.decode()[1:].split()
seat = dict(word.split("=") for word in ask(f"join {args.game} name={args.name}"))["seat"]
moved = False
for line in stream:
    words = line.decode().split()
    if words[3:4] == ["to-move"] and seat in words[4].split("=")[1].split(",") and not moved:
        moved = True
        ask(f"play {args.game} {ask(f'legal {args.game}')[0]}")
    if words[3:4] == ["game-over"]:
        break
"""


def test_a_timed_match_reports_each_players_time_losses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--tc: every game gets the clock; the staller moves once, then loses on time (T2). No
    first-move limit: a loaded machine may start the staller late, which must not abort."""
    staller = tmp_path / "staller.py"
    staller.write_text(STALLER)
    output = tmp_path / "timed.json"
    args = ["match", "heuristic", f"cmd:{sys.executable} {staller}", "--games", "2", "--tc"]
    args += ["1+0", "-o", "first_move=off", "--engine-workers", "1", "--quiet"]
    assert cli_main([*args, "--output", str(output)]) == 0
    data = json.loads(output.read_text())
    assert data["config"]["tc"] == "1s"
    for game in data["games"]:
        staller_seat = game["players"].index(1)
        assert game["flagged"] == staller_seat
        assert game["winners"] == [1 - staller_seat]
    rows = data["summary"]["players"]
    assert (rows[0]["time_losses"], rows[1]["time_losses"]) == (0, 2)
    report = capsys.readouterr().out
    assert "2 games at clock=1s" in report
    assert "0 lost on time" in report and "2 lost on time" in report
