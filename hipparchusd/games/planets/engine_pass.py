"""The pass as the engine searches it (issue 29, point 4; RULINGS P4, P12, P15).

A pass is chosen blind, before any card is played, among hundreds of choices (364 ways to
pass 3 of 14 cards). The search plays only the likely ones: the heuristic's most dangerous
cards (:func:`~.engine.heuristic_pass` ranks them: Mars 7 and Neptune 7 unless well guarded,
then the high Jupiters, then the highest cards of the shortest suits), every choice of the
pass's count among the first :data:`CANDIDATE_CARDS` of them. Each candidate is played on
sampled deals of the unseen cards (:class:`PassInformation`): the other seats pass as the
heuristic does with the hands they were dealt (a model of what arrives), Venus 1's holder
leads (P12), and the hand is played out with the playouts' policy. The same deals and random
numbers serve every candidate (the engine's shared worlds), so the candidates differ by what
they pass, not by their luck.

The ``ismcts`` level searches the pass so (:data:`~.engine.PASS_SEARCHED`), within several
moves' budgets (:data:`~.engine.PASS_BUDGET_SCALE`): at one move's 100 ms a candidate got about
7 deals, too few to beat the heuristic.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Hashable, Sequence

from ...engine.position import Determinization, Tuning
from .model import Card, PassKind

#: The search of a pass: every candidate on the same deals and random numbers, each played
#: out at once (a tree below a blind pass would search a card play the pass's model already
#: guesses), the clearly beaten candidates dropped.
PASS_TUNING = Tuning(shared_worlds=True, tree=False)

#: The heuristic's pass, ``passer(hand, count)``: ``count`` cards of the mask ``hand``, the
#: most dangerous first (:func:`~.engine.heuristic_pass`).
Passer = Callable[[int, int], list[int]]
#: The card play of a hand after the pass, ``start(hands, leader)``: a determinization of it
#: (:class:`~.engine.PlanetsState` from the first trick, nothing taken, Jupiter unbroken).
Starter = Callable[[list[int], int], Determinization]


def _bits(mask: int) -> list[int]:
    return [card for card in range(mask.bit_length()) if mask >> card & 1]


#: The heuristic's most dangerous cards a candidate pass is chosen from: every choice of the
#: pass's count among them (35 for 3 of 7, 15 for 2 of 6...).
CANDIDATE_CARDS = {1: 4, 2: 6, 3: 7, 4: 7}

#: A candidate pass: the cards chosen, in the pass's target order.
PassKey = tuple[int, ...]


def candidate_passes(hand: int, kind: PassKind, passer: Passer) -> list[PassKey]:
    """The passes the search plays for ``hand`` (a mask) in a pass of ``kind``: the
    heuristic's own (``passer``'s) first, then every other choice of ``kind.count`` cards
    among its :data:`CANDIDATE_CARDS` most dangerous, each given to the targets in the
    heuristic's order of danger (the most dangerous to the first target)."""
    count = kind.count
    ranked = passer(hand, min(CANDIDATE_CARDS[count], hand.bit_count()))
    return list(itertools.combinations(ranked, count))


class PassWorld:
    """One sampled deal at the pass (:class:`hipparchusd.engine.position.Determinization`):
    the observer passes one of the candidates, every other seat the heuristic's pass of its
    dealt hand, then the card play of :class:`~.engine.PlanetsState` goes on."""

    __slots__ = ("candidates", "dealt", "kind", "observer", "passer", "play_state", "start")

    def __init__(
        self,
        dealt: list[int],
        observer: int,
        kind: PassKind,
        candidates: Sequence[PassKey],
        passer: Passer,
        start: Starter,
    ) -> None:
        self.dealt = dealt
        self.observer = observer
        self.kind = kind
        self.candidates = candidates
        self.passer = passer
        self.start = start
        self.play_state: Determinization | None = None

    def copy(self) -> PassWorld:
        """The same deal, before anyone has passed (copies are made only before a pass)."""
        assert self.play_state is None
        return PassWorld(
            self.dealt, self.observer, self.kind, self.candidates, self.passer, self.start
        )

    def to_move(self) -> int:
        """The observer while it has not passed, then the card play's seat to move."""
        return self.observer if self.play_state is None else self.play_state.to_move()

    def keys(self) -> Sequence[Hashable]:
        """The candidate passes, then the card play's legal cards."""
        return self.candidates if self.play_state is None else self.play_state.keys()

    def play(self, key: Hashable, rng: random.Random) -> None:
        """Pass ``key`` (every other seat passes the heuristic's), or play a card."""
        if self.play_state is not None:
            self.play_state.play(key, rng)
            return
        assert isinstance(key, tuple)
        players = len(self.dealt)
        hands = self.dealt[:]
        count = self.kind.count
        for seat in range(players):
            cards = key if seat == self.observer else self.passer(self.dealt[seat], count)
            for card, target in zip(cards, self.kind.targets(seat, players), strict=True):
                hands[seat] &= ~(1 << card)
                hands[target] |= 1 << card
        leader = next(s for s in range(players) if hands[s] >> Card.V1 & 1)  # P12
        self.play_state = self.start(hands, leader)

    def playout(self, rng: random.Random) -> None:
        """Play the hand out (the card play's playout)."""
        assert self.play_state is not None
        self.play_state.playout(rng)

    def reward(self, seat: int) -> float:
        """``seat``'s reward for the hand (the card play's)."""
        assert self.play_state is not None
        return self.play_state.reward(seat)


class PassInformation:
    """What a seat knows when it passes (:class:`hipparchusd.engine.position.InformationSet`):
    its own hand; every other card is in another seat's hand, each seat holding as many as it
    does (P2: every hand is dealt the same number). ``passer`` is the heuristic's pass (the
    candidates' ranking and the model of the other seats' passes), ``start`` the card play."""

    def __init__(
        self,
        observer: int,
        hand: int,
        deck: int,
        players: int,
        kind: PassKind,
        *,
        passer: Passer,
        start: Starter,
    ) -> None:
        self._observer = observer
        self.hand = hand
        self.players = players
        self.kind = kind
        self.passer = passer
        self.start = start
        self.unknown = _bits(deck & ~hand)
        self.candidates = candidate_passes(hand, kind, passer)

    @property
    def observer(self) -> int:
        """The passing seat."""
        return self._observer

    def determinize(self, rng: random.Random) -> PassWorld:
        """A random deal of the unseen cards to the other seats."""
        cards = self.unknown[:]
        rng.shuffle(cards)
        size = self.hand.bit_count()
        dealt = [0] * self.players
        others = [s for s in range(self.players) if s != self._observer]
        for index, seat in enumerate(others):
            for card in cards[index * size : (index + 1) * size]:
                dealt[seat] |= 1 << card
        dealt[self._observer] = self.hand
        return PassWorld(dealt, self._observer, self.kind, self.candidates, self.passer, self.start)
