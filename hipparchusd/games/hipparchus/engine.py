"""The engine's Hipparchus adapter (issue 18): one seat's view in, moves and searches out.

Everything here starts from the seat's view alone (RULINGS H13): its own hand in order, the
opponent's hand size, both seats' won counts, the cards set aside and the public form of every
play of the round (count and suit). The face-down cards and the opponent's hand, its order
included, are unknown; the search samples them (:class:`HipparchusInformation`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable

from ...engine.position import Position
from ...engine.types import MoveStats
from ...jsondata import JSON
from .codec import load_view
from .compact import (
    CHand,
    CPlay,
    can_follow,
    compact_hand,
    follow_plays,
    hand_from_cards,
    lead_plays,
    position_of,
    random_round,
    remove,
    round_winner,
    totals,
    trick_winner,
)
from .model import FACE_DOWN_SIZE, Play, Suit, play_of
from .notation import format_play
from .rules import ROUNDS_TO_WIN
from .views import View


def match_chance(round_wins: tuple[int, int], seat: int, round_chance: float) -> float:
    """``seat``'s chance to win the match (RULINGS H12: first to two round wins) if it wins the
    round being played with probability ``round_chance``, counting every later round as an
    even chance (who leads it is a small edge the engine does not model)."""
    mine, theirs = round_wins[seat], round_wins[1 - seat]

    def after(a: int, b: int) -> float:
        if a >= ROUNDS_TO_WIN:
            return 1.0
        if b >= ROUNDS_TO_WIN:
            return 0.0
        return 0.5 * after(a + 1, b) + 0.5 * after(a, b + 1)

    return round_chance * after(mine + 1, theirs) + (1.0 - round_chance) * after(mine, theirs + 1)


#: An opponent's play as the seat saw it: (count, suit, lead count, lead suit); the last two
#: are 0 and -1 for a lead, else the lead the play followed.
Seen = tuple[int, int, int, int]

#: Attempts at a random arrangement of the unknown cards before the sampler lists them all.
REJECTION_TRIES = 300
#: Random arrangements tried, none agreeing, before the view is judged impossible.
GIVE_UP_TRIES = 300_000
#: The most distinct opponent hands the sampler lists when rejection keeps failing (beyond
#: that it keeps rejecting: so many hands leave plenty that agree).
ENUMERATION_LIMIT = 5_000


def _off_suit_allowed(cards: tuple[int, ...], suit: int, count: int) -> bool:
    """Whether a hand of these cards may follow a lead of ``count`` ``suit`` with another suit
    (RULINGS H5): every clump of ``suit`` in it must be exactly ``count`` cards (a clump of 1-3
    goes whole, one of 4 or more gives any count)."""
    run = 0
    for card in (*cards, -1):
        if card == suit:
            run += 1
        elif run:
            if run != count:
                return False
            run = 0
    return True


def predecessors(cards: tuple[int, ...], seen: Seen) -> list[tuple[int, ...]]:
    """Every hand (cards left to right) from which the opponent's play ``seen`` was legal and
    left ``cards`` (RULINGS H1-H5): the played cards put back as part of one clump that could
    give them (H2), and, for a follow in another suit, no lead-suit play of another count (H5).
    """
    count, suit, lead_count, lead_suit = seen
    found: list[tuple[int, ...]] = []
    size = len(cards)
    block = (suit,) * count
    for gap in range(size + 1):
        # Inserting into or next to a run of the suit gives one hand: insert at its start.
        if gap and cards[gap - 1] == suit:
            continue
        end = gap
        while end < size and cards[end] == suit:
            end += 1
        clump = count + end - gap
        if clump != count and clump < 4:  # H2: a clump of 1-3 cards is played whole
            continue
        before = cards[:gap] + block + cards[gap:]
        if (
            lead_suit >= 0
            and suit != lead_suit
            and not _off_suit_allowed(before, lead_suit, lead_count)
        ):
            continue
        found.append(before)
    return found


class _OutOfBudget(Exception):
    """A history search took more steps than :data:`HISTORY_BUDGET`."""


#: Predecessor steps one history search may take. A hand that fits is found in a few dozen
#: steps; proving that one does not can take thousands (every way to put the cards back), so
#: a search over budget counts as no fit: the sampler stays sound (it accepts only hands with
#: a witness) and a move's time bounded, at the cost of rarely passing over a hand that fits.
#: When no hand passes, the sampler searches again with ten times the budget.
HISTORY_BUDGET = 50
#: The budget beyond which a sampler that finds no hand judges the view impossible: more
#: steps than there are ways to put a round's plays back.
MAX_HISTORY_BUDGET = 50_000_000


class HistoryCheck:
    """Whether an opponent's current hand agrees with the plays the seat saw it make this
    round: some hand it could have been dealt leads, play by legal play, to it.

    Remembers the hands already decided, for the whole search.
    """

    def __init__(self, seen: tuple[Seen, ...], budget: int | None = None) -> None:
        self.seen = seen
        self.budget = HISTORY_BUDGET if budget is None else budget
        self._steps = 0
        self._failed: set[tuple[int, tuple[int, ...]]] = set()

    def history(self, cards: tuple[int, ...]) -> list[tuple[int, ...]] | None:
        """A witness: the hands before each seen play, the dealt hand first, then ``cards``;
        ``None`` when no history fits (or none was found within the budget)."""
        self._steps = 0
        try:
            path = self._back(cards, len(self.seen) - 1)
        except _OutOfBudget:
            return None
        return None if path is None else [*path, cards]

    def _back(self, cards: tuple[int, ...], depth: int) -> list[tuple[int, ...]] | None:
        if depth < 0:
            return []
        if (depth, cards) in self._failed:
            return None
        self._steps += 1
        if self._steps > self.budget:
            raise _OutOfBudget
        for before in predecessors(cards, self.seen[depth]):
            path = self._back(before, depth - 1)
            if path is not None:
                path.append(before)
                return path
        # Only a search that ran to its end proves there is no history: an exception out of
        # the loop above leaves this hand undecided.
        self._failed.add((depth, cards))
        return None


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
    """

    def __init__(self, view: View) -> None:
        assert view.seat is not None and view.hand is not None
        me = view.seat
        self._observer = me
        self.hand = compact_hand(view.hand)
        other = 1 - me
        self.opponent_size = view.hand_sizes[other]
        unknown = [10 - n for n in view.hand.counts]
        for suit in range(3):
            unknown[suit] -= view.won[0][suit] + view.won[1][suit] + view.set_aside[suit]
        seen: list[Seen] = []
        last = -1
        for trick in view.tricks:
            if trick.follow is not None:
                last = 1 - trick.leader
            if trick.leader == other:
                seen.append((trick.lead.count, int(trick.lead.suit), 0, -1))
            elif trick.follow is not None:
                follow, lead = trick.follow, trick.lead
                seen.append((follow.count, int(follow.suit), lead.count, int(lead.suit)))
        self.lead_suit, self.lead_count = -1, 0
        if view.lead is not None:
            self.lead_suit, self.lead_count = int(view.lead.suit), view.lead.count
            unknown[self.lead_suit] -= self.lead_count
            if view.leader == other:
                seen.append((self.lead_count, self.lead_suit, 0, -1))
        if min(unknown) < 0 or sum(unknown) != self.opponent_size + FACE_DOWN_SIZE:
            raise ValueError("the view's cards do not add up to the deck")
        self.unknown = unknown
        self.cards = [suit for suit in range(3) for _ in range(unknown[suit])]
        self.won = [*view.won[0], *view.won[1]]
        self.leader = view.leader
        self.last = last
        self.check = HistoryCheck(tuple(seen))
        self._listed: tuple[list[tuple[int, ...]], list[int]] | None = None
        self._tries = 0
        self._accepted = 0
        # Hands already checked against the history: late in a round they come back often.
        self._agrees: dict[tuple[int, ...], bool] = {}
        self._few: bool | None = None  # whether the distinct opponent hands are few to list

    @property
    def observer(self) -> int:
        """The searching seat."""
        return self._observer

    def opponent_cards(self, rng: random.Random) -> tuple[int, ...]:
        """The opponent's hand (cards left to right) in a random determinization.

        Raises:
            ValueError: no hand agrees with what the seat saw (the view is impossible).
        """
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

    def _list(self) -> tuple[list[tuple[int, ...]], list[int]]:
        while True:
            listed = self._list_within_budget()
            if listed[0]:
                return listed
            if self.check.budget >= MAX_HISTORY_BUDGET:
                raise ValueError("no deal agrees with the view (the plays seen are impossible)")
            self._search_harder()

    def _list_within_budget(self) -> tuple[list[tuple[int, ...]], list[int]]:
        # A uniform shuffle makes every distinct sequence of the unknown cards equally likely:
        # an opponent hand weighs the number of orders of the two cards left face down.
        hands: list[tuple[int, ...]] = []
        cumulative: list[int] = []
        total = 0
        for hand in _arrangements(list(self.unknown), self.opponent_size):
            if self.check.history(hand) is None:
                continue
            rest = [n - hand.count(suit) for suit, n in enumerate(self.unknown)]
            total += 1 if max(rest) == FACE_DOWN_SIZE else 2
            hands.append(hand)
            cumulative.append(total)
        return hands, cumulative

    def determinize(self, rng: random.Random) -> HipparchusState:
        """A random full state agreeing with everything the seat has seen."""
        opponent = hand_from_cards(self.opponent_cards(rng))
        mine = self.hand[:]
        hands = [mine, opponent] if self._observer == 0 else [opponent, mine]
        return HipparchusState(
            self._observer,
            hands,
            self.won[:],
            self.leader,
            self.lead_suit,
            self.lead_count,
            self.last,
        )


