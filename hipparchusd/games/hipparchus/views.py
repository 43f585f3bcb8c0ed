"""What each seat and each spectator may see of a Hipparchus match (RULINGS H13), and the events
the game sends to them.

Views and events are built from the full state by leaving hidden cards out: a spectator's view
has no ``hand`` at all, a seat's view has only its own, and the face-down cards and the
opponent's hand appear only in :class:`RoundOver` and in a finished round's ``revealed``.
Plays appear in their public form, :class:`~.model.PlayedCards` (count and suit, ``2E``), for
everyone, the player included: a hand position would show the player's hand order (RULINGS H13).
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .model import Hand, PlayedCards, PublicTrick, Suit, SuitCounts, played_cards
from .rules import MatchState, RoundResult


@attrs.frozen(slots=True)
class Revealed:
    """The cards hidden during a round, shown once it is over (RULINGS H13): what was left in
    each hand, and the two face-down cards."""

    hands: tuple[Hand, Hand]
    face_down: tuple[Suit, ...]


@attrs.frozen(slots=True)
class View:
    """A match as ``seat`` sees it; ``seat`` is ``None`` for a spectator, whose ``hand`` is
    ``None`` too (RULINGS H13).

    ``hand_sizes``, ``won`` (by seat, then by suit) and the tricks are public. ``lead`` is the
    trick in progress (led by ``leader``); it and ``tricks`` give plays as count and suit only
    (:class:`PlayedCards`, :class:`PublicTrick`; RULINGS H13). ``to_move`` is the seat that must
    play (``None`` when nobody must). ``result`` and ``revealed`` are set once the round is over.
    ``fixed_deal`` marks a game whose deals were fixed at creation, so its creator knows every
    hand.
    """

    seat: int | None
    hand: Hand | None
    hand_sizes: tuple[int, int]
    won: tuple[SuitCounts, SuitCounts]
    set_aside: SuitCounts
    leader: int
    lead: PlayedCards | None
    tricks: tuple[PublicTrick, ...]
    to_move: int | None
    round_number: int
    round_wins: tuple[int, int]
    result: RoundResult | None
    revealed: Revealed | None
    winner: int | None
    resigned: int | None
    fixed_deal: bool


def build_view(
    match: MatchState, seat: int | None, *, fixed_deal: bool, resigned: int | None = None
) -> View:
    """The view of ``match`` for ``seat`` (0, 1, or ``None`` for a spectator)."""
    round_ = match.round
    over = round_.over
    ended = match.winner is not None or resigned is not None
    return View(
        seat=seat,
        hand=None if seat is None else round_.hands[seat],
        hand_sizes=(round_.hands[0].size, round_.hands[1].size),
        won=round_.won,
        set_aside=round_.set_aside,
        leader=round_.leader,
        lead=None if round_.lead is None else played_cards(round_.lead),
        tricks=tuple(PublicTrick.of(trick) for trick in round_.tricks),
        to_move=None if ended else round_.to_move,
        round_number=match.round_number,
        round_wins=match.round_wins,
        result=round_.result,
        revealed=Revealed(round_.hands, round_.face_down) if over or ended else None,
        winner=match.winner if resigned is None else 1 - resigned,
        resigned=resigned,
        fixed_deal=fixed_deal,
    )


# Events. Each has a ``kind``, its name on the wire.


@attrs.frozen(slots=True)
class RoundStarted:
    """A round was dealt; ``leader`` leads its first trick. Everyone gets this."""

    kind: ClassVar[str] = "round-started"
    round_number: int
    leader: int
    round_wins: tuple[int, int]


@attrs.frozen(slots=True)
class HandDealt:
    """``seat``'s own hand for the round, in order. Sent to that seat only."""

    kind: ClassVar[str] = "hand"
    round_number: int
    seat: int
    hand: Hand


@attrs.frozen(slots=True)
class Turn:
    """``seat`` must play now: to lead (``lead`` is ``None``) or to follow ``lead`` (its count
    and suit: RULINGS H13)."""

    kind: ClassVar[str] = "turn"
    seat: int
    lead: PlayedCards | None


@attrs.frozen(slots=True)
class Played:
    """``seat`` played ``play`` (count and suit; where in its hand they came from is hidden,
    RULINGS H13) and now holds ``hand_size`` cards."""

    kind: ClassVar[str] = "played"
    seat: int
    play: PlayedCards
    hand_size: int


@attrs.frozen(slots=True)
class TrickWon:
    """The trick was won by ``winner`` (RULINGS H7); ``won`` is both seats' won cards by suit
    after it (H8). The trick's plays are count and suit only (H13)."""

    kind: ClassVar[str] = "trick"
    number: int
    trick: PublicTrick
    won: tuple[SuitCounts, SuitCounts]


@attrs.frozen(slots=True)
class NoFollow:
    """The follower had no legal play: the led cards are set aside and the round ends at once
    (RULINGS H6). The lead is count and suit only (H13)."""

    kind: ClassVar[str] = "no-follow"
    number: int
    trick: PublicTrick
    set_aside: SuitCounts


@attrs.frozen(slots=True)
class RoundOver:
    """The round ended (H6 or H9): its scores (H10, H11), the round wins so far, and the cards
    that were hidden (H13)."""

    kind: ClassVar[str] = "round-over"
    round_number: int
    result: RoundResult
    won: tuple[SuitCounts, SuitCounts]
    round_wins: tuple[int, int]
    revealed: Revealed


@attrs.frozen(slots=True)
class MatchOver:
    """The match ended: ``winner`` has two round wins (H12), or the other seat ``resigned``."""

    kind: ClassVar[str] = "match-over"
    winner: int
    round_wins: tuple[int, int]
    resigned: int | None
