"""The example bots (Python, Node.js, bash) play whole matches against a live daemon, against
the Python bot and against a second copy of themselves; every match's winner is checked
against the server's record replayed through the rules (issue 4, "Tests")."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from harness import CLIENTS, Endpoint, MatchResult, play_match, python_bot, run_bot

# language -> (the program it needs on PATH, the bot's command line)
BOTS: dict[str, tuple[str | None, list[str]]] = {
    "python": (None, python_bot()),
    "javascript": ("node", ["node", str(CLIENTS / "javascript" / "bot.mjs")]),
    "shell": ("bash", ["bash", str(CLIENTS / "shell" / "bot.sh")]),
}


def bot(language: str) -> list[str]:
    """The bot's command, or a skip naming the missing toolchain."""
    tool, command = BOTS[language]
    if tool is not None and shutil.which(tool) is None:
        pytest.skip(f"{tool} is not on PATH: the {language} client cannot run on this machine")
    if tool is not None:
        command = [shutil.which(tool) or tool, *command[1:]]
    return command


def check_match(result: MatchResult) -> None:
    """Both bots finished cleanly in the same game, one per seat, and printed the winner and
    round wins that replaying the server's record gives (first to two round wins, H12)."""
    info = result.describe()
    assert result.first.returncode == 0, info
    assert result.second.returncode == 0, info
    assert result.first.game_id == result.second.game_id == result.game_id, info
    assert {result.first.seat, result.second.seat} == {0, 1}, info
    assert result.record_winner in (0, 1), info
    assert max(result.record_round_wins) == 2, info
    assert result.record_round_wins[result.record_winner] == 2, info
    for run in (result.first, result.second):
        assert run.winner == result.record_winner, info
        assert run.round_wins == result.record_round_wins, info


@pytest.mark.parametrize("language", ["javascript", "shell"])
def test_bot_against_python_bot(daemon: Endpoint, language: str) -> None:
    check_match(play_match(daemon, bot(language), python_bot(), seed=11))
    check_match(play_match(daemon, python_bot(), bot(language), seed=12))


@pytest.mark.parametrize("language", ["python", "javascript", "shell"])
def test_bot_against_itself(daemon: Endpoint, language: str) -> None:
    check_match(play_match(daemon, bot(language), bot(language), seed=21))


def test_python_bots_on_a_random_deal(daemon: Endpoint) -> None:
    """Without --seed the deal is the server's random one (no fixed_deal game)."""
    check_match(play_match(daemon, python_bot(), python_bot()))


@pytest.mark.parametrize("language", ["python", "javascript", "shell"])
def test_bot_reports_a_refusal_and_exits_non_zero(daemon: Endpoint, language: str) -> None:
    """The contract's error path: joining a game that does not exist."""
    run = run_bot(bot(language), daemon, game="g999999", timeout=30)
    assert run.returncode not in (0, None), run.describe()
    assert "unknown-game" in run.stderr, run.describe()
    assert run.game_id is None and run.winner is None, run.describe()


def test_javascript_client_module_unit_tests() -> None:
    """clients/javascript/test_client.mjs (node's own test runner, scripted server)."""
    node = bot("javascript")[0]
    test_file = CLIENTS / "javascript" / "test_client.mjs"
    run = subprocess.run(
        [node, "--test", "--test-reporter=tap", str(test_file)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "# pass 3" in run.stdout and "# fail 0" in run.stdout, run.stdout


def test_python_bot_needs_only_the_standard_library(daemon: Endpoint) -> None:
    """With no site-packages at all (``-S -s -E``), the bot still plays: the client module it
    imports from the checkout uses the standard library only."""
    isolated = [sys.executable, "-S", "-s", "-E", str(CLIENTS / "python" / "bot.py")]
    check_match(play_match(daemon, isolated, python_bot(), seed=5))