class HipparchusPosition(Position):
    """The decision of the seat whose view this is (it must move).

    Raises:
        ValueError: the view is not valid (naming the field), is a spectator's, or its seat
            need not move.
    """

    def __init__(self, view_data: JSON) -> None:
        view = load_view(view_data)
        if view.seat is None or view.hand is None:
            raise ValueError("a spectator's view: the engine plays for a seat")
        if view.to_move != view.seat:
            raise ValueError(f"seat {view.seat} need not move now")
        self.view: View = view
        self.seat: int = view.seat
        hand = view.hand
        lead = view.lead
        self.legal: tuple[Play, ...] = (
            hand.plays if lead is None else hand.follow_plays(lead.suit, lead.count)
        )
        if not self.legal:  # a valid view never waits for a move that cannot be made (H6)
            raise ValueError("the seat has no legal play")
        self._information: HipparchusInformation | None = None

    def random_move(self, rng: random.Random) -> str:
        """A uniformly random legal play, in canonical notation."""
        return format_play(self.legal[rng.randrange(len(self.legal))])

    def heuristic_move(self, rng: random.Random) -> str:
        """The rule-based player's play (:func:`heuristic_play`)."""
        return format_play(heuristic_play(self, rng))

    def information_set(self) -> HipparchusInformation:
        """What the seat knows, for the search."""
        if self._information is None:
            self._information = HipparchusInformation(self.view)
        return self._information

    def stats(self, key: Hashable, visits: int, mean_reward: float) -> MoveStats:
        """The stats of a root play; the reward is the chance to win the round."""
        assert isinstance(key, int)
        play = play_of(key >> 2 & 3, Suit(key & 3), key >> 4)
        return MoveStats(
            format_play(play),
            visits,
            mean_reward,
            match_chance(self.view.round_wins, self.seat, mean_reward),
        )

    def neutral_stats(self, move: str) -> MoveStats:
        """``move`` with no visits, an even round chance and the match chance that gives."""
        return MoveStats(move, 0, 0.5, match_chance(self.view.round_wins, self.seat, 0.5))


