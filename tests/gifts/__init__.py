"""Gifts, a game kind that lives only under ``tests/`` and that no client knows: three seats;
first every seat at once gives two different numbers of 1-6, one to each other seat (a
``pick`` with targets, like planets' pass); then seats 0, 1, 2 in turn take a bonus of 1, 2 or 3
(a list of move words: ``b1``, ``b2``, ``b3``). A seat scores what it received plus its bonus;
the highest score wins, ties share the win; a seat that resigns ranks last. The generic
clients play it (clients/python/bot.py and the other languages' bots, the terminal client's
generic screen), served once registered with :func:`hipparchusd.games.registry.register`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

import attrs

from hipparchusd.codec import Codec, make_converter
from hipparchusd.games.base import (
    EVERYONE,
    Event,
    Game,
    GameFinished,
    GameKind,
    IllegalMove,
    NotYourTurn,
    Option,
    Outcome,
    Pick,
)
from hipparchusd.jsondata import JSON

SEATS = 3
NUMBERS = tuple(str(n) for n in range(1, 7))
BONUSES = ("b1", "b2", "b3")


@attrs.frozen
class Gave:
    """``seat`` has made its gifts (public: not what it gave)."""

    kind: ClassVar[str] = "gave"
    seat: int


@attrs.frozen
class Received:
    """What ``seat`` received: private to it until the end."""

    kind: ClassVar[str] = "received"
    seat: int
    numbers: tuple[int, ...]


@attrs.frozen
class Bonus:
    """``seat`` took ``bonus``."""

    kind: ClassVar[str] = "bonus"
    seat: int
    bonus: int


@attrs.frozen
class GiftsView:
    """What a seat sees: who has given, its own received numbers, the bonuses taken."""

    seat: int | None
    given: tuple[bool, ...]
    received: tuple[int, ...] | None
    bonuses: tuple[int | None, ...]


@attrs.frozen
class GiftsRecord:
    """Every gift (giver, receiver, number) and bonus, in order; the resigned seat."""

    gifts: tuple[tuple[int, int, int], ...]
    bonuses: tuple[int, ...]
    resigned: int | None


GIFTS_CODEC = Codec(make_converter(), payloads=(Gave, Received, Bonus), record_kind="gifts-record")

Move = tuple[tuple[int, int], ...] | int  # gifts (number, to seat), or a bonus


class GiftsGame(Game[Move, GiftsView, GiftsRecord]):
    """The game of this file's docstring."""

    kind: ClassVar[str] = "gifts"
    codec: ClassVar[Codec] = GIFTS_CODEC

    def __init__(self) -> None:
        self.gifts: dict[int, tuple[tuple[int, int], ...]] = {}
        self.bonuses: list[int] = []
        self.resigned: int | None = None

    @property
    def seat_count(self) -> int:
        return SEATS

    @property
    def fixed_deal(self) -> bool:
        return False

    def scores(self) -> tuple[int, ...]:
        got = [0] * SEATS
        for gifts in self.gifts.values():
            for number, to in gifts:
                got[to] += number
        for seat, bonus in enumerate(self.bonuses):
            got[seat] += bonus
        return tuple(got)

    @property
    def outcome(self) -> Outcome | None:
        scores = self.scores()
        if self.resigned is not None:
            # The resigning seat is ranked last; the best of the others win.
            best = max(s for seat, s in enumerate(scores) if seat != self.resigned)
            winners = tuple(
                seat for seat in range(SEATS) if seat != self.resigned and scores[seat] == best
            )
            return Outcome(winners, scores, self.resigned)
        if len(self.bonuses) < SEATS:
            return None
        return Outcome(tuple(s for s in range(SEATS) if scores[s] == max(scores)), scores)

    def start(self) -> list[Event]:
        return []

    def seats_to_move(self) -> frozenset[int]:
        if self.outcome is not None:
            return frozenset()
        if len(self.gifts) < SEATS:
            return frozenset(range(SEATS)) - frozenset(self.gifts)
        return frozenset((len(self.bonuses),))

    def others(self, seat: int) -> tuple[int, ...]:
        return tuple(s for s in range(SEATS) if s != seat)

    def legal_moves(self, seat: int) -> Sequence[Move] | Pick:
        if seat not in self.seats_to_move():
            return ()
        if len(self.gifts) < SEATS:
            return Pick(2, NUMBERS, self.others(seat))
        return (1, 2, 3)

    def parse_move(self, seat: int, word: str) -> Move:
        if len(self.gifts) < SEATS:
            numbers = word.split(",")
            if len(numbers) != 2 or len(set(numbers)) != 2 or not set(numbers) <= set(NUMBERS):
                raise IllegalMove(f"give two different numbers of 1-6, not {word[:20]!r}")
            return tuple(zip(map(int, numbers), self.others(seat), strict=True))
        if word not in BONUSES:
            raise IllegalMove(f"take a bonus of b1, b2 or b3, not {word[:20]!r}")
        return int(word[1])

    def format_move(self, move: Move) -> str:
        if isinstance(move, int):
            return f"b{move}"
        return ",".join(str(number) for number, _ in move)

    def describe_move(self, seat: int, move: Move) -> dict[str, JSON]:
        return {"move": self.format_move(move)}

    def play(self, seat: int, move: Move) -> list[Event]:
        if self.outcome is not None:
            raise GameFinished("the game is over")
        if seat not in self.seats_to_move():
            raise NotYourTurn("it is not your turn")
        if isinstance(move, int):
            self.bonuses.append(move)
            return [Event(EVERYONE, Bonus(seat, move))]
        self.gifts[seat] = move
        events = [Event(EVERYONE, Gave(seat))]
        if len(self.gifts) == SEATS:
            for to in range(SEATS):
                got = tuple(n for gifts in self.gifts.values() for n, t in gifts if t == to)
                events.append(Event(to, Received(to, got)))
        return events

    def resign(self, seat: int) -> list[Event]:
        if self.outcome is not None:
            raise GameFinished("the game is over")
        self.resigned = seat
        return []

    def view(self, seat: int | None) -> GiftsView:
        done = len(self.gifts) == SEATS
        received = None
        if seat is not None and done:
            received = tuple(n for gifts in self.gifts.values() for n, t in gifts if t == seat)
        bonuses = tuple(self.bonuses[s] if s < len(self.bonuses) else None for s in range(SEATS))
        given = tuple(s in self.gifts for s in range(SEATS))
        return GiftsView(seat, given, received, bonuses)

    def record(self) -> GiftsRecord:
        gifts = tuple(
            (giver, to, number)
            for giver, moves in sorted(self.gifts.items())
            for number, to in moves
        )
        return GiftsRecord(gifts, tuple(self.bonuses), self.resigned)

    def fork(self) -> GiftsGame:
        copy = GiftsGame()
        copy.gifts = dict(self.gifts)
        copy.bonuses = list(self.bonuses)
        copy.resigned = self.resigned
        return copy


def _create(options: Mapping[str, str]) -> GiftsGame:
    GIFTS.check_options(options)
    return GiftsGame()


def _restore(options: Mapping[str, str], snapshot: JSON) -> GiftsGame:
    raise ValueError("the gifts game is never restored: its test keeps games in memory")


def _new_deal(events: Sequence[Event]) -> bool:
    return False


GIFTS = GameKind(
    name="gifts",
    summary="three seats give each other numbers at once, then take a bonus in turn",
    seats="3",
    options=(Option("rounds", "1", "how many rounds (only 1)", "1"),),
    create=_create,
    restore=_restore,
    new_deal=_new_deal,
    codec=GIFTS_CODEC,
)
