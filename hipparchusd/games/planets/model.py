"""Cards, hands, decks and passes of planets (the Universal Card Deck game of seed 002;
docs/planets.md).

A card is a :class:`Card`, an ``IntEnum`` whose value is ``10 * suit + rank``: suits in hand
order Earth, Jupiter, Mars, Neptune, Saturn, Venus (0-5), ranks low to high 1-7, Moon, Sun,
Galaxy (0-9). So sorting cards sorts a hand by suit then rank, and within one suit the higher
value is the higher card (RULINGS P1: the Galaxy ranks above its Sun).

Inside the rules a set of cards (a hand, a deck) is a *mask*: an ``int`` with bit ``card`` set
for each card held. Masks make the rules' questions one or two integer operations ("does this
hand hold Venus?", "which of these may be played?"); :func:`cards_of` turns a mask into the
sorted tuple of cards that views, events and records carry.
"""

from __future__ import annotations

import enum

import attrs

#: Suit letters in hand order (and value order): Earth, Jupiter, Mars, Neptune, Saturn, Venus.
SUIT_LETTERS = "EJMNSV"
#: Suit names, by suit number.
SUIT_NAMES = ("Earth", "Jupiter", "Mars", "Neptune", "Saturn", "Venus")
#: Rank letters low to high: 1-7, Moon, Sun, Galaxy (RULINGS P1).
RANK_LETTERS = "1234567MSG"
#: Rank names, by rank number.
RANK_NAMES = ("1", "2", "3", "4", "5", "6", "7", "Moon", "Sun", "Galaxy")

EARTH, JUPITER, MARS, NEPTUNE, SATURN, VENUS = range(6)
#: Rank number of the Galaxy card.
GALAXY = 9


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

#: The mask of every card of a suit, by suit number.
SUIT_MASKS: tuple[int, ...] = tuple(0x3FF << (10 * suit) for suit in range(6))
#: The Jupiter cards, the Jupiter Galaxy included (RULINGS P6, P11).
JUPITER_MASK = SUIT_MASKS[JUPITER]
#: The nine cards from 1 to Sun of each suit, the 54 cards of every deck (RULINGS P1).
BASE_DECK = sum(0x1FF << (10 * suit) for suit in range(6))
#: Each Galaxy card's mask, by suit number.
GALAXY_MASKS: tuple[int, ...] = tuple(1 << (10 * suit + GALAXY) for suit in range(6))

#: Points of each card by value (RULINGS P7): Jupiter 1 to Sun one each, Mars 7 and Neptune 7
#: seven each; everything else, the Jupiter Galaxy included, nothing.
POINTS: tuple[int, ...] = tuple(
    1 if card.suit == JUPITER and card.rank != GALAXY else 7 if card in (Card.M7, Card.N7) else 0
    for card in CARDS
)
#: The eleven point cards (RULINGS P7, P8).
POINT_MASK = sum(1 << card for card in CARDS if POINTS[card])
#: The cards of one point (Jupiter 1 to Sun) and of seven (Mars 7, Neptune 7): a trick's
#: points are two bit counts.
ONE_POINT_MASK = sum(1 << card for card in CARDS if POINTS[card] == 1)
SEVEN_POINT_MASK = sum(1 << card for card in CARDS if POINTS[card] == 7)
#: Points in a whole hand (RULINGS P7).
HAND_POINTS = 23

#: ``SUIT_CARDS[suit][bits]``: the cards of ``suit`` whose ranks are the set bits of ``bits``
#: (10 bits), sorted: a mask becomes cards by six look-ups.
SUIT_CARDS: tuple[tuple[tuple[Card, ...], ...], ...] = tuple(
    tuple(
        tuple(CARDS[10 * suit + rank] for rank in range(10) if bits >> rank & 1)
        for bits in range(1024)
    )
    for suit in range(6)
)


_EARTH, _JUPITER, _MARS, _NEPTUNE, _SATURN, _VENUS = SUIT_CARDS


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards whose bits are set in ``mask``, sorted (by suit, then rank)."""
    # Six look-ups, unrolled: the rules list legal cards on every play. Adding an empty tuple
    # makes no new tuple.
    return (
        _EARTH[mask & 0x3FF]
        + _JUPITER[mask >> 10 & 0x3FF]
        + _MARS[mask >> 20 & 0x3FF]
        + _NEPTUNE[mask >> 30 & 0x3FF]
        + _SATURN[mask >> 40 & 0x3FF]
        + _VENUS[mask >> 50 & 0x3FF]
    )


def suit_cards(mask: int, suit: int) -> tuple[Card, ...]:
    """The cards of ``suit`` in ``mask``, sorted."""
    return SUIT_CARDS[suit][mask >> (10 * suit) & 0x3FF]


def mask_of(cards: tuple[Card, ...] | list[Card]) -> int:
    """The mask of ``cards`` (a card named twice counts once)."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def count(mask: int) -> int:
    """How many cards ``mask`` holds."""
    return mask.bit_count()


# Decks and seats (RULINGS P2, P15).

#: The seat counts planets is played with.
PLAYER_COUNTS = (3, 4, 5, 6)


def deck_mask(players: int, galaxies: bool = False) -> int:
    """The cards in play for ``players`` seats (RULINGS P2): the 54 cards, plus the Venus and
    Saturn Galaxies for four, the Venus Galaxy for five, all six Galaxies for six with
    ``galaxies`` (the option ``galaxies=all``).

    Raises:
        ValueError: not 3 to 6 players, or ``galaxies`` with other than six.
    """
    if players not in PLAYER_COUNTS:
        raise ValueError(f"planets is played by 3 to 6 players, not {players}")
    if galaxies and players != 6:
        raise ValueError("galaxies=all is for six players only")
    if players == 4:
        return BASE_DECK | GALAXY_MASKS[VENUS] | GALAXY_MASKS[SATURN]
    if players == 5:
        return BASE_DECK | GALAXY_MASKS[VENUS]
    if players == 6 and galaxies:
        return BASE_DECK | sum(GALAXY_MASKS)
    return BASE_DECK


def hand_size(players: int, galaxies: bool = False) -> int:
    """Cards dealt to each seat (RULINGS P2): 18, 14, 11, then 9 or 10 with all Galaxies."""
    return count(deck_mask(players, galaxies)) // players


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


def _kind(name: str, count: int, *offsets: int) -> PassKind:
    # One offset for every card, or one per card when they go to different seats.
    return PassKind(name, offsets * count if len(offsets) == 1 else offsets)


#: The pass cycle by seat count (RULINGS P4, P15): hand ``h`` (1-based) uses
#: ``PASS_CYCLES[players][(h - 1) % len(...)]``. Left is +1, right -1, across +n/2. In a split
#: pass the first cards go left, then across (four players), then right.
PASS_CYCLES: dict[int, tuple[PassKind, ...]] = {
    3: (_kind("left", 4, 1), _kind("right", 4, -1), _kind("split", 1, 1, 1, -1, -1)),
    4: (
        _kind("left", 3, 1),
        _kind("right", 3, -1),
        _kind("across", 3, 2),
        _kind("split", 1, 1, 2, -1),
    ),
    5: (
        _kind("left", 2, 1),
        _kind("right", 2, -1),
        _kind("left2", 2, 2),
        _kind("right2", 2, -2),
        PassKind("none", ()),
    ),
    6: (
        _kind("left", 2, 1),
        _kind("left2", 2, 2),
        _kind("across", 2, 3),
        _kind("right2", 2, -2),
        _kind("right", 2, -1),
        PassKind("none", ()),
    ),
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
