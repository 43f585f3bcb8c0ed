"""Deck, deal, cut and seats (RULINGS P2, P3, P15)."""

from __future__ import annotations

import math
import random

import pytest
from planets_positions import full_deal, game, play_hand

from hipparchusd.games.planets import Card, PlanetsGame, cut_dealer, parse_cards
from hipparchusd.games.planets.model import deck_mask, hand_size
from hipparchusd.games.planets.rules import check_deal, check_masks, draw_cut, shuffled_deal


@pytest.mark.parametrize(
    ("players", "galaxies", "cards", "each"),
    [
        (3, False, 54, 18),
        (4, False, 56, 14),
        (5, False, 55, 11),
        (6, False, 54, 9),
        (6, True, 60, 10),
    ],
)
def test_p2_cards_in_play_by_player_count(
    players: int, galaxies: bool, cards: int, each: int
) -> None:
    assert deck_mask(players, galaxies).bit_count() == cards
    assert hand_size(players, galaxies) == each
    deal = shuffled_deal(random.Random(players), players, galaxies)
    assert [hand.bit_count() for hand in deal] == [each] * players
    assert sum(deal) == deck_mask(players, galaxies)


@pytest.mark.parametrize(("players", "galaxies"), [(3, False), (4, False), (5, False), (6, True)])
def test_the_deal_is_fisher_yates_over_the_digits_of_one_draw(players: int, galaxies: bool) -> None:
    """A seeded deal is the textbook Fisher-Yates shuffle of the sorted deck, position i (from
    the last down) swapped with j, the next digit of one draw in the factorial number system
    (the draw taken as the deal takes it: n! times the 64 spare bits, drawn again above the
    last complete multiple), dealt in order: seeded games replay the same deals."""
    deck = [card for card in Card if deck_mask(players, galaxies) >> card & 1]
    size = len(deck)
    for seed in range(20):
        orders = math.factorial(size)
        bits = orders.bit_length() + 64
        draws = random.Random(seed)
        number = draws.getrandbits(bits)
        while number >= (1 << bits) // orders * orders:
            number = draws.getrandbits(bits)
        cards = list(deck)
        for i in range(size - 1, 0, -1):
            number, j = divmod(number, i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        each = size // players
        expected = tuple(
            sum(1 << card for card in cards[seat * each : seat * each + each])
            for seat in range(players)
        )
        assert shuffled_deal(random.Random(seed), players, galaxies) == expected


@pytest.mark.parametrize("players", [2, 7, 0])
def test_p2_three_to_six_players(players: int) -> None:
    with pytest.raises(ValueError, match="3 to 6"):
        PlanetsGame(players=players)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_p2_all_galaxies_only_for_six(players: int) -> None:
    with pytest.raises(ValueError, match="six players only"):
        PlanetsGame(players=players, galaxies=True)


def test_p2_a_deal_must_be_the_deck_in_equal_hands() -> None:
    deal = full_deal(4)
    check_masks(deal, 4, False)
    with pytest.raises(ValueError, match="4 hands, not 3"):
        check_masks(deal[:3], 4, False)
    swapped = (*deal[:3], deal[3] & ~(1 << Card.VG) | (1 << Card.JG))
    with pytest.raises(ValueError, match="JG is not in the deck"):
        check_masks(swapped, 4, False)
    with pytest.raises(ValueError, match="hand 0 has 13 cards"):
        check_masks((deal[0] & ~(1 << Card.E1), deal[1] | (1 << Card.E1), *deal[2:]), 4, False)
    with pytest.raises(ValueError, match="names a card twice"):
        check_deal([parse_cards("E1,E1")], 3)


def test_p3_the_cut_highest_suit_deals_earth_above_venus() -> None:
    # Earth > Jupiter > Mars > Neptune > Saturn > Venus, whatever the ranks.
    assert cut_dealer(parse_cards("VG,E1,JS")) == 1
    assert cut_dealer(parse_cards("J1,JS,M7,NS")) == 1  # same suit: the rank decides
    assert cut_dealer(parse_cards("SS,NS,V1")) == 1
    assert cut_dealer(parse_cards("V1,VG,S2,V7")) == 2
    assert cut_dealer(parse_cards("E1,E2,E3,E4,E5,E6")) == 5
    with pytest.raises(ValueError):
        cut_dealer(parse_cards("E1,E1"))


def test_p3_a_game_without_dealer_draws_the_cut_and_records_it() -> None:
    for seed in range(5):
        created = PlanetsGame(players=5, seed=seed)
        record = created.record()
        assert record.cut is not None and len(set(record.cut)) == 5
        assert record.first_dealer == cut_dealer(record.cut)
        assert created.view(None).dealer == record.first_dealer
        # The seed makes the cut reproducible.
        assert PlanetsGame(players=5, seed=seed).record().cut == record.cut
    assert draw_cut(random.Random(1), 3) != draw_cut(random.Random(2), 3)


CYCLES = {
    3: ("left", "right", "split"),
    4: ("left", "right", "across", "split"),
    5: ("left", "right", "left2", "right2", "none"),
    6: ("left", "left2", "across", "right2", "right", "none"),
}


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_p3_p15_the_deal_rotates_left_and_the_pass_follows_the_hand_number(players: int) -> None:
    played = game(players, dealer=players - 1, seed=3)
    rng = random.Random(players)
    dealers = [played.view(None).dealer]
    passes = [played.view(None).pass_name]
    while len(dealers) < players + 2:
        play_hand(played, rng)
        assert played.outcome is None
        dealers.append(played.view(None).dealer)
        passes.append(played.view(None).pass_name)
    assert dealers == [(players - 1 + hand) % players for hand in range(players + 2)]
    # P15: the pass cycle runs by hand number, whoever deals.
    cycle = CYCLES[players]
    assert passes == [cycle[hand % len(cycle)] for hand in range(players + 2)]


def test_p15_seeded_deals_are_reproducible_and_differ_by_hand() -> None:
    first = PlanetsGame(players=4, dealer=0, seed=11)
    again = PlanetsGame(players=4, dealer=0, seed=11)
    assert first.state.hand.dealt == again.state.hand.dealt
    assert first._deal(2) == again._deal(2) != first._deal(1)
    assert first.fixed_deal and not PlanetsGame(players=4, dealer=0).fixed_deal
