"""The object model of Hipparchus: suits, hands, clumps, plays, tricks and deals.

Everything here is an immutable value (frozen, slotted attrs classes). The rules that move
from one state to the next live in :mod:`hipparchusd.games.hipparchus.rules`.

A hand is stored as its sequence of *clumps* (RULINGS H2: maximal runs of adjacent cards of one
suit). Cards of one suit are identical, so the clump sequence is the whole of a hand's order
(RULINGS H1) and it is what every rule needs; the card sequence is derived from it.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from functools import cached_property

import attrs

#: Cards of each suit in the deck (seed 000, "Components").
CARDS_PER_SUIT = 10
#: Cards dealt to each seat at the start of a round.
HAND_SIZE = 14
#: Cards left face down, unseen, each round.
FACE_DOWN_SIZE = 2
#: Seats at a Hipparchus table.
SEATS = 2
#: The largest number of cards one play may hold (RULINGS H2).
MAX_PLAY = 3


class Suit(enum.IntEnum):
    """One of the three suits. The integer value indexes per-suit tuples (won counts, scores).

    The one-letter notation is ``S`` (Sun), ``M`` (Moon), ``E`` (Earth).
    """

    SUN = 0
    MOON = 1
    EARTH = 2

    @property
    def letter(self) -> str:
        """The suit's letter in every notation: ``S``, ``M`` or ``E``."""
        return _LETTERS[self]

    @classmethod
    def from_letter(cls, letter: str) -> Suit:
        """The suit named by ``letter`` (``S``, ``M`` or ``E``, either case).

        Raises:
            ValueError: for anything else.
        """
        try:
            return _BY_LETTER[letter.upper()]
        except (KeyError, AttributeError):
            raise ValueError(f"unknown suit {letter!r} (expected S, M or E)") from None


_LETTERS = "SME"
SUITS: tuple[Suit, Suit, Suit] = (Suit.SUN, Suit.MOON, Suit.EARTH)
_BY_LETTER = {s.letter: s for s in SUITS}

#: Per-suit counts, indexed by ``Suit``: (Sun, Moon, Earth).
SuitCounts = tuple[int, int, int]
NO_CARDS: SuitCounts = (0, 0, 0)


@attrs.frozen(slots=True)
class Clump:
    """A maximal run of ``size`` adjacent cards of ``suit`` in a hand (RULINGS H2). size >= 1."""

    suit: Suit
    size: int


@attrs.frozen(slots=True)
class Play:
    """A play: ``count`` cards (1-3) of ``suit`` taken from the clump that starts at
    ``position`` in the hand (1-based card position, counting from the hand's left end).

    ``position`` is canonical: always the first card of the clump (notation ``2E@5``; see
    :mod:`hipparchusd.games.hipparchus.notation`). A play is only meaningful against the hand it
    was listed for.
    """

    count: int
    suit: Suit
    position: int

    def __str__(self) -> str:
        return f"{self.count}{self.suit.letter}@{self.position}"


