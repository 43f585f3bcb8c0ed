"""The object model of Hipparchus: suits, hands, clumps, plays, tricks and deals.

Everything here is an immutable value (frozen, slotted attrs classes): a view of the values
of :mod:`.core`, where the rules are. A :class:`Hand` is its clumps (RULINGS H2: maximal runs
of adjacent cards of one suit) as the core's ints ``size << 2 | suit`` stand for them; every
rule it answers (its plays, its follows, a play leaving it) the core answers. Cards of one suit
are identical, so the clump sequence is the whole of a hand's order (RULINGS H1).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from functools import cached_property

import attrs

from hipparchusd.wording import counted

from . import core
from .core import CARDS_PER_SUIT, FACE_DOWN_SIZE, HAND_SIZE, MAX_PLAY, SEATS

__all__ = [
    "CARDS_PER_SUIT",
    "FACE_DOWN_SIZE",
    "HAND_SIZE",
    "MAX_PLAY",
    "NO_CARDS",
    "SEATS",
    "SUITS",
    "Clump",
    "Deal",
    "Hand",
    "Play",
    "PlayedCards",
    "PublicTrick",
    "Suit",
    "SuitCounts",
    "Trick",
    "cards_of",
    "cards_of_move",
    "clump_of",
    "move_of",
    "play_of",
    "play_of_move",
    "played_cards",
    "plays_of",
]


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


_LETTERS = core.SUIT_LETTERS
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


# Shared instances of the small values the core's ints stand for. Clumps and plays are
# immutable values compared by value, so sharing them is invisible to callers; it saves the
# constructor calls a view of a hand or of the legal moves would make, and makes
# ``play in legal_plays`` an identity hit for plays the rules listed. Indexed by the core's
# ints: a clump ``size << 2 | suit``, a move ``position << 4 | count << 2 | suit`` and its
# public form ``count << 2 | suit`` (:mod:`.core`, "Representation").
_MAX_POSITION = CARDS_PER_SUIT * 3
_CLUMP_OF: tuple[Clump | None, ...] = tuple(
    Clump(SUITS[code & 3], code >> 2) if code & 3 < 3 else None
    for code in range((_MAX_POSITION + 1) << 2)
)
_PLAY_OF: tuple[Play | None, ...] = tuple(
    Play(code >> 2 & 3, SUITS[code & 3], code >> 4) if code & 3 < 3 else None
    for code in range((_MAX_POSITION + 1) << 4)
)
_PLAYED_CARDS_OF: tuple[PlayedCards | None, ...] = tuple(
    PlayedCards(code >> 2, SUITS[code & 3]) if code & 3 < 3 else None for code in range(16)
)


def clump_of(suit: Suit, size: int) -> Clump:
    """``Clump(suit, size)``, shared when possible (equal by value to a new one)."""
    if 0 <= size <= _MAX_POSITION and isinstance(suit, Suit):
        clump = _CLUMP_OF[size << 2 | suit]
        assert clump is not None
        return clump
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
        play = _PLAY_OF[position << 4 | count << 2 | suit]
        assert play is not None
        return play
    return Play(count, suit, position)


def cards_of(count: int, suit: Suit) -> PlayedCards:
    """``PlayedCards(count, suit)``, shared when possible (equal by value to a new one)."""
    if type(count) is int and isinstance(suit, Suit) and 0 <= count <= MAX_PLAY:
        cards = _PLAYED_CARDS_OF[count << 2 | suit]
        assert cards is not None
        return cards
    return PlayedCards(count, suit)


def played_cards(play: Play) -> PlayedCards:
    """The public form of ``play``: its count and suit, no position (RULINGS H13)."""
    return cards_of(play.count, play.suit)


def move_of(play: Play) -> core.Move | None:
    """The core's move for ``play`` (``position << 4 | count << 2 | suit``), or ``None`` when
    ``play`` is not a well-formed play (not a :class:`Play`, fields of other types, a count
    outside 1-3, a position below 1): such a play is legal nowhere."""
    if type(play) is not Play:
        return None
    count, position = play.count, play.position
    if type(count) is not int or type(position) is not int or not isinstance(play.suit, Suit):
        return None
    if not 1 <= count <= MAX_PLAY or position < 1:
        return None
    return position << 4 | count << 2 | play.suit


def play_of_move(move: core.Move) -> Play:
    """The :class:`Play` of the core's ``move`` (shared when possible)."""
    if move < len(_PLAY_OF):
        play = _PLAY_OF[move]
        if play is not None:
            return play
    return Play(move >> 2 & 3, SUITS[move & 3], move >> 4)