class HipparchusAdapter:
    """The engine's Hipparchus adapter (the Hipparchus kind's ``engine``)."""

    def position(self, view: JSON) -> HipparchusPosition:
        """See :class:`HipparchusPosition`."""
        return HipparchusPosition(view)


ADAPTER = HipparchusAdapter()


#: Determinizations the heuristic player's lead looks at.
HEURISTIC_SAMPLES = 8


def _margin(won: list[int], seat: int) -> float:
    """``seat``'s score lead if the round ended with these won counts (RULINGS H10)."""
    t0, t1 = totals(won)
    return float(t0 - t1 if seat == 0 else t1 - t0)


def _follow_value(
    won: list[int], leader: int, lead_suit: int, lead_count: int, suit: int, count: int, big: bool
) -> float:
    """The follower's value of answering with ``count`` ``suit``: its score lead after the trick
    (who wins it by H7, what both plays add by H8), less a little for tearing a clump of four
    or more (``big``): a long clump beats shorter plays of its suit (H7), keep it."""
    follower = 1 - leader
    winner = trick_winner(leader, lead_suit, lead_count, suit, count, won)
    after = won[:]
    after[winner * 3 + lead_suit] += lead_count
    after[winner * 3 + suit] += count
    return _margin(after, follower) - (0.25 if big else 0.0) - 0.05 * count