@attrs.frozen(slots=True, weakref_slot=False)
class Hand:
    """An ordered hand (RULINGS H1), as its clumps from left to right.

    Invariants (checked by :meth:`validated`, guaranteed by every rule): every clump has size
    >= 1 and no two neighbouring clumps share a suit (they would be one clump, RULINGS H3).
    """

    clumps: tuple[Clump, ...]

    @classmethod
    def from_cards(cls, cards: Iterable[Suit]) -> Hand:
        """Build the hand whose cards, left to right, are ``cards``."""
        clumps: list[Clump] = []
        for suit in cards:
            if clumps and clumps[-1].suit is suit:
                clumps[-1] = Clump(suit, clumps[-1].size + 1)
            else:
                clumps.append(Clump(suit, 1))
        return cls(tuple(clumps))

    def validated(self) -> Hand:
        """Return ``self`` if its clumps satisfy the invariants.

        Raises:
            ValueError: a clump of size < 1, or two neighbouring clumps of one suit.
        """
        previous: Suit | None = None
        for clump in self.clumps:
            if clump.size < 1:
                raise ValueError(f"clump of {clump.size} cards")
            if clump.suit is previous:
                raise ValueError("two neighbouring clumps of the same suit")
            previous = clump.suit
        return self

    @cached_property
    def cards(self) -> tuple[Suit, ...]:
        """The cards, left to right."""
        return tuple(c.suit for c in self.clumps for _ in range(c.size))

    @cached_property
    def size(self) -> int:
        """Number of cards in the hand."""
        return sum(c.size for c in self.clumps)

    @cached_property
    def counts(self) -> SuitCounts:
        """Cards of each suit, indexed by ``Suit``."""
        counts = [0, 0, 0]
        for c in self.clumps:
            counts[c.suit] += c.size
        return (counts[0], counts[1], counts[2])

    @cached_property
    def plays(self) -> tuple[Play, ...]:
        """Every play allowed by RULINGS H2 (what a leader may play, H4), left to right,
        fewest cards first within a clump."""
        plays: list[Play] = []
        position = 1
        for c in self.clumps:
            if c.size <= MAX_PLAY:
                plays.append(Play(c.size, c.suit, position))
            else:
                plays.extend(Play(n, c.suit, position) for n in range(1, MAX_PLAY + 1))
            position += c.size
        return tuple(plays)

    def clump_index_at(self, position: int) -> tuple[int, int]:
        """The clump holding the card at 1-based ``position``: (clump index, its first position).

        Raises:
            ValueError: ``position`` is outside the hand.
        """
        start = 1
        for index, c in enumerate(self.clumps):
            if position < start + c.size:
                if position < start:
                    break
                return index, start
            start += c.size
        raise ValueError(f"position {position} is outside a hand of {self.size} cards")

    def without(self, play: Play) -> Hand:
        """The hand after ``play`` leaves it; neighbours of one suit merge (RULINGS H3).

        ``play`` must be one of :attr:`plays` (not checked here: the rules check it).
        """
        clumps = self.clumps
        index, _ = self.clump_index_at(play.position)
        rest = clumps[index].size - play.count
        if rest:
            return Hand((*clumps[:index], Clump(play.suit, rest), *clumps[index + 1 :]))
        left, right = clumps[:index], clumps[index + 1 :]
        if left and right and left[-1].suit is right[0].suit:
            merged = Clump(left[-1].suit, left[-1].size + right[0].size)
            return Hand((*left[:-1], merged, *right[1:]))
        return Hand(left + right)

    def __str__(self) -> str:
        return "".join(c.suit.letter * c.size for c in self.clumps)


@attrs.frozen(slots=True)
class Trick:
    """A finished trick.

    ``leader`` is the seat that led ``lead``; ``follow`` is the follower's play, or ``None`` when
    the follower had no legal play and the round ended at once (RULINGS H6), in which case
    ``winner`` is ``None`` too and the led cards were set aside.
    """

    leader: int
    lead: Play
    follow: Play | None
    winner: int | None


@attrs.frozen(slots=True)
class Deal:
    """The cards of one round as dealt: each seat's 14-card hand in order and the 2 face-down
    cards (seed 000 "Setting"; RULINGS H12)."""

    hands: tuple[Hand, Hand]
    face_down: tuple[Suit, ...]

    def validated(self) -> Deal:
        """Return ``self`` if it is a possible deal: two valid 14-card hands, 2 face-down cards,
        10 cards of each suit in all.

        Raises:
            ValueError: naming what is wrong.
        """
        for seat, hand in enumerate(self.hands):
            hand.validated()
            if hand.size != HAND_SIZE:
                raise ValueError(f"seat {seat} is dealt {hand.size} cards, not {HAND_SIZE}")
        if len(self.face_down) != FACE_DOWN_SIZE:
            raise ValueError(f"{len(self.face_down)} face-down cards, not {FACE_DOWN_SIZE}")
        for suit in SUITS:
            total = sum(h.counts[suit] for h in self.hands) + self.face_down.count(suit)
            if total != CARDS_PER_SUIT:
                raise ValueError(f"{total} cards of {suit.name.title()}, not {CARDS_PER_SUIT}")
        return self
