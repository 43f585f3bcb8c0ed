"""Deals of planets: the shuffle, the deal, the draws of the cut, and the checks of a given deal
(RULINGS P2, P3; docs/planets.md, "Players, deck and deal").

A deal is the seats' hands as masks (:mod:`.core`). By default the shuffle draws on the
operating system's randomness; a seed gives reproducible deals (the game is then fixed).
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Sequence

from ...wording import counted
from .core import cut_dealer
from .model import CARDS, Card, cards_of, count, deck_mask, mask_of

__all__ = [
    "check_deal",
    "check_masks",
    "cut_dealer",
    "draw_cut",
    "shuffled_deal",
]

#: ``_BITS[card]`` is ``1 << card``.
_BITS: tuple[int, ...] = tuple(1 << card for card in CARDS)


def check_masks(dealt: Sequence[int], players: int, galaxies: bool) -> None:
    """Check a deal given as masks: ``players`` hands of equal size holding the deck of P2
    between them, each card once.

    Raises:
        ValueError: what is wrong (the player count, a hand's size, a card missing, extra or
            dealt twice).
    """
    if len(dealt) != players:
        raise ValueError(f"a deal has {counted(players, 'hand')}, not {len(dealt)}")
    deck = deck_mask(players, galaxies)
    size = count(deck) // players
    union = 0
    for seat, hand in enumerate(dealt):
        if count(hand) != size:
            raise ValueError(f"hand {seat} has {counted(count(hand), 'card')}, not {size}")
        twice = union & hand
        if twice:
            raise ValueError(f"{cards_of(twice)[0].name} is dealt twice")
        union |= hand
    if union != deck:
        extra = cards_of(union & ~deck)
        if extra:
            raise ValueError(f"{extra[0].name} is not in the deck for {players} players")
        raise ValueError(f"{cards_of(deck & ~union)[0].name} is not dealt")


def check_deal(
    hands: Sequence[Sequence[Card]], players: int, galaxies: bool = False
) -> tuple[int, ...]:
    """The masks of a deal given as cards by seat, checked (see :func:`check_masks`).

    Raises:
        ValueError: a card twice in a hand, or see :func:`check_masks`.
    """
    masks = []
    for seat, hand in enumerate(hands):
        mask = mask_of(tuple(hand))
        if count(mask) != len(hand):
            raise ValueError(f"hand {seat} names a card twice")
        masks.append(mask)
    check_masks(masks, players, galaxies)
    return tuple(masks)


def shuffled_deal(rng: random.Random, players: int, galaxies: bool = False) -> tuple[int, ...]:
    """The deck of P2 shuffled with ``rng`` and dealt out (masks by seat): the first cards of
    the shuffled deck to seat 0, and so on (the dealer's seat does not matter to a random
    deal).

    The shuffle is Fisher-Yates, every order equally likely, from one draw of ``rng``: a
    number uniform over the ``n!`` orders (drawn with 64 spare bits and drawn again in the
    rare case it falls in the incomplete top of the range), whose digits in the factorial
    number system give each swap. One draw instead of one per card: ten times faster with
    ``random.Random``, and one read of the system's randomness with ``random.SystemRandom``.

    Raises:
        ValueError: not 3 to 6 players, or ``galaxies`` with other than six.
    """
    deck, bits, complete, seats = _deal_plan(players, galaxies)
    cards = list(deck)
    number = rng.getrandbits(bits)
    while number >= complete:
        number = rng.getrandbits(bits)
    hands = [0] * players
    # Each swap fixes the card at position i, from the last down, so a seat's hand is known
    # once its positions are fixed: the card at j is dealt, and the card at i takes its place
    # (the other half of the swap, position i, is never read again).
    for seat, groups in seats:
        mask = 0
        for product, steps in groups:
            # The next digits, taken from a small number: the same digits as from the big
            # one, since their radices divide the product.
            number, digits = divmod(number, product)
            for i, radix in steps:
                j = digits % radix
                digits //= radix
                mask |= cards[j]
                cards[j] = cards[i]
        hands[seat] = mask
    hands[0] |= cards[0]
    return tuple(hands)


#: A group of swaps: the product of their radices, and each swap's position and radix.
_Group = tuple[int, tuple[tuple[int, int], ...]]


@functools.cache
def _deal_plan(
    players: int, galaxies: bool
) -> tuple[tuple[int, ...], int, int, tuple[tuple[int, tuple[_Group, ...]], ...]]:
    """For :func:`shuffled_deal`: the deck (``1 << card`` for each card of P2, sorted), the
    bits to draw, the bound below which a draw is used (a multiple of ``size!``), and by seat
    from the last, the swaps that fix its positions, in groups whose radices multiply to less
    than 2**62: each swap is a position ``i`` (``size - 1`` down to 1) and the radix ``i + 1``
    of its digit, worked out here rather than at each swap.

    Raises:
        ValueError: not 3 to 6 players, or ``galaxies`` with other than six.
    """
    deck = tuple(_BITS[card] for card in cards_of(deck_mask(players, galaxies)))
    size = len(deck)
    hand = size // players
    orders = math.factorial(size)
    bits = orders.bit_length() + 64
    seats = []
    for seat in range(players - 1, -1, -1):
        groups: list[_Group] = []
        steps: list[tuple[int, int]] = []
        product = 1
        for i in range(seat * hand + hand - 1, max(seat * hand, 1) - 1, -1):
            if product * (i + 1) >= 1 << 62:
                groups.append((product, tuple(steps)))
                steps, product = [], 1
            steps.append((i, i + 1))
            product *= i + 1
        groups.append((product, tuple(steps)))
        seats.append((seat, tuple(groups)))
    return deck, bits, (1 << bits) // orders * orders, tuple(seats)


def draw_cut(rng: random.Random, players: int, galaxies: bool = False) -> tuple[Card, ...]:
    """One card drawn by each seat from the shuffled deck, for the cut (P3)."""
    return tuple(rng.sample(cards_of(deck_mask(players, galaxies)), players))
