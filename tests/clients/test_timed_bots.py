"""Every example bot in a timed game (issue 27, PROTOCOL.md section 10): the Python and C bots
read the clock fields (``to-move``'s ``left_ms``) and say what their clock had; the others ignore
them and play on unchanged. Each plays a copy of itself at ``clock=2m+1s``; the record's timing
says every decision was the seat's own, in time."""

from __future__ import annotations

import re

import pytest
from harness import Endpoint, play_match
from languages import LANGUAGES, Bots

#: The control of every game here, and what it means in milliseconds.
CLOCK = "2m+1s"
BANK, INCREMENT = 120_000, 1000

_CLOCK_LINE = re.compile(r"^clock decisions=(\d+) (?:spent_ms=\d+ )?left_ms=(\d+) timeout=(\S+)$",
                         re.MULTILINE)  # fmt: skip

#: The bots that read the clock fields and print their clock line.
READERS = ("python", "c")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_timed_game_is_played_to_its_end(bots: Bots, daemon: Endpoint, language: str) -> None:
    command = bots.command(language)
    result = play_match(daemon, [*command, "--option", f"clock={CLOCK}"], command, seed=41)
    info = result.describe()
    for run in (result.first, result.second):
        assert run.returncode == 0, info
        assert run.game_id == result.game_id, info
    assert result.winner is not None and result.record_winner == result.winner, info
    timing = result.record["timing"]
    assert timing["control"] == CLOCK, info
    assert {d["by"] for d in timing["decisions"]} == {"player"}, info
    assert "timeout" not in result.record, info
    if language not in READERS:
        return
    for run in (result.first, result.second):
        found = _CLOCK_LINE.search(run.stdout)
        assert found is not None, info
        decisions, left, timeout = int(found[1]), int(found[2]), found[3]
        mine = [d for d in timing["decisions"] if d["seat"] == run.seat]
        assert decisions == len(mine), info
        # What its last to-move said it had: the bank, less what its decisions before the last
        # took, plus their increments (the server's own figures).
        before_last = mine[:-1]
        expected = BANK
        for decision in before_last:
            expected = max(0, expected - decision["spent_ms"]) + INCREMENT
        assert left == expected, info
        assert timeout == "-", info
