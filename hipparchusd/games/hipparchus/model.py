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

from hipparchusd.wording import counted

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
            # Looked up as given: str.upper() would read U+017F (long s) as S.
            return _BY_LETTER[letter]
        except (KeyError, TypeError):
            raise ValueError(f"unknown suit {letter!r} (expected S, M or E)") from None


_LETTERS = "SME"
SUITS: tuple[Suit, Suit, Suit] = (Suit.SUN, Suit.MOON, Suit.EARTH)
_BY_LETTER = {case(s.letter): s for s in SUITS for case in (str.upper, str.lower)}

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
    # Its canonical notation once :func:`.notation.format_play` has made it: a private cache,
    # not part of the value (no eq, hash or repr). Every legal-move list and every answer to
    # a move formats plays, and most are the shared instances below, formatted over and over.
    _notation: str | None = attrs.field(default=None, init=False, eq=False, hash=False, repr=False)

    def __str__(self) -> str:
        # Tolerates a malformed play (it may come from a client), for error messages.
        suit = self.suit.letter if isinstance(self.suit, Suit) else str(self.suit)
        return f"{self.count}{suit}@{self.position}"


@attrs.frozen(slots=True)
class PlayedCards:
    """The public form of a play: ``count`` cards (1-3) of ``suit``, without the hand position
    they came from (notation ``2E``).

    Views and events show every play in this form, to everyone (RULINGS H13): a position would
    tell the opponent and spectators which cards of the player's hand were of the suit played
    and (canonical positions name a clump's first card) that the card before them was not.
    Positions go only to the player (its ``legal`` and ``play`` answers) and, once the match is
    over, into its record.
    """

    count: int
    suit: Suit

    def __str__(self) -> str:
        # Tolerates a malformed value (it may come from a client), for error messages.
        suit = self.suit.letter if isinstance(self.suit, Suit) else str(self.suit)
        return f"{self.count}{suit}"


# Shared instances of the small values the rules create all the time. Clumps and plays are
# immutable values compared by value, so sharing them is invisible to callers; it saves the
# constructor calls that dominate the cost of a random round (bench/bench_rules.py), and makes
# ``play in legal_plays`` an identity hit for plays the rules listed.
_MAX_POSITION = CARDS_PER_SUIT * 3
_CLUMPS: tuple[tuple[Clump, ...], ...] = tuple(
    tuple(Clump(suit, size) for size in range(CARDS_PER_SUIT * 3 + 1)) for suit in SUITS
)
_PLAYS: tuple[tuple[tuple[Play, ...], ...], ...] = tuple(
    tuple(
        tuple(Play(count, suit, position) for position in range(_MAX_POSITION + 1))
        for count in range(MAX_PLAY + 1)
    )
    for suit in SUITS
)
# _CLUMP_PLAYS[suit][min(size, 4)][position]: the H2 plays of one clump starting at position.
_CLUMP_PLAYS: tuple[tuple[tuple[tuple[Play, ...], ...], ...], ...] = tuple(
    tuple(
        tuple(
            (_PLAYS[suit][size][position],)
            if size <= MAX_PLAY
            else tuple(_PLAYS[suit][n][position] for n in range(1, MAX_PLAY + 1))
            for position in range(_MAX_POSITION + 1)
        )
        if size
        else ()
        for size in range(MAX_PLAY + 2)
    )
    for suit in SUITS
)


# _CLUMP_FOLLOWS[suit][min(size, 4)][lead count][position]: the plays of that clump whose count
# differs from the lead count (the lead-suit part of RULINGS H5).
_CLUMP_FOLLOWS: tuple[tuple[tuple[tuple[tuple[Play, ...], ...], ...], ...], ...] = tuple(
    tuple(
        tuple(
            tuple(
                tuple(p for p in _CLUMP_PLAYS[suit][size][position] if p.count != count)
                for position in range(_MAX_POSITION + 1)
            )
            for count in range(MAX_PLAY + 1)
        )
        if size
        else ()
        for size in range(MAX_PLAY + 2)
    )
    for suit in SUITS
)


_PLAYED_CARDS: tuple[tuple[PlayedCards, ...], ...] = tuple(
    tuple(PlayedCards(count, suit) for count in range(MAX_PLAY + 1)) for suit in SUITS
)


def cards_of(count: int, suit: Suit) -> PlayedCards:
    """``PlayedCards(count, suit)``, shared when possible (equal by value to a new one)."""
    if type(count) is int and isinstance(suit, Suit) and 0 <= count <= MAX_PLAY:
        return _PLAYED_CARDS[suit][count]
    return PlayedCards(count, suit)


