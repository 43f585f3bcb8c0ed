"""What a seat knows of the Hipparchus round in play, as the engine's search samples it: the
unknown cards (the opponent's hand and the face-down cards) dealt so that they agree with every
play the seat saw (:mod:`.engine_history`), as determinizations (:mod:`.engine_state`).
"""

from __future__ import annotations

import math
import random

from . import core
from .engine_history import MAX_HISTORY_BUDGET, HistoryCheck, Seen
from .engine_inference import Context, hand_weight
from .engine_solver import Solver
from .engine_state import RANDOM_PLAYOUT, HipparchusState
from .model import FACE_DOWN_SIZE
from .views import View

#: Attempts at a random arrangement of the unknown cards before the sampler lists them all.
REJECTION_TRIES = 300
#: Random arrangements tried, none agreeing, before the view is judged impossible.
GIVE_UP_TRIES = 300_000
#: Hands drawn and turned down by the inference (``trust`` > 0) before a determinization
#: takes the next hand that fits, whatever its weight: the search never stalls on it.
INFERENCE_TRIES = 20
#: The most distinct opponent hands the sampler lists when rejection keeps failing (beyond
#: that it keeps rejecting: so many hands leave plenty that agree).
ENUMERATION_LIMIT = 5_000


def _arrangements(counts: list[int], length: int) -> list[tuple[int, ...]]:
    """Every distinct sequence of ``length`` cards drawn from ``counts`` (per suit)."""
    found: list[tuple[int, ...]] = []
    prefix: list[int] = []

    def extend() -> None:
        if len(prefix) == length:
            found.append(tuple(prefix))
            return
        for suit in range(3):
            if counts[suit]:
                counts[suit] -= 1
                prefix.append(suit)
                extend()
                prefix.pop()
                counts[suit] += 1

    extend()
    return found


