"""The engine's planets adapter (issue 18): one seat's view in, moves and searches out.

Everything starts from the seat's view alone (docs/planets.md, "What each seat sees"): its own
hand, every seat's hand size, the cards played to this hand's tricks, and its own pass. Other
seats' hands are unknown; a determinization deals the unknown cards to them so that they agree
with everything the seat saw (:class:`PlanetsInformation`): sizes, the voids a failure to follow
reveals (RULINGS P5), a Jupiter lead before Jupiter was broken (the leader held nothing else,
P6), and the seat's own passed cards, still in the hand of the seat they went to unless played.

Levels: ``random`` (a random legal move, a random pass), ``heuristic``
(:func:`heuristic_card`, :func:`heuristic_pass`, :func:`heuristic_choice`) and ``ismcts``,
which searches the card play (:data:`SEARCH_TUNING`: shared worlds at the root; the other
seats modeled by the playout policy, :class:`ModeledState`) and the pass (:mod:`.engine_pass`,
:data:`PASS_SEARCHED`), and makes the shooting choice as the heuristic does (a comparison of
two standings, :mod:`.engine_standing`).
"""

from __future__ import annotations

import random
from collections.abc import Hashable

from ...engine.position import Position, Tuning
from ...engine.types import MoveStats
from ...jsondata import JSON
from . import core
from .codec import load_view
from .engine_pass import PASS_TUNING, PassInformation
from .engine_standing import shooting_choice
from .engine_state import ModeledState, PlanetsState, equivalent_runs
from .model import (
    CARDS,
    HAND_POINTS,
    JUPITER,
    JUPITER_MASK,
    POINTS,
    SUIT_MASKS,
    Card,
    Shoot,
    deck_mask,
    mask_of,
    pass_kind,
)
from .notation import canonical_pass, format_cards
from .rules import Phase
from .views import View

#: Attempts at dealing the unknown cards before the view is judged impossible.
DEAL_TRIES = 2000


def _bits(mask: int) -> list[int]:
    """The cards (values) in ``mask``, low to high."""
    return list(core.cards_in(mask))


#: Whether the card play's search models the other seats (:class:`ModeledState`).
MODELED_OPPONENTS = True
#: Whether that search keys one card of each run of equivalent cards
#: (:func:`.engine_state.equivalent_runs`).
EQUIVALENT_CARDS = True


