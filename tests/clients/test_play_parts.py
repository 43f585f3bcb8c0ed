"""hipparchus-play's parts without a screen: the command line, the saved seats, following a
game from its events and the explanations of tricks, rounds and hands (hipparchusd.play)."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from hipparchusd.games.hipparchus.model import Play, Suit
from hipparchusd.games.hipparchus.notation import format_hand, parse_deal
from hipparchusd.games.hipparchus.rules import RoundState, trick_winner
from hipparchusd.play.app import parse_args, wants_symbols
from hipparchusd.play.follow import (
    card_points,
    follow_hipparchus,
    follow_planets,
    hipparchus_round_lines,
    hipparchus_trick_reason,
    planets_hand_over_lines,
    planets_trick_reason,
    sort_cards,
    without_play,
)
from hipparchusd.play.seats import SavedSeat, SeatStore
from hipparchusd.play.widgets import Look, clump_letter, clumps, hand_text, play_labels

NAMES = {0: "you", 1: "bob"}


def label(seat: int) -> str:
    return NAMES[seat]


# --- the command line -------------------------------------------------------------------------


def test_without_a_game_the_lobby_opens() -> None:
    options = parse_args([])
    assert (options.game, options.watch, options.resume, options.new) == (None,) * 4


def test_new_game_options() -> None:
    options = parse_args(["--seed", "7", "--leader", "0"])
    assert options.new == "hipparchus" and options.options == ["seed=7", "leader=0"]
    planets = parse_args(["--new", "planets", "--option", "players=3"])
    assert planets.new == "planets" and planets.options == ["players=3"]


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
    return SavedSeat("127.0.0.1", port, game, "planets", 2, "ann", token)


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


# --- Hipparchus: hands, tricks, rounds ---------------------------------------------------------


def test_clumps_keep_the_hand_order() -> None:
    # RULINGS H1, H2: maximal runs of one suit, in the order dealt.
    assert clumps("SSMEEES") == [(1, "SS"), (3, "M"), (4, "EEE"), (7, "S")]
    assert clumps("-") == []
    assert hand_text("SSM", Look(symbols=False)).plain == "1 SS  3 M"
    assert hand_text("SSM", Look(symbols=True)).plain == "1 ☉☉  3 ☽"


def test_a_play_leaves_the_hand_as_the_rules_say() -> None:
    # H1, H3: cards close up and neighbours of one suit merge.
    state = RoundState.start(parse_deal("SMSMSMSMSMEEEE/EEESSSSMMMMEES/ME"), leader=0)
    for play, text in ((Play(1, Suit.MOON, 2), "1M@2"), (Play(2, Suit.EARTH, 11), "2E@11")):
        after = state.hands[0].without(play)
        assert without_play(format_hand(state.hands[0]), text) == format_hand(after)


def test_trick_reasons_follow_h7() -> None:
    won_before = ((0, 0, 3), (2, 0, 0))  # seat 0 had won 3 Earths, seat 1 two Suns
    # Different suits: seat 0 led Earth (3 won), seat 1 followed Sun (2 won): the lower wins.
    lead, follow = Play(1, Suit.EARTH, 1), Play(3, Suit.SUN, 1)
    winner = trick_winner(0, lead, follow, won_before)
    after = [list(won_before[0]), list(won_before[1])]
    after[winner][2] += 1
    after[winner][0] += 3
    trick = {"leader": 0, "lead": "1E", "follow": "3S", "winner": winner}
    assert hipparchus_trick_reason(trick, after, label) == (
        "different suits: you had won 3 Earths, bob 2 Suns before this trick; "
        "the lower count wins, so bob takes it"
    )
    # Equal counts go to the follower.
    trick = {"leader": 1, "lead": "2S", "follow": "1M", "winner": 0}
    after = [[2, 1, 0], [2, 0, 0]]  # you took 2S and 1M; bob had won 2 Suns before
    assert hipparchus_trick_reason(trick, after, label).endswith(
        "bob had won 2 Suns, you 0 Moons before this trick; the lower count wins, so you take it"
    )
    # Same suit: more cards win.
    trick = {"leader": 0, "lead": "1M", "follow": "3M", "winner": 1}
    assert hipparchus_trick_reason(trick, [[0, 0, 0], [0, 4, 0]], label) == (
        "same suit: 3 Moons beat 1 Moon (more cards win): bob takes it"
    )
    # H6: no legal answer, no winner.
    trick = {"leader": 0, "lead": "2S", "follow": None, "winner": None}
    assert "set aside" in hipparchus_trick_reason(trick, [[0, 0, 0], [0, 0, 0]], label)


def test_equal_counts_go_to_the_follower() -> None:
    trick = {"leader": 0, "lead": "1E", "follow": "1S", "winner": 1}
    after = [[0, 0, 1], [2, 0, 1]]  # each had won one card of the suit it played
    assert hipparchus_trick_reason(trick, after, label) == (
        "different suits: you had won 1 Earth, bob 1 Sun before this trick; "
        "equal counts go to the follower, so bob takes it"
    )


def test_round_lines_score_each_suit_as_h10() -> None:
    # The worked example of docs/rules.md: won (2, 1, 6) against (5, 3, 4): 4 to 3.
    data = {
        "won": [[2, 1, 6], [5, 3, 4]],
        "result": {
            "scores": [[0, 0, 4], [2, 1, 0]],
            "totals": [4, 3],
            "winner": 0,
            "by_tie_break": False,
        },
    }
    assert hipparchus_round_lines(data, label) == [
        "Sun: you won 2, bob won 5; bob won more and scores 2 (your 2 Suns)",
        "Moon: you won 1, bob won 3; bob won more and scores 1 (your 1 Moon)",
        "Earth: you won 6, bob won 4; you won more and score 4 (bob's 4 Earths)",
        "Totals: you 4, bob 3: you win the round",
    ]


def test_a_spectator_follows_a_round_from_its_events() -> None:
    view = follow_hipparchus(None, "round-started", {"leader": 1, "round_number": 2})
    assert view is not None and view["hand"] is None and view["hand_sizes"] == [14, 14]
    view = follow_hipparchus(view, "played", {"seat": 1, "play": "2E", "hand_size": 12})
    assert view is not None and view["lead"] == "2E" and view["hand_sizes"] == [14, 12]
    trick = {"leader": 1, "lead": "2E", "follow": "1E", "winner": 1}
    view = follow_hipparchus(view, "trick", {"trick": trick, "won": [[0, 0, 0], [0, 0, 3]]})
    assert view is not None and view["lead"] is None and view["leader"] == 1
    assert view["won"] == [[0, 0, 0], [0, 0, 3]] and len(view["tricks"]) == 1


# --- planets -----------------------------------------------------------------------------------


def test_planets_cards_sort_and_score_as_p1_and_p7() -> None:
    assert sort_cards(["VG", "E5", "JS", "E1", "J3", "VS"]) == ["E1", "E5", "J3", "JS", "VS", "VG"]
    assert [card_points(c) for c in ("J1", "JS", "JG", "M7", "N7", "V7")] == [1, 1, 0, 7, 7, 0]


def test_planets_trick_reason_names_the_led_suit_and_the_points() -> None:
    names = {0: "you", 1: "bob", 2: "cy"}
    trick = {"leader": 1, "cards": ["V3", "VS", "M7"], "winner": 2, "points": 7}
    assert planets_trick_reason(trick, 3, names.__getitem__) == (
        "cy takes it with VS, the highest Venus (the led suit): 7 points (M7)"
    )


def test_planets_hand_over_says_the_shooting_choice() -> None:
    names = {0: "you", 1: "bob", 2: "cy"}
    data = {
        "points": [23, 0, 0],
        "added": [0, 23, 23],
        "totals": [10, 43, 53],
        "shooter": 0,
        "choice": "others",
    }
    lines = planets_hand_over_lines(data, names.__getitem__)
    assert lines[0] == "you: took 23 points, +0, total 10"
    assert lines[-1] == "you took every point card and chose others: 23 added to every opponent"


def test_planets_follow_the_pass_and_a_trick() -> None:
    started = {
        "hand_number": 1,
        "dealer": 2,
        "pass_name": "left",
        "pass_count": 2,
        "hand_sizes": [3, 3, 3],
    }
    view = follow_planets({"seat": 0}, "hand-started", started)
    view = follow_planets(view, "hand", {"seat": 0, "hand": ["V1", "E2", "J3"]})
    assert view is not None and view["hand"] == ["E2", "J3", "V1"] and view["phase"] == "pass"
    view["my_pass"] = ["E2", "J3"]
    for seat in (2, 0, 1):
        view = follow_planets(view, "passed", {"seat": seat})
    assert view is not None and view["passed"] == [0, 1, 2]
    view = follow_planets(view, "received", {"seat": 0, "cards": ["S4", "M1"]})
    assert view is not None and view["hand"] == ["M1", "S4", "V1"]
    for seat, card in ((0, "V1"), (1, "V5"), (2, "J2")):
        view = follow_planets(view, "played", {"seat": seat, "card": card})
    assert view is not None and view["trick"] == {"leader": 0, "cards": ["V1", "V5", "J2"]}
    trick = {"number": 1, "leader": 0, "cards": ["V1", "V5", "J2"], "winner": 1, "points": 1}
    view = follow_planets(view, "trick", {**trick, "jupiter_broken": True})
    assert view is not None and view["points_taken"] == [0, 1, 0] and view["jupiter_broken"]
    assert view["trick"] is None and view["hand_sizes"] == [2, 2, 2]


def test_plays_are_labelled_by_the_clump_shown_and_the_count() -> None:
    # SS M EEEE S: clumps a (1), b (3), c (4), d (8); a play's label never depends on the
    # list of legal plays, only on the clump it takes from as the hand is shown.
    hand = "SSMEEEES"
    assert play_labels(hand, [(4, 3), (1, 2), (8, 1), (4, 1)]) == ["c3", "a2", "d1", "c1"]
    assert play_labels(hand, []) == []
    # After b's Moon is played the hand is SSEEEES: the Earths are now clump b.
    assert play_labels(without_play(hand, "1M@3"), [(3, 2)]) == ["b2"]
    assert [clump_letter(i) for i in range(3)] == ["a", "b", "c"]
    with pytest.raises(ValueError, match="no clump starts at position 2"):
        play_labels(hand, [(2, 1)])
    with pytest.raises(ValueError, match="at most 14 clumps"):
        clump_letter(14)
