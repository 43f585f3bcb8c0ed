"""hipparchus-play's display and input rules (hipparchusd.play.table), without a server."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from hipparchusd.play.app import parse_args, wants_symbols
from hipparchusd.play.table import (
    Style,
    clumps,
    follow_view,
    hand_text,
    pick_move,
    round_result,
    table_view,
)

LEGAL = [
    {"move": "1S@1", "suit": "S", "count": 1, "position": 1, "clump": [1]},
    {"move": "1M@2", "suit": "M", "count": 1, "position": 2, "clump": [2, 3, 4, 5]},
    {"move": "2M@2", "suit": "M", "count": 2, "position": 2, "clump": [2, 3, 4, 5]},
    {"move": "3M@2", "suit": "M", "count": 3, "position": 2, "clump": [2, 3, 4, 5]},
]

VIEW = {
    "seat": 1,
    "hand": "SMMMME",
    "hand_sizes": [5, 6],
    "won": [[1, 0, 2], [0, 3, 0]],
    "set_aside": [0, 0, 0],
    "leader": 0,
    "lead": "2E",
    "round_number": 2,
    "round_wins": [1, 0],
}
"""Seat 1's view in the middle of round 2 (a spectator's has no hand and ``seat`` ``None``)."""
PAST = [{"round_number": 1, "result": {"totals": [4, 3], "winner": 0}}]
"""The ``round-over`` data of round 1."""


def render(renderable: object, width: int = 100) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderable)
    assert isinstance(console.file, io.StringIO)
    return console.file.getvalue()


def test_clumps_keep_hand_order() -> None:
    # RULINGS H1, H2: maximal runs of one suit, in the order dealt.
    assert clumps("SSMEEES") == [(1, "SS"), (3, "M"), (4, "EEE"), (7, "S")]
    assert clumps("") == []


def test_hand_text_letters_and_symbols() -> None:
    assert hand_text("SSMEEES", Style(symbols=False)).plain == "1[SS] 3[M] 4[EEE] 7[S]"
    assert hand_text("SSM", Style(symbols=True)).plain == "1[☉☉] 3[☽]"
    assert hand_text("-", Style(symbols=False)).plain == "(empty)"


def test_pick_move_by_number_or_notation() -> None:
    assert pick_move("1", LEGAL) == "1S@1"
    assert pick_move(" 4 ", LEGAL) == "3M@2"
    assert pick_move("0", LEGAL) is None
    assert pick_move("5", LEGAL) is None
    assert pick_move("2M@2", LEGAL) == "2M@2"
    assert pick_move("2m@4", LEGAL) == "2M@2"  # any position inside the clump
    assert pick_move("2M@6", LEGAL) is None
    assert pick_move("4M@2", LEGAL) is None  # never more than 3 cards
    assert pick_move("2E@2", LEGAL) is None
    assert pick_move("banana", LEGAL) is None


def test_symbols_only_where_the_output_can_encode_them() -> None:
    utf8 = Console(file=io.TextIOWrapper(io.BytesIO(), encoding="utf-8"))
    latin = Console(file=io.TextIOWrapper(io.BytesIO(), encoding="latin-1"))
    assert wants_symbols(utf8, force_ascii=False)
    assert not wants_symbols(utf8, force_ascii=True)
    assert not wants_symbols(latin, force_ascii=False)


def test_table_view_shows_what_the_seat_may_see() -> None:
    text = render(table_view(VIEW, ["alice", "bob"], ["1E@6"], Style(symbols=False), PAST))
    assert "Round 2 | round wins: you 0 - 1 alice (first to 2) | round 1: you 3 - 4 alice" in text
    assert "alice holds 5 cards" in text
    assert "Trick: alice led 2E EE" in text  # plays are public as count and suit (H13)
    assert "Hand: 1[S] 2[MMMM] 6[E]" in text
    assert "[1] 1E@6 E" in text
    cells = [line.replace("|", " ").split() for line in text.splitlines()]
    rows = {cell[0]: cell[1:] for cell in cells if cell}
    assert rows["you"] == ["0", "3", "0"]
    assert rows["alice"] == ["1", "0", "2"]


def test_style_draws_the_cards_of_a_play_with_or_without_a_position() -> None:
    # Own legal moves carry positions; events and views give plays as count and suit (H13).
    letters, symbols = Style(symbols=False), Style(symbols=True)
    assert letters.play("2E@5").plain == "2E@5 EE"
    assert letters.play("3M").plain == "3M MMM"
    assert symbols.play("1S").plain == "1S ☉"
    assert letters.play("-").plain == "-"  # no play: nothing drawn


def test_a_spectators_table_names_both_seats_and_shows_no_hand() -> None:
    # RULINGS H13: a spectator's view has no hand; it sees both hand sizes and won piles.
    view = {**VIEW, "seat": None, "hand": None, "leader": 1}
    text = render(table_view(view, ["alice", None], [], Style(symbols=False), PAST), width=140)
    assert "round wins: alice (seat 0) 1 - 0 seat 1 (first to 2)" in text
    assert "round 1: alice (seat 0) 4 - 3 seat 1" in text
    assert "alice (seat 0) holds 5 cards, seat 1 holds 6 cards" in text
    assert "Trick: seat 1 led 2E EE" in text
    assert "Hand" not in text and "Legal" not in text
    rows = [line.replace("|", " ").split() for line in text.splitlines()]
    assert ["alice", "(seat", "0)", "1", "0", "2"] in rows
    assert ["seat", "1", "0", "3", "0"] in rows


def test_a_spectators_round_result_is_in_seat_order() -> None:
    data = {
        "round_number": 1,
        "result": {"totals": [2, 5], "winner": 1, "scores": [[2, 0, 0], [0, 1, 4]]},
        "round_wins": [0, 1],
    }
    text = round_result(data, None, ["al", "bo"]).plain
    assert text.startswith("Round 1 over: al (seat 0) 2 - 5 bo (seat 1); bo (seat 1) won")
    assert "al (seat 0) 2 0 0, bo (seat 1) 0 1 4" in text
    assert text.endswith("Round wins: al (seat 0) 0 - 1 bo (seat 1)")
    # A seat's point of view is unchanged: itself first, as "you".
    assert round_result(data, 1, ["al", "bo"]).plain.startswith("Round 1 over: you 5 - 2 al")


def test_follow_view_keeps_a_spectators_table_from_the_events() -> None:
    view = follow_view(
        None, "round-started", {"round_number": 2, "leader": 1, "round_wins": [1, 0]}
    )
    assert view["hand_sizes"] == [14, 14] and view["hand"] is None  # RULINGS H12, H13
    view = follow_view(view, "played", {"seat": 1, "play": "2E", "hand_size": 12})
    assert view["lead"] == "2E" and view["hand_sizes"] == [14, 12]
    after = follow_view(view, "played", {"seat": 0, "play": "1M", "hand_size": 13})
    assert after["lead"] == "2E" and view["hand_sizes"] == [14, 12]  # not changed in place
    trick = {"leader": 1, "lead": "2E", "follow": "1M", "winner": 0}
    after = follow_view(after, "trick", {"number": 1, "trick": trick, "won": [[0, 1, 2], [0] * 3]})
    assert after["lead"] is None and after["leader"] == 0 and after["tricks"] == [trick]
    assert after["won"] == [[0, 1, 2], [0, 0, 0]] and after["hand_sizes"] == [13, 12]
    stopped = follow_view(view, "no-follow", {"number": 1, "trick": {}, "set_aside": [0, 0, 2]})
    assert stopped["set_aside"] == [0, 0, 2] and stopped["lead"] is None


@pytest.mark.parametrize("extra", [["--seed", "3"], ["--leader", "0"], ["--name", "al"]])
def test_watch_takes_no_seat_options(extra: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        parse_args(["--watch", "g1", *extra])
    assert exit_info.value.code == 2
    assert "not allowed with --watch" in capsys.readouterr().err
    for other in (["--game", "g1"], ["--resume", "t"]):
        with pytest.raises(SystemExit):
            parse_args(["--watch", "g1", *other])
    assert parse_args(["--watch", "g1"]).watch == "g1"


@pytest.mark.parametrize("extra", [["--seed", "3"], ["--leader", "0"]])
@pytest.mark.parametrize("which", [["--game", "g1"], ["--resume", "t"]])
def test_new_game_options_are_refused_for_an_existing_game(
    which: list[str], extra: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """The deal of a game being joined or resumed is already decided: an option that would
    set it is an error, not silently ignored."""
    with pytest.raises(SystemExit) as exit_info:
        parse_args([*which, *extra])
    assert exit_info.value.code == 2
    assert f"for a new game only, not with {which[0]}" in capsys.readouterr().err
    assert parse_args([*which, "--name", "al"]).name == "al"
    assert parse_args(["--seed", "3", "--leader", "0"]).seed == 3