def played_cards(play: Play) -> PlayedCards:
    """The public form of ``play``: its count and suit, no position (RULINGS H13)."""
    return cards_of(play.count, play.suit)


def clump_of(suit: Suit, size: int) -> Clump:
    """``Clump(suit, size)``, shared when possible (equal by value to a new one)."""
    if 0 <= size <= CARDS_PER_SUIT * 3:
        return _CLUMPS[suit][size]
    return Clump(suit, size)


def play_of(count: int, suit: Suit, position: int) -> Play:
    """``Play(count, suit, position)``, shared when possible (equal by value to a new one).
    Never raises: values outside the table (or of other types) give a new, unshared Play."""
    if (
        type(count) is int
        and type(position) is int
        and isinstance(suit, Suit)
        and 0 <= count <= MAX_PLAY
        and 0 <= position <= _MAX_POSITION
    ):
        return _PLAYS[suit][count][position]
    return Play(count, suit, position)


def _clump_plays(suit: Suit, size: int, position: int) -> tuple[Play, ...]:
    if position <= _MAX_POSITION:
        return _CLUMP_PLAYS[suit][size if size <= MAX_PLAY else MAX_PLAY + 1][position]
    if size <= MAX_PLAY:
        return (Play(size, suit, position),)
    return tuple(Play(n, suit, position) for n in range(1, MAX_PLAY + 1))


