"""``hipparchusd match``'s command line: bad players and options are refused before anything
is played, and the game kind defaults to the registry's first."""

from __future__ import annotations

import pytest

from hipparchusd.cli import main as cli_main
from hipparchusd.games.registry import BUILT_IN
from hipparchusd.match.cli import build_parser
from hipparchusd.match.config import MatchError, parse_tc


def test_bad_players_and_options_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["random"], ["random", "grandmaster"], ["random", "random", "-o", "seed=3"]):
        with pytest.raises(SystemExit) as exit_info:
            cli_main(["match", *args])
        assert exit_info.value.code == 2
    assert "grandmaster" in capsys.readouterr().err


def test_the_kind_defaults_to_the_registrys_first() -> None:
    assert build_parser().parse_args(["random", "random"]).kind == BUILT_IN[0].name


def test_an_unknown_kind_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli_main(["match", "random", "random", "--kind", "nonesuch"])
    assert exit_info.value.code == 2
    assert "unknown kind 'nonesuch'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("tc", "clock"),
    [
        ("60+1", "1m+1s"),
        ("10+0.1", "10s+0.1s"),
        ("0.5", "0.5s"),
        ("5m+3s", "5m+3s"),
        ("30s/move", "30s/move"),
    ],
)
def test_a_cutechess_time_control_is_the_daemons_clock(tc: str, clock: str) -> None:
    assert parse_tc(tc) == clock


@pytest.mark.parametrize(
    ("tc", "why"),
    [("40/60+1", "moves/time controls are not served"), ("fast", "not a duration")],
)
def test_a_time_control_the_daemon_does_not_serve_is_refused(
    tc: str, why: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(MatchError, match=why):
        parse_tc(tc)
    with pytest.raises(SystemExit) as exit_info:
        cli_main(["match", "random", "random", "--tc", tc])
    assert exit_info.value.code == 2
    assert why in capsys.readouterr().err