def _best_follow(hand: CHand, won: list[int], leader: int, suit: int, count: int) -> CPlay | None:
    """The follow with the best :func:`_follow_value` (leftmost on ties), ``None`` under H6."""
    best: CPlay | None = None
    best_value = -math.inf
    for index, n in follow_plays(hand, suit, count):
        value = _follow_value(won, leader, suit, count, hand[index] & 3, n, hand[index] >= 16)
        if value > best_value:
            best, best_value = (index, n), value
    return best


def heuristic_play(position: HipparchusPosition, rng: random.Random) -> Play:
    """The rule-based baseline player (issue 18, "Levels").

    Following, it answers with the play that leaves it the best score lead after the trick:
    it wins a trick when that pays (cheaply: fewer cards on equal value), gives it up when
    winning would only feed the opponent's majorities, and knows which suit wins an off-suit
    trick (H7, "suit power"); it tears a long clump only when that pays. Leading, it tries
    each lead against the opponent's best such answer in a few determinizations (the same
    sampler as the search) and leads what scores best on average.
    """
    view = position.view
    me = position.seat
    hand = compact_hand(view.hand) if view.hand is not None else []
    won = [*view.won[0], *view.won[1]]
    if view.lead is not None:
        choice = _best_follow(hand, won, view.leader, int(view.lead.suit), view.lead.count)
        assert choice is not None
    else:
        information = position.information_set()
        opponents = [
            hand_from_cards(information.opponent_cards(rng)) for _ in range(HEURISTIC_SAMPLES)
        ]
        best_value = -math.inf
        choice = (0, 0)
        for index, n in lead_plays(hand):
            suit = hand[index] & 3
            value = -0.25 if hand[index] >= 16 else 0.0
            for opponent in opponents:
                answer = _best_follow(opponent, won, me, suit, n)
                if answer is None:  # H6 ends the round now: score as it stands
                    value += _margin(won, me)
                    continue
                their = opponent[answer[0]] & 3
                winner = trick_winner(me, suit, n, their, answer[1], won)
                after = won[:]
                after[winner * 3 + suit] += n
                after[winner * 3 + their] += answer[1]
                value += _margin(after, me)
            value /= len(opponents)
            if value > best_value:
                choice, best_value = (index, n), value
    index, count = choice
    return play_of(count, Suit(hand[index] & 3), position_of(hand, index))
