"""High card's values on the wire: its events, its view and its record, and the codec that
turns them into JSON (a strict converter from :func:`hipparchusd.codec.make_converter`, no hook
of its own needed: cards are plain integers)."""

from __future__ import annotations

from typing import ClassVar

import attrs

from hipparchusd.codec import Codec, make_converter


@attrs.frozen(slots=True)
class Dealt:
    """A seat's hand, to that seat alone."""

    kind: ClassVar[str] = "dealt"
    seat: int
    hand: tuple[int, ...]


@attrs.frozen(slots=True)
class Picked:
    """``seat`` has picked its card this round (which card stays hidden until all have)."""

    kind: ClassVar[str] = "picked"
    seat: int


@attrs.frozen(slots=True)
class Revealed:
    """Round ``round_number``'s cards by seat, its ``winner`` (highest card) and every seat's
    round ``wins`` so far."""

    kind: ClassVar[str] = "revealed"
    round_number: int
    cards: tuple[int, ...]
    winner: int
    wins: tuple[int, ...]


@attrs.frozen(slots=True)
class HighCardView:
    """What ``seat`` (``None``: a spectator) may know: its own ``hand`` and ``own_pick`` this
    round; for everyone, which seats have ``picked``, the revealed ``rounds`` (cards by seat),
    the ``wins``, the number of rounds and the seat that resigned."""

    seat: int | None
    hand: tuple[int, ...] | None
    own_pick: int | None
    picked: tuple[bool, ...]
    rounds: tuple[tuple[int, ...], ...]
    wins: tuple[int, ...]
    best_of: int
    resigned: int | None


@attrs.frozen(slots=True)
class HighCardRecord:
    """The whole game, for an exact replay: the deal, every pick as (seat, card) in the order
    made, the resignation, and whether the deal was fixed."""

    best_of: int
    hands: tuple[tuple[int, ...], ...]
    picks: tuple[tuple[int, int], ...]
    resigned: int | None
    fixed_deal: bool


converter = make_converter()

#: The game's codec: its converter, its event classes, its record envelope and version.
CODEC = Codec(
    converter,
    payloads=(Dealt, Picked, Revealed),
    record_kind="highcard-record",
    version=1,
)
