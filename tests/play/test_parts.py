"""hipparchus-play's shared parts without a screen (hipparchusd.play): the command line, the
computer opponents' levels, the words of a sentence and the saved seats."""

from __future__ import annotations

import json
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from hipparchusd.games.base import GameOver, Outcome
from hipparchusd.lobby.messages import LOBBY_EVENTS
from hipparchusd.play.app import parse_args, wants_symbols
from hipparchusd.play.opponents import check_levels, seat_range
from hipparchusd.play.phrases import game_over_without_result, sentence
from hipparchusd.play.seats import SavedSeat, SeatStore

# --- the command line -------------------------------------------------------------------------


def test_without_a_game_the_lobby_opens() -> None:
    options = parse_args([])
    assert (options.game, options.watch, options.resume, options.new) == (None,) * 4


def test_new_game_options() -> None:
    # Without --new, the options are for the first kind the server lists ("").
    options = parse_args(["--seed", "7", "--leader", "0"])
    assert options.new == "" and options.options == ["seed=7", "leader=0"]
    other = parse_args(["--new", "highcard", "--option", "best_of=3"])
    assert other.new == "highcard" and other.options == ["best_of=3"]


def test_computer_opponents_for_a_new_game() -> None:
    # The one command: a game of planets against three engine seats.
    options = parse_args(["--new", "planets", "--bot", "ismcts", "--bot", "heuristic", "--bot",
                          "heuristic"])  # fmt: skip
    assert options.new == "planets" and options.bots == ["ismcts", "heuristic", "heuristic"]
    # Like the other options of a new game, --bot alone is for the server's first kind.
    assert parse_args(["--bot", "random"]).new == ""
    assert parse_args([]).bots == []


def test_bot_levels_are_checked_against_the_servers() -> None:
    offered = ("random", "heuristic", "ismcts")
    check_levels(["ismcts", "heuristic", "ismcts:200ms"], offered, "planets")  # a budget is
    check_levels([], (), "highcard")  # the server's to judge; no opponent asked, none needed
    with pytest.raises(
        ValueError,
        match=r"'genius': not a level this server offers for "
        r"planets \(it offers random, heuristic, ismcts, weakest first\)",
    ):
        check_levels(["heuristic", "genius"], offered, "planets")  # fmt: skip
    with pytest.raises(ValueError, match="no computer opponent for highcard"):
        check_levels(["random"], (), "highcard")
    # A server that does not list its levels judges them itself.
    check_levels(["genius"], None, "planets")


def test_seat_ranges_as_kinds_gives_them() -> None:
    assert seat_range("2") == (2, 2) and seat_range("3-6") == (3, 6)
    with pytest.raises(ValueError, match="not a number or range"):
        seat_range("many")


def test_a_sentence_keeps_a_players_name_as_written() -> None:
    names = ["bot-ismcts", "bob", "Al"]
    assert sentence("bot-ismcts takes it with VS", names) == "bot-ismcts takes it with VS"
    assert sentence("bob takes it", names) == "bob takes it"
    assert sentence("you take it", names) == "You take it"
    assert sentence("same suit: 3 Moons beat 1 Moon", names) == "Same suit: 3 Moons beat 1 Moon"
    # A name is a whole word: "bobby" is no "bob".
    assert sentence("bobby takes it", names) == "Bobby takes it"
    assert sentence("bot-ismcts-2 takes it", names) == "Bot-ismcts-2 takes it"
    assert sentence("bot-ismcts-2 takes it", [*names, "bot-ismcts-2"]) == "bot-ismcts-2 takes it"


def test_resume_takes_a_token_or_the_saved_one() -> None:
    assert parse_args(["--resume"]).resume == ""
    assert parse_args(["--resume", "abc"]).resume == "abc"


@pytest.mark.parametrize(
    "argv",
    [
        ["--game", "g1", "--seed", "3"],
        ["--watch", "g1", "--name", "x"],
        ["--option", "players"],
        ["--watch", "g1", "--delay", "-1"],
        ["--game", "g1", "--watch", "g2"],
        ["--game", "g1", "--bot", "ismcts"],
        ["--watch", "g1", "--bot", "random"],
    ],
)
def test_bad_command_lines_exit_2(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        parse_args(argv)
    assert exited.value.code == 2


def test_symbols_only_for_utf8() -> None:
    assert wants_symbols("utf-8", False) and wants_symbols("UTF8", False)
    assert not wants_symbols("utf-8", True)
    assert not wants_symbols("latin-1", False) and not wants_symbols(None, False)


# --- saved seats ----------------------------------------------------------------------------------


def seat(game: str, token: str, port: int = 7460) -> SavedSeat:
    return SavedSeat("127.0.0.1", port, game, "highcard", 2, "ann", token)


def test_saved_seats_are_readable_by_the_user_alone(tmp_path: Path) -> None:
    store = SeatStore(tmp_path / "data")
    store.save(seat("g1", "t1"))
    store.save(seat("g2", "t2"))
    store.save(seat("g3", "t3", port=9000))
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(store.directory.stat().st_mode) == 0o700
    assert [s.game for s in store.for_server("127.0.0.1", 7460)] == ["g2", "g1"]  # newest first
    store.save(seat("g1", "t1b"))  # the same game again: replaced
    assert [s.token for s in store.load()] == ["t2", "t3", "t1b"]
    store.forget("t2")
    assert [s.game for s in store.load()] == ["g3", "g1"]


def test_a_damaged_seats_file_loses_the_seats_not_the_program(tmp_path: Path) -> None:
    store = SeatStore(tmp_path)
    store.path.write_text("{not json", encoding="utf-8")
    assert store.load() == []
    store.path.write_text(json.dumps([{"game": "g1"}]), encoding="utf-8")
    assert store.load() == []


# --- the daemon's side --------------------------------------------------------------------------


def test_the_daemon_imports_no_part_of_a_client() -> None:
    """The daemon, its registry and every kind's rules load without the terminal client or a
    game's terminal screen (issue 22: only the client imports them)."""
    code = (
        "import sys, hipparchusd.__main__, hipparchusd.server, hipparchusd.games.registry\n"
        "print(sorted(m for m in sys.modules if m.startswith('hipparchusd.play') "
        "or '.tui' in m or m.startswith('textual')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_a_game_without_a_result_says_how_it_ended_and_names_no_winner() -> None:
    # The lobby's own game-over data for each way a game ends with nobody winning.
    def line(outcome: Outcome) -> str | None:
        return game_over_without_result(dict(LOBBY_EVENTS[GameOver](GameOver.of(outcome))))

    assert line(Outcome.abandonment()) == "Game over: abandoned, nobody won"
    assert line(Outcome.operator_end()) == "Game over: ended by the server's operator, nobody won"
    assert line(Outcome.abortion()) == (
        "Game over: aborted, no result (a first decision did not come in time)"
    )
    # A game with a winner, a flag's too, gets the line that names it.
    assert line(Outcome((1,), (0, 0), resigned=0, timeout=0)) is None
    assert line(Outcome((0,), (2, 1))) is None
