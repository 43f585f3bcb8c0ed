"""Notation: plays, hands and position strings; parse errors say what and where."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from hipparchusd.games.hipparchus import Hand, MatchState, Play, PlayedCards, RoundState, Suit
from hipparchusd.games.hipparchus.model import play_of
from hipparchusd.games.hipparchus.notation import (
    NotationError,
    format_cards,
    format_deal,
    format_hand,
    format_play,
    format_position,
    format_round_position,
    parse_cards,
    parse_deal,
    parse_hand,
    parse_play,
    parse_play_text,
    parse_position,
    parse_round_position,
)

S, M, E = Suit.SUN, Suit.MOON, Suit.EARTH
START = "SSMMMEEEEESSSS/MEMSSSMMEEMEME SM 0,0,0/0,0,0 0,0,0 0 - - 1 0/0 0"


def assert_refused(parse: Callable[[str], object], text: str, where: int, what: str) -> None:
    """``parse(text)`` raises a NotationError pointing at index ``where`` whose message
    contains ``what``."""
    with pytest.raises(NotationError) as caught:
        parse(text)
    assert caught.value.position == where
    assert what in str(caught.value)


def test_play_notation_round_trips() -> None:
    assert format_play(Play(2, E, 5)) == "2E@5"
    assert parse_play_text("2E@5") == (2, E, 5)
    assert parse_play_text("3s@12") == (3, S, 12)  # lower case accepted on input


def test_every_spelling_of_a_play_parses_alike() -> None:
    # Canonical plays that fit in a hand are looked up; other spellings (lower case, a leading
    # zero, positions past a hand) go through the grammar: both must agree.
    for count in (1, 2, 3):
        for suit in Suit:
            for position in range(1, 31):
                expected = (count, suit, position)
                for text in (
                    f"{count}{suit.letter}@{position}",
                    f"{count}{suit.letter.lower()}@{position}",
                    f"{count}{suit.letter}@0{position}",
                ):
                    assert parse_play_text(text) == expected, text
                shared, new = play_of(count, suit, position), Play(count, suit, position)
                assert format_play(shared) == format_play(new) == f"{count}{suit.letter}@{position}"
                assert format_play(shared) == f"{count}{suit.letter}@{position}"  # cached


def test_any_position_inside_a_clump_gives_the_canonical_play() -> None:
    hand = parse_hand("SMMMMEE")
    for position in (2, 3, 4, 5):
        assert parse_play(f"2M@{position}", hand) == Play(2, M, 2)
    assert format_play(parse_play("1e@7", hand)) == "1E@6"


@pytest.mark.parametrize(
    ("text", "where", "what"),
    [
        ("", 0, "'': a play starts with how many cards, 1, 2 or 3 (2E@5 plays two Earths"),
        ("E@5", 0, "'E@5': a play starts with how many cards"),
        ("2X@5", 1, "'2X@5': 'X' is not a suit (S Sun, M Moon or E Earth)"),
        ("4E@5", 0, "'4E@5': a play is 1, 2 or 3 cards, not 4"),
        ("9S@1", 0, "'9S@1': a play is 1, 2 or 3 cards, not 9"),
        ("0E@5", 0, "'0E@5': a play is 1, 2 or 3 cards, not 0"),
        ("2@5", 1, "'2@5': after the count comes the suit, S Sun, M Moon or E Earth (2E@5"),
        ("2E5", 2, "'2E5': after the suit comes @, then where the cards are in your hand (2E@5"),
        ("2E@0", 3, "'2E@0': your cards are counted from 1, your leftmost card"),
        ("2E@", 3, "'2E@': after the @ comes where the cards are in your hand, 1 for your"),
        ("2E@5x", 4, "'2E@5x': nothing comes after where the cards are in your hand (2E@5"),
        ("2E@1234567890", 3, "'2E@1234567890': a hand has at most 14 cards"),
    ],
)
def test_play_parse_errors_say_what_and_where(text: str, where: int, what: str) -> None:
    assert_refused(parse_play_text, text, where, what)


def test_played_cards_notation_is_count_and_suit_only() -> None:
    # The public form of a play (RULINGS H13): what events and views show.
    assert format_cards(PlayedCards(2, E)) == "2E"
    assert format_cards(Play(3, S, 12)) == "3S"  # a play's position is left out
    assert parse_cards("2E") == PlayedCards(2, E)
    assert parse_cards("1m") == PlayedCards(1, M)  # lower case accepted on input
    for count in (1, 2, 3):
        for suit in (S, M, E):
            assert parse_cards(format_cards(PlayedCards(count, suit))) == PlayedCards(count, suit)


@pytest.mark.parametrize(
    ("text", "where", "what"),
    [
        ("", 0, "'': a play starts with how many cards, 1, 2 or 3 (2E is two Earths)"),
        ("E", 0, "'E': a play starts with how many cards"),
        ("0E", 0, "'0E': a play is 1, 2 or 3 cards, not 0"),
        ("2", 1, "'2': after the count comes the suit, S Sun, M Moon or E Earth (2E is"),
        ("2X", 1, "'2X': 'X' is not a suit (S Sun, M Moon or E Earth)"),
        ("4E", 0, "'4E': a play is 1, 2 or 3 cards, not 4"),
        # Public plays have no position.
        ("2E@5", 2, "'2E@5': played cards name no place in a hand: write 2E"),
        ("2EE", 2, "'2EE': nothing comes after the suit: write 2E"),
    ],
)
def test_played_cards_parse_errors_say_what_and_where(text: str, where: int, what: str) -> None:
    assert_refused(parse_cards, text, where, what)


def test_play_against_a_hand_names_the_problem() -> None:
    hand = parse_hand("SSM")
    with pytest.raises(NotationError, match="outside your hand of 3 cards"):
        parse_play("1S@4", hand)
    with pytest.raises(NotationError, match="card 3 of your hand is Moon, not Sun"):
        parse_play("1S@3", hand)


def test_hand_notation() -> None:
    assert format_hand(parse_hand("SSMEEM")) == "SSMEEM"
    assert parse_hand("-") == Hand(())
    assert format_hand(Hand(())) == "-"
    with pytest.raises(NotationError) as caught:
        parse_hand("SSQ")
    assert caught.value.position == 2


def test_initial_position_round_trips() -> None:
    state = parse_position(START)
    assert state.round.hands[0] == parse_hand("SSMMMEEEEESSSS")
    assert state.round.face_down == (S, M)
    assert state.round.to_move == 0
    assert state.round_number == 1 and state.first_leader == 0
    assert format_position(state) == START


def test_position_in_mid_trick_round_trips_with_lead_and_last_follower() -> None:
    # Seat 1 led 2 Suns from SS|M (position 1); seat 0 must follow.
    text = "SSS/M EE 3,9,4/2,0,4 0,0,0 1 2S@1 1 2 1/0 0"
    state = parse_position(text)
    assert state.round.lead == Play(2, S, 1)
    assert state.round.to_move == 0
    assert state.round.legal_plays() == (Play(3, S, 1),)  # a clump of 3 goes whole
    assert format_position(state) == text


def test_finished_positions_carry_their_result_and_winner() -> None:
    text = "-/E EM 5,3,4/5,6,4 0,0,0 1 - 1 3 1/2 0"
    state = parse_position(text)
    assert state.round.over and state.round.result is not None
    assert state.round.result.totals == (0, 3)
    assert state.winner == 1 and state.over
    assert format_position(state) == text


def test_round_position_is_the_match_position_prefix() -> None:
    state = parse_position(START)
    assert format_round_position(state.round) == START.rsplit(" ", 3)[0]
    assert parse_round_position(format_round_position(state.round)) == state.round


def _at(text: str, token: str) -> tuple[str, int]:
    return text, text.index(token)


@pytest.mark.parametrize(
    ("case", "what"),
    [
        (("", 0), "empty hands field"),
        (_at(START.replace(" ", "  ", 1), "  "), "empty face down field"),
        ((START + " 0", len(START) + 1), "unexpected text"),
        ((START.rsplit(" ", 1)[0], len(START) - 2), "missing the first leader field"),
        ((START.replace("/", "", 1), 0), "split by /"),
        (_at(START.replace("SSSS/", "SSSX/"), "X"), "'X' is not a suit"),
        (_at(START.replace(" SM ", " S "), " S "), "face down: expected 2"),
        (_at(START.replace("0,0,0/", "0,01,0/"), "01"), "not a count"),
        (_at(START.replace("0,0,0/", "0,0/"), "0,0/"), "three counts"),
        (_at(START.replace(" 0 - - ", " 2 - - "), " 2 - -"), "expected seat 0 or 1"),
        (_at(START.replace(" 0 - - ", " 0 2e@1 - "), "2e@1"), "expected - or a play"),
        (_at(START.replace(" 1 0/0 ", " 01 0/0 "), "01"), "round number"),
    ],
)
def test_position_syntax_errors_say_what_and_where(case: tuple[str, int], what: str) -> None:
    text, where = case
    if what in ("empty face down field", "face down: expected 2", "expected seat 0 or 1"):
        where += 1  # the field after the space
    assert_refused(parse_position, text, where, what)


@pytest.mark.parametrize(
    ("text", "what"),
    [
        # 11 Suns in all.
        (START.replace(" SM ", " SS "), "cards of"),
        # 1S@1 would tear the clump of 2 Suns of the leader's hand before it, SSM (H2).
        ("SSS/SM EE 3,9,4/2,0,4 0,0,0 1 1S@1 1 2 1/0 0", "not a play of the leader"),
        # A lead that the follower cannot answer: H6 would have ended the round.
        ("SS/M EE 3,9,4/3,0,4 0,0,0 1 2S@1 1 2 1/0 0", "H6"),
        # Won cards but no last follower.
        ("SSS/M EE 3,9,4/2,0,4 0,0,0 1 2S@1 - 2 1/0 0", "last_follower"),
        # Round wins do not count the finished rounds.
        ("SSS/M EE 3,9,4/2,0,4 0,0,0 1 2S@1 1 2 1/1 0", "round wins"),
        # Moon total 11 through won counts.
        ("SSS/M EE 3,10,4/2,0,4 0,0,0 1 2S@1 1 2 1/0 0", "cards of"),
    ],
)
def test_impossible_positions_are_refused(text: str, what: str) -> None:
    with pytest.raises(NotationError, match=r"impossible position|cards|round wins") as caught:
        parse_position(text)
    assert what in str(caught.value)


def test_impossible_position_error_points_at_the_field() -> None:
    text = "SSS/SM EE 3,9,4/2,0,4 0,0,0 1 1S@1 1 2 1/0 0"
    with pytest.raises(NotationError) as caught:
        parse_position(text)
    assert caught.value.position == text.index("1S@1")
    text = "SSS/M EE 3,9,4/2,0,4 0,0,0 1 2S@1 1 2 1/1 0"
    with pytest.raises(NotationError) as caught:
        parse_position(text)
    assert caught.value.position == text.index("1/1")


def test_position_keeps_no_history_but_play_restarts_identically() -> None:
    state = parse_position(START)
    match = state.play(Play(2, S, 1))
    match = match.play(Play(3, S, 4))
    restarted = parse_position(format_position(match))
    assert restarted.round.tricks == ()
    assert restarted.round.legal_plays() == match.round.legal_plays()
    move = match.round.legal_plays()[0]
    assert format_position(restarted.play(move)) == format_position(match.play(move))


def test_round_state_start_is_what_the_start_position_says() -> None:
    state = parse_position(START)
    assert state == MatchState(RoundState(state.round.hands, (S, M), 0))


def test_deal_notation_round_trips() -> None:
    text = "SSSSSMMMMMEEEE/SSSSSMMMMEEEEE/ME"
    deal = parse_deal(text)
    assert deal.hands[0].counts == (5, 5, 4) and deal.face_down == (M, E)
    assert format_deal(deal) == text
    assert parse_deal(text.lower()) == deal


@pytest.mark.parametrize(
    ("text", "where", "what"),
    [
        (
            "SSSSSMMMMMEEEE/SSSSSMMMMMEEEE",
            0,
            "a deal is seat 0's hand, seat 1's hand and the face-down cards, in suit letters "
            "split by /",
        ),
        (
            "SSSSSMMMMMEEEE/SSSSSMMMMMEEEX/ME",
            28,
            "seat 1's hand: 'X' is not a suit (S Sun, M Moon or E Earth)",
        ),
        ("SSSSSMMMMMEEE/SSSSSMMMMMEEEE/MEE", 0, "seat 0's hand has 13 cards, not 14"),
        ("SSSSSMMMMMEEEE/SSSSSMMMMMEEEE/MEE", 30, "there are 3 face-down cards, not 2"),
        ("SSSSSMMMMMEEEE/SSSSSMMMMEEEEE/SS", 0, "impossible deal: 12 cards of Sun"),
        # The example of protocol/PROTOCOL.md (version 1) has 11 Moons.
        ("SSSSSMMMMMEEEE/SSSSSMMMMMEEEE/ME", 0, "impossible deal: 11 cards of Moon"),
    ],
)
def test_deal_errors_say_what_and_where(text: str, where: int, what: str) -> None:
    assert_refused(parse_deal, text, where, what)