def cards_of_move(move: core.Move) -> PlayedCards:
    """The public form (:class:`PlayedCards`) of the core's ``move`` (RULINGS H13)."""
    cards = _PLAYED_CARDS_OF[move & 15]
    assert cards is not None
    return cards


def plays_of(moves: tuple[core.Move, ...]) -> tuple[Play, ...]:
    """The :class:`Play` of each of the core's ``moves``, in order."""
    table = _PLAY_OF
    try:
        plays = tuple([table[move] for move in moves])
    except IndexError:  # a hand longer than this deck allows
        return tuple(play_of_move(move) for move in moves)
    if None in plays:
        return tuple(play_of_move(move) for move in moves)
    return plays  # type: ignore[return-value]  # no None: checked above


def clumps_of(hand: core.Hand) -> tuple[Clump, ...]:
    """The :class:`Clump` of each of the core's clumps ``size << 2 | suit``, in order."""
    table = _CLUMP_OF
    try:
        clumps = tuple([table[c] for c in hand])
    except IndexError:  # a clump longer than this deck allows
        return tuple(Clump(SUITS[c & 3], c >> 2) for c in hand)
    return clumps  # type: ignore[return-value]  # a core clump's suit is 0-2: never None


@attrs.frozen(slots=True, weakref_slot=False)
class Hand:
    """An ordered hand (RULINGS H1), as its clumps from left to right: a view of the core's
    hand (:mod:`.core`), which answers every rule.

    Invariants (checked by :meth:`validated`, guaranteed by every rule): every clump has size
    >= 1 and no two neighbouring clumps share a suit (they would be one clump, RULINGS H3).
    """

    clumps: tuple[Clump, ...]
    # The core's hand and the plays it allows, worked out once (private caches, not part of
    # the value: no init, eq, hash or repr).
    _core: core.Hand | None = attrs.field(
        default=None, init=False, eq=False, hash=False, repr=False
    )
    _plays: tuple[Play, ...] | None = attrs.field(
        default=None, init=False, eq=False, hash=False, repr=False
    )

    @classmethod
    def of(cls, hand: core.Hand) -> Hand:
        """The view of the core's ``hand`` (its clumps ``size << 2 | suit``)."""
        view = cls(clumps_of(hand))
        object.__setattr__(view, "_core", hand)
        return view

    @classmethod
    def from_cards(cls, cards: Iterable[Suit]) -> Hand:
        """Build the hand whose cards, left to right, are ``cards`` (RULINGS H1, H2)."""
        return cls.of(core.hand_of(cards))

    @property
    def core(self) -> core.Hand:
        """The core's form of this hand: its clumps as ints ``size << 2 | suit``."""
        hand = self._core
        if hand is None:
            hand = tuple([c.size << 2 | c.suit for c in self.clumps])
            object.__setattr__(self, "_core", hand)
        return hand

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
        return core.size_of(self.core)

    @cached_property
    def counts(self) -> SuitCounts:
        """Cards of each suit, indexed by ``Suit``."""
        return core.counts_of(self.core)

    @property
    def plays(self) -> tuple[Play, ...]:
        """Every play allowed by RULINGS H2 (what a leader may play, H4), left to right,
        fewest cards first within a clump."""
        plays = self._plays
        if plays is None:
            plays = plays_of(core.lead_moves(self.core))
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
        if type(count) is not int or not 0 < count <= MAX_PLAY:
            raise ValueError(f"a lead has 1 to {MAX_PLAY} cards, not {count!r}")
        return plays_of(core.follow_moves(self.core, count << 2 | suit))

    def clump_index_at(self, position: int) -> tuple[int, int]:
        """The clump holding the card at 1-based ``position``: (clump index, its first position).

        Raises:
            ValueError: ``position`` is outside the hand.
        """
        index, start = core.clump_at(self.core, position)
        if index < 0:
            raise ValueError(
                f"position {position} is outside a hand of {counted(self.size, 'card')}"
            )
        return index, start

    def without(self, play: Play) -> Hand:
        """The hand after ``play`` leaves it; neighbours of one suit merge (RULINGS H3).

        ``play`` must be one of :attr:`plays` (not checked here: the rules check it).

        Raises:
            ValueError: ``play``'s position is outside the hand.
        """
        self.clump_index_at(play.position)
        return Hand.of(core.remove(self.core, play.position << 4 | play.count << 2 | play.suit))

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