class HipparchusInformation:
    """What a seat knows of the round in play, as determinizations
    (:class:`hipparchusd.engine.position.InformationSet`).

    The unknown cards are every card not in the seat's hand, won, set aside or on the table:
    the opponent's hand and the two face-down cards (RULINGS H13), exact in number by suit. A
    determinization deals them at random and keeps the opponent's hand only if it agrees with
    every play the seat saw the opponent make this round (:class:`HistoryCheck`; RULINGS
    H2-H5, including that a follow in another suit means no lead-suit play of another count).
    When random arrangements keep failing it lists every distinct opponent hand that agrees and
    draws among them, weighted as a uniform shuffle would make them.

    With ``trust`` > 0 (issue 29's inference, off by default) a hand that fits is also weighed
    by how likely it makes the opponent's follows (:func:`.engine_inference.hand_weight`):
    drawn at random, it is kept with probability its weight (after
    :data:`INFERENCE_TRIES` turned down, the next that fits is kept); listed, its weight
    multiplies its draw's. Every hand drawn still fits the view.
    """

    def __init__(self, view: View, trust: float = 0.0) -> None:
        if not 0.0 <= trust < 1.0:
            raise ValueError(f"trust must be in [0, 1), not {trust!r}")
        assert view.seat is not None and view.hand is not None
        me = view.seat
        self._observer = me
        self.hand = view.hand.core
        other = 1 - me
        self.opponent_size = view.hand_sizes[other]
        unknown = [10 - n for n in view.hand.counts]
        for suit in range(3):
            unknown[suit] -= view.won[0][suit] + view.won[1][suit] + view.set_aside[suit]
        seen: list[Seen] = []
        contexts: list[Context] = []
        last = -1
        before = [0] * 6  # the won counts before each trick (H8), for the inference
        for trick in view.tricks:
            if trick.follow is not None:
                last = 1 - trick.leader
            lead_move = trick.lead.count << 2 | int(trick.lead.suit)
            if trick.leader == other:
                seen.append((trick.lead.count, int(trick.lead.suit), 0, -1))
                contexts.append(None)
            elif trick.follow is not None:
                follow, lead = trick.follow, trick.lead
                seen.append((follow.count, int(follow.suit), lead.count, int(lead.suit)))
                b = before
                won_before: core.Won = (b[0], b[1], b[2], b[3], b[4], b[5])
                contexts.append((won_before, trick.leader, lead_move))
            if trick.follow is not None and trick.winner is not None:
                before[trick.winner * 3 + int(trick.lead.suit)] += trick.lead.count
                before[trick.winner * 3 + int(trick.follow.suit)] += trick.follow.count
        self.lead_suit, self.lead_count = -1, 0
        if view.lead is not None:
            self.lead_suit, self.lead_count = int(view.lead.suit), view.lead.count
            unknown[self.lead_suit] -= self.lead_count
            if view.leader == other:
                seen.append((self.lead_count, self.lead_suit, 0, -1))
                contexts.append(None)
        if min(unknown) < 0 or sum(unknown) != self.opponent_size + FACE_DOWN_SIZE:
            raise ValueError("the view's cards do not add up to the deck")
        self.unknown = unknown
        self.cards = [suit for suit in range(3) for _ in range(unknown[suit])]
        self.won: core.Won = (*view.won[0], *view.won[1])
        self.leader = view.leader
        self.last = last
        self.check = HistoryCheck(tuple(seen))
        # The inference needs the won counts before each trick: they must add up to the view's.
        self.trust = trust if tuple(before) == self.won else 0.0
        self._contexts = tuple(contexts)
        self._weights: dict[tuple[int, ...], float] = {}
        self._listed: tuple[list[tuple[int, ...]], list[float]] | None = None
        self._tries = 0
        self._accepted = 0
        # Hands already checked against the history: late in a round they come back often.
        self._agrees: dict[tuple[int, ...], bool] = {}
        self._few: bool | None = None  # whether the distinct opponent hands are few to list
        # One exact solver for every world of this search: worlds that agree late in the
        # round share their solved positions.
        self.solver = Solver()
        #: How the worlds play on from the search's leaves.
        self.playout = RANDOM_PLAYOUT

    @property
    def observer(self) -> int:
        """The searching seat."""
        return self._observer

    def opponent_cards(self, rng: random.Random) -> tuple[int, ...]:
        """The opponent's hand (cards left to right) in a random determinization, weighed by
        the inference when ``trust`` > 0 (see the class).

        Raises:
            ValueError: no hand agrees with what the seat saw (the view is impossible).
        """
        hand = self._fitting(rng)
        if not self.trust or self._listed is not None:
            return hand
        for _ in range(INFERENCE_TRIES):
            if rng.random() < self.weight(hand):
                return hand
            hand = self._fitting(rng)
            if self._listed is not None:
                return hand
        return hand

    def weight(self, hand: tuple[int, ...]) -> float:
        """The inference's weight of an opponent hand that fits the view (1 with ``trust``
        0): :func:`.engine_inference.hand_weight` of its history."""
        if not self.trust:
            return 1.0
        found = self._weights.get(hand)
        if found is None:
            witness = self.check.history(hand)
            assert witness is not None, "a hand that fits has a history"
            found = hand_weight(witness, self.check.seen, self._contexts, self.trust)
            self._weights[hand] = found
        return found

    def _fitting(self, rng: random.Random) -> tuple[int, ...]:
        """A random opponent hand that fits the view, as a uniform shuffle would deal it."""
        cards = self.cards
        size = self.opponent_size
        while self._listed is None:
            # Rejection while it keeps paying: a few hundred tries per hand accepted.
            if self._tries >= REJECTION_TRIES * (self._accepted + 1) and self._listable():
                self._listed = self._list()
                break
            if self._tries > GIVE_UP_TRIES and not self._accepted:
                raise ValueError("no deal agrees with the view (the plays seen are impossible)")
            if not self._accepted and self._tries and not self._tries % REJECTION_TRIES:
                self._search_harder()
            rng.shuffle(cards)
            hand = tuple(cards[:size])
            self._tries += 1
            agrees = self._agrees.get(hand)
            if agrees is None:
                agrees = self._agrees[hand] = self.check.history(hand) is not None
            if agrees:
                self._accepted += 1
                return hand
        hands, weights = self._listed
        return rng.choices(hands, cum_weights=weights)[0]

    def _listable(self) -> bool:
        if self._few is None:
            self._few = self._count_hands() <= ENUMERATION_LIMIT
        return self._few

    def _count_hands(self) -> int:
        total = 0
        size = self.opponent_size
        u = self.unknown
        for a in range(min(u[0], size) + 1):
            for b in range(min(u[1], size - a) + 1):
                c = size - a - b
                if c <= u[2]:
                    total += math.factorial(size) // (
                        math.factorial(a) * math.factorial(b) * math.factorial(c)
                    )
        return total

    def _search_harder(self) -> None:
        """Give history searches ten times the budget, and forget the hands they passed over
        (some may fit: the budget, not the rules, ruled them out)."""
        self.check.budget *= 10
        self._agrees = {hand: True for hand, fits in self._agrees.items() if fits}

    def _list(self) -> tuple[list[tuple[int, ...]], list[float]]:
        while True:
            listed = self._list_within_budget()
            if listed[0]:
                return listed
            if self.check.budget >= MAX_HISTORY_BUDGET:
                raise ValueError("no deal agrees with the view (the plays seen are impossible)")
            self._search_harder()

    def _list_within_budget(self) -> tuple[list[tuple[int, ...]], list[float]]:
        # A uniform shuffle makes every distinct sequence of the unknown cards equally likely:
        # an opponent hand weighs the number of orders of the two cards left face down.
        hands: list[tuple[int, ...]] = []
        cumulative: list[float] = []
        total = 0.0
        for hand in _arrangements(list(self.unknown), self.opponent_size):
            if self.check.history(hand) is None:
                continue
            rest = [n - hand.count(suit) for suit, n in enumerate(self.unknown)]
            total += (1 if max(rest) == FACE_DOWN_SIZE else 2) * self.weight(hand)
            hands.append(hand)
            cumulative.append(total)
        return hands, cumulative

    def determinize(self, rng: random.Random) -> HipparchusState:
        """A random full state agreeing with everything the seat has seen."""
        opponent = core.hand_of(self.opponent_cards(rng))
        mine = self.hand
        hands = (mine, opponent) if self._observer == 0 else (opponent, mine)
        leader = self.leader
        if self.lead_count:
            # The trick in progress: the lead is out of the leader's hand; only its public
            # form (count and suit) matters to the follow (H5, H7).
            lead = self.lead_count << 2 | self.lead_suit
            legal = core.follow_moves(hands[1 - leader], lead)
        else:
            lead, legal = 0, core.lead_moves(hands[leader])
        return HipparchusState(
            self._observer,
            (hands, self.won, leader, lead, self.last, 0, legal),
            self.solver,
            self.playout,
        )
