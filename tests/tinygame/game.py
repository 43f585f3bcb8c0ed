"""High card: a three-seat game with a simultaneous move, written on the generic game base only.

The rules (this folder is the whole game):

- Three seats. ``best_of=N`` (1 to 9, default 3) rounds are played.
- The deal: the cards 1 to 3N, shuffled; each seat gets N of them (its hand, private).
- Each round, every seat picks one card of its hand, all at once: the seats pick in any order,
  and nobody learns a pick (only that a seat has picked) before the last one is in. Then the
  three cards are revealed; the highest wins the round (the cards are all different, so there
  is no tie), and all three are discarded.
- After N rounds the seats with the most round wins win (several share a tie); the score of a
  seat is its round wins.
- A seat may resign: the game ends at once, the resigning seat ranks last, and the others with
  the most round wins win (as RULINGS P16 orders a resignation in a game of more seats).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import ClassVar

from hipparchusd.codec import Codec
from hipparchusd.games.base import (
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
from hipparchusd.jsondata import JSON

from .codec import CODEC, Dealt, HighCardRecord, HighCardView, Picked, Revealed

SEATS = 3
MAX_ROUNDS = 9


def deal(best_of: int, rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """The cards 1 to ``3 * best_of`` shuffled by ``rng``, ``best_of`` to each seat, each hand
    sorted."""
    cards = list(range(1, SEATS * best_of + 1))
    rng.shuffle(cards)
    return tuple(tuple(sorted(cards[s * best_of : (s + 1) * best_of])) for s in range(SEATS))


def check_deal(best_of: int, hands: Sequence[Sequence[int]]) -> None:
    """Refuse a deal that the rules cannot make.

    Raises:
        ValueError: not three hands of ``best_of`` cards, sorted, holding 1 to 3N once each.
    """
    if not 1 <= best_of <= MAX_ROUNDS:
        raise ValueError(f"best_of must be 1 to {MAX_ROUNDS}, not {best_of}")
    if len(hands) != SEATS or any(len(hand) != best_of for hand in hands):
        raise ValueError(f"a deal is {SEATS} hands of {best_of} cards")
    if any(list(hand) != sorted(hand) for hand in hands):
        raise ValueError("each hand is written in increasing order")
    if sorted(card for hand in hands for card in hand) != list(range(1, SEATS * best_of + 1)):
        raise ValueError(f"a deal holds the cards 1 to {SEATS * best_of} once each")


class HighCardGame(Game[int, HighCardView, HighCardRecord]):
    """A game of high card (see the module's rules). A move is one card number, e.g. ``7``.

    Args:
        best_of: the number of rounds, 1 to 9.
        seed: deal reproducibly from this seed (the game is then ``fixed_deal``).
        hands: the deal itself (as :func:`deal` makes it); fixed unless ``fixed`` says not.
        fixed: overrides ``fixed_deal`` (a restored game keeps what was recorded).

    Raises:
        ValueError: a bad ``best_of`` or an impossible deal.
    """

    kind: ClassVar[str] = "highcard"
    codec: ClassVar[Codec] = CODEC

    def __init__(
        self,
        *,
        best_of: int = 3,
        seed: int | None = None,
        hands: tuple[tuple[int, ...], ...] | None = None,
        fixed: bool | None = None,
    ) -> None:
        self._fixed = (seed is not None or hands is not None) if fixed is None else fixed
        if hands is None:
            rng = random.Random(f"highcard/{seed}") if seed is not None else random.SystemRandom()
            hands = deal(best_of, rng)
        check_deal(best_of, hands)
        self._best_of = best_of
        self._dealt = hands
        # Immutable values only, so that fork() is a shallow copy.
        self._held: tuple[tuple[int, ...], ...] = hands
        self._round_picks: tuple[int | None, ...] = (None,) * SEATS
        self._picks: tuple[tuple[int, int], ...] = ()
        self._rounds: tuple[tuple[int, ...], ...] = ()
        self._wins: tuple[int, ...] = (0,) * SEATS
        self._resigned: int | None = None

    @classmethod
    def restore(cls, record: HighCardRecord) -> HighCardGame:
        """The game ``record`` records: its deal, every pick made again through the rules, and
        the resignation.

        Raises:
            ValueError: the record does not follow the rules.
        """
        game = cls(best_of=record.best_of, hands=record.hands, fixed=record.fixed_deal)
        try:
            for seat, card in record.picks:
                game.play(seat, card)
            if record.resigned is not None:
                game.resign(record.resigned)
        except GameError as error:
            raise ValueError(f"the record does not replay: {error}") from None
        return game

    @property
    def seat_count(self) -> int:
        """Always 3."""
        return SEATS

    @property
    def fixed_deal(self) -> bool:
        """True when the deal was given or seeded."""
        return self._fixed

    @property
    def outcome(self) -> Outcome | None:
        """The end: after the last round, or a resignation (see the module's rules)."""
        if self._resigned is None and len(self._rounds) < self._best_of:
            return None
        ranked = [seat for seat in range(SEATS) if seat != self._resigned]
        best = max(self._wins[seat] for seat in ranked)
        winners = tuple(seat for seat in ranked if self._wins[seat] == best)
        return Outcome(winners, self._wins, self._resigned)

    def start(self) -> list[Event]:
        """Each seat's hand, to that seat alone."""
        return [Event(seat, Dealt(seat, self._dealt[seat])) for seat in range(SEATS)]

    def seats_to_move(self) -> frozenset[int]:
        """The seats that have not picked yet this round (all three at a round's start)."""
        if self.outcome is not None:
            return frozenset()
        return frozenset(s for s, pick in enumerate(self._round_picks) if pick is None)

    def legal_moves(self, seat: int) -> Sequence[int] | Pick:
        """Choose 1 of the cards in hand; nothing once the seat has picked this round."""
        self._check_seat(seat)
        if seat not in self.seats_to_move():
            return ()
        return Pick(1, tuple(map(str, self._held[seat])))

    def parse_move(self, seat: int, word: str) -> int:
        """A card number written in decimal, without leading zeros (``7``).

        Raises:
            IllegalMove: anything else.
        """
        if not (word.isascii() and word.isdigit()) or word != str(int(word)) or len(word) > 2:
            raise IllegalMove(f"a move is one card number like 7, not {word[:20]!r}")
        return int(word)

    def format_move(self, move: int) -> str:
        """The card's number."""
        return str(move)

    def describe_move(self, seat: int, move: int) -> dict[str, JSON]:
        """``{"move": "7", "card": 7}``."""
        return {"move": str(move), "card": move}

    def play(self, seat: int, move: int) -> list[Event]:
        """``seat`` picks the card ``move``. Everyone hears that the seat picked (not what); the
        last pick of a round reveals the round's three cards and its winner.

        Raises:
            GameFinished: the game is over.
            NotYourTurn: the seat has picked this round already.
            IllegalMove: no such seat, or the card is not in the seat's hand.
        """
        self._check_seat(seat)
        if self.outcome is not None:
            raise GameFinished("the game is over")
        if self._round_picks[seat] is not None:
            raise NotYourTurn("you have picked this round; the others have not")
        if move not in self._held[seat]:
            raise IllegalMove(f"card {move} is not in your hand")
        held = list(self._held)
        held[seat] = tuple(card for card in held[seat] if card != move)
        self._held = tuple(held)
        picks = list(self._round_picks)
        picks[seat] = move
        self._picks += ((seat, move),)
        events = [Event(EVERYONE, Picked(seat))]
        if None in picks:
            self._round_picks = tuple(picks)
            return events
        cards = tuple(card for card in picks if card is not None)
        winner = cards.index(max(cards))
        wins = list(self._wins)
        wins[winner] += 1
        self._wins = tuple(wins)
        self._rounds += (cards,)
        self._round_picks = (None,) * SEATS
        events.append(Event(EVERYONE, Revealed(len(self._rounds), cards, winner, self._wins)))
        return events

    def resign(self, seat: int) -> list[Event]:
        """``seat`` resigns: the game ends (see the module's rules). The lobby's ``game-over``
        says the rest, so there is no event of the game's own.

        Raises:
            GameFinished: the game is over.
            IllegalMove: no such seat.
        """
        self._check_seat(seat)
        if self.outcome is not None:
            raise GameFinished("the game is over")
        self._resigned = seat
        return []

    def view(self, seat: int | None) -> HighCardView:
        """The public position (round, who has picked, the revealed rounds, the wins) and, for a
        seat, its own hand and its own pick this round."""
        return HighCardView(
            seat=seat,
            hand=None if seat is None else self._held[seat],
            own_pick=None if seat is None else self._round_picks[seat],
            picked=tuple(pick is not None for pick in self._round_picks),
            rounds=self._rounds,
            wins=self._wins,
            best_of=self._best_of,
            resigned=self._resigned,
        )

    def record(self) -> HighCardRecord:
        """The deal and every pick in order (every card: only once the game is over)."""
        return HighCardRecord(self._best_of, self._dealt, self._picks, self._resigned, self._fixed)

    def fork(self) -> HighCardGame:
        """A copy: every attribute is an immutable value, so a shallow copy is independent."""
        return copy.copy(self)

    @staticmethod
    def _check_seat(seat: object) -> None:
        if type(seat) is not int or not 0 <= seat < SEATS:
            raise IllegalMove(f"no seat {seat!r} at this table (seats 0 to 2)")
