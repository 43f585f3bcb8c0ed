"""A determinization of a Hipparchus round as the engine's search plays it: a full round state
in the compact form of the rules (:mod:`.compact`), its moves keyed as the searching seat sees
them (RULINGS H13).
"""

from __future__ import annotations

import random
from collections.abc import Hashable

from .compact import (
    CHand,
    CPlay,
    can_follow,
    follow_plays,
    lead_plays,
    random_round,
    remove,
    round_winner,
    trick_winner,
)


class HipparchusState:
    """A determinization: a full round state, compact (:mod:`.compact`), as the search plays it
    (:class:`hipparchusd.engine.position.Determinization`).

    The searching seat's moves are keyed by ``position << 4 | count << 2 | suit`` (its own
    hand is known, so the key names the play exactly); the opponent's by ``count << 2 | suit``,
    what the seat sees of them (RULINGS H13), one of the matching plays being made at random.
    """

    __slots__ = (
        "_options",
        "hands",
        "last",
        "lead_count",
        "lead_suit",
        "leader",
        "observer",
        "winner",
        "won",
    )

    def __init__(
        self,
        observer: int,
        hands: list[CHand],
        won: list[int],
        leader: int,
        lead_suit: int,
        lead_count: int,
        last: int,
    ) -> None:
        self.observer = observer
        self.hands = hands
        self.won = won
        self.leader = leader
        self.lead_suit = lead_suit
        self.lead_count = lead_count
        self.last = last
        self.winner = -1
        # keys() leaves the plays behind each key here for play(): key -> clump indices.
        self._options: dict[int, list[int]] = {}

    def to_move(self) -> int:
        """The seat to move, -1 once the round is over."""
        if self.winner >= 0:
            return -1
        return 1 - self.leader if self.lead_count else self.leader

    def _plays(self) -> tuple[CHand, list[CPlay]]:
        if self.lead_count:
            hand = self.hands[1 - self.leader]
            return hand, follow_plays(hand, self.lead_suit, self.lead_count)
        hand = self.hands[self.leader]
        return hand, lead_plays(hand)

    def keys(self) -> list[int]:
        """The legal plays' keys (see the class)."""
        hand, plays = self._plays()
        options: dict[int, list[int]] = {}
        if self.to_move() == self.observer:
            starts = [1]
            for c in hand:
                starts.append(starts[-1] + (c >> 2))
            for i, n in plays:
                options[starts[i] << 4 | n << 2 | (hand[i] & 3)] = [i]
        else:
            for i, n in plays:
                key = n << 2 | (hand[i] & 3)
                found = options.get(key)
                if found is None:
                    options[key] = [i]
                else:
                    found.append(i)
        self._options = options
        return list(options)

    def play(self, key: Hashable, rng: random.Random) -> None:
        """Make the play keyed ``key`` (a random one of those matching, for the opponent).
        The key must be one :meth:`keys` just gave."""
        assert isinstance(key, int)
        count, suit = key >> 2 & 3, key & 3
        hand = self.hands[1 - self.leader if self.lead_count else self.leader]
        matching = self._options[key]
        index = matching[rng.randrange(len(matching))] if len(matching) > 1 else matching[0]
        remove(hand, index, count)
        won = self.won
        if not self.lead_count:
            self.lead_suit, self.lead_count = suit, count
            follower = self.hands[1 - self.leader]
            if not can_follow(follower, suit, count):  # RULINGS H6
                self.winner = round_winner(won, self.last)
            return
        leader = self.leader
        winner = trick_winner(leader, self.lead_suit, self.lead_count, suit, count, won)
        won[winner * 3 + self.lead_suit] += self.lead_count
        won[winner * 3 + suit] += count
        self.last = 1 - leader
        self.leader = winner
        self.lead_count = 0
        if not self.hands[0] or not self.hands[1]:  # RULINGS H9
            self.winner = round_winner(won, self.last)

    def playout(self, rng: random.Random) -> None:
        """Finish the round with uniformly random legal plays."""
        self.winner = random_round(
            self.hands,
            self.won,
            self.leader,
            self.lead_suit,
            self.lead_count,
            self.last,
            rng.random,
        )

    def reward(self, seat: int) -> float:
        """1 if ``seat`` won the round, else 0. (A share of score margin in the reward was
        tried: it lost more matches to random, 91% against 97.5% at 400 playouts.)"""
        return 1.0 if self.winner == seat else 0.0
