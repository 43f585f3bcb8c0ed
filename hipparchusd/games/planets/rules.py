"""The rules of planets as pure, immutable states (docs/planets.md; RULINGS P1-P16).

- :class:`HandState` is one hand: the deal, the simultaneous pass (P4, P12, P15), the tricks
  (P5, P6, P10, P11), the points taken (P7) and the shooter's pending choice (P8, P13).
- :class:`PlanetsState` is a whole game: the totals, each finished hand's :class:`HandResult`
  (P13, P14), the end test and shared wins (P9), and the hand in progress.

Every method that changes something returns a new state and raises :class:`IllegalPlay` (the
state unchanged) with a message saying why. Messages name only the moving seat's own cards.

Cards inside a state are masks (``int``, bit ``card`` set per card held; see
:mod:`~hipparchusd.games.planets.model`) so that the legal cards and the trick's winner are a
few integer operations: a random hand of four seats is played in well under a millisecond.
For the same reason the rules build the states of every card played field by field (see
"Fast construction" below: the same frozen values) and give each such state its seat's legal
cards, so that a driver asking :meth:`HandState.legal_cards` and then playing one of them
applies the rules once (``bench/bench_rules.py`` measures random hands per second).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from ...wording import counted
from .dealing import check_deal, check_masks, cut_dealer, draw_cut, shuffled_deal
from .model import (
    CARDS,
    HAND_POINTS,
    JUPITER_MASK,
    ONE_POINT_MASK,
    SEVEN_POINT_MASK,
    SUIT_CARDS,
    SUIT_MASKS,
    SUIT_NAMES,
    Card,
    PassKind,
    Shoot,
    cards_of,
    pass_kind,
)

#: Totals above this end the game (RULINGS P9).
GAME_LIMIT = 100

_V1_BIT = 1 << Card.V1
#: ``_BITS[card]`` is ``1 << card``.
_BITS: tuple[int, ...] = tuple(1 << card for card in CARDS)
_V1_ONLY = (Card.V1,)


class IllegalPlay(ValueError):
    """A move the rules refuse; the message says why (never naming another seat's cards)."""


class Phase(enum.Enum):
    """Where a hand stands: seats choose their passes, play tricks, the shooter chooses, or the
    hand is over."""

    PASS = "pass"
    PLAY = "play"
    CHOICE = "choice"
    OVER = "over"


# Enum members are slow to look up on their class (a descriptor call); the rules ask for them
# on every card played.
_PASS, _PLAY, _CHOICE, _OVER = Phase.PASS, Phase.PLAY, Phase.CHOICE, Phase.OVER


@attrs.frozen(slots=True)
class Trick:
    """A finished trick (public: cards are played face up). ``number`` counts from 1 in the
    hand; ``cards`` in play order from ``leader``; ``winner`` played the highest card of the led
    suit (RULINGS P5) and took ``points`` (P7)."""

    number: int
    leader: int
    cards: tuple[Card, ...]
    winner: int
    points: int


@attrs.frozen(slots=True)
class HandSetup:
    """What a hand keeps from its deal to its end: ``players``, its ``number`` (from 1), its
    ``dealer``, its pass ``kind`` (RULINGS P4, P15), the seats' cards as ``dealt`` (masks by
    seat) and each seat's chosen pass in order (``None`` until it passes; ``()`` in a no-pass
    hand)."""

    players: int
    number: int
    dealer: int
    kind: PassKind
    dealt: tuple[int, ...]
    passes: tuple[tuple[Card, ...] | None, ...]


@attrs.frozen(slots=True)
class Tally:
    """What the finished tricks of a hand have decided: the ``phase``, the ``leader`` of the
    trick in progress (-1 during the pass, when it is not known yet: P12), the finished
    ``tricks``, the points ``taken`` by seat (P7), whether Jupiter is ``broken`` (P11), the
    ``shooter`` who took every point card (P8) and its ``choice`` once made."""

    phase: Phase
    leader: int
    tricks: tuple[Trick, ...]
    taken: tuple[int, ...]
    broken: bool
    shooter: int | None
    choice: Shoot | None


@attrs.frozen(slots=True)
class HandState:
    """One hand of planets: its :class:`HandSetup`, the :class:`Tally` of its finished tricks,
    the cards each seat holds now (``hands``, masks by seat) and the ``trick`` in progress (its
    cards in play order from the leader).

    The state is split so that a card that does not end a trick makes a new state of four
    fields only (the setup and the tally are shared): a hand is mostly such plays. The
    properties below read through to the parts.
    """

    setup: HandSetup
    tally: Tally
    hands: tuple[int, ...]
    trick: tuple[Card, ...]
    # The cards the seat to play may play (legal_cards()), when known at construction: not part
    # of the value (no init, eq, hash or repr; attrs.evolve leaves it out) and never changed
    # once set. The rules give it to every state they make: a play already holds most of the
    # answer for the next seat, so a driver's legal_cards() is then a read, and play() checks
    # a card by looking it up.
    _legal: tuple[Card, ...] | None = attrs.field(
        default=None, init=False, eq=False, hash=False, repr=False
    )

    @classmethod
    def start(cls, number: int, dealer: int, dealt: Sequence[int]) -> HandState:
        """Hand ``number`` (1-based), dealt by ``dealer``: the seats' cards ``dealt`` (masks,
        checked by :func:`check_masks`). A no-pass hand goes straight to play, led by the
        holder of Venus 1 (RULINGS P12)."""
        players = len(dealt)
        kind = pass_kind(players, number)
        hands = tuple(dealt)
        zeros = (0,) * players
        if kind.count:
            setup = _setup(players, number, dealer, kind, hands, (None,) * players)
            tally = _tally(_PASS, -1, (), zeros, False, None, None)
        else:
            setup = _setup(players, number, dealer, kind, hands, ((),) * players)
            tally = _tally(_PLAY, _holder(hands, _V1_BIT), (), zeros, False, None, None)
            return _hand_state(setup, tally, hands, (), _V1_ONLY)  # Venus 1 leads (P5).
        return _hand_state(setup, tally, hands, (), ())

    # The parts' fields.

    @property
    def players(self) -> int:
        """Seats at the table."""
        return self.setup.players

    @property
    def number(self) -> int:
        """The hand's number, from 1."""
        return self.setup.number

    @property
    def dealer(self) -> int:
        """The hand's dealer."""
        return self.setup.dealer

    @property
    def kind(self) -> PassKind:
        """The hand's pass."""
        return self.setup.kind

    @property
    def dealt(self) -> tuple[int, ...]:
        """The seats' cards as dealt (masks by seat)."""
        return self.setup.dealt

    @property
    def passes(self) -> tuple[tuple[Card, ...] | None, ...]:
        """Each seat's pass in order, ``None`` until it passes."""
        return self.setup.passes

    @property
    def phase(self) -> Phase:
        """Pass, play, the shooter's choice, or over."""
        return self.tally.phase

    @property
    def leader(self) -> int:
        """The leader of the trick in progress (-1 during the pass)."""
        return self.tally.leader

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The finished tricks."""
        return self.tally.tricks

    @property
    def taken(self) -> tuple[int, ...]:
        """Points taken by seat this hand."""
        return self.tally.taken

    @property
    def broken(self) -> bool:
        """Whether a Jupiter card has been played to a trick (P11)."""
        return self.tally.broken

    @property
    def shooter(self) -> int | None:
        """The seat that took every point card, once the last trick is played."""
        return self.tally.shooter

    @property
    def choice(self) -> Shoot | None:
        """The shooter's choice, once made."""
        return self.tally.choice

    # Questions.

    @property
    def to_move(self) -> tuple[int, ...]:
        """The seats that must move now, in seat order: during the pass every seat that has not
        passed; then the seat to play, then the shooter; none once the hand is over."""
        tally = self.tally
        phase = tally.phase
        if phase is _PLAY:
            return ((tally.leader + len(self.trick)) % self.setup.players,)
        if phase is _PASS:
            return tuple(seat for seat, chosen in enumerate(self.setup.passes) if chosen is None)
        if phase is _CHOICE:
            assert tally.shooter is not None
            return (tally.shooter,)
        return ()

    @property
    def player(self) -> int:
        """The seat to play a card (only meaningful during play)."""
        return (self.tally.leader + len(self.trick)) % self.setup.players

    def legal_mask(self) -> int:
        """The cards the seat to play may play now, as a mask (RULINGS P5, P6, P11); 0 when
        no card is to be played."""
        tally = self.tally
        if tally.phase is not _PLAY:
            return 0
        trick = self.trick
        hand = self.hands[(tally.leader + len(trick)) % self.setup.players]
        if trick:
            # Follow the led suit if you can; otherwise any card (P5, P10).
            return hand & SUIT_MASKS[trick[0] // 10] or hand
        if not tally.tricks:
            return hand & _V1_BIT  # Venus 1 leads the first trick (P5, P12).
        if tally.broken:
            return hand
        # No Jupiter lead before one is played, unless nothing else is held (P6).
        return hand & ~JUPITER_MASK or hand

    def legal_cards(self) -> tuple[Card, ...]:
        """The cards the seat to play may play now, sorted (:meth:`legal_mask` as cards)."""
        legal = self._legal
        if legal is not None:
            return legal
        tally = self.tally
        if tally.phase is not _PLAY:
            return ()
        trick = self.trick
        hand = self.hands[(tally.leader + len(trick)) % self.setup.players]
        if trick:
            return _follow_cards(hand, trick[0] // 10)
        if not tally.tricks:
            return _V1_ONLY if hand & _V1_BIT else ()
        return _lead_cards(hand, tally.broken)

    def why_illegal(self, card: Card) -> str | None:
        """Why the seat to play may not play ``card`` now, or ``None`` when it may."""
        if self.phase is not _PLAY:
            return "no card is to be played now"
        hand = self.hands[self.player]
        bit = 1 << card
        if not hand & bit:
            return f"you do not hold {card.name}"
        if self.legal_mask() & bit:
            return None
        if self.trick:
            return f"you must follow {SUIT_NAMES[self.trick[0] // 10]}"
        if not self.tricks:
            return "V1 leads the first trick"
        return "Jupiter is not broken: lead another suit"

    def received(self, seat: int) -> tuple[tuple[Card, ...], tuple[int, ...]]:
        """What ``seat`` received in this hand's pass, once every seat has passed: the cards
        sorted and the seat each came from (``((), ())`` before then or in a no-pass hand)."""
        if self.phase is _PASS:
            return (), ()
        got: list[tuple[Card, int]] = []
        setup = self.setup
        for giver, chosen in enumerate(setup.passes):
            if chosen:
                targets = setup.kind.targets(giver, setup.players)
                for card, target in zip(chosen, targets, strict=True):
                    if target == seat:
                        got.append((card, giver))
        got.sort()
        return tuple(card for card, _ in got), tuple(giver for _, giver in got)

    def added(self) -> tuple[int, ...]:
        """What this hand adds to each total (RULINGS P7, P8, P13): the points taken, or after
        a shoot, -23 for the shooter (``self``) or +23 for every opponent (``others``).

        Raises:
            IllegalPlay: the hand is not over.
        """
        tally = self.tally
        if tally.phase is not _OVER:
            raise IllegalPlay("the hand is not over")
        shooter = tally.shooter
        seats = range(self.setup.players)
        if shooter is None:
            return tally.taken
        if tally.choice is Shoot.SELF:
            return tuple(-HAND_POINTS if seat == shooter else 0 for seat in seats)
        return tuple(0 if seat == shooter else HAND_POINTS for seat in seats)

    # Moves.

    def pass_cards(self, seat: int, cards: Sequence[Card]) -> HandState:
        """``seat`` passes ``cards`` (in order: the i-th goes to the i-th target of the pass,
        RULINGS P4). When it is the last seat to pass, the cards move and the holder of Venus 1
        leads (P12).

        Raises:
            IllegalPlay: not the pass, already passed, the wrong number of cards, a card named
                twice or not held.
        """
        setup = self.setup
        if self.tally.phase is not _PASS:
            raise IllegalPlay("no pass is to be made now")
        if not 0 <= seat < setup.players:
            raise IllegalPlay(f"no seat {seat}")
        if setup.passes[seat] is not None:
            raise IllegalPlay("you have already passed this hand")
        wanted = setup.kind.count
        if len(cards) != wanted:
            raise IllegalPlay(f"pass exactly {counted(wanted, 'card')}")
        hand = setup.dealt[seat]
        seen = 0
        for card in cards:
            bit = 1 << card
            if seen & bit:
                raise IllegalPlay(f"{card.name} is named twice")
            if not hand & bit:
                raise IllegalPlay(f"you do not hold {card.name}")
            seen |= bit
        updated = list(setup.passes)
        updated[seat] = tuple(cards)
        passes = tuple(updated)
        setup = _setup(setup.players, setup.number, setup.dealer, setup.kind, setup.dealt, passes)
        if None in passes:
            return _hand_state(setup, self.tally, self.hands, (), ())
        players = setup.players
        offsets = setup.kind.offsets
        hands = list(setup.dealt)
        uniform = offsets[0] == offsets[-1]  # every card to the same seat: all but split
        for giver, chosen in enumerate(passes):
            assert chosen is not None
            if uniform:
                # Each seat's own cards are still in its hand (cards only arrive from
                # others), so ^ removes them.
                moved = 0
                for card in chosen:
                    moved |= _BITS[card]
                hands[giver] ^= moved
                hands[(giver + offsets[0]) % players] |= moved
                continue
            for card, offset in zip(chosen, offsets, strict=True):
                bit = _BITS[card]
                hands[giver] ^= bit
                hands[(giver + offset) % players] |= bit
        tally = _tally(_PLAY, _holder(hands, _V1_BIT), (), self.tally.taken, False, None, None)
        return _hand_state(setup, tally, tuple(hands), (), _V1_ONLY)  # Venus 1 leads (P5).

    def play(self, card: Card) -> HandState:
        """The seat to play plays ``card`` (RULINGS P5, P6, P10, P11). The last card of a trick
        gives it to the highest card of the led suit; the last trick ends the hand, or awaits
        the shooter's choice (P8).

        Raises:
            IllegalPlay: not legal now; the message says why (:meth:`why_illegal`).
        """
        legal = self._legal
        if legal is None:
            legal = self.legal_cards()
        if card not in legal:
            raise IllegalPlay(self.why_illegal(card) or "not legal now")
        tally = self.tally
        setup = self.setup
        players = setup.players
        leader = tally.leader
        trick = self.trick
        seat = (leader + len(trick)) % players
        # A list's copy with one item set is the fastest way to a new tuple with one change.
        changed = list(self.hands)
        changed[seat] ^= _BITS[card]
        hands = tuple(changed)
        trick = trick + (card,)  # noqa: RUF005 (faster than unpacking)
        if len(trick) < players:
            # The next seat must follow the led suit (P5, P10). _follow_cards() and
            # _hand_state(), inlined: this is most plays of a hand.
            suit = trick[0] // 10
            hand = changed[(seat + 1) % players]
            following = SUIT_CARDS[suit][hand >> (10 * suit) & 0x3FF] or cards_of(hand)
            state = _new(HandState)
            _SET_SETUP(state, setup)
            _SET_TALLY(state, tally)
            _SET_HANDS(state, hands)
            _SET_TRICK(state, trick)
            _SET_LEGAL(state, following)
            return state
        # The trick is complete. Its cards as a mask; the highest card of the led suit, which
        # wins it (P5), is then the highest bit of the led suit (a Galaxy above its Sun, P1);
        # its points are one per Jupiter from 1 to Sun and seven per Mars 7 or Neptune 7 (P7).
        cards = 0
        for played in trick:  # (a loop: twice as fast as sum(map(...)) for a few cards)
            cards |= _BITS[played]
        best = (cards & SUIT_MASKS[trick[0] // 10]).bit_length() - 1
        winner = (leader + trick.index(CARDS[best])) % players
        points = (cards & ONE_POINT_MASK).bit_count() + 7 * (cards & SEVEN_POINT_MASK).bit_count()
        # Only a Jupiter card breaks Jupiter, the Jupiter Galaxy included (P11).
        broken = tally.broken or cards & JUPITER_MASK != 0
        taken = tally.taken
        if points:
            scores = list(taken)
            scores[winner] += points
            taken = tuple(scores)
        done = _trick(len(tally.tricks) + 1, leader, trick, winner, points)
        tricks = tally.tricks + (done,)  # noqa: RUF005 (as above)
        hand = hands[winner]
        if hand:
            tally = _tally(_PLAY, winner, tricks, taken, broken, None, None)
            return _hand_state(setup, tally, hands, (), _lead_cards(hand, broken))
        # Every hand is empty: the hand is over, unless someone took every point (P8).
        phase = _OVER
        shooter = None
        for other, points_taken in enumerate(taken):
            if points_taken == HAND_POINTS:
                phase, shooter = _CHOICE, other
        tally = _tally(phase, winner, tricks, taken, broken, shooter, None)
        return _hand_state(setup, tally, hands, (), ())

    def choose(self, seat: int, choice: Shoot) -> HandState:
        """The shooter ``seat`` makes its choice (RULINGS P8, P13); the hand is over.

        Raises:
            IllegalPlay: no choice is pending, or ``seat`` is not the shooter.
        """
        tally = self.tally
        if tally.phase is not _CHOICE:
            raise IllegalPlay("no shooting choice is pending")
        if seat != tally.shooter:
            raise IllegalPlay("only the seat that took every point card chooses")
        over = _tally(_OVER, tally.leader, tally.tricks, tally.taken, tally.broken, seat, choice)
        return _hand_state(self.setup, over, self.hands, (), ())


# Fast construction. A frozen attrs class's ``__init__`` sets each field through
# ``object.__setattr__`` (the way round its own guard against mutation), which made building
# states most of the cost of a play. The rules build the states of every card played with the
# functions below instead: the same values, each field set by its slot's own descriptor. They
# skip nothing else (these classes have no defaults, validators or converters); outside the
# rules, the classes are built and stay immutable as usual.

_new = object.__new__


def _slot_setters(cls: type, *names: str) -> tuple[Callable[[Any, Any], None], ...]:
    """The setters of the slots of ``cls``'s fields ``names``, which must be all its fields
    in order (so that a field added later cannot be left unset)."""
    if names != tuple(field.name for field in attrs.fields(cls)):
        raise TypeError(f"{cls.__name__}'s fields are not {names}")
    return tuple(cls.__dict__[name].__set__ for name in names)


_SET_SETUP, _SET_TALLY, _SET_HANDS, _SET_TRICK, _SET_LEGAL = _slot_setters(
    HandState, "setup", "tally", "hands", "trick", "_legal"
)
_SET_PHASE, _SET_LEADER, _SET_TRICKS, _SET_TAKEN, _SET_BROKEN, _SET_SHOOTER, _SET_CHOICE = (
    _slot_setters(Tally, "phase", "leader", "tricks", "taken", "broken", "shooter", "choice")
)
_SET_NUMBER, _SET_TRICK_LEADER, _SET_CARDS, _SET_WINNER, _SET_POINTS = _slot_setters(
    Trick, "number", "leader", "cards", "winner", "points"
)
_SET_PLAYERS, _SET_HAND_NUMBER, _SET_DEALER, _SET_KIND, _SET_DEALT, _SET_PASSES = _slot_setters(
    HandSetup, "players", "number", "dealer", "kind", "dealt", "passes"
)


def _hand_state(
    setup: HandSetup,
    tally: Tally,
    hands: tuple[int, ...],
    trick: tuple[Card, ...],
    legal: tuple[Card, ...],
) -> HandState:
    """``HandState(setup, tally, hands, trick)`` whose legal cards are ``legal``, built
    fast."""
    state = _new(HandState)
    _SET_SETUP(state, setup)
    _SET_TALLY(state, tally)
    _SET_HANDS(state, hands)
    _SET_TRICK(state, trick)
    _SET_LEGAL(state, legal)
    return state


def _tally(
    phase: Phase,
    leader: int,
    tricks: tuple[Trick, ...],
    taken: tuple[int, ...],
    broken: bool,
    shooter: int | None,
    choice: Shoot | None,
) -> Tally:
    """``Tally(phase, leader, tricks, taken, broken, shooter, choice)``, built fast."""
    tally = _new(Tally)
    _SET_PHASE(tally, phase)
    _SET_LEADER(tally, leader)
    _SET_TRICKS(tally, tricks)
    _SET_TAKEN(tally, taken)
    _SET_BROKEN(tally, broken)
    _SET_SHOOTER(tally, shooter)
    _SET_CHOICE(tally, choice)
    return tally


def _trick(number: int, leader: int, cards: tuple[Card, ...], winner: int, points: int) -> Trick:
    """``Trick(number, leader, cards, winner, points)``, built fast."""
    trick = _new(Trick)
    _SET_NUMBER(trick, number)
    _SET_TRICK_LEADER(trick, leader)
    _SET_CARDS(trick, cards)
    _SET_WINNER(trick, winner)
    _SET_POINTS(trick, points)
    return trick


def _setup(
    players: int,
    number: int,
    dealer: int,
    kind: PassKind,
    dealt: tuple[int, ...],
    passes: tuple[tuple[Card, ...] | None, ...],
) -> HandSetup:
    """``HandSetup(players, number, dealer, kind, dealt, passes)``, built fast."""
    setup = _new(HandSetup)
    _SET_PLAYERS(setup, players)
    _SET_HAND_NUMBER(setup, number)
    _SET_DEALER(setup, dealer)
    _SET_KIND(setup, kind)
    _SET_DEALT(setup, dealt)
    _SET_PASSES(setup, passes)
    return setup


def _follow_cards(hand: int, suit: int) -> tuple[Card, ...]:
    """The cards a seat holding ``hand`` may play to a trick led in ``suit``: that suit if it
    holds any, else any card (RULINGS P5, P10). Following is one table look-up."""
    return SUIT_CARDS[suit][hand >> (10 * suit) & 0x3FF] or cards_of(hand)


def _lead_cards(hand: int, broken: bool) -> tuple[Card, ...]:
    """The cards a seat holding ``hand`` may lead after the first trick: no Jupiter before one
    is played (``broken``), unless nothing else is held (RULINGS P6, P11)."""
    return cards_of(hand if broken else hand & ~JUPITER_MASK or hand)


def _holder(hands: Sequence[int], bit: int) -> int:
    for seat, hand in enumerate(hands):
        if hand & bit:
            return seat
    raise IllegalPlay("no seat holds that card")


@attrs.frozen(slots=True)
class HandResult:
    """A finished hand: its number and dealer, the ``points`` each seat took (P7), the
    ``shooter`` and its ``choice`` if any (P8), what was ``added`` to each total (P13) and the
    ``totals`` after it (after the ``exact100`` reset, P14)."""

    number: int
    dealer: int
    points: tuple[int, ...]
    shooter: int | None
    choice: Shoot | None
    added: tuple[int, ...]
    totals: tuple[int, ...]


@attrs.frozen(slots=True)
class PlanetsState:
    """A game of planets: ``players`` seats, the deck's ``galaxies`` option (P2), the
    ``exact100`` reset option (P9, P14), the ``first_dealer`` (P3), the ``totals``, the
    ``results`` of finished hands, the ``hand`` in progress (or just finished), and the
    ``winners`` once the game is over (P9)."""

    players: int
    galaxies: bool
    exact100: bool
    first_dealer: int
    totals: tuple[int, ...]
    results: tuple[HandResult, ...]
    hand: HandState
    winners: tuple[int, ...] | None

    @classmethod
    def start(
        cls,
        dealt: Sequence[int],
        first_dealer: int,
        *,
        galaxies: bool = False,
        exact100: bool = False,
    ) -> PlanetsState:
        """A new game whose first hand is ``dealt`` (masks by seat, see :func:`check_deal`) by
        ``first_dealer``.

        Raises:
            ValueError: a bad dealer or deal.
        """
        players = len(dealt)
        check_masks(dealt, players, galaxies)
        if not 0 <= first_dealer < players:
            raise ValueError(f"no seat {first_dealer} to deal")
        hand = HandState.start(1, first_dealer, dealt)
        return cls(players, galaxies, exact100, first_dealer, (0,) * players, (), hand, None)

    @property
    def hand_number(self) -> int:
        """The number of the hand in progress (or just finished), from 1."""
        return self.hand.number

    @property
    def next_dealer(self) -> int:
        """The dealer of the next hand: the deal rotates left (P3)."""
        return (self.hand.dealer + 1) % self.players

    @property
    def to_move(self) -> tuple[int, ...]:
        """The seats that must move now (none once the game or the hand is over)."""
        if self.winners is not None:
            return ()
        return self.hand.to_move

    def pass_cards(self, seat: int, cards: Sequence[Card]) -> PlanetsState:
        """See :meth:`HandState.pass_cards`."""
        return attrs.evolve(self, hand=self.hand.pass_cards(seat, cards))

    def play(self, card: Card) -> PlanetsState:
        """See :meth:`HandState.play`; a hand's end is scored at once (P14)."""
        hand = self.hand.play(card)
        if hand.phase is _OVER:
            return self._scored(hand)
        return PlanetsState(
            self.players, self.galaxies, self.exact100, self.first_dealer, self.totals,
            self.results, hand, None,
        )  # fmt: skip

    def choose(self, seat: int, choice: Shoot) -> PlanetsState:
        """See :meth:`HandState.choose`; the hand is then scored (P13, P14)."""
        return self._scored(self.hand.choose(seat, choice))

    def _scored(self, hand: HandState) -> PlanetsState:
        # P14: add the hand's points (after the choice), then the exact-100 reset, then P9.
        added = hand.added()
        totals = tuple(total + points for total, points in zip(self.totals, added, strict=True))
        if self.exact100:
            totals = tuple(0 if total == GAME_LIMIT else total for total in totals)
        result = HandResult(
            hand.number, hand.dealer, hand.taken, hand.shooter, hand.choice, added, totals
        )
        winners = lowest(totals) if max(totals) > GAME_LIMIT else None
        return PlanetsState(
            self.players, self.galaxies, self.exact100, self.first_dealer, totals,
            (*self.results, result), hand, winners,
        )  # fmt: skip

    def next_hand(self, dealt: Sequence[int]) -> PlanetsState:
        """The next hand, ``dealt`` (masks by seat) by the next dealer (P3).

        Raises:
            IllegalPlay: the hand in progress is not over, or the game is.
            ValueError: a bad deal.
        """
        if self.hand.phase is not _OVER or self.winners is not None:
            raise IllegalPlay("the hand is not over" if self.winners is None else "game over")
        check_masks(dealt, self.players, self.galaxies)
        hand = HandState.start(self.hand.number + 1, self.next_dealer, dealt)
        return attrs.evolve(self, hand=hand)


def lowest(totals: Sequence[int], *, excluding: int | None = None) -> tuple[int, ...]:
    """The seats with the lowest total (shared wins, RULINGS P9), leaving out ``excluding``
    (a seat that resigned: P16)."""
    best = min(total for seat, total in enumerate(totals) if seat != excluding)
    return tuple(seat for seat, total in enumerate(totals) if total == best and seat != excluding)


__all__ = [
    "CARDS",
    "GAME_LIMIT",
    "HandResult",
    "HandSetup",
    "HandState",
    "IllegalPlay",
    "Phase",
    "PlanetsState",
    "Tally",
    "Trick",
    "check_deal",
    "check_masks",
    "cut_dealer",
    "draw_cut",
    "lowest",
    "shuffled_deal",
]
