"""The time options' notation (RULINGS T1-T5; PROTOCOL.md, "Clocks"): durations, controls, and
the defaults of the absence grace and the first-move limit, on exact numbers."""

from __future__ import annotations

import pytest

from hipparchusd.clocks import (
    Absence,
    TimeControl,
    Timeout,
    TimeRules,
    format_duration,
    parse_duration,
    split_options,
)


@pytest.mark.parametrize(
    ("text", "ms"),
    [
        ("30s", 30_000),
        ("5m", 300_000),
        ("1.5h", 5_400_000),
        ("3d", 259_200_000),
        ("0.1s", 100),
        ("0.001s", 1),
        ("0s", 0),
        ("100d", 8_640_000_000),
    ],
)
def test_durations_are_whole_milliseconds(text: str, ms: int) -> None:
    assert parse_duration(text) == ms


@pytest.mark.parametrize(
    "text", ["30", "5 m", "1.2345s", "-1s", "1e3s", "5M", "101d", "", "5m3s", "٣s", ".5s"]
)
def test_a_bad_duration_is_refused_saying_why(text: str) -> None:
    with pytest.raises(ValueError, match=r"duration|100 days"):
        parse_duration(text)


@pytest.mark.parametrize(
    ("ms", "text"),
    [(300_000, "5m"), (90_000, "90s"), (100, "0.1s"), (1500, "1.5s"), (86_400_000, "1d"),
     (3_600_000, "1h"), (1, "0.001s"), (0, "0s")],
)  # fmt: skip
def test_a_duration_is_written_in_the_largest_unit_that_holds_it(ms: int, text: str) -> None:
    assert format_duration(ms) == text
    assert parse_duration(text) == ms


@pytest.mark.parametrize(
    ("text", "bank", "increment", "cap", "canonical"),
    [
        ("5m+3s", 300_000, 3000, None, "5m+3s"),
        ("5m", 300_000, 0, None, "5m"),
        ("300s+0s", 300_000, 0, None, "5m"),
        ("30s/move", None, 0, 30_000, "30s/move"),
        ("3d/move", None, 0, 259_200_000, "3d/move"),
        ("5m+3s,30s/move", 300_000, 3000, 30_000, "5m+3s,30s/move"),
        ("30s/move,5m+3s", 300_000, 3000, 30_000, "5m+3s,30s/move"),
        ("10s+0.1s", 10_000, 100, None, "10s+0.1s"),
    ],
)
def test_controls(
    text: str, bank: int | None, increment: int, cap: int | None, canonical: str
) -> None:
    control = TimeControl.parse(text)
    assert (control.bank, control.increment, control.cap) == (bank, increment, cap)
    assert str(control) == canonical
    assert TimeControl.parse(canonical) == control


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("5m+3s+1s", "duration"),
        ("5m,6m", "two banks"),
        ("30s/move,1m/move", "two caps"),
        ("0.05s", "at least 0.1s"),
        ("0.05s/move", "at least 0.1s"),
        ("5m,30s/move,1s/move", "a bank, a cap"),
        ("+3s", "duration"),
        ("5m+", "duration"),
        ("30s+1s/move", "duration"),
    ],
)
def test_a_bad_control_is_refused_saying_why(text: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        TimeControl.parse(text)


def test_correspondence_is_days_per_move_and_no_bank() -> None:
    assert TimeControl.parse("3d/move").correspondence
    assert TimeControl.parse("1d/move").correspondence
    assert not TimeControl.parse("23h/move").correspondence
    assert not TimeControl.parse("5d+1d").correspondence


def split(**options: str) -> tuple[TimeRules, dict[str, str]]:
    return split_options(options, timeout=Timeout.RESIGN, on_absence=Absence.CLAIM)


def test_an_untimed_game_keeps_its_own_options_and_a_five_minute_absence_grace() -> None:
    rules, rest = split(leader="0", seed="3")
    assert rest == {"leader": "0", "seed": "3"}
    assert rules == TimeRules(None, Timeout.RESIGN, 300_000, Absence.CLAIM, None)
    assert not rules.timed


def test_a_timed_game_defaults_to_a_minute_of_absence_and_30_s_for_the_first_move() -> None:
    rules, rest = split(clock="5m+3s", leader="1")
    assert rest == {"leader": "1"}
    assert rules.control == TimeControl(300_000, 3000)
    assert (rules.absence, rules.first_move) == (60_000, 30_000)


def test_the_first_move_limit_is_never_past_the_first_decisions_time() -> None:
    """A seat that never moves aborts the game rather than losing it (T5 before T2)."""
    assert split(clock="10s+0.1s")[0].first_move == 10_000
    assert split(clock="5m,20s/move")[0].first_move == 20_000
    assert split(clock="30s/move")[0].first_move == 30_000
    assert split(clock="2m/move")[0].first_move == 120_000


def test_correspondence_has_no_absence_grace_and_a_first_move_of_its_cap() -> None:
    rules, _ = split(clock="3d/move")
    assert rules.absence is None
    assert rules.first_move == 259_200_000


def test_the_time_options_given() -> None:
    rules, _ = split(clock="1m", timeout="autoplay", absence="off", first_move="5s")
    assert (rules.timeout, rules.absence, rules.first_move) == (Timeout.AUTOPLAY, None, 5000)
    rules, _ = split(clock="1m", first_move="off", absence="2m")
    assert (rules.first_move, rules.absence) == (None, 120_000)
    assert split(absence="10s")[0].absence == 10_000


def test_the_kinds_defaults_apply() -> None:
    rules, _ = split_options({"clock": "1m"}, timeout=Timeout.AUTOPLAY, on_absence=Absence.ENGINE)
    assert (rules.timeout, rules.on_absence) == (Timeout.AUTOPLAY, Absence.ENGINE)
    rules, _ = split_options(
        {"clock": "1m", "timeout": "resign"}, timeout=Timeout.AUTOPLAY, on_absence=Absence.ENGINE
    )
    assert rules.timeout is Timeout.RESIGN


@pytest.mark.parametrize(
    ("options", "why"),
    [
        ({"clock": "5"}, "bad clock '5'"),
        ({"clock": "1m", "timeout": "lose"}, "timeout must be resign or autoplay"),
        ({"timeout": "resign"}, "timeout= is for timed games"),
        ({"first_move": "10s"}, "first_move= is for timed games"),
        ({"clock": "1m", "absence": "soon"}, "absence must be a duration or off"),
        ({"clock": "1m", "first_move": "never"}, "first_move must be a duration or off"),
    ],
)
def test_bad_time_options_are_refused_saying_why(options: dict[str, str], why: str) -> None:
    with pytest.raises(ValueError, match=why):
        split(**options)
