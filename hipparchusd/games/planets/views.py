"""What each seat and each spectator may see of a game of planets, and the events the game sends
(docs/planets.md, "What each seat sees"; protocol/games/planets.md).

Hidden information is left out here, in the core: a seat's view holds its own hand and its own
pass and received cards only; a spectator's view holds what every seat sees in common (no hand,
no pass). Which seats have passed is public, what they passed is not; cards played to tricks are
face up and public.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .model import Card, Shoot, cards_of
from .rules import Phase, PlanetsState, Trick


@attrs.frozen(slots=True)
class TrickInProgress:
    """The trick being played: its ``leader`` and the ``cards`` played so far, in order."""

    leader: int
    cards: tuple[Card, ...]


@attrs.frozen(slots=True)
class View:
    """A game as ``seat`` sees it (``None``: a spectator).

    ``hand`` is the seat's own cards, sorted (``None`` for a spectator); during the pass it
    still holds the cards the seat chose (``my_pass``), since no card moves until every seat
    has passed. ``hand_sizes`` by seat. ``phase`` is ``pass``, ``play``, ``choice`` (the
    shooter's) or ``over``. ``passed`` lists the seats that have passed this hand, never what.
    ``pass_name`` and ``pass_count`` are this hand's pass (``none``, 0 in a no-pass hand).
    ``my_pass`` is the seat's own pass in order and ``received`` the cards it received, sorted
    (``None`` before the cards move, in a no-pass hand, and for a spectator). ``trick`` is the
    trick in progress (``None`` outside play), ``tricks`` this hand's finished tricks,
    ``points_taken`` each seat's points this hand, ``totals`` the game's totals.
    ``shoot_pending`` is the seat whose shooting choice is awaited. ``winners`` and
    ``resigned`` are set once the game is over; ``fixed_deal`` marks a game whose deals were
    fixed at creation (a seed or an explicit deal), so its creator knows every hand.
    ``exact100`` is the game's ``exact100=reset`` option (P14), which the standing and so a
    shooter's choice depend on (a view without it is read as a game without it).
    """

    seat: int | None
    hand: tuple[Card, ...] | None
    hand_sizes: tuple[int, ...]
    phase: Phase
    passed: tuple[int, ...]
    pass_name: str
    pass_count: int
    my_pass: tuple[Card, ...] | None
    received: tuple[Card, ...] | None
    trick: TrickInProgress | None
    tricks: tuple[Trick, ...]
    points_taken: tuple[int, ...]
    totals: tuple[int, ...]
    jupiter_broken: bool
    dealer: int
    hand_number: int
    to_move: tuple[int, ...]
    shoot_pending: int | None
    winners: tuple[int, ...] | None
    resigned: int | None
    fixed_deal: bool
    exact100: bool = False


def build_view(
    state: PlanetsState,
    seat: int | None,
    *,
    fixed_deal: bool,
    resigned: int | None = None,
    winners: tuple[int, ...] | None = None,
) -> View:
    """The view of ``state`` for ``seat`` (``None``: a spectator). ``resigned`` and
    ``winners`` override the state's end when a seat resigned (RULINGS P16)."""
    hand = state.hand
    setup = hand.setup
    phase = hand.phase
    passing = setup.kind.count > 0
    passed = tuple(s for s, chosen in enumerate(setup.passes) if chosen is not None and passing)
    my_pass: tuple[Card, ...] | None = None
    received: tuple[Card, ...] | None = None
    if seat is not None and passing:
        my_pass = setup.passes[seat]
        if phase is not Phase.PASS:
            received = hand.received(seat)[0]
    over = resigned is not None or state.winners is not None
    # A resignation ends the game whatever the hand's phase (P16): its view is over, as any
    # finished game's, and keeps the trick it interrupted on the table.
    shown = Phase.OVER if resigned is not None else phase
    return View(
        seat=seat,
        hand=None if seat is None else cards_of(hand.hands[seat]),
        hand_sizes=tuple(mask.bit_count() for mask in hand.hands),
        phase=shown,
        passed=passed,
        pass_name=setup.kind.name,
        pass_count=setup.kind.count,
        my_pass=my_pass,
        received=received,
        trick=TrickInProgress(hand.leader, hand.trick) if phase is Phase.PLAY else None,
        tricks=hand.tricks,
        points_taken=hand.taken,
        totals=state.totals,
        jupiter_broken=hand.broken,
        dealer=setup.dealer,
        hand_number=setup.number,
        to_move=() if over else hand.to_move,
        shoot_pending=hand.shooter if phase is Phase.CHOICE and not over else None,
        winners=winners if resigned is not None else state.winners,
        resigned=resigned,
        fixed_deal=fixed_deal,
        exact100=state.exact100,
    )


# Events. Each has a ``kind``, its name on the wire; all are public unless marked.


@attrs.frozen(slots=True)
class HandStarted:
    """Hand ``hand_number`` was dealt by ``dealer``; its pass is ``pass_name`` of
    ``pass_count`` cards (``none``, 0: no pass); every seat holds ``hand_sizes`` cards."""

    kind: ClassVar[str] = "hand-started"
    hand_number: int
    dealer: int
    pass_name: str
    pass_count: int
    hand_sizes: tuple[int, ...]


@attrs.frozen(slots=True)
class HandDealt:
    """``seat``'s own hand as dealt, sorted. Sent to that seat only."""

    kind: ClassVar[str] = "hand"
    hand_number: int
    seat: int
    hand: tuple[Card, ...]


@attrs.frozen(slots=True)
class Passed:
    """``seat`` has passed (which cards is its secret until they move, and then only its
    receivers learn their own)."""

    kind: ClassVar[str] = "passed"
    seat: int


@attrs.frozen(slots=True)
class Received:
    """Every seat has passed and the cards moved: ``seat`` received ``cards`` (sorted), the
    i-th from ``from_seats[i]``. Sent to that seat only."""

    kind: ClassVar[str] = "received"
    hand_number: int
    seat: int
    cards: tuple[Card, ...]
    from_seats: tuple[int, ...]


@attrs.frozen(slots=True)
class Played:
    """``seat`` played ``card`` to trick ``trick_number`` (from 1 in the hand)."""

    kind: ClassVar[str] = "played"
    seat: int
    card: Card
    trick_number: int


@attrs.frozen(slots=True)
class TrickTaken:
    """Trick ``number``, led by ``leader`` (``cards`` in play order), was won by ``winner`` with
    the highest card of the led suit, taking ``points``; ``jupiter_broken`` after it."""

    kind: ClassVar[str] = "trick"
    number: int
    leader: int
    cards: tuple[Card, ...]
    winner: int
    points: int
    jupiter_broken: bool


@attrs.frozen(slots=True)
class ShootPending:
    """``seat`` took every point card: its choice, ``self`` or ``others``, is awaited."""

    kind: ClassVar[str] = "shoot-pending"
    seat: int


@attrs.frozen(slots=True)
class HandOver:
    """Hand ``hand_number`` is over: the ``points`` each seat took, the ``shooter`` and its
    ``choice`` (if any), what was ``added`` to each total and the ``totals`` after it (after the
    ``exact100`` reset)."""

    kind: ClassVar[str] = "hand-over"
    hand_number: int
    points: tuple[int, ...]
    shooter: int | None
    choice: Shoot | None
    added: tuple[int, ...]
    totals: tuple[int, ...]


#: Every event payload class of planets.
PAYLOADS: tuple[type, ...] = (
    HandStarted,
    HandDealt,
    Passed,
    Received,
    Played,
    TrickTaken,
    ShootPending,
    HandOver,
)
