"""Cards, hands, decks and passes of planets (the Universal Card Deck game of seed 002;
docs/planets.md): the object model's side of the values of :mod:`.core`, where the rules are.

A card is a :class:`Card`, an ``IntEnum`` whose value is the core's card, ``10 * suit + rank``:
suits in hand order Earth, Jupiter, Mars, Neptune, Saturn, Venus (0-5), ranks low to high 1-7,
Moon, Sun, Galaxy (0-9). So sorting cards sorts a hand by suit then rank, and within one suit
the higher value is the higher card (RULINGS P1: the Galaxy ranks above its Sun).

Inside the rules a set of cards (a hand, a deck) is a *mask*: an ``int`` with bit ``card`` set
for each card held (:mod:`.core`); :func:`cards_of` turns a mask into the sorted tuple of cards
that views, events and records carry.
"""

from __future__ import annotations

import enum

import attrs

from . import core, schedule
from .core import (
    BASE_DECK,
    EARTH,
    GALAXY,
    GALAXY_MASKS,
    HAND_POINTS,
    JUPITER,
    JUPITER_MASK,
    MARS,
    NEPTUNE,
    ONE_POINT_MASK,
    PLAYER_COUNTS,
    POINT_MASK,
    POINTS,
    RANK_LETTERS,
    RANK_NAMES,
    SATURN,
    SEVEN_POINT_MASK,
    SUIT_LETTERS,
    SUIT_MASKS,
    SUIT_NAMES,
    VENUS,
    deck_mask,
    hand_size,
)

__all__ = [
    "BASE_DECK",
    "CARDS",
    "EARTH",
    "GALAXY",
    "GALAXY_MASKS",
    "HAND_POINTS",
    "JUPITER",
    "JUPITER_MASK",
    "MARS",
    "NEPTUNE",
    "ONE_POINT_MASK",
    "PASS_CYCLES",
    "PLAYER_COUNTS",
    "POINTS",
    "POINT_MASK",
    "RANK_LETTERS",
    "RANK_NAMES",
    "SATURN",
    "SEVEN_POINT_MASK",
    "SUIT_LETTERS",
    "SUIT_MASKS",
    "SUIT_NAMES",
    "VENUS",
    "Card",
    "Pass",
    "PassKind",
    "Shoot",
    "as_cards",
    "cards_of",
    "count",
    "deck_mask",
    "hand_size",
    "mask_of",
    "pass_kind",
    "suit_cards",
]


class Card(enum.IntEnum):
    """One card: the value is ``10 * suit + rank`` (see the module's doc), the name its
    two-letter notation, suit letter then rank letter (``V1``, ``JS``, ``VG``)."""

    E1 = 0
    E2 = 1
    E3 = 2
    E4 = 3
    E5 = 4
    E6 = 5
    E7 = 6
    EM = 7
    ES = 8
    EG = 9
    J1 = 10
    J2 = 11
    J3 = 12
    J4 = 13
    J5 = 14
    J6 = 15
    J7 = 16
    JM = 17
    JS = 18
    JG = 19
    M1 = 20
    M2 = 21
    M3 = 22
    M4 = 23
    M5 = 24
    M6 = 25
    M7 = 26
    MM = 27
    MS = 28
    MG = 29
    N1 = 30
    N2 = 31
    N3 = 32
    N4 = 33
    N5 = 34
    N6 = 35
    N7 = 36
    NM = 37
    NS = 38
    NG = 39
    S1 = 40
    S2 = 41
    S3 = 42
    S4 = 43
    S5 = 44
    S6 = 45
    S7 = 46
    SM = 47
    SS = 48
    SG = 49
    V1 = 50
    V2 = 51
    V3 = 52
    V4 = 53
    V5 = 54
    V6 = 55
    V7 = 56
    VM = 57
    VS = 58
    VG = 59

    @property
    def suit(self) -> int:
        """The suit number, 0 (Earth) to 5 (Venus)."""
        return self.value // 10

    @property
    def rank(self) -> int:
        """The rank number, 0 (the 1) to 9 (the Galaxy)."""
        return self.value % 10

    def __str__(self) -> str:
        return self.name