@attrs.frozen(slots=True, weakref_slot=False)
class Hand:
    """An ordered hand (RULINGS H1), as its clumps from left to right.

    Invariants (checked by :meth:`validated`, guaranteed by every rule): every clump has size
    >= 1 and no two neighbouring clumps share a suit (they would be one clump, RULINGS H3).
    """

    clumps: tuple[Clump, ...]
    # Lazily computed, private cache (not part of the value: no eq, hash or repr). A plain
    # slot rather than a cached_property: the rules read it several times per play.
    _plays: tuple[Play, ...] | None = attrs.field(
        default=None, init=False, eq=False, hash=False, repr=False
    )

    @classmethod
    def from_cards(cls, cards: Iterable[Suit]) -> Hand:
        """Build the hand whose cards, left to right, are ``cards``."""
        clumps: list[Clump] = []
        run_suit: Suit | None = None
        run = 0
        for suit in cards:
            if suit is run_suit:
                run += 1
            else:
                if run_suit is not None:
                    clumps.append(clump_of(run_suit, run))
                run_suit, run = suit, 1
        if run_suit is not None:
            clumps.append(clump_of(run_suit, run))
        return cls(tuple(clumps))

    def validated(self) -> Hand:
        """Return ``self`` if its clumps satisfy the invariants.

        Raises:
            ValueError: a clump of size < 1, or two neighbouring clumps of one suit.
        """
        previous: Suit | None = None
        for clump in self.clumps:
            if clump.size < 1:
                raise ValueError(f"clump of {counted(clump.size, 'card')}")
            if clump.suit is previous:
                raise ValueError("two neighbouring clumps of the same suit")
            previous = clump.suit
        return self

    @cached_property
    def cards(self) -> tuple[Suit, ...]:
        """The cards, left to right."""
        return tuple(c.suit for c in self.clumps for _ in range(c.size))

    @property
    def size(self) -> int:
        """Number of cards in the hand."""
        # Not cached: a hand is made for every play and asked its size once (for the played
        # event), and a slotted class's cached_property costs more on first use than the sum.
        return sum([c.size for c in self.clumps])

    @cached_property
    def counts(self) -> SuitCounts:
        """Cards of each suit, indexed by ``Suit``."""
        counts = [0, 0, 0]
        for c in self.clumps:
            counts[c.suit] += c.size
        return (counts[0], counts[1], counts[2])

    @property
    def plays(self) -> tuple[Play, ...]:
        """Every play allowed by RULINGS H2 (what a leader may play, H4), left to right,
        fewest cards first within a clump."""
        plays = self._plays
        if plays is None:
            found: list[Play] = []
            position = 1
            table = _CLUMP_PLAYS
            try:
                for c in self.clumps:
                    size = c.size
                    found += table[c.suit][size if size <= MAX_PLAY else MAX_PLAY + 1][position]
                    position += size
            except IndexError:  # a hand longer than this deck allows: no shared plays
                found, position = [], 1
                for c in self.clumps:
                    found += _clump_plays(c.suit, c.size, position)
                    position += c.size
            plays = tuple(found)
            object.__setattr__(self, "_plays", plays)
        return plays

    def follow_plays(self, suit: Suit, count: int) -> tuple[Play, ...]:
        """The plays of this hand that may follow a lead of ``count`` cards of ``suit``
        (RULINGS H5), left to right.

        The H2 plays of ``suit`` whose count differs from ``count`` if there is any; otherwise
        every H2 play of the other suits (never a play of ``suit``, even of another count: there
        is none then). Empty when there is no legal follow (RULINGS H6).

        Raises:
            ValueError: ``count`` is not 1-3.
        """
        if not 0 < count <= MAX_PLAY:
            raise ValueError(f"a lead has 1 to {MAX_PLAY} cards, not {count!r}")
        # Straight from the clumps and the shared tables, without listing every play first: a
        # follower's hand is replaced after the follow, so its full play list is rarely needed.
        try:
            same: list[Play] = []
            follows = _CLUMP_FOLLOWS[suit]
            position = 1
            for c in self.clumps:
                size = c.size
                if c.suit is suit:
                    same += follows[size if size <= MAX_PLAY else MAX_PLAY + 1][count][position]
                position += size
            if same:
                return tuple(same)
            other: list[Play] = []
            position = 1
            for c in self.clumps:
                size = c.size
                if c.suit is not suit:
                    other += _CLUMP_PLAYS[c.suit][size if size <= MAX_PLAY else MAX_PLAY + 1][
                        position
                    ]
                position += size
            return tuple(other)
        except (IndexError, TypeError):  # outside the tables: a hand larger than the deck
            plays = self.plays
            found = tuple(p for p in plays if p.suit is suit and p.count != count)
            return found or tuple(p for p in plays if p.suit is not suit)

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
        raise ValueError(f"position {position} is outside a hand of {counted(self.size, 'card')}")

    def without(self, play: Play) -> Hand:
        """The hand after ``play`` leaves it; neighbours of one suit merge (RULINGS H3).

        ``play`` must be one of :attr:`plays` (not checked here: the rules check it).
        """
        clumps = self.clumps
        position = play.position
        if position < 1:
            raise ValueError(
                f"position {position} is outside a hand of {counted(self.size, 'card')}"
            )
        index = 0
        end = 1  # one past the last position of the clumps before ``index``
        for c in clumps:
            end += c.size
            if position < end:
                break
            index += 1
        else:
            raise ValueError(
                f"position {position} is outside a hand of {counted(self.size, 'card')}"
            )
        clump = clumps[index]
        rest = clump.size - play.count
        if rest:
            new = list(clumps)
            new[index] = clump_of(clump.suit, rest)
            return Hand(tuple(new))
        if 0 < index < len(clumps) - 1:
            before, after = clumps[index - 1], clumps[index + 1]
            if before.suit is after.suit:  # RULINGS H3
                merged = clump_of(before.suit, before.size + after.size)
                return Hand((*clumps[: index - 1], merged, *clumps[index + 2 :]))
        return Hand(clumps[:index] + clumps[index + 1 :])

    def __str__(self) -> str:
        # _LETTERS[suit] is Suit.letter without a call: every stored snapshot writes hands.
        return "".join([_LETTERS[c.suit] * c.size for c in self.clumps])


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
class PublicTrick:
    """A finished trick as everyone may see it (RULINGS H13): a :class:`Trick` whose plays
    are in their public form, :class:`PlayedCards` (count and suit, no hand position).

    ``follow`` and ``winner`` are ``None`` for a trick ended by RULINGS H6, as in :class:`Trick`.
    """

    leader: int
    lead: PlayedCards
    follow: PlayedCards | None
    winner: int | None

    @classmethod
    def of(cls, trick: Trick) -> PublicTrick:
        """The public form of ``trick``."""
        follow = None if trick.follow is None else played_cards(trick.follow)
        return cls(trick.leader, played_cards(trick.lead), follow, trick.winner)


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
                raise ValueError(
                    f"seat {seat} is dealt {counted(hand.size, 'card')}, not {HAND_SIZE}"
                )
        if len(self.face_down) != FACE_DOWN_SIZE:
            raise ValueError(
                f"{counted(len(self.face_down), 'face-down card')}, not {FACE_DOWN_SIZE}"
            )
        for suit in SUITS:
            total = sum(h.counts[suit] for h in self.hands) + self.face_down.count(suit)
            if total != CARDS_PER_SUIT:
                raise ValueError(
                    f"{counted(total, 'card')} of {suit.name.title()}, not {CARDS_PER_SUIT}"
                )
        return self
