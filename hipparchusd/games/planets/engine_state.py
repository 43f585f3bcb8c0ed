"""The card play of one hand as the engine's planets search plays it (issue 18, issue 29): the
determinizations (:class:`PlanetsState`, every seat choosing; :class:`ModeledState`, only the
searching seat) and the playouts' policy (:func:`playout_card`). The rules are the rules
core's (:mod:`.core`: legal cards, tricks, points); this module only chooses among them.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Hashable, Sequence

from . import core
from .model import HAND_POINTS, JUPITER_MASK, POINT_MASK, POINTS, SUIT_MASKS
from .playout import playout as play_out
from .playout import random_card

#: The share of playout cards chosen uniformly at random rather than by the playout policy.
PLAYOUT_RANDOMNESS = 0.15
_DISCARD_FIRST = (1 << core.M7, 1 << core.N7)
_POINT_JUPITERS = JUPITER_MASK & POINT_MASK


def _lowest_rank(mask: int) -> int:
    """The card of lowest rank in ``mask`` (a non-point card when there is one)."""
    safe = mask & ~POINT_MASK or mask
    best = -1
    for suit in range(6):
        cards = safe & SUIT_MASKS[suit]
        if cards:
            low = (cards & -cards).bit_length() - 1
            if best < 0 or low % 10 < best % 10:
                best = low
    return best


def _highest_rank(mask: int) -> int:
    """The card of highest rank in ``mask``."""
    best = -1
    for suit in range(6):
        cards = mask & SUIT_MASKS[suit]
        if cards:
            high = cards.bit_length() - 1
            if high % 10 > best % 10 or best < 0:
                best = high
    return best


def playout_card(legal: int, led: int, best: int, last: bool, rand: Callable[[], float]) -> int:
    """The playouts' card among ``legal`` (a :data:`.playout.Chooser`: the rules core works out
    the legal cards, P5, P6, P11, and the trick; this only chooses): now and then
    (:data:`PLAYOUT_RANDOMNESS`) a uniformly random card, else a Hearts player's habits: lead
    low; follow with the highest card that loses, or when every card wins, the highest as
    last to play and the lowest before; unable to follow, discard Mars 7, Neptune 7, a point
    Jupiter, else the highest card. Random playouts let seats take points no player would,
    which blurs the search's estimates; these keep it cheap (bit operations)."""
    if rand() < PLAYOUT_RANDOMNESS:
        return random_card(legal, led, best, last, rand)
    if not led:
        return _lowest_rank(legal)
    if legal & led:
        under = legal & ((1 << best) - 1)
        if under:
            return under.bit_length() - 1
        if last:
            return legal.bit_length() - 1
        return (legal & -legal).bit_length() - 1
    for bit in _DISCARD_FIRST:
        if legal & bit:
            return bit.bit_length() - 1
    if legal & _POINT_JUPITERS:
        return (legal & _POINT_JUPITERS).bit_length() - 1
    return _highest_rank(legal)


def equivalent_runs(legal: Sequence[int], live: int) -> list[tuple[int, ...]]:
    """``legal`` (a seat's legal cards, sorted) in runs of *equivalent* cards, each run
    sorted, the runs in the order of their first cards: cards of one suit and one point
    value (P7) with no card of ``live`` (a mask: the cards still held by the other seats or
    played to the trick in progress) between them in rank.

    Equivalent cards are one move: a trick's winner is the highest card of the suit led
    (P5), and no card that could still meet them ranks between them, so whichever of them
    is played, the same cards played after it take the same tricks and points (the other
    seats' cards rank alike against either). Searching one card of each run gives the
    search fewer moves to tell apart and loses nothing (Bridge programs' "equivalent
    cards"; Ginsberg's GIB)."""
    if not legal:
        return []
    runs: list[tuple[int, ...]] = []
    run = [legal[0]]
    for last, card in itertools.pairwise(legal):
        if not _joins(last, card, live):
            runs.append(tuple(run))
            run = []
        run.append(card)
    runs.append(tuple(run))
    return runs


def _joins(last: int, card: int, live: int) -> bool:
    """Whether ``card``, the next legal card above ``last``, is equivalent to it
    (:func:`equivalent_runs`): one suit, one point value, no card of ``live`` between."""
    return (
        last // 10 == card // 10
        and POINTS[last] == POINTS[card]
        and not live & ((1 << card) - (2 << last))
    )


def live_cards(hand: core.Hand, seat: int) -> int:
    """The cards (a mask) that may still separate two of ``seat``'s cards in rank: those the
    other seats hold, and those played to the trick in progress."""
    live = 0
    for other, held in enumerate(core.holdings(hand)):
        if other != seat:
            live |= held
    for card in hand[1]:  # the trick in progress
        live |= 1 << card
    return live


