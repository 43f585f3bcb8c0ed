"""Hands and games of planets as immutable values: the object model's view of :mod:`.core`,
where the rules are (docs/planets.md; RULINGS P1-P16).

- :class:`HandState` is one hand: its :class:`HandSetup` (the deal and the passes), the
  :class:`Tally` of its finished tricks, and the cards held and played to the trick in
  progress.
- :class:`PlanetsState` is a whole game: the totals, each finished hand's :class:`HandResult`
  (P13, P14), the end test and shared wins (P9), and the hand in progress.

Every method that changes something returns a new state and raises :class:`IllegalPlay` (the
state unchanged) with a message saying why; the core decides every move. A state made by the
rules carries the core's hand it shows (:attr:`HandState.core`); one made by its constructor
(a test's position, a document) works it out from its fields when first asked.

The deal's functions (:mod:`.dealing`) are found here too, as before the split.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

import attrs

from . import core, schedule
from .core import IllegalPlay
from .dealing import check_deal, check_masks, draw_cut, shuffled_deal
from .model import CARDS, Card, PassKind, Shoot, as_cards, pass_kind
from .schedule import cut_dealer
from .totals import GAME_LIMIT, lowest, totals_after, winners

__all__ = [
    "CARDS",
    "CHOICES",
    "GAME_LIMIT",
    "PHASES",
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
    "finished_trick",
    "lowest",
    "pass_cards_of",
    "scored",
    "shuffled_deal",
]


class Phase(enum.Enum):
    """Where a hand stands: seats choose their passes, play tricks, the shooter chooses, or the
    hand is over (:func:`.core.phase`)."""

    PASS = "pass"
    PLAY = "play"
    CHOICE = "choice"
    OVER = "over"


#: Each phase by the core's number for it, and each choice by the core's (0: none yet).
PHASES = (Phase.PASS, Phase.PLAY, Phase.CHOICE, Phase.OVER)
CHOICES = (None, Shoot.SELF, Shoot.OTHERS)
_CHOICE_CODES = {None: 0, Shoot.SELF: core.SELF, Shoot.OTHERS: core.OTHERS}
_PLAY = Phase.PLAY


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


def pass_cards_of(
    passes: tuple[tuple[int, ...] | None, ...],
) -> tuple[tuple[Card, ...] | None, ...]:
    """The core's passes (each seat's chosen cards, ``None`` until it passes) as cards."""
    return tuple(None if chosen is None else as_cards(chosen) for chosen in passes)


def finished_trick(before: core.Hand, card: int, after: core.Hand) -> Trick | None:
    """The :class:`Trick` that ``card`` completed, taking the core's hand ``before`` to
    ``after``; ``None`` when the trick goes on."""
    if after[1]:  # the trick goes on (a complete trick leaves none in progress)
        return None
    _, leader, trick, taken, _, _, _, _ = core.fields(before)
    _, winner, _, points_after, _, done, _, _ = core.fields(after)
    points = points_after[winner] - taken[winner]
    return Trick(done, leader, as_cards((*trick, card)), winner, points)


@attrs.frozen(slots=True)
class HandState:
    """One hand of planets: its :class:`HandSetup`, the :class:`Tally` of its finished tricks,
    the cards each seat holds now (``hands``, masks by seat) and the ``trick`` in progress (its
    cards in play order from the leader).

    The state is split so that a card that does not end a trick makes a new state whose setup
    and tally are shared: a hand is mostly such plays. The properties below read through to
    the parts.
    """

    setup: HandSetup
    tally: Tally
    hands: tuple[int, ...]
    trick: tuple[Card, ...]
    # The core's hand this state shows, and the legal cards, worked out once: not part of the
    # value (no init, eq, hash or repr; attrs.evolve leaves them out).
    _core: core.Hand | None = attrs.field(
        default=None, init=False, eq=False, hash=False, repr=False
    )
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
        hand = core.start(dealt, kind.offsets)
        dealt, _, _, _, _, _, passes, _ = core.fields(hand)
        setup = HandSetup(players, number, dealer, kind, dealt, pass_cards_of(passes))
        return cls.of(hand, setup, ())

    @classmethod
    def of(cls, hand: core.Hand, setup: HandSetup, tricks: tuple[Trick, ...]) -> HandState:
        """The view of the core's ``hand`` with the ``setup`` of its deal (whose passes it
        replaces with the hand's, if they differ) and its finished ``tricks`` (which the core
        does not keep)."""
        _, leader, trick, taken, broken, _, passes, choice = core.fields(hand)
        if passes != setup.passes:
            setup = attrs.evolve(setup, passes=pass_cards_of(passes))
        phase = core.phase(hand)
        shooter = core.shooter(taken) if phase >= core.CHOICE else -1
        tally = Tally(
            PHASES[phase],
            leader,
            tricks,
            taken,
            broken,
            None if shooter < 0 else shooter,
            CHOICES[choice],
        )
        state = cls(setup, tally, core.holdings(hand), as_cards(trick))
        object.__setattr__(state, "_core", hand)
        return state

    @property
    def core(self) -> core.Hand:
        """The core's hand this state shows (:mod:`.core`, "Representation")."""
        hand = self._core
        if hand is None:
            tally = self.tally
            hand = core.hand_of(
                core.before_trick(self.hands, tally.leader, self.trick),
                tally.leader,
                self.trick,
                tally.taken,
                tally.broken,
                len(tally.tricks),
                self.setup.passes,
                _CHOICE_CODES[tally.choice],
                self.setup.kind.offsets,
            )
            object.__setattr__(self, "_core", hand)
        return hand

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
        return core.to_move(self.core)

    @property
    def player(self) -> int:
        """The seat to play a card (only meaningful during play)."""
        return (self.tally.leader + len(self.trick)) % self.setup.players

    def legal_mask(self) -> int:
        """The cards the seat to play may play now, as a mask (RULINGS P5, P6, P11); 0 when
        no card is to be played."""
        if self.tally.phase is not _PLAY:
            return 0
        mask = 0
        for card in core.legal(self.core):
            mask |= 1 << card
        return mask

    def legal_cards(self) -> tuple[Card, ...]:
        """The cards the seat to play may play now, sorted (:meth:`legal_mask` as cards)."""
        legal = self._legal
        if legal is None:
            legal = as_cards(core.legal(self.core)) if self.tally.phase is _PLAY else ()
            object.__setattr__(self, "_legal", legal)
        return legal

    def why_illegal(self, card: Card) -> str | None:
        """Why the seat to play may not play ``card`` now, or ``None`` when it may."""
        if self.tally.phase is not _PLAY:
            return "no card is to be played now"
        return core.why_illegal(self.core, card) or None

    def received(self, seat: int) -> tuple[tuple[Card, ...], tuple[int, ...]]:
        """What ``seat`` received in this hand's pass, once every seat has passed: the cards
        sorted and the seat each came from (``((), ())`` before then or in a no-pass hand)."""
        if self.tally.phase is Phase.PASS:
            return (), ()
        cards, givers = core.received(self.core, self.setup.kind.offsets, seat)
        return as_cards(cards), givers

    def added(self) -> tuple[int, ...]:
        """What this hand adds to each total (RULINGS P7, P8, P13): the points taken, or after
        a shoot, -23 for the shooter (``self``) or +23 for every opponent (``others``).

        Raises:
            IllegalPlay: the hand is not over.
        """
        if self.tally.phase is not Phase.OVER:
            raise IllegalPlay("the hand is not over")
        return core.added(self.core)

    # Moves.

    def pass_cards(self, seat: int, cards: Sequence[Card]) -> HandState:
        """``seat`` passes ``cards`` (in order: the i-th goes to the i-th target of the pass,
        RULINGS P4). When it is the last seat to pass, the cards move and the holder of Venus 1
        leads (P12).

        Raises:
            IllegalPlay: not the pass, already passed, the wrong number of cards, a card named
                twice or not held.
        """
        if self.tally.phase is not Phase.PASS:
            raise IllegalPlay("no pass is to be made now")
        after = core.pass_cards(self.core, seat, cards, self.setup.kind.offsets)
        return HandState.of(after, self.setup, self.tally.tricks)

    def play(self, card: Card) -> HandState:
        """The seat to play plays ``card`` (RULINGS P5, P6, P10, P11). The last card of a trick
        gives it to the highest card of the led suit; the last trick ends the hand, or awaits
        the shooter's choice (P8).

        Raises:
            IllegalPlay: not legal now; the message says why (:meth:`why_illegal`).
        """
        if card not in self.legal_cards():
            raise IllegalPlay(self.why_illegal(card) or "not legal now")
        before = self.core
        after = core.play(before, card)
        if after[1]:
            # The trick goes on: the setup and tally are shared, the seat's card leaves its
            # hand and joins the trick (what HandState.of would rebuild, at a fraction of it).
            hands = list(self.hands)
            hands[self.player] &= ~(1 << card)
            state = HandState(self.setup, self.tally, tuple(hands), (*self.trick, CARDS[card]))
            object.__setattr__(state, "_core", after)
            return state
        trick = finished_trick(before, card, after)
        tricks = self.tally.tricks if trick is None else (*self.tally.tricks, trick)
        return HandState.of(after, self.setup, tricks)

    def choose(self, seat: int, choice: Shoot) -> HandState:
        """The shooter ``seat`` makes its choice (RULINGS P8, P13); the hand is over.

        Raises:
            IllegalPlay: no choice is pending, or ``seat`` is not the shooter.
        """
        if self.tally.phase is not Phase.CHOICE:
            raise IllegalPlay("no shooting choice is pending")
        after = core.choose(self.core, seat, _CHOICE_CODES[choice])
        return HandState.of(after, self.setup, self.tally.tricks)


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


