"""Dealing a round: 30 cards shuffled, 14 to each seat, 2 face down (RULINGS H12).

By default the shuffle draws on the operating system's randomness (:class:`random.SystemRandom`,
one read per deal: :class:`SystemShuffler`),
so nobody, the server's operator included, can predict a deal. A seed gives reproducible deals
for tests, puzzles and analysis; such games are marked as fixed in every view (RULINGS H13).
"""

from __future__ import annotations

import math
import random
from collections.abc import MutableSequence
from typing import Any

from . import core
from .model import CARDS_PER_SUIT, HAND_SIZE, SUITS, Deal, Hand


class SystemShuffler(random.SystemRandom):
    """:class:`random.SystemRandom` whose :meth:`shuffle` draws the whole permutation from one
    read of the operating system's randomness, instead of one read per card: the daemon deals
    every round of every game it serves.
    """

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """Shuffle ``x`` in place, every order equally likely (as ``random.shuffle``).

        One number uniform over the ``n!`` orders of ``n`` items (drawn with enough spare bits
        that a redraw is almost never needed, and redrawn when it falls in the incomplete top
        part of the range) gives, as its digits in the factorial number system, the swap of
        each step of the Fisher-Yates shuffle.
        """
        size = len(x)
        orders = math.factorial(size)
        bits = orders.bit_length() + 64
        complete = (1 << bits) // orders * orders
        number = self.getrandbits(bits)
        while number >= complete:
            number = self.getrandbits(bits)
        for i in range(size - 1, 0, -1):
            number, j = divmod(number, i + 1)
            x[i], x[j] = x[j], x[i]


_SYSTEM_RANDOM = SystemShuffler()


def shuffle(rng: random.Random, deck: MutableSequence[Any]) -> None:
    """``rng.shuffle(deck)``: the same order from the same generator state (seeded deals must
    not change), with the draw of :class:`random.Random`'s shuffle written out here instead of
    one call of its ``_randbelow`` per card, which was a third of the cost of a seeded deal. A
    generator that shuffles or draws its own way (:class:`SystemShuffler`, a subclass) shuffles
    as it does.
    """
    kind = type(rng)
    if kind.shuffle is not random.Random.shuffle or (
        getattr(kind, "_randbelow", None) is not _RANDBELOW_WITH_GETRANDBITS
    ):
        rng.shuffle(deck)
        return
    getrandbits = rng.getrandbits
    for i in range(len(deck) - 1, 0, -1):
        # Random._randbelow_with_getrandbits(i + 1): k bits, drawn again until below i + 1.
        bound = i + 1
        bits = bound.bit_length()
        j = getrandbits(bits)
        while j >= bound:
            j = getrandbits(bits)
        deck[i], deck[j] = deck[j], deck[i]


_RANDBELOW_WITH_GETRANDBITS = getattr(random.Random, "_randbelow_with_getrandbits", None)
_DECK = tuple(suit for suit in SUITS for _ in range(CARDS_PER_SUIT))


def shuffled_deal(rng: random.Random) -> Deal:
    """Shuffle the 30 cards with ``rng`` and deal them: cards 1-14 to seat 0, 15-28 to seat 1,
    the last 2 face down (:func:`.core.deal`)."""
    deck = list(_DECK)
    shuffle(rng, deck)
    (first, second), _ = core.deal(deck)
    face_down = tuple(deck[2 * HAND_SIZE :])  # core.deal's, as Suit members
    return Deal(hands=(Hand.of(first), Hand.of(second)), face_down=face_down)


def system_deal() -> Deal:
    """A deal from the operating system's randomness."""
    return shuffled_deal(_SYSTEM_RANDOM)


def seeded_deal(seed: int, round_number: int) -> Deal:
    """The reproducible deal of round ``round_number`` (1-based) of a game created with ``seed``.

    Each round's deal depends only on (seed, round number), so it can be recomputed at any time
    without keeping a generator's state.
    """
    return shuffled_deal(random.Random(f"hipparchus/{seed}/{round_number}"))
