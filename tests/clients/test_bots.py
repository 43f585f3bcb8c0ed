"""The example bots that run from source (Python, Node.js, bash) play whole Hipparchus matches
against a live daemon, against a second copy of themselves; every match's winner is checked
against the server's record replayed through the rules (issue 4, "Tests"). Matches between
languages, and planets at 3-6 seats, are in test_tables.py."""

from __future__ import annotations

import subprocess
import sys

import pytest
from harness import CLIENTS, Endpoint, MatchResult, play_match, python_bot, run_bot
from languages import Bots


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


@pytest.mark.parametrize("language", ["python", "javascript", "shell"])
def test_bot_against_itself(daemon: Endpoint, bots: Bots, language: str) -> None:
    command = bots.command(language)
    check_match(play_match(daemon, command, command, seed=21))


def test_python_bots_on_a_random_deal(daemon: Endpoint) -> None:
    """Without --seed the deal is the server's random one (no fixed_deal game)."""
    check_match(play_match(daemon, python_bot(), python_bot()))


@pytest.mark.parametrize("language", ["python", "javascript", "shell"])
def test_bot_reports_a_refusal_and_exits_non_zero(
    daemon: Endpoint, bots: Bots, language: str
) -> None:
    """The contract's error path: joining a game that does not exist."""
    run = run_bot(bots.command(language), daemon, game="g999999", timeout=30)
    assert run.returncode not in (0, None), run.describe()
    assert "unknown-game" in run.stderr, run.describe()
    assert run.game_id is None and run.winner is None, run.describe()


def test_javascript_client_module_unit_tests(bots: Bots) -> None:
    """clients/javascript/test_client.mjs (node's own test runner, scripted server)."""
    node = bots.command("javascript")[0]
    test_file = CLIENTS / "javascript" / "test_client.mjs"
    run = subprocess.run(
        [node, "--test", "--test-reporter=tap", str(test_file)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "# pass 4" in run.stdout and "# fail 0" in run.stdout, run.stdout


def test_python_bot_needs_only_the_standard_library(daemon: Endpoint) -> None:
    """With no site-packages at all (``-S -s -E``), the bot still plays: the client module it
    imports from the checkout uses the standard library only."""
    isolated = [sys.executable, "-S", "-s", "-E", str(CLIENTS / "python" / "bot.py")]
    check_match(play_match(daemon, isolated, python_bot(), seed=5))