def scored(
    hand: HandState, totals: tuple[int, ...], exact100: bool
) -> tuple[HandResult, tuple[int, ...] | None]:
    """The result of the finished ``hand`` after ``totals`` and the game's winners then, or
    ``None`` while it goes on (P9, P14: :func:`.totals.totals_after`, :func:`.totals.winners`)."""
    added = hand.added()
    after = totals_after(totals, added, exact100)
    result = HandResult(
        hand.number, hand.dealer, hand.taken, hand.shooter, hand.choice, added, after
    )
    return result, winners(after)


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
        return schedule.next_dealer(self.hand.dealer, self.players)

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
        return self.continued(self.hand.play(card))

    def continued(self, hand: HandState) -> PlanetsState:
        """This game with ``hand``, a later state of its hand in progress (reached through the
        core's plays, as :func:`.record.replay` does), in place of that hand; scored if it is
        over (P14)."""
        if hand.phase is Phase.OVER:
            return self._scored(hand)
        return attrs.evolve(self, hand=hand)

    def choose(self, seat: int, choice: Shoot) -> PlanetsState:
        """See :meth:`HandState.choose`; the hand is then scored (P13, P14)."""
        return self._scored(self.hand.choose(seat, choice))

    def _scored(self, hand: HandState) -> PlanetsState:
        result, game_winners = scored(hand, self.totals, self.exact100)
        return attrs.evolve(
            self,
            totals=result.totals,
            results=(*self.results, result),
            hand=hand,
            winners=game_winners,
        )

    def next_hand(self, dealt: Sequence[int]) -> PlanetsState:
        """The next hand, ``dealt`` (masks by seat) by the next dealer (P3).

        Raises:
            IllegalPlay: the hand in progress is not over, or the game is.
            ValueError: a bad deal.
        """
        if self.hand.phase is not Phase.OVER or self.winners is not None:
            raise IllegalPlay("the hand is not over" if self.winners is None else "game over")
        check_masks(dealt, self.players, self.galaxies)
        hand = HandState.start(self.hand.number + 1, self.next_dealer, dealt)
        return attrs.evolve(self, hand=hand)
