"""``hipparchusd match``'s command line: bad players and options are refused before anything
is played, and the game kind defaults to the registry's first."""

from __future__ import annotations

import pytest

from hipparchusd.cli import main as cli_main
from hipparchusd.games.registry import BUILT_IN
from hipparchusd.match.cli import build_parser


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
