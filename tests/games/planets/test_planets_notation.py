"""Cards and their notation (RULINGS P1; docs/planets.md, "Notation")."""

from __future__ import annotations

import pytest

from hipparchusd.games.planets import (
    CARDS,
    Card,
    NotationError,
    canonical_pass,
    format_card,
    format_cards,
    format_deal,
    format_hand,
    parse_card,
    parse_cards,
    parse_deal,
    pass_kind,
)
from hipparchusd.games.planets.model import BASE_DECK, cards_of, deck_mask


def test_p1_the_deck_has_six_suits_of_nine_ranks() -> None:
    deck = cards_of(BASE_DECK)
    assert len(deck) == 54
    assert {card.name[0] for card in deck} == set("EJMNSV")
    for suit in "EJMNSV":
        assert [card.name[1] for card in deck if card.name[0] == suit] == list("1234567MS")


def test_p1_ranks_low_to_high_with_the_galaxy_above_the_sun() -> None:
    order = [parse_card(f"V{rank}") for rank in "1234567MSG"]
    assert order == sorted(order)
    assert parse_card("VG") > parse_card("VS") > parse_card("VM") > parse_card("V7")


def test_every_card_round_trips_and_has_two_ascii_characters() -> None:
    assert len(CARDS) == 60
    for card in CARDS:
        text = format_card(card)
        assert len(text) == 2 and text.isascii() and text == text.upper()
        assert parse_card(text) is card
        assert parse_card(text.lower()) is card


def test_examples_of_the_notation() -> None:
    assert parse_card("V1") is Card.V1
    assert parse_card("m7") is Card.M7
    assert parse_card("Js") is Card.JS
    assert parse_card("vg") is Card.VG
    assert Card.N7.suit == 3 and Card.N7.rank == 6


@pytest.mark.parametrize(
    "text",
    ["", "V", "V10", "X1", "V0", "V8", "VX", "1V", "V 1", "Ｖ1", "VＧ", "ⅴ1", "V١"],  # noqa: RUF001
)
def test_bad_cards_are_refused(text: str) -> None:
    with pytest.raises(NotationError):
        parse_card(text)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (
            "XY",
            "'XY' is not a card: it starts with its suit's letter, E Earth, J Jupiter, M Mars, "
            "N Neptune, S Saturn or V Venus",
        ),
        (
            "V9",
            "'V9' is not a card: after the suit comes the rank, 1 to 7, M Moon, S Sun or G Galaxy",
        ),
        (
            "V10",
            "'V10' is not a card: a card is two characters, its suit's letter then its rank, as "
            "V1 (the 1 of Venus) or JS (the Sun of Jupiter)",
        ),
        ("V1,,JS", "'V1,,JS' has a comma with no card on one side (cards are split by one comma)"),
        ("JS,", "'JS,' has a comma with no card on one side (cards are split by one comma)"),
        ("", "no cards given (write - for none)"),
    ],
)
def test_a_bad_card_is_refused_saying_which_part_is_wrong(text: str, says: str) -> None:
    # Suit letters and ranks as docs/planets.md, "Notation", names them.
    with pytest.raises(NotationError) as refused:
        parse_cards(text)
    assert str(refused.value) == says


def test_hands_are_sorted_by_suit_then_rank() -> None:
    hand = parse_cards("VG,J3,E5,JS,E1")
    assert format_hand(hand) == "E1,E5,J3,JS,VG"
    assert format_cards(hand) == "VG,J3,E5,JS,E1"
    assert format_hand(()) == "-"
    assert parse_cards("-") == ()


def test_cards_keep_their_order_and_duplicates_when_parsed() -> None:
    assert parse_cards("js,v1,JS") == (Card.JS, Card.V1, Card.JS)
    with pytest.raises(NotationError):
        parse_cards("V1,,JS")


def test_deal_notation_round_trips() -> None:
    hands = parse_deal("V1,E2/JS,E1/-")
    assert hands == ((Card.E2, Card.V1), (Card.E1, Card.JS), ())
    assert format_deal(hands) == "E2,V1/E1,JS/-"
    with pytest.raises(
        NotationError, match="seat 1's hand: 'ZZ' is not a card: it starts with its suit's letter"
    ):
        parse_deal("V1/ZZ")


def test_canonical_pass_sorts_within_each_target() -> None:
    three_split = pass_kind(3, 3)  # two left, then two right
    assert canonical_pass(parse_cards("VS,E1,M7,J2"), three_split) == parse_cards("E1,VS,J2,M7")
    four_split = pass_kind(4, 4)  # left, across, right: one each, order kept
    assert canonical_pass(parse_cards("VS,E1,M7"), four_split) == parse_cards("VS,E1,M7")
    four_left = pass_kind(4, 1)
    assert canonical_pass(parse_cards("VS,E1,M7"), four_left) == parse_cards("E1,M7,VS")


def test_decks_hold_only_their_galaxies() -> None:
    assert format_hand(cards_of(deck_mask(4) & ~BASE_DECK)) == "SG,VG"
    assert format_hand(cards_of(deck_mask(5) & ~BASE_DECK)) == "VG"
    assert deck_mask(3) == deck_mask(6) == BASE_DECK
    assert format_hand(cards_of(deck_mask(6, True) & ~BASE_DECK)) == "EG,JG,MG,NG,SG,VG"
