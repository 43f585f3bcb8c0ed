"""Deals of planets: the shuffle, the deal, the draws of the cut, and the checks of a given deal
(RULINGS P2, P3; docs/planets.md, "Players, deck and deal").

A deal is the seats' hands as masks (:mod:`.core`). By default the shuffle draws on the
operating system's randomness; a seed gives reproducible deals (the game is then fixed).
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable, Sequence

from ...wording import counted
from .model import CARDS, Card, cards_of, count, deck_mask, mask_of
from .schedule import cut_dealer

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
    deck, bits, complete, swaps = _deal_plan(players, galaxies)
    number = rng.getrandbits(bits)
    while number >= complete:
        number = rng.getrandbits(bits)
    return swaps(number, list(deck))


#: The swaps of a deal: given the drawn number and the deck as a list (which it changes), the
#: hands by seat.
_Swaps = Callable[[int, list[int]], tuple[int, ...]]


@functools.cache
def _deal_plan(players: int, galaxies: bool) -> tuple[tuple[int, ...], int, int, _Swaps]:
    """For :func:`shuffled_deal`: the deck (``1 << card`` for each card of P2, sorted), the
    bits to draw, the bound below which a draw is used (a multiple of ``size!``), and the
    swaps (:func:`_write_swaps`).

    Raises:
        ValueError: not 3 to 6 players, or ``galaxies`` with other than six.
    """
    deck = tuple(_BITS[card] for card in cards_of(deck_mask(players, galaxies)))
    orders = math.factorial(len(deck))
    bits = orders.bit_length() + 64
    return deck, bits, (1 << bits) // orders * orders, _write_swaps(players, len(deck))


def _write_swaps(players: int, size: int) -> _Swaps:
    """The Fisher-Yates swaps of a deck of ``size`` cards dealt to ``players`` seats, written
    out as the code of one function (as :func:`collections.namedtuple` writes its class),
    once per deck: every position and radix a constant, which halves what a swap costs
    against a loop over them (a deal is an eighth of a random hand's instructions).

    Swap ``i`` (``size - 1`` down to 1) takes the digit of radix ``i + 1`` of the drawn number
    in the factorial number system, ``j``, and exchanges positions ``i`` and ``j``. Each swap
    fixes the card at position ``i``, so a seat's hand is known once its positions are fixed:
    the card at ``j`` is dealt, and the card at ``i`` takes its place (the other half of the
    swap, position ``i``, is never read again). The digits are taken in groups from a small
    number, ``divmod(number, product)``, the product of the group's radices below 2**30: the
    same digits as from the big number, since their radices divide the product, and each is
    then arithmetic on a one-digit int, CPython's fast path; the group's last digit is what is
    left of it. Each seat's hand is a local name, its first card assigned, not or-ed in.
    """
    hand = size // players
    lines = ["def swaps(number, cards):"]
    for seat in range(players - 1, -1, -1):
        groups: list[list[int]] = [[]]  # the positions of each group's swaps
        product = 1
        for i in range(seat * hand + hand - 1, max(seat * hand, 1) - 1, -1):
            if product * (i + 1) >= 1 << 30:
                groups.append([])
                product = 1
            groups[-1].append(i)
            product *= i + 1
        dealt = f"hand{seat} ="  # the seat's first card, then its others
        for group in groups:
            lines.append(f"    number, digits = divmod(number, {math.prod(i + 1 for i in group)})")
            for i in group[:-1]:
                lines += [f"    j = digits % {i + 1}", f"    digits //= {i + 1}"]
                lines += [f"    {dealt} cards[j]", f"    cards[j] = cards[{i}]"]
                dealt = f"hand{seat} |="
            # The group's last digit is what is left of the small number.
            lines += [f"    {dealt} cards[digits]", f"    cards[digits] = cards[{group[-1]}]"]
            dealt = f"hand{seat} |="
    hands = ", ".join(f"hand{seat}" for seat in range(1, players))
    lines.append(f"    return (hand0 | cards[0], {hands})")
    namespace: dict[str, _Swaps] = {}
    exec("\n".join(lines), namespace)  # code of our own making: no input reaches it
    return namespace["swaps"]


def draw_cut(rng: random.Random, players: int, galaxies: bool = False) -> tuple[Card, ...]:
    """One card drawn by each seat from the shuffled deck, for the cut (P3)."""
    return tuple(rng.sample(cards_of(deck_mask(players, galaxies)), players))
