"""The engine's Hipparchus adapter (issue 18): one seat's view in, moves and searches out.

Everything here starts from the seat's view alone (RULINGS H13): its own hand in order, the
opponent's hand size, both seats' won counts, the cards set aside and the public form of every
play of the round (count and suit). The face-down cards and the opponent's hand, its order
included, are unknown; the search samples them (:mod:`.engine_information`, which checks
hands with :mod:`.engine_history` and deals the states of :mod:`.engine_state`); the
``heuristic`` level is :mod:`.engine_heuristic`. The Hipparchus kind names this module as its
engine.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Sequence

import attrs

from ...engine.position import EXPLORATION, Position, Tuning
from ...engine.types import MoveStats
from ...jsondata import JSON
from . import core
from .codec import load_view
from .engine_heuristic import heuristic_play
from .engine_information import HipparchusInformation
from .engine_solver import SOLVE_CARDS
from .engine_state import RANDOM_PLAYOUT, Playout
from .model import Play, Suit, play_of
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


#: The chance that the opponent's choice in the tree is a random legal move (the ``ismcts``
#: level's; issue 29, docs/engine.md "Strength"): against ``random`` 97.1% of 1,200 matches
#: against 95.7% without (paired +1.4 points [+0.0, +2.8]), against ``sampler:40cpu`` the
#: same (-0.1 [-4.2, +4.0] over 800); at 0.1, 0.3 and 0.5 (seed 1) no gain against ``random``
#: showed, so it is small if real.
OPPONENT_ERROR = 0.2

#: How the ``ismcts`` level searches Hipparchus: the paper's SO-ISMCTS, a leaf whose world's
#: hands hold few cards (:data:`.engine_solver.SOLVE_CARDS`) taking its exact value within
#: :data:`SOLVE_NODES` positions (issue 29).
SOLVE_NODES = 2000
TUNING = Tuning(solve_nodes=SOLVE_NODES, opponent_error=OPPONENT_ERROR)
#: The positions each world's solve may take when the root itself is solved (the adapter's
#: ``root_solve`` option): at 20 cards a solve from scratch takes 405 positions at the median
#: and 11,435 at most of 300 deals (docs/engine.md), so this rarely overruns.
ROOT_SOLVE_NODES = 50_000
#: The root's endgame search: every sampled world (a shared deal) solved exactly for every
#: root move still in the race (perfect-information Monte Carlo with the exact solver).
ROOT_TUNING = Tuning(shared_worlds=True, solve_nodes=ROOT_SOLVE_NODES)
#: The positions a leaf's solve may take when leaves of more cards than
#: :data:`.engine_solver.SOLVE_CARDS` are solved (the adapter's ``leaf_cards`` option): at 16
#: cards a solve from scratch takes 95 at the median and 1,656 at most of 300 deals.
LEAF_SOLVE_NODES = 5000
LEAF_TUNING = Tuning(solve_nodes=LEAF_SOLVE_NODES, opponent_error=OPPONENT_ERROR)
#: The search with shared worlds at the root (the adapter's ``shared_root`` option): every
#: sampled world played for each root move still racing, with the same random numbers, and
#: the tree searched below each move, leaves solved as :data:`TUNING`'s.
SHARED_ROOT_TUNING = Tuning(
    shared_worlds=True, solve_nodes=SOLVE_NODES, opponent_error=OPPONENT_ERROR
)


#: A Hipparchus decision's lineage (:meth:`HipparchusPosition.lineage`): seat, round number,
#: round wins, the seat's hand as the core's clumps, and the round's plays (seat, public form).
Lineage = tuple[int, int, tuple[int, int], tuple[int, ...], tuple[tuple[int, int], ...]]


@attrs.frozen
class SearchOptions:
    """The Hipparchus search's A/B options (issue 29; the defaults are the ``ismcts``
    level's), as :meth:`HipparchusAdapter.with_options` parses them.

    ``trust``: the inference's (in [0, 1); 0 is off), weighing the determinizations by the
    opponent's follows (:class:`.engine_information.HipparchusInformation`). ``root_solve``:
    the most cards in both hands at which the root is solved world by world (0 to 28; 0 is
    off). ``leaf_cards``: the most cards of a leaf the search solves (0 to 28; 0 is
    :data:`.engine_solver.SOLVE_CARDS`). ``reuse``: whether a search continues the tree of
    the seat's last decision. ``exploration``: UCB1's constant.
    ``shared_root``: shared worlds at the root (:data:`SHARED_ROOT_TUNING`).
    ``opponent_exploration``: UCB1's constant for the opponent's choices in the tree (``None``:
    ``exploration``). ``opponent_error``: the chance that an opponent's choice in the tree is
    a random legal one (:attr:`~hipparchusd.engine.position.Tuning.opponent_error`; 0 is
    off, the level's is :data:`OPPONENT_ERROR`). ``leaf_error``: the same chance for the
    leaves' exact solver, which then values a world the seat loses against every defence by
    its chance against an opponent who errs that often (:meth:`.engine_solver.Solver.chance`;
    0, a perfect opponent, is the level's). ``playout``: how the worlds play on from the
    leaves (:class:`.engine_state.Playout`).
    """

    trust: float = 0.0
    root_solve: int = 0
    leaf_cards: int = 0
    reuse: bool = False
    exploration: float = EXPLORATION
    shared_root: bool = False
    opponent_exploration: float | None = None
    opponent_error: float = OPPONENT_ERROR
    leaf_error: float = 0.0
    playout: Playout = RANDOM_PLAYOUT


#: The ``ismcts`` level's options.
DEFAULT_OPTIONS = SearchOptions()


class HipparchusPosition(Position):
    """The decision of the seat whose view this is (it must move), searched with
    ``options``.

    Raises:
        ValueError: the view is not valid (naming the field), is a spectator's, or its seat
            need not move.
    """

    def __init__(self, view_data: JSON, options: SearchOptions = DEFAULT_OPTIONS) -> None:
        view = load_view(view_data)
        if view.seat is None or view.hand is None:
            raise ValueError("a spectator's view: the engine plays for a seat")
        if view.to_move != view.seat:
            raise ValueError(f"seat {view.seat} need not move now")
        self.view: View = view
        self.seat: int = view.seat
        hand = view.hand
        #: The seat's hand, as the core's clumps.
        self.hand: tuple[int, ...] = hand.core
        lead = view.lead
        self.legal: tuple[Play, ...] = (
            hand.plays if lead is None else hand.follow_plays(lead.suit, lead.count)
        )
        if not self.legal:  # a valid view never waits for a move that cannot be made (H6)
            raise ValueError("the seat has no legal play")
        self._information: HipparchusInformation | None = None
        self.options = options
        cards = hand.size + view.hand_sizes[1 - self.seat]
        #: Whether the root is solved world by world (see :meth:`tuning`).
        self.root_solved = 0 < cards <= options.root_solve

    def random_move(self, rng: random.Random) -> str:
        """A uniformly random legal play, in canonical notation."""
        return format_play(self.legal[rng.randrange(len(self.legal))])

    def heuristic_move(self, rng: random.Random) -> str:
        """The rule-based player's play (:func:`heuristic_play`)."""
        return format_play(heuristic_play(self.view, self.information_set, rng))

    def tuning(self) -> Tuning:
        """The paper's search with the exact solver at its leaves (:data:`TUNING`); once both
        hands hold ``root_solve`` cards or fewer, the root's endgame search
        (:data:`ROOT_TUNING`): each sampled world solved exactly (RULINGS H2-H11) after every
        root move still racing, the move winning the most worlds first."""
        if self.root_solved:
            return ROOT_TUNING
        options = self.options
        if options.shared_root:
            return attrs.evolve(
                SHARED_ROOT_TUNING,
                exploration=options.exploration,
                opponent_exploration=options.opponent_exploration,
                opponent_error=options.opponent_error,
            )
        tuning = LEAF_TUNING if options.leaf_cards > SOLVE_CARDS else TUNING
        return attrs.evolve(
            tuning,
            reuse=options.reuse,
            exploration=options.exploration,
            opponent_exploration=options.opponent_exploration,
            opponent_error=options.opponent_error,
        )

    def lineage(self) -> Lineage:
        """What the seat's next decision needs to tell whether it extends this one (see
        :meth:`path_from`): from the view alone, the seat, the round's number and the round
        wins, the seat's hand (the core's clumps) and every play of the round so far, in
        order, as (the seat that made it, its public form ``count << 2 | suit``)."""
        view = self.view
        plays: list[tuple[int, int]] = []
        for trick in view.tricks:
            plays.append((trick.leader, trick.lead.count << 2 | int(trick.lead.suit)))
            if trick.follow is not None:
                follower = 1 - trick.leader
                plays.append((follower, trick.follow.count << 2 | int(trick.follow.suit)))
        if view.lead is not None:
            plays.append((view.leader, view.lead.count << 2 | int(view.lead.suit)))
        return (self.seat, view.round_number, view.round_wins, self.hand, tuple(plays))

    def path_from(self, earlier: Hashable) -> Sequence[Hashable] | None:
        """The moves from the decision of lineage ``earlier`` to this one, as the search keys
        them (:class:`.engine_state.HipparchusState`): the seat's own play (the core's move,
        the one of that public form that leaves its hand as this view shows it), then the
        opponent's plays by public form (RULINGS H13). ``None`` unless this view extends that
        one: the same seat, round and round wins, that decision's plays all here in the same
        order, then exactly one play of the seat's first and the opponent's after it (a new
        game, a new round, an undo or a view of another seat start afresh). The same
        information set again gives no moves."""
        if not isinstance(earlier, tuple) or len(earlier) != 5:
            return None
        seat, round_number, round_wins, hand, plays = earlier
        now = self.lineage()
        if (seat, round_number, round_wins) != now[:3] or now[4][: len(plays)] != plays:
            return None
        added = now[4][len(plays) :]
        if not added:
            return () if hand == now[3] else None
        if added[0][0] != seat or any(mover == seat for mover, _ in added[1:]):
            return None
        opponent = tuple(public for _, public in added[1:])
        for move in core.lead_moves(hand):
            if move & 15 == added[0][1] and core.remove(hand, move) == now[3]:
                return (move, *opponent)
        return None

    def information_set(self) -> HipparchusInformation:
        """What the seat knows, for the search."""
        if self._information is None:
            self._information = HipparchusInformation(self.view, self.options.trust)
            if self.root_solved:  # every world's position is worth solving
                self._information.solver.cards = core.HAND_SIZE * 2
            elif self.options.leaf_cards:
                self._information.solver.cards = self.options.leaf_cards
            self._information.playout = self.options.playout
            self._information.solver.error = self.options.leaf_error
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


def _int_option(key: str, value: str, most: int) -> int:
    """An engine option that is an int from 0 to ``most``.

    Raises:
        ValueError: not such an int; the message names the option and its bounds.
    """
    try:
        number = int(value)
    except ValueError:
        raise ValueError(f"{key} must be in 0..{most}, not {value!r}") from None
    if not 0 <= number <= most:
        raise ValueError(f"{key} must be in 0..{most}, not {value!r}")
    return number


def _cards_option(key: str, value: str) -> int:
    """An engine option counting the cards in both hands: an int from 0 to 28 (two hands of
    :data:`.core.HAND_SIZE`).

    Raises:
        ValueError: not such an int; the message names the option.
    """
    return _int_option(key, value, 2 * core.HAND_SIZE)


def _nodes_option(key: str, value: str) -> int:
    """An engine option that is a solver's node budget: an int from 0 to 100000.

    Raises:
        ValueError: not such an int; the message names the option.
    """
    return _int_option(key, value, 100_000)


def _float_option(key: str, value: str, bounds: str, within: Callable[[float], bool]) -> float:
    """An engine option that is a float ``within`` its ``bounds`` (as the message writes
    them, ``[0, 1)``); nan is never within.

    Raises:
        ValueError: not such a float; the message names the option and its bounds.
    """
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    if math.isnan(number) or not within(number):
        raise ValueError(f"{key} must be in {bounds}, not {value!r}")
    return number


def _constant_option(key: str, value: str) -> float:
    """An engine option that is a UCB1 constant, a float in (0, 10].

    Raises:
        ValueError: not such a float; the message names the option and its bounds.
    """
    return _float_option(key, value, "(0, 10]", lambda x: 0.0 < x <= 10.0)


def _switch_option(key: str, value: str) -> bool:
    """An engine option that is on (``1``) or off (``0``).

    Raises:
        ValueError: neither; the message names the option.
    """
    if value not in ("0", "1"):
        raise ValueError(f"{key} must be 0 or 1, not {value!r}")
    return value == "1"


class HipparchusAdapter:
    """The engine's Hipparchus adapter (the Hipparchus kind's ``engine``), its searches
    made with ``options`` (the ``ismcts`` level's unless :meth:`with_options` says
    otherwise)."""

    def __init__(self, options: SearchOptions = DEFAULT_OPTIONS) -> None:
        self.options = options

    def position(self, view: JSON) -> HipparchusPosition:
        """See :class:`HipparchusPosition`."""
        return HipparchusPosition(view, self.options)

    def with_options(self, options: dict[str, str]) -> HipparchusAdapter:
        """A copy with these options (:class:`SearchOptions`), for A/B matches:
        ``inference`` (a float in [0, 1), the inference's ``trust``); ``root_solve`` and
        ``leaf_cards`` (ints from 0 to 28); ``reuse`` (0 or 1: continue the seat's last tree,
        where the caller keeps one, a :class:`~hipparchusd.engine.analysis.TreeMemory`);
        ``exploration`` and ``opponent_exploration`` (floats in (0, 10]); ``opponent_error`` (a
        float in [0, 1)); ``leaf_error`` (a float in [0, 1): the leaves' solver's erring
        opponent); ``shared_root`` (0 or 1); ``playout_follows`` (a float in [0, 1]:
        the chance that a playout's follow is the rule-based one) and ``playout_solve`` (an
        int from 0 to 100000: the positions a playout's exact finish may take, 0 for none)
        (:class:`.engine_state.Playout`).

        Raises:
            ValueError: an unknown option or a bad value (the message names the option).
        """
        found = self.options
        for key, value in options.items():
            if key == "inference":
                trust = _float_option(key, value, "[0, 1)", lambda x: 0.0 <= x < 1.0)
                found = attrs.evolve(found, trust=trust)
            elif key == "root_solve":
                found = attrs.evolve(found, root_solve=_cards_option(key, value))
            elif key == "leaf_cards":
                found = attrs.evolve(found, leaf_cards=_cards_option(key, value))
            elif key == "reuse":
                found = attrs.evolve(found, reuse=_switch_option(key, value))
            elif key == "shared_root":
                found = attrs.evolve(found, shared_root=_switch_option(key, value))
            elif key == "exploration":
                found = attrs.evolve(found, exploration=_constant_option(key, value))
            elif key == "opponent_exploration":
                found = attrs.evolve(found, opponent_exploration=_constant_option(key, value))
            elif key == "opponent_error":
                error = _float_option(key, value, "[0, 1)", lambda x: 0.0 <= x < 1.0)
                found = attrs.evolve(found, opponent_error=error)
            elif key == "leaf_error":
                error = _float_option(key, value, "[0, 1)", lambda x: 0.0 <= x < 1.0)
                found = attrs.evolve(found, leaf_error=error)
            elif key == "playout_follows":
                follows = _float_option(key, value, "[0, 1]", lambda x: 0.0 <= x <= 1.0)
                playout = attrs.evolve(found.playout, follows=follows)
                found = attrs.evolve(found, playout=playout)
            elif key == "playout_solve":
                playout = attrs.evolve(found.playout, solve_nodes=_nodes_option(key, value))
                found = attrs.evolve(found, playout=playout)
            else:
                raise ValueError(f"unknown engine option {key!r}")
        return HipparchusAdapter(found)


ADAPTER = HipparchusAdapter()