class PlanetsState:
    """A determinization of the card play of one hand, as the search plays it
    (:class:`hipparchusd.engine.position.Determinization`): a hand of the rules core
    (:data:`.core.Hand`), played by :func:`.core.play` and played out by
    :func:`.playout.playout` with :func:`playout_card`'s policy. Moves are keyed by the card
    played: every card played is seen by everyone. A seat that takes every point card chooses
    ``self`` (RULINGS P8, P13) in the search.

    Made from what each seat holds now (``hands``, masks by seat: the cards of ``trick`` are
    out of them), the leader of the trick in progress, its cards, the points taken, whether
    Jupiter is broken and whether the first trick is still to be completed.

    The reward of a seat is ``1 - added / 23`` (at most 1), ``added`` being what the hand adds
    to its total (-23 to 23): fewer points, more reward. Rewards span what a hand usually
    adds, 0 to 23 points, so that UCB1's exploration constant suits them.
    """

    __slots__ = ("hand", "players", "taken")

    def __init__(
        self,
        hands: Sequence[int],
        leader: int,
        trick: Sequence[int],
        taken: Sequence[int],
        broken: bool,
        first: bool,
    ) -> None:
        players = self.players = len(hands)
        before = core.before_trick(hands, leader, trick)
        # The core counts the tricks done; only whether there is one matters to the rules
        # (P12: Venus 1 leads the first), so 1 stands for "some".
        done = 0 if first else 1
        passes: tuple[tuple[int, ...], ...] = ((),) * players
        self.hand: core.Hand = core.hand_of(
            before, leader, tuple(trick), tuple(taken), broken, done, passes, 0, ()
        )
        self.taken: Sequence[int] = tuple(taken)

    def to_move(self) -> int:
        """The seat to play, -1 once every card is played."""
        return self.hand[3]  # the core's seat to play, -1 when no card is to be played

    def keys(self) -> list[int]:
        """The legal cards of the seat to play."""
        return list(self.hand[2])

    def play(self, key: Hashable, rng: random.Random) -> None:
        """The seat to play plays card ``key``."""
        assert isinstance(key, int)
        self.hand = core.play(self.hand, key)
        self.taken = self.hand[0][2]

    def playout(self, rng: random.Random) -> None:
        """Play the hand out with :func:`playout_card`'s policy."""
        hand = self.hand
        taken = self.taken = play_out(hand, playout_card, rng.random)
        # Over: every card played (the hand's other fields are no longer read).
        _, leader, _, broken, done, passes, choice, _, after = hand[0]
        base = ((0,) * self.players, leader, tuple(taken), broken, done, passes, choice, (), after)
        self.hand = (base, (), (), -1, 0, (), 0)

    def added(self, seat: int) -> int:
        """What the finished hand adds to ``seat``'s total (P7, P8, P13; the shooter chooses
        ``self``: :func:`.core.added`)."""
        taken = self.taken
        if HAND_POINTS in taken:
            return -HAND_POINTS if taken[seat] == HAND_POINTS else 0
        return taken[seat]

    def reward(self, seat: int) -> float:
        """``1 - added / 23``, at most 1: 1 for no points (or a shooter's -23), 0 for 23."""
        return min(1.0, 1.0 - self.added(seat) / HAND_POINTS)


def _policy_card(hand: core.Hand, players: int, rand: Callable[[], float]) -> int:
    """:func:`playout_card`'s card for the seat to play in ``hand``."""
    trick = hand[1]
    legal = 0
    for card in hand[2]:
        legal |= 1 << card
    if not trick:
        return playout_card(legal, 0, -1, False, rand)
    led = SUIT_MASKS[trick[0] // 10]
    best = max(card for card in trick if led >> card & 1)
    return playout_card(legal, led, best, len(trick) == players - 1, rand)


class ModeledState(PlanetsState):
    """A determinization in which only ``observer`` chooses: every other seat plays
    :func:`playout_card`'s card as soon as it is to play, so that the search's tree holds the
    observer's cards alone (an open-loop tree over them) and the other seats answer as a
    Hearts player would, rather than first at random where the tree is new, as they do in a
    tree of every seat's moves (:class:`PlanetsState`)."""

    __slots__ = ("equivalents", "observer")

    def __init__(
        self,
        observer: int,
        hands: Sequence[int],
        leader: int,
        trick: Sequence[int],
        taken: Sequence[int],
        broken: bool,
        first: bool,
        *,
        equivalents: bool = True,
    ) -> None:
        super().__init__(hands, leader, trick, taken, broken, first)
        self.observer = observer
        self.equivalents = equivalents

    def to_move(self) -> int:
        """The observer, -1 once it has played its last card."""
        return self.observer if self.hand[2] else -1

    def keys(self) -> list[int]:
        """The observer's legal cards, the lowest of each run of equivalent ones
        (:func:`equivalent_runs`) unless made with ``equivalents=False``: only the observer
        chooses here, so only its cards are keys."""
        legal = self.hand[2]
        if len(legal) < 2 or not self.equivalents:
            return list(legal)
        # The first card of each run, without building the runs (this is the search's hot
        # path: a key list per iteration and node).
        live = live_cards(self.hand, self.observer)
        return [legal[0]] + [
            card for last, card in itertools.pairwise(legal) if not _joins(last, card, live)
        ]

    def play(self, key: Hashable, rng: random.Random) -> None:
        """The observer plays card ``key``; the other seats then play until it is the
        observer's turn again or the hand is over."""
        assert isinstance(key, int)
        hand = core.play(self.hand, key)
        players = self.players
        observer = self.observer
        rand = rng.random
        while hand[2] and hand[3] != observer:  # a card to play, by another seat
            hand = core.play(hand, _policy_card(hand, players, rand))
        self.hand = hand
        self.taken = hand[0][2]
