"""The daemon's options as Settings declares them (hipparchusd.settings): every field is an
option that ``hipparchusd --help`` explains with its declared help and default, and that the
configuration file knows by the same name; what a reload applies is declared per option."""

from __future__ import annotations

import attrs
import pytest

from hipparchusd.cli import build_parser, parse_settings
from hipparchusd.config_file import DAEMON_SCHEMA
from hipparchusd.games.registry import KINDS
from hipparchusd.option_fields import declared
from hipparchusd.settings import Settings

SETTINGS = declared(Settings)


def _help() -> str:
    return " ".join(build_parser().format_help().split())


def test_every_field_is_an_option_of_the_command_line_and_the_file() -> None:
    assert [s.field for s in SETTINGS] == [f.name for f in attrs.fields(Settings)]
    assert [key.name for key in DAEMON_SCHEMA.keys] == [s.name for s in SETTINGS]


def test_help_says_what_each_declaration_says() -> None:
    text = _help()
    for setting in SETTINGS:
        declared_help = " ".join(setting.option.help.split())
        assert f"{declared_help} (default {setting.default_shown})" in text, setting.name


def test_help_names_the_games_served() -> None:
    text = _help()
    assert "card games" in text
    for kind in KINDS.values():
        assert f"{kind.name} ({' '.join(kind.summary.split())})" in text


def test_every_amount_of_time_says_its_unit() -> None:
    for setting in SETTINGS:
        if setting.kind is float:
            assert setting.option.unit in ("seconds", "days"), setting.name
            assert setting.metavar == setting.option.unit.upper()


def test_what_needs_a_restart() -> None:
    # The listeners are bound (the admin socket and the metrics listener too), the state
    # directory opened (with its retention) and the worker processes started once, at
    # start-up (systemd/README.md, "Configuration").
    assert {s.name for s in SETTINGS if not s.option.reloadable} == {
        "host",
        "port",
        "state-dir",
        "retention-days",
        "engine-workers",
        "engine-start",
        "ws-host",
        "ws-port",
        "admin-socket",
        "metrics-host",
        "metrics-port",
        # The store is opened, the node registered and the bus joined once (issue 28).
        "store",
        "node",
        "node-lease",
        "bus",
        "reuse-port",
    }


def test_the_command_line_reads_values_as_the_file_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert parse_settings(["--config", "", "--log-level", "DEBUG"]).log_level == "debug"
    with pytest.raises(SystemExit):
        parse_settings(["--config", "", "--state-dir", ""])
    assert "--state-dir: must not be empty" in capsys.readouterr().err