class PlanetsInformation:
    """What a seat knows during the card play, as determinizations
    (:class:`hipparchusd.engine.position.InformationSet`); see the module's doc.

    Raises:
        ValueError: the view's cards do not add up to a deck of planets.
    """

    def __init__(self, view: View) -> None:
        assert view.seat is not None and view.hand is not None
        me = self._observer = view.seat
        players = self.players = len(view.hand_sizes)
        played = 0
        voids = [0] * players  # masks of the suits each seat is known to lack
        broken = False
        tricks = [(t.leader, t.cards) for t in view.tricks]
        if view.trick is not None:
            tricks.append((view.trick.leader, view.trick.cards))
        for leader, cards in tricks:
            if not cards:
                continue
            led = cards[0] // 10
            if led == JUPITER and not broken:
                # P6: Jupiter led before it was broken: the leader held nothing else.
                voids[leader] |= sum(SUIT_MASKS) & ~JUPITER_MASK
            for offset, card in enumerate(cards):
                played |= 1 << card
                if card // 10 != led:  # P5: a seat that could follow must
                    voids[(leader + offset) % players] |= SUIT_MASKS[led]
            if any(card // 10 == JUPITER for card in cards):
                broken = True  # from the next trick on (P11): the last trick is the current
        mine = mask_of(view.hand)
        total = sum(view.hand_sizes) + played.bit_count()
        galaxies = players == 6 and total == 60
        deck = deck_mask(players, galaxies)
        if total != deck.bit_count() or mine & ~deck or played & ~deck or mine & played:
            raise ValueError("the view's cards do not add up to a deck of planets")
        self.mine = mine
        self.sizes = list(view.hand_sizes)
        if mine.bit_count() != self.sizes[me]:
            raise ValueError("the view's hand and hand size differ")
        fixed = [0] * players
        if view.my_pass and view.phase is not Phase.PASS:
            targets = pass_kind(players, view.hand_number).targets(me, players)
            for card, target in zip(view.my_pass, targets, strict=True):
                if not played & (1 << card):
                    fixed[target] |= 1 << card
        self.fixed = fixed
        self.voids = voids
        self.unknown = deck & ~mine & ~played & ~sum(fixed)
        others = [s for s in range(players) if s != me]
        self._eligible = {
            suit: [s for s in others if not voids[s] & SUIT_MASKS[suit]] for suit in range(6)
        }
        self._eligible_count = [len(self._eligible[card // 10]) for card in range(60)]
        unknown = _bits(self.unknown)
        # The cards only some of the other seats may hold (their suit's voids), dealt one by
        # one; the rest in one shuffle.
        self._constrained = [c for c in unknown if self._eligible_count[c] < len(others)]
        self._free = [c for c in unknown if self._eligible_count[c] == len(others)]
        self.trick = [int(c) for c in view.trick.cards] if view.trick is not None else []
        self.leader = view.trick.leader if view.trick is not None else view.to_move[0]
        self.taken = list(view.points_taken)
        self.broken = view.jupiter_broken
        self.first = not view.tricks

    @property
    def observer(self) -> int:
        """The searching seat."""
        return self._observer

    def deal(self, rng: random.Random) -> list[int]:
        """Other seats' hands (masks by seat; the seat's own as it is) in a random deal of the
        unknown cards that agrees with the sizes, voids and the seat's own pass.

        Raises:
            ValueError: no such deal was found (the view is impossible).
        """
        players = self.players
        observer = self._observer
        room_left = [self.sizes[s] - self.fixed[s].bit_count() for s in range(players)]
        room_left[observer] = 0
        free = self._free[:]
        constrained = self._constrained[:]
        for _ in range(DEAL_TRIES):
            rng.shuffle(constrained)
            # Cards of suits few seats may hold go first: a greedy deal then rarely gets stuck.
            constrained.sort(key=self._eligible_count.__getitem__)
            room = room_left[:]
            hands = self.fixed[:]
            hands[observer] = self.mine
            for card in constrained:
                seats = [s for s in self._eligible[card // 10] if room[s]]
                if not seats:
                    break
                weights = [room[s] for s in seats]
                seat = rng.choices(seats, weights)[0] if len(seats) > 1 else seats[0]
                hands[seat] |= 1 << card
                room[seat] -= 1
            else:
                # Any other seat may hold the rest: a shuffle dealt into the room left is a
                # uniform deal of them.
                rng.shuffle(free)
                at = 0
                for seat in range(players):
                    for card in free[at : at + room[seat]]:
                        hands[seat] |= 1 << card
                    at += room[seat]
                return hands
        raise ValueError("no deal agrees with the view (the plays seen are impossible)")

    def determinize(self, rng: random.Random) -> PlanetsState:
        """A random full state of the card play agreeing with everything the seat saw."""
        hands = self.deal(rng)
        if MODELED_OPPONENTS:
            return ModeledState(
                self._observer, hands, self.leader, self.trick, self.taken, self.broken,
                self.first, equivalents=EQUIVALENT_CARDS,
            )  # fmt: skip
        return PlanetsState(hands, self.leader, self.trick, self.taken, self.broken, self.first)


# The heuristic player (issue 18: dump point cards, avoid taking Mars 7 and Neptune 7, guard
# against a shoot).


def _threat(view: View) -> bool:
    """Whether another seat may be shooting: it took every point taken so far, at least 8."""
    me = view.seat
    taken = view.points_taken
    total = sum(taken)
    return total >= 8 and any(t == total for s, t in enumerate(taken) if s != me)


def heuristic_card(view: View, legal: int) -> int:
    """The rule-based player's card (a value) among the ``legal`` mask.

    Following: duck under the trick's best card with the highest card that still loses; when
    every card wins, the last seat takes with its highest, others with their lowest. Unable to
    follow: discard Mars 7 or Neptune 7, then the highest Jupiter, then the highest card.
    Leading: the lowest card of a suit with no point card at risk. Against a shoot (one other
    seat holds every point so far), take a trick with points when it can.
    """
    trick = list(view.trick.cards) if view.trick is not None else []
    cards = _bits(legal)
    if not trick:
        safe = [c for c in cards if not POINTS[c]] or cards
        # Low cards of suits with few high cards out are safest; simply the lowest rank.
        return min(safe, key=lambda c: (c % 10, POINTS[c]))
    led = trick[0] // 10
    best = max(c for c in trick if c // 10 == led)
    points = sum(POINTS[c] for c in trick)
    last = len(trick) == len(view.hand_sizes) - 1
    if cards[0] // 10 != led:  # cannot follow: discard
        for danger in (Card.M7, Card.N7):
            if legal & (1 << danger):
                return int(danger)
        jupiters = [c for c in cards if c // 10 == JUPITER and POINTS[c]]
        if jupiters and not _threat(view):
            return max(jupiters)
        return max(cards, key=lambda c: (c % 10, -POINTS[c]))
    if _threat(view) and points:
        winners = [c for c in cards if c > best]
        if winners:
            return max(winners)
    under = [c for c in cards if c < best]
    if under:
        return max(under, key=lambda c: (POINTS[c] > 0, c))
    if last:
        return max(cards, key=lambda c: (-POINTS[c], c)) if not points else max(cards)
    return min(cards, key=lambda c: (POINTS[c], c))


def heuristic_pass(hand: int, count: int) -> list[int]:
    """The rule-based pass: Mars 7 and Neptune 7 unless well guarded (four or more lower cards
    of the suit), then the high Jupiters, then the highest cards of the shortest suits."""

    def danger(card: int) -> tuple[int, int, int]:
        suit = card // 10
        held = (hand & SUIT_MASKS[suit]).bit_count()
        if card in (Card.M7, Card.N7):
            lower = (hand & SUIT_MASKS[suit] & ((1 << card) - 1)).bit_count()
            if lower < 4:
                return (3, 0, 0)
        if suit == JUPITER and card % 10 >= 6:
            return (2, card % 10, 0)
        if card == Card.V1:
            return (0, 0, 0)
        return (1, card % 10 - held, card % 10)

    return sorted(_bits(hand), key=danger, reverse=True)[:count]


#: How the ``ismcts`` level searches the card play: every world (and its random numbers)
#: played for each card still in the race, the clearly beaten cards dropped (issue 29:
#: common random numbers; measured in docs/engine.md, "Strength, issue 29").
SEARCH_TUNING = Tuning(shared_worlds=True)
#: Whether the ``ismcts`` level searches the pass (:mod:`.engine_pass`), and how many moves'
#: budgets it gives it: a pass is one decision a hand against about ten searched cards, and
#: five budgets (about 1,500 playouts at the default level) give the candidates still racing
#: a few hundred deals each at 4 seats (measured over 200 hands of 4 seats, the card play the
#: heuristic's: 1.2 points a hand fewer than the heuristic's pass, docs/engine.md).
PASS_SEARCHED = True
PASS_BUDGET_SCALE = 5


def _start(hands: list[int], leader: int) -> PlanetsState:
    """The card play of a hand after its pass (the first trick, nothing taken)."""
    return PlanetsState(hands, leader, [], [0] * len(hands), False, True)


#: The seed of the model games :func:`heuristic_choice` plays (a fixed one: the same view
#: gets the same choice).
CHOICE_SEED = 29


def heuristic_choice(view: View) -> Shoot:
    """The shooting choice (P8, P13) by the game's standing: the option after which the seat
    wins the game more often, with every option of the game known (``exact100``, P14), as
    :func:`~.engine_standing.shooting_choice` estimates it; the same view gets the same
    choice."""
    me = view.seat
    assert me is not None
    choice, _, _ = shooting_choice(view.totals, me, view.exact100, random.Random(CHOICE_SEED))
    return choice


class PlanetsPosition(Position):
    """The decision of the seat whose view this is: a pass, a card or the shooting choice.

    Raises:
        ValueError: the view is not valid, is a spectator's, or its seat need not move.
    """

    def __init__(self, view_data: JSON) -> None:
        view = load_view(view_data)
        if view.seat is None or view.hand is None:
            raise ValueError("a spectator's view: the engine plays for a seat")
        if view.seat not in view.to_move:
            raise ValueError(f"seat {view.seat} need not move now")
        self.view: View = view
        self.seat: int = view.seat
        self.hand = mask_of(view.hand)
        self.legal = 0
        if view.phase is Phase.PLAY:
            trick = [int(c) for c in view.trick.cards] if view.trick is not None else []
            self.legal = core.allowed(
                self.hand, tuple(trick), view.jupiter_broken, len(view.tricks)
            )
            if not self.legal:
                raise ValueError("the seat has no legal card")
        self._information: PlanetsInformation | None = None
        # Each run of equivalent legal cards, by its first card (worked out once: the
        # analysis asks for every searched card's run).
        self._equivalents: dict[int, tuple[int, ...]] | None = None

    def _pass_word(self, cards: list[int]) -> str:
        kind = pass_kind(len(self.view.hand_sizes), self.view.hand_number)
        return format_cards(canonical_pass([CARDS[c] for c in cards], kind))

    def random_move(self, rng: random.Random) -> str:
        """A random legal card, a random pass (cards and order), or a random choice."""
        view = self.view
        if view.phase is Phase.PASS:
            return self._pass_word(rng.sample(_bits(self.hand), view.pass_count))
        if view.phase is Phase.CHOICE:
            choice: Shoot = rng.choice((Shoot.SELF, Shoot.OTHERS))
            return str(choice.value)
        cards = _bits(self.legal)
        return CARDS[cards[rng.randrange(len(cards))]].name

    def heuristic_move(self, rng: random.Random) -> str:
        """The rule-based player's move (:func:`heuristic_card`, :func:`heuristic_pass`,
        :func:`heuristic_choice`)."""
        view = self.view
        if view.phase is Phase.PASS:
            return self._pass_word(heuristic_pass(self.hand, view.pass_count))
        if view.phase is Phase.CHOICE:
            return str(heuristic_choice(view).value)
        return CARDS[heuristic_card(view, self.legal)].name

    def _passing(self) -> bool:
        return self.view.phase is Phase.PASS

    def searched(self) -> bool:
        """The card play is searched where there is a choice (a single legal card is played
        at once), the pass when :data:`PASS_SEARCHED` (:mod:`.engine_pass`, with
        :data:`PASS_BUDGET_SCALE` moves' budgets); the shooting choice is the standing's
        (see the module's doc), answered without search."""
        if self._passing():
            return PASS_SEARCHED and self.view.pass_count > 0
        return self.view.phase is Phase.PLAY and self.legal & (self.legal - 1) != 0

    def budget_scale(self) -> int:
        """A pass, one decision a hand and made blind, may take :data:`PASS_BUDGET_SCALE`
        moves' budgets; a card one."""
        return PASS_BUDGET_SCALE if self._passing() else 1

    def tuning(self) -> Tuning:
        """The card play's search (:data:`SEARCH_TUNING`) or the pass's
        (:data:`.engine_pass.PASS_TUNING`)."""
        return PASS_TUNING if self._passing() else SEARCH_TUNING

    def information_set(self) -> PlanetsInformation | PassInformation:
        """What the seat knows of the card play, or at the pass, for the search."""
        if self._passing():
            view = self.view
            players = len(view.hand_sizes)
            galaxies = players == 6 and sum(view.hand_sizes) == 60
            kind = pass_kind(players, view.hand_number)
            deck = deck_mask(players, galaxies)
            return PassInformation(
                self.seat, self.hand, deck, players, kind, passer=heuristic_pass, start=_start
            )
        if self._information is None:
            self._information = PlanetsInformation(self.view)
        return self._information

    def stats(self, key: Hashable, visits: int, mean_reward: float) -> MoveStats:
        """The stats of a card or a pass (its cards): the expected points this hand adds to
        the seat's total (a shoot of the seat's own counted as 0)."""
        # The mean reward is linear in the points, but for the -23 of a shoot (read as 0).
        points = HAND_POINTS * (1.0 - mean_reward)
        if isinstance(key, tuple):
            return MoveStats(self._pass_word(list(key)), visits, points)
        assert isinstance(key, int)
        return MoveStats(CARDS[key].name, visits, points)

    def equivalents(self, key: Hashable) -> tuple[int, ...]:
        """The legal cards equivalent to card ``key`` (:func:`.engine_state.equivalent_runs`)
        that the card play's search, whose determinizations (:class:`ModeledState`) offer
        the lowest of each run, left out; none for a pass, without modeled seats, or without
        :data:`EQUIVALENT_CARDS`."""
        if not (MODELED_OPPONENTS and EQUIVALENT_CARDS) or self.view.phase is not Phase.PLAY:
            return ()
        if self._equivalents is None:
            information = self.information_set()
            assert isinstance(information, PlanetsInformation)
            live = information.unknown | sum(information.fixed)
            for card in information.trick:
                live |= 1 << card
            runs = equivalent_runs(core.cards_in(self.legal), live)
            self._equivalents = {run[0]: run[1:] for run in runs}
        assert isinstance(key, int)
        return self._equivalents.get(key, ())

    def neutral_stats(self, move: str) -> MoveStats:
        """``move`` with no visits and the seat's points so far plus an even share of the
        points still out."""
        taken = self.view.points_taken
        share = taken[self.seat] + (HAND_POINTS - sum(taken)) / len(taken)
        return MoveStats(move, 0, share)


class PlanetsAdapter:
    """The engine's planets adapter (the planets kind's ``engine``)."""

    def position(self, view: JSON) -> PlanetsPosition:
        """See :class:`PlanetsPosition`."""
        return PlanetsPosition(view)


ADAPTER = PlanetsAdapter()
