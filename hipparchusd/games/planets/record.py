"""A game of planets as played, for exact replay: :class:`PlanetsRecord` and :func:`replay`."""

from __future__ import annotations

import attrs

from ...wording import counted
from . import core
from .core import IllegalPlay
from .dealing import check_deal
from .model import Card, Shoot, cards_of
from .rules import HandState, PlanetsState, finished_trick
from .schedule import cut_dealer


@attrs.frozen(slots=True)
class HandRecord:
    """One hand as played: the ``deal`` (each seat's cards as dealt, sorted), each seat's pass
    in the order chosen (``None`` while it has not passed; ``()`` in a no-pass hand), every
    card played in order, and the shooter's ``choice`` if one was made."""

    deal: tuple[tuple[Card, ...], ...]
    passes: tuple[tuple[Card, ...] | None, ...]
    plays: tuple[Card, ...]
    choice: Shoot | None

    @classmethod
    def of(cls, hand: HandState) -> HandRecord:
        """The record of ``hand`` as it stands."""
        plays = tuple(card for trick in hand.tricks for card in trick.cards) + hand.trick
        return cls(
            deal=tuple(cards_of(mask) for mask in hand.dealt),
            passes=hand.passes,
            plays=plays,
            choice=hand.choice,
        )


@attrs.frozen(slots=True)
class PlanetsRecord:
    """A whole game for exact replay (:func:`replay`): the options (``players``, ``galaxies``,
    ``exact100``), the ``cut`` (each seat's drawn card, RULINGS P3; ``None`` when the first
    dealer was given), the ``first_dealer``, every hand's :class:`HandRecord`, the seat that
    ``resigned`` (P16), the ``winners`` once the game is over, the ``totals``, and whether the
    deals were fixed at creation."""

    players: int
    galaxies: bool
    exact100: bool
    cut: tuple[Card, ...] | None
    first_dealer: int
    hands: tuple[HandRecord, ...]
    resigned: int | None
    winners: tuple[int, ...] | None
    totals: tuple[int, ...]
    fixed_deal: bool


def replay(record: PlanetsRecord) -> PlanetsState:
    """Replay ``record`` through the rules and return the final state (a resignation is not a
    rules state: the caller checks ``resigned``).

    Raises:
        ValueError: the record does not follow the rules (a bad cut, deal, pass, play or
            choice, or a hand after the game's end); :class:`IllegalPlay` is a ``ValueError``.
    """
    if record.cut is not None and (
        len(record.cut) != record.players or cut_dealer(record.cut) != record.first_dealer
    ):
        raise ValueError("the cut does not give the recorded first dealer")
    state: PlanetsState | None = None
    for number, hand in enumerate(record.hands, start=1):
        try:
            dealt = check_deal(hand.deal, record.players, record.galaxies)
            if state is None:
                state = PlanetsState.start(
                    dealt,
                    record.first_dealer,
                    galaxies=record.galaxies,
                    exact100=record.exact100,
                )
            else:
                state = state.next_hand(dealt)
            state = _replay_hand(state, hand)
        except ValueError as error:
            raise ValueError(f"hand {number}: {error}") from None
    if state is None:
        raise ValueError("a record has at least one hand")
    return state


def _replay_hand(state: PlanetsState, hand: HandRecord) -> PlanetsState:
    """``state`` with ``hand``'s passes, plays and choice made: the passes and plays through
    the rules core (:mod:`.core`), the object model's hand built once, after the last play (a
    stored record is checked by this replay, and a state per play would cost most of it).
    The errors are those of :meth:`PlanetsState.pass_cards`, :meth:`PlanetsState.play` and
    :meth:`PlanetsState.choose`."""
    if len(hand.passes) != state.players:
        raise IllegalPlay(
            f"{counted(len(hand.passes), 'pass', 'passes')} for {state.players} seats"
        )
    setup = state.hand.setup
    played = state.hand.core
    if setup.kind.count:
        for seat, chosen in enumerate(hand.passes):
            if chosen is not None:
                played = core.pass_cards(played, seat, chosen, setup.kind.offsets)
    elif any(chosen != () for chosen in hand.passes):
        raise IllegalPlay("a pass in a no-pass hand")
    if hand.plays and core.phase(played) == core.PASS:
        raise IllegalPlay("plays before every seat has passed")
    tricks = list(state.hand.tricks)
    for card in hand.plays:
        if card not in core.legal(played):
            raise IllegalPlay(core.why_illegal(played, card) or "not legal now")
        after = core.play(played, card)
        trick = finished_trick(played, card, after)
        if trick is not None:
            tricks.append(trick)
        played = after
    state = state.continued(HandState.of(played, setup, tuple(tricks)))
    if hand.choice is not None:
        shooter = state.hand.shooter
        if shooter is None:
            raise IllegalPlay("a shooting choice with no shooter")
        state = state.choose(shooter, hand.choice)
    return state