#: Every card by value: ``CARDS[n]`` is the card of value ``n`` (faster than ``Card(n)``).
CARDS: tuple[Card, ...] = tuple(Card)

#: :data:`.core.SUIT_CARDS` as cards: ``SUIT_CARDS[suit][bits]`` are the cards of ``suit``
#: whose ranks are the set bits of ``bits``, sorted. A mask becomes cards by six look-ups
#: (views and events turn masks into cards all the time; a call per card costs three times
#: as much).
SUIT_CARDS: tuple[tuple[tuple[Card, ...], ...], ...] = tuple(
    tuple(tuple(CARDS[card] for card in cards) for cards in suit) for suit in core.SUIT_CARDS
)
_EARTH, _JUPITER, _MARS, _NEPTUNE, _SATURN, _VENUS = SUIT_CARDS


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards whose bits are set in ``mask``, sorted (by suit, then rank)."""
    low = mask & 0x3FFFFFFF  # as :func:`.core.cards_in`: two halves of one-digit ints
    high = mask >> 30
    return (
        _EARTH[low & 0x3FF]
        + _JUPITER[low >> 10 & 0x3FF]
        + _MARS[low >> 20]
        + _NEPTUNE[high & 0x3FF]
        + _SATURN[high >> 10 & 0x3FF]
        + _VENUS[high >> 20]
    )


def suit_cards(mask: int, suit: int) -> tuple[Card, ...]:
    """The cards of ``suit`` in ``mask``, sorted."""
    return SUIT_CARDS[suit][mask >> (10 * suit) & 0x3FF]


def as_cards(values: tuple[int, ...]) -> tuple[Card, ...]:
    """The :class:`Card` of each of the core's card ``values``, in order."""
    return tuple([CARDS[value] for value in values])


def mask_of(cards: tuple[Card, ...] | list[Card]) -> int:
    """The mask of ``cards`` (a card named twice counts once)."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def count(mask: int) -> int:
    """How many cards ``mask`` holds."""
    return mask.bit_count()


@attrs.frozen(slots=True)
class PassKind:
    """One pass of the cycle (RULINGS P4, P15): its wire ``name`` and, for each chosen card in
    order, the seat offset (clockwise, mod the seat count) it goes to. ``offsets`` is empty for
    a no-pass hand."""

    name: str
    offsets: tuple[int, ...]

    @property
    def count(self) -> int:
        """Cards each seat passes (0 in a no-pass hand)."""
        return len(self.offsets)

    def targets(self, seat: int, players: int) -> tuple[int, ...]:
        """The seat each of ``seat``'s chosen cards goes to, in order."""
        return tuple((seat + offset) % players for offset in self.offsets)


#: The pass cycle by seat count (RULINGS P4, P15; :data:`.schedule.PASS_CYCLES`): hand ``h``
#: (1-based) uses ``PASS_CYCLES[players][(h - 1) % len(...)]``.
PASS_CYCLES: dict[int, tuple[PassKind, ...]] = {
    players: tuple(PassKind(name, offsets) for name, offsets in cycle)
    for players, cycle in schedule.PASS_CYCLES.items()
}


def pass_kind(players: int, hand_number: int) -> PassKind:
    """The pass of hand ``hand_number`` (1-based) for ``players`` seats (RULINGS P4, P15)."""
    cycle = PASS_CYCLES[players]
    return cycle[(hand_number - 1) % len(cycle)]


class Shoot(enum.Enum):
    """The shooter's choice (RULINGS P8, P13): ``self``, 23 off its own score, or ``others``,
    23 added to every opponent."""

    SELF = "self"
    OTHERS = "others"


@attrs.frozen(slots=True)
class Pass:
    """A seat's pass: the chosen cards in order; the i-th goes to the i-th target of the
    hand's :class:`PassKind`. Canonical when each target's cards are sorted
    (:func:`~hipparchusd.games.planets.notation.canonical_pass`)."""

    cards: tuple[Card, ...]
