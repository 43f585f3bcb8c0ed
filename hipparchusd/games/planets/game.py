"""Planets behind the daemon's game interface (:class:`hipparchusd.games.base.Game`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar, TypeAlias

import attrs

from ...codec import Codec
from ...jsondata import JSON
from ...wording import counted
from ..base import (
    EVERYONE,
    Event,
    Game,
    GameError,
    GameFinished,
    IllegalMove,
    NotYourTurn,
    Outcome,
    Pick,
)
from . import core, schedule
from .codec import CODEC
from .dealing import check_masks, draw_cut, shuffled_deal
from .model import Card, Pass, Shoot, as_cards, cards_of, deck_mask, pass_kind
from .notation import NotationError, canonical_pass, format_cards, parse_cards
from .record import HandRecord, PlanetsRecord
from .rules import (
    HandResult,
    HandSetup,
    HandState,
    IllegalPlay,
    PlanetsState,
    Trick,
    cut_dealer,
    finished_trick,
    lowest,
    pass_cards_of,
    scored,
)
from .views import (
    HandDealt,
    HandOver,
    HandStarted,
    Passed,
    Played,
    Received,
    ShootPending,
    TrickTaken,
    View,
    build_view,
)

#: A move: a pass, a card played, or the shooter's choice.
Move: TypeAlias = Pass | Card | Shoot

_NOBODY: frozenset[int] = frozenset()
_CHOICES = (Shoot.SELF, Shoot.OTHERS)
_CHOICE_CODES = {Shoot.SELF: core.SELF, Shoot.OTHERS: core.OTHERS}
_CHOICE_WORDS = {choice.value: choice for choice in _CHOICES}


#: The system's randomness (one read per deal: :func:`~.rules.shuffled_deal`).
_SYSTEM = random.SystemRandom()


def _check_seat(seat: object, players: int) -> int:
    if type(seat) is not int or not 0 <= seat < players:
        raise IllegalMove(f"no seat {seat!r} at this table (seats 0 to {players - 1})")
    return seat


class PlanetsGame(Game[Move, View, PlanetsRecord]):
    """A game of planets for 3 to 6 seats (docs/planets.md). It plays on the core's hand
    (:mod:`.core`); :attr:`state`, the object model's :class:`PlanetsState`, is a view of it.

    Args:
        players: seats at the table, 3 to 6 (RULINGS P2).
        galaxies: all six Galaxies in play (six players only, P2).
        exact100: a total of exactly 100 drops to 0 (P9, P14).
        dealer: the first dealer; ``None`` draws the cut (P3).
        seed: deal every hand, and draw the cut, reproducibly from this seed (marks the game
            as a fixed deal).
        deals: explicit deals of the first hands (masks by seat; marks the game as a fixed
            deal); later hands come from ``seed`` if given, else the system's randomness.

    Raises:
        ValueError: a bad player count, dealer or deal.
    """

    kind: ClassVar[str] = "planets"
    codec: ClassVar[Codec] = CODEC

    def __init__(
        self,
        *,
        players: int = 4,
        galaxies: bool = False,
        exact100: bool = False,
        dealer: int | None = None,
        seed: int | None = None,
        deals: Sequence[Sequence[int]] = (),
    ) -> None:
        deck_mask(players, galaxies)  # raises for a bad player count or galaxies
        self._players = players
        self._galaxies = galaxies
        self._exact100 = exact100
        self._seed = seed
        self._deals = tuple(tuple(deal) for deal in deals)
        for deal in self._deals:
            check_masks(deal, players, galaxies)
        self._fixed = seed is not None or bool(self._deals)
        self._cut: tuple[Card, ...] | None = None
        if dealer is None:
            rng = random.Random(f"planets/{seed}/cut") if seed is not None else _SYSTEM
            self._cut = draw_cut(rng, players, galaxies)
            dealer = cut_dealer(self._cut)
        if type(dealer) is not int or not 0 <= dealer < players:
            raise ValueError(f"the dealer must be a seat from 0 to {players - 1}, not {dealer!r}")
        self._first_dealer = dealer
        self._totals: tuple[int, ...] = (0,) * players
        self._results: tuple[HandResult, ...] = ()
        self._winners: tuple[int, ...] | None = None
        self._start_hand(1, dealer, self._deal(1))
        # Finished hands' records, a tuple so that fork() shares it.
        self._hands: tuple[HandRecord, ...] = ()
        self._resigned: int | None = None

    def _start_hand(self, number: int, dealer: int, dealt: Sequence[int]) -> None:
        check_masks(dealt, self._players, self._galaxies)
        kind = pass_kind(self._players, number)
        self._hand = core.start(dealt, kind.offsets)
        hands, _, _, _, _, _, passes, _ = core.fields(self._hand)
        self._setup = HandSetup(self._players, number, dealer, kind, hands, pass_cards_of(passes))
        # The hand's finished tricks, which the core does not keep (views and records do).
        self._tricks: tuple[Trick, ...] = ()
        self._view: tuple[core.Hand, PlanetsState] | None = None

    def _deal(self, number: int) -> tuple[int, ...]:
        if number <= len(self._deals):
            return self._deals[number - 1]
        if self._seed is not None:
            rng = random.Random(f"planets/{self._seed}/{number}")
            return shuffled_deal(rng, self._players, self._galaxies)
        return shuffled_deal(_SYSTEM, self._players, self._galaxies)

    @property
    def _state(self) -> PlanetsState:
        """The full rules state in the object model (every card: never send it to a seat): a
        view of the core's hand and of the game around it, made once per hand state. It may be
        set (tests set up positions so): the game then plays on from it."""
        view = self._view
        if view is None or view[0] is not self._hand:
            hand = HandState.of(self._hand, self._setup, self._tricks)
            state = PlanetsState(
                self._players,
                self._galaxies,
                self._exact100,
                self._first_dealer,
                self._totals,
                self._results,
                hand,
                self._winners,
            )
            view = self._view = (self._hand, state)
        return view[1]

    @_state.setter
    def _state(self, state: PlanetsState) -> None:
        hand = state.hand
        self._galaxies, self._exact100 = state.galaxies, state.exact100
        self._first_dealer = state.first_dealer
        self._totals, self._results, self._winners = state.totals, state.results, state.winners
        self._setup, self._hand, self._tricks = hand.setup, hand.core, hand.tricks
        self._view = (self._hand, state)

    @property
    def state(self) -> PlanetsState:
        """The full rules state (every card: never send it to a seat)."""
        return self._state

    @property
    def seat_count(self) -> int:
        """3 to 6."""
        return self._players

    @property
    def fixed_deal(self) -> bool:
        """True when a seed or an explicit deal was given (as recorded, for a restored game)."""
        return self._fixed

    @property
    def outcome(self) -> Outcome | None:
        """The winners once the game is over (RULINGS P9), or after a resignation (P16)."""
        totals = self._totals
        if self._resigned is not None:
            return Outcome(lowest(totals, excluding=self._resigned), totals, self._resigned)
        if self._winners is not None:
            return Outcome(self._winners, totals)
        return None

    @classmethod
    def restore(cls, record: PlanetsRecord, *, seed: int | None = None) -> PlanetsGame:
        """Rebuild a game from its record (e.g. after a restart): the same options, cut and
        first dealer, every recorded deal, pass (also a hand's passes made so far, still
        secret), play and choice made again through the rules, and the resignation. Hands
        after the recorded ones are dealt from ``seed`` (the seed the game was created with),
        else from the system's randomness. ``fixed_deal`` is as recorded.

        Raises:
            ValueError: the record does not follow the rules.
        """
        if not record.hands:
            raise ValueError("a record has at least one hand")
        try:
            deals = [
                tuple(sum(1 << card for card in hand) for hand in hand_record.deal)
                for hand_record in record.hands
            ]
            game = cls(
                players=record.players,
                galaxies=record.galaxies,
                exact100=record.exact100,
                dealer=record.first_dealer,
                seed=seed,
                deals=deals,
            )
        except ValueError as error:
            raise ValueError(f"hand 1: {error}") from None
        if record.cut is not None and (
            len(record.cut) != record.players or cut_dealer(record.cut) != record.first_dealer
        ):
            raise ValueError("the cut does not give the recorded first dealer")
        game._cut = record.cut
        game._fixed = record.fixed_deal
        for number, hand_record in enumerate(record.hands, start=1):
            if game._setup.number != number or game.outcome is not None:
                raise ValueError(f"hand {number} of the record is after the game's end")
            try:
                game._replay_hand(hand_record)
            except GameError as error:
                raise ValueError(f"hand {number} of the record: {error}") from None
        if record.resigned is not None:
            try:
                game.resign(record.resigned)
            except (GameFinished, IllegalMove) as error:
                raise ValueError(f"the record's resignation: {error}") from None
        outcome = game.outcome
        if (outcome.winners if outcome else None) != record.winners:
            raise ValueError("the record's winners are not those its hands give")
        return game

    def _replay_hand(self, hand: HandRecord) -> None:
        if len(hand.passes) != self._players:
            raise IllegalMove(
                f"{counted(len(hand.passes), 'pass', 'passes')} for {self._players} seats"
            )
        if self._setup.kind.count:
            for seat, chosen in enumerate(hand.passes):
                if chosen is not None:
                    self.play(seat, Pass(chosen))
        elif any(chosen != () for chosen in hand.passes):
            raise IllegalMove("a pass in a no-pass hand")
        for card in hand.plays:
            _, leader, trick, _, _, _, _, _ = core.fields(self._hand)
            self.play((leader + len(trick)) % self._players, card)
        if hand.choice is not None:
            done = core.phase(self._hand) >= core.CHOICE
            seat = core.shooter(core.fields(self._hand)[3]) if done else -1
            if seat < 0:
                raise IllegalMove("a shooting choice with no shooter")
            self.play(seat, hand.choice)

    # Moves.

    def start(self) -> list[Event]:
        """Events for the first hand: its start and each seat's own hand."""
        return self._hand_started()

    def _hand_started(self) -> list[Event]:
        setup = self._setup
        kind = setup.kind
        sizes = tuple(mask.bit_count() for mask in setup.dealt)
        events = [
            Event(EVERYONE, HandStarted(setup.number, setup.dealer, kind.name, kind.count, sizes))
        ]
        events += [
            Event(seat, HandDealt(setup.number, seat, cards_of(mask)))
            for seat, mask in enumerate(setup.dealt)
        ]
        return events

    def seats_to_move(self) -> frozenset[int]:
        """The seats that must move: every seat that has not passed during the pass, else the
        seat to play or the shooter; none once the game is over."""
        if self._resigned is not None or self._winners is not None:
            return _NOBODY
        return frozenset(core.to_move(self._hand))

    def legal_moves(self, seat: int) -> Sequence[Move] | Pick:
        """During the pass, a :class:`Pick` of ``pass_count`` cards of the seat's hand with
        their target seats (nothing once it has passed); during play the legal cards, sorted
        (RULINGS P5, P6, P11); for the shooter, ``self`` and ``others`` (P8)."""
        if seat not in self.seats_to_move():
            return ()
        hand = self._hand
        phase = core.phase(hand)
        if phase == core.PASS:
            kind = self._setup.kind
            items = tuple(card.name for card in cards_of(self._setup.dealt[seat]))
            return Pick(kind.count, items, kind.targets(seat, self._players))
        if phase == core.PLAY:
            return as_cards(core.legal(hand))
        return _CHOICES

    def decisions_left(self, seat: int) -> int:
        """The cards ``seat`` holds (one play each this hand), and its pass while it is due,
        and a shooting choice at most."""
        _check_seat(seat, self._players)
        hand = self._hand
        cards = core.holdings(hand)[seat].bit_count()
        return cards + (core.phase(hand) == core.PASS) + 1

    def parse_move(self, seat: int, word: str) -> Move:
        """``word`` as ``seat``'s move: ``self`` or ``others``; during the pass, the cards
        chosen joined by ``,`` (put in canonical order); else one card.

        Raises:
            IllegalMove: not a card, cards or choice; more than one card outside the pass.
        """
        _check_seat(seat, self._players)
        choice = _CHOICE_WORDS.get(word.lower()) if word.isascii() else None
        if choice is not None:
            return choice
        try:
            cards = parse_cards(word)
        except NotationError as error:
            raise IllegalMove(str(error)) from None
        phase = core.phase(self._hand)
        if phase == core.PASS:
            return Pass(canonical_pass(cards, self._setup.kind))
        if phase == core.CHOICE and seat == core.to_move(self._hand)[0]:
            raise IllegalMove("choose self or others")
        if len(cards) != 1:
            raise IllegalMove("play one card")
        return cards[0]

    def format_move(self, move: Move) -> str:
        """Canonical notation: ``V1,JS,M7`` (a pass), ``JS`` (a card), ``self`` (a choice)."""
        if isinstance(move, Pass):
            return format_cards(move.cards)
        if isinstance(move, Shoot):
            return move.value
        return move.name

    def describe_move(self, seat: int, move: Move) -> dict[str, JSON]:
        """The move with what it is: a card's suit and rank letters, a pass's target seats, a
        choice's word."""
        word = self.format_move(move)
        if isinstance(move, Pass):
            targets = self._setup.kind.targets(seat, self._players)
            return {"move": word, "cards": [c.name for c in move.cards], "to": list(targets)}
        if isinstance(move, Shoot):
            return {"move": word, "choice": move.value}
        return {"move": word, "card": move.name, "suit": move.name[0], "rank": move.name[1]}

    def turn_refusal(self, seat: int) -> str:
        """During the pass a seat out of turn has passed already (P4: a pass is final)."""
        if core.phase(self._hand) == core.PASS:
            return "you have already passed this hand"
        return "it is not your turn"

    def play(self, seat: int, move: Move) -> list[Event]:
        """Make ``seat``'s move; return the events it caused.

        Raises:
            GameFinished: the game is over.
            NotYourTurn: ``seat`` must not move now (e.g. it has already passed this hand).
            IllegalMove: the move breaks the rules; the message says why.
        """
        if self.outcome is not None:
            raise GameFinished("the game is over")
        _check_seat(seat, self._players)
        hand = self._hand
        if seat not in core.to_move(hand):
            raise NotYourTurn(self.turn_refusal(seat))
        phase = core.phase(hand)
        try:
            if isinstance(move, Pass):
                if phase != core.PASS:
                    raise IllegalMove("no pass now: play a card")
                return self._pass(seat, move)
            if isinstance(move, Shoot):
                if phase != core.CHOICE:
                    raise IllegalMove("no shooting choice is pending")
                self._hand = core.choose(hand, seat, _CHOICE_CODES[move])
                return self._hand_over()
            if phase != core.PLAY:
                if phase == core.CHOICE:
                    raise IllegalMove("choose self or others")
                raise IllegalMove("no card is to be played now: pass")
            return self._play_card(seat, move)
        except IllegalPlay as error:
            raise IllegalMove(str(error)) from None

    def _pass(self, seat: int, move: Pass) -> list[Event]:
        kind = self._setup.kind
        after = core.pass_cards(self._hand, seat, canonical_pass(move.cards, kind), kind.offsets)
        self._hand = after
        _, leader, _, _, _, _, passes, _ = core.fields(after)
        self._setup = attrs.evolve(self._setup, passes=pass_cards_of(passes))
        events = [Event(EVERYONE, Passed(seat))]
        if leader >= 0:  # every seat has passed: the cards moved (P4, P12)
            number = self._setup.number
            for receiver in range(self._players):
                cards, givers = core.received(after, kind.offsets, receiver)
                events.append(Event(receiver, Received(number, receiver, as_cards(cards), givers)))
        return events

    def _play_card(self, seat: int, card: Card) -> list[Event]:
        before = self._hand
        number = core.fields(before)[5] + 1
        after = self._hand = core.play(before, card)
        events = [Event(EVERYONE, Played(seat, card, number))]
        trick = finished_trick(before, card, after)
        if trick is not None:
            self._tricks += (trick,)
            events.append(
                Event(
                    EVERYONE,
                    TrickTaken(
                        trick.number,
                        trick.leader,
                        trick.cards,
                        trick.winner,
                        trick.points,
                        core.fields(after)[4],
                    ),
                )
            )
            phase = core.phase(after)
            if phase == core.CHOICE:
                events.append(Event(EVERYONE, ShootPending(core.to_move(after)[0])))
            elif phase == core.OVER:
                events += self._hand_over()
        return events

    def _hand_over(self) -> list[Event]:
        hand = self._state.hand
        result, winners = scored(hand, self._totals, self._exact100)
        self._totals, self._winners = result.totals, winners
        self._results += (result,)
        self._view = None
        events = [
            Event(
                EVERYONE,
                HandOver(
                    result.number,
                    result.points,
                    result.shooter,
                    result.choice,
                    result.added,
                    result.totals,
                ),
            )
        ]
        if winners is not None:
            return events
        self._hands += (HandRecord.of(hand),)
        setup = self._setup
        number = setup.number + 1
        self._start_hand(
            number, schedule.next_dealer(setup.dealer, self._players), self._deal(number)
        )
        return events + self._hand_started()

    def resign(self, seat: int) -> list[Event]:
        """``seat`` resigns: the game ends at once; it is ranked last and the other seats with
        the lowest total win (RULINGS P16). The lobby's ``game-over`` says so: no event of
        planets' own.

        Raises:
            GameFinished: the game is over.
            IllegalMove: no such seat.
        """
        if self.outcome is not None:
            raise GameFinished("the game is over")
        self._resigned = _check_seat(seat, self._players)
        return []

    def view(self, seat: int | None) -> View:
        """What ``seat`` (``None``: a spectator) may see now."""
        if seat is not None:
            _check_seat(seat, self._players)
        outcome = self.outcome
        return build_view(
            self._state,
            seat,
            fixed_deal=self._fixed,
            resigned=self._resigned,
            winners=outcome.winners if outcome else None,
        )

    def record(self) -> PlanetsRecord:
        """Every deal, pass, play and choice so far, for exact replay. Reveals every card."""
        outcome = self.outcome
        return PlanetsRecord(
            players=self._players,
            galaxies=self._galaxies,
            exact100=self._exact100,
            cut=self._cut,
            first_dealer=self._first_dealer,
            hands=(*self._hands, HandRecord.of(self._state.hand)),
            resigned=self._resigned,
            winners=outcome.winners if outcome else None,
            totals=self._totals,
            fixed_deal=self._fixed,
        )

    def fork(self) -> PlanetsGame:
        """An independent copy (:meth:`hipparchusd.games.base.Game.fork`). Cheap: the core's
        hand and the finished hands' records are immutable, so the copy shares them."""
        copy = object.__new__(PlanetsGame)
        copy.__dict__.update(self.__dict__)
        return copy
