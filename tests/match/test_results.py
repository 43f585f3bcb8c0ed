"""A match's results file (hipparchusd.match.results): it resumes only its own match, and a
file of another match, or no results file at all, is refused with a sentence that says how it
differs, never a Python repr, and left as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hipparchusd.match.config import Config, GameResult, MatchError
from hipparchusd.match.results import load_results, save_results

CONFIG = Config("hipparchus", ("random", "heuristic"), (), 1, 2)
GAME = GameResult(0, 0, (0, 1), (0,), (2, 0), None, "g1")


def test_a_results_file_resumes_its_own_match(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    assert load_results(path, CONFIG) == []
    save_results(path, CONFIG, [GAME], None)
    assert load_results(path, CONFIG) == [GAME]


@pytest.mark.parametrize(
    ("other", "says"),
    [
        (
            Config("hipparchus", ("heuristic", "random"), (), 1, 2),
            "its players are random and heuristic, not heuristic and random",
        ),
        (Config("hipparchus", ("random", "heuristic"), (), 7, 2), "its seed is 1, not 7"),
        (
            Config("planets", ("random", "heuristic"), ("players=4",), 1, 4),
            "its game is hipparchus, not planets; its options are none, not players=4; "
            "it has 2 seats, not 4",
        ),
    ],
)
def test_another_matchs_file_is_refused_in_plain_words(
    tmp_path: Path, other: Config, says: str
) -> None:
    path = tmp_path / "match.json"
    save_results(path, CONFIG, [GAME], None)
    before = path.read_text()
    with pytest.raises(MatchError) as refused:
        load_results(path, other)
    assert str(refused.value) == (
        f"{path} holds another match ({says}): give another --output to start this one"
    )
    assert "Config(" not in str(refused.value)
    assert path.read_text() == before


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("not json", "it is not JSON (Expecting value, line 1)"),
        (json.dumps({"games": []}), "it has no 'config' field"),
        (json.dumps({"config": [], "games": []}), "its fields are not a match's"),
    ],
)
def test_a_file_that_is_no_results_file_is_refused(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "match.json"
    path.write_text(text)
    with pytest.raises(MatchError) as refused:
        load_results(path, CONFIG)
    assert str(refused.value) == f"{path} is not a results file of this program: {says}"
    assert path.read_text() == text
