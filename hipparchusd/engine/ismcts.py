"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS), generic over games.

After Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search" (IEEE TCIAIG
4(2), 2012), algorithm 3. The tree's nodes are the searching seat's information sets, not game
states: every iteration samples a *determinization* (a full game state that agrees with
everything the seat has seen), walks down the tree using only the moves legal in that
determinization, adds one node, plays the rest of the game out at random and backs the result
up. Because different determinizations allow different moves, a child is scored by UCB1 with
its *availability count* (how often it could have been chosen) in place of the parent's visit
count.

Moves are identified by keys *as the searching seat observes them*: its own moves fully, an
opponent's move only as far as the seat sees it (in Hipparchus the count and suit played, not
where in the hand). Two concrete moves with one key share a node, and the determinization picks
one of them at random: the paper's treatment of partially observable moves, so that the tree
never branches on what the seat cannot see.

Issue 29 adds what moved strength in Skat, Bridge and Hearts programs, each a game's choice
(:class:`Tuning`, from :meth:`~.position.Position.tuning`):

- *Shared worlds at the root* (common random numbers): instead of one determinization per
  iteration and UCB1 at the root, each world (and one stream of random numbers) is played for
  every root move still in the race, each move's subtree searched below it as above. The
  moves' values then differ by what the moves do, not by the luck of their deals, so fewer
  worlds tell them apart; a move whose paired difference from the best is below zero by
  :attr:`Tuning.race_z` standard errors leaves the race (racing, as in Maron and Moore's
  Hoeffding races), so the worlds go to the moves still in doubt.
- *An exact solver* for the late part of each world
  (:class:`~.position.Solvable`): a leaf the game can solve within
  :attr:`Tuning.solve_nodes` positions takes its perfect-information value instead of a
  playout; so does a root move's world, which makes the late moves perfect-information Monte
  Carlo (Ginsberg's GIB; Long et al., AAAI 2010) at no cost to the early ones.
- *An opponent that errs* (:attr:`Tuning.opponent_error`): with that chance an opponent's
  choice in the tree is any legal move rather than UCB1's, so that the values are those
  against an opponent who does not always find its best reply.
- *The tree kept between moves* (:attr:`Tuning.reuse`): a search may start from a
  :class:`Tree` that an earlier search of the same seat left, descended by the moves made
  since (:meth:`Tree.subtree`, the keys as the seat observes them): its node is the new
  information set's, so its statistics are the new root's to add to.

The games give the information sets and determinizations searched
(:mod:`hipparchusd.engine.position`); this module knows no game.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Sequence

import attrs

from .position import PAPER, Determinization, InformationSet, Solvable, Tuning, copier

__all__ = ["Edge", "SearchResult", "Tree", "Tuning", "search"]


class _Node:
    """A node: reached by ``key``, played by ``player``; rewards are ``player``'s."""

    __slots__ = ("available", "children", "key", "player", "total", "visits")

    def __init__(self, key: Hashable, player: int) -> None:
        self.key = key
        self.player = player
        self.children: dict[Hashable, _Node] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0


@attrs.frozen
class Edge:
    """A root move's statistics: its ``key``, ``visits`` and ``mean`` reward (0..1, for the
    searching seat; 0.0 when unvisited)."""

    key: Hashable
    visits: int
    mean: float


class Tree:
    """A search's tree, kept for a later search of the same seat (:attr:`Tuning.reuse`): the
    node of the information set searched and everything below it. Its nodes are keyed by
    moves as the seat observes them, so it holds nothing the seat's view does not give."""

    __slots__ = ("_root",)

    def __init__(self, root: _Node) -> None:
        self._root = root

    @property
    def visits(self) -> int:
        """The iterations that passed through this tree's root."""
        return self._root.visits

    def subtree(self, keys: Sequence[Hashable]) -> Tree | None:
        """The tree below the moves ``keys`` (the seat's and the others', keyed as the seat
        observes them, in the order played), ``None`` when the search never went there.
        The rest of this tree is left for the garbage collector once this one is dropped."""
        node = self._root
        for key in keys:
            found = node.children.get(key)
            if found is None:
                return None
            node = found
        return Tree(node)


@attrs.frozen
class SearchResult:
    """The root moves, best first, the iterations made and the seconds elapsed since the
    search's start; ``reused``, the iterations its root had from a kept tree before it began
    (0 for a fresh tree), and ``tree``, the tree searched (``None`` with shared worlds)."""

    edges: tuple[Edge, ...]
    playouts: int
    elapsed: float
    reused: int = 0
    tree: Tree | None = attrs.field(default=None, eq=False, repr=False)


def _solved(state: Determinization, nodes: int) -> Sequence[float] | None:
    """``state``'s exact rewards by seat, if it can be solved within ``nodes`` positions."""
    if nodes and isinstance(state, Solvable):
        return state.solve(nodes)
    return None


def _iterate(
    root: _Node, state: Determinization, rng: random.Random, tuning: Tuning, observer: int
) -> Callable[[int], float]:
    """One SO-ISMCTS iteration on ``state`` below ``root`` (``observer``'s tree): select,
    expand, simulate (an exact value where the game gives one within the tuning's nodes,
    else a playout), back up. Returns the rewards by seat of the iteration's end."""
    node = root
    path: list[_Node] = []
    log = math.log
    sqrt = math.sqrt
    own = tuning.exploration
    others = own if tuning.opponent_exploration is None else tuning.opponent_exploration
    error = tuning.opponent_error
    while True:
        player = state.to_move()
        if player < 0:
            break
        keys = state.keys()
        children = node.children
        untried = []
        # Every child legal in this determinization was available to choose (the paper's
        # availability count), whether selection or expansion happens here.
        for key in keys:
            child = children.get(key)
            if child is None:
                untried.append(key)
            else:
                child.available += 1
        if untried:
            key = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
            child = _Node(key, player)
            child.available = 1
            children[key] = child
            state.play(key, rng)
            path.append(child)
            break
        best: _Node | None = None
        if player != observer and error and rng.random() < error:
            # The opponent errs: any legal move, whatever the statistics say.
            best = children[keys[rng.randrange(len(keys))]]
        else:
            best_score = -1.0
            exploration = own if player == observer else others
            for key in keys:
                child = children[key]
                score = child.total / child.visits + exploration * sqrt(
                    log(child.available) / child.visits
                )
                if score > best_score:
                    best, best_score = child, score
        assert best is not None
        state.play(best.key, rng)
        path.append(best)
        node = best
    reward: Callable[[int], float] = state.reward
    if state.to_move() >= 0:
        values = _solved(state, tuning.solve_nodes)
        if values is None:
            state.playout(rng)
        else:
            reward = values.__getitem__
    for node in path:
        node.visits += 1
        node.total += reward(node.player)
    return reward


def _result(root: _Node, playouts: int, started: float, reused: int) -> SearchResult:
    """The root's moves, most visited first, then higher mean, and the tree below ``root``."""
    edges = [
        Edge(child.key, child.visits, child.total / child.visits if child.visits else 0.0)
        for child in root.children.values()
    ]
    edges.sort(key=lambda edge: (-edge.visits, -edge.mean))
    return SearchResult(tuple(edges), playouts, time.perf_counter() - started, reused, Tree(root))


class _Race:
    """The root moves of a search over shared worlds (:attr:`Tuning.shared_worlds`): each
    world is played for every move still racing, and each move's reward in every world is
    kept (the same worlds for every move still racing)."""

    def __init__(self, information: InformationSet, root: _Node, tuning: Tuning) -> None:
        self.information = information
        self.root = root
        self.tuning = tuning
        self.racing: list[Hashable] = []
        self.rewards: dict[Hashable, list[float]] = {}
        self.worlds = 0
        self._next_check = tuning.race_after

    def play_world(self, rng: random.Random) -> int:
        """Deal one world and play it for every root move still racing: each move on a copy
        of the world with the same stream of random numbers, its value exact where the game
        solves it within the tuning's nodes, else one iteration of its subtree. Returns the
        iterations made (the moves played)."""
        information = self.information
        world_seed, stream_seed = rng.getrandbits(64), rng.getrandbits(64)
        world = information.determinize(random.Random(world_seed))
        if not self.worlds:
            moves = world.keys()
            for key in moves:
                self.root.children[key] = _Node(key, information.observer)
                self.racing.append(key)
                self.rewards[key] = []
        observer = information.observer
        copy = copier(information, world, world_seed)
        nodes = self.tuning.solve_nodes
        for key in self.racing:
            state = copy()
            stream = random.Random(stream_seed)
            state.keys()  # a fresh copy's keys, which its play may need (Determinization.play)
            state.play(key, stream)
            child = self.root.children[key]
            if state.to_move() < 0:
                reward = state.reward(observer)
            else:
                values = _solved(state, nodes)
                if values is not None:
                    reward = values[observer]
                elif self.tuning.tree:
                    reward = _iterate(child, state, stream, self.tuning, observer)(observer)
                else:
                    state.playout(stream)
                    reward = state.reward(observer)
            child.visits += 1
            child.available += 1
            child.total += reward
            self.rewards[key].append(reward)
        played = len(self.racing)
        self.worlds += 1
        if self.worlds >= self._next_check:
            self._next_check = min(2 * self._next_check, self._next_check + 32)
            self._drop_the_beaten()
        return played

    def _drop_the_beaten(self) -> None:
        """Drop the moves clearly behind the best (checked at 8, 16, 32 worlds, then every 32,
        so that the checks cost little beside the worlds): those whose mean paired difference
        from the best is below zero by more than ``race_z`` standard errors."""
        z = self.tuning.race_z
        if len(self.racing) < 2 or z <= 0:
            return
        # Every move racing has a reward for each of the last n worlds (the ones since it
        # could be compared with all the others); compare on those.
        n = min(len(self.rewards[key]) for key in self.racing)
        recent = {key: self.rewards[key][-n:] for key in self.racing}
        best = max(self.racing, key=lambda key: sum(recent[key]))
        keep = []
        for key in self.racing:
            if key != best:
                diffs = [a - b for a, b in zip(recent[key], recent[best], strict=True)]
                mean = sum(diffs) / n
                variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
                if mean < 0 and mean * mean * n > z * z * variance:
                    continue
            keep.append(key)
        self.racing = keep

    def result(self, playouts: int, started: float) -> SearchResult:
        """Moves still racing first, best mean first; then those dropped, the later first."""
        racing = set(self.racing)
        edges = [
            Edge(child.key, child.visits, child.total / child.visits if child.visits else 0.0)
            for child in self.root.children.values()
        ]
        edges.sort(key=lambda edge: (edge.key not in racing, -edge.visits, -edge.mean))
        return SearchResult(tuple(edges), playouts, time.perf_counter() - started)


def search(
    information: InformationSet,
    rng: random.Random,
    *,
    playouts: int | None = None,
    deadline: float | None = None,
    cpu_deadline: float | None = None,
    on_progress: Callable[[SearchResult], None] | None = None,
    interval: float = 0.5,
    should_stop: Callable[[], bool] | None = None,
    started: float | None = None,
    tuning: Tuning = PAPER,
    worlds: int | None = None,
    tree: Tree | None = None,
) -> SearchResult:
    """Search ``information`` until ``playouts`` iterations (or, with shared worlds,
    ``worlds`` worlds) are done, ``deadline`` (a
    ``time.perf_counter()`` reading) passes or ``cpu_deadline`` (a ``time.thread_time()``
    reading: the searching thread's CPU time) passes, whichever comes first, or
    ``should_stop`` answers true (polled every few iterations). At least one iteration is
    always made. ``on_progress`` gets the result so far every ``interval`` seconds.

    With the default ``tuning`` every iteration has its own world and the root moves are
    chosen by UCB1; the moves reported are those expanded (the searching seat's moves are the
    same in every determinization, so each is expanded once before any is visited twice),
    most visited first. With ``tuning.shared_worlds`` every world is played for each root
    move still racing, and the budget is checked between worlds (the last world is finished
    for every move racing, so ``playouts`` may be exceeded by fewer than the moves); the
    moves still racing come first, best mean first.

    ``tree`` (without shared worlds) is a kept tree whose root is this information set's
    node (:meth:`Tree.subtree` of an earlier search's, the moves since played): the search
    adds its iterations to that node's statistics instead of starting from none, and the
    result's ``reused`` counts those it started with. With shared worlds it is ignored.

    Deterministic for a given information set, ``rng`` state, ``playouts`` and kept tree
    when there is no deadline and ``should_stop`` never answers true.

    Raises:
        ValueError: none of ``playouts``, ``worlds``, ``deadline`` and ``cpu_deadline`` is
            given, or ``worlds`` without shared worlds.
    """
    if playouts is None and worlds is None and deadline is None and cpu_deadline is None:
        raise ValueError("a search needs a playout budget, a deadline or a CPU deadline")
    if worlds is not None and not tuning.shared_worlds:
        raise ValueError("a budget of worlds needs shared worlds")
    clock = time.perf_counter
    cpu_clock = time.thread_time
    if started is None:
        started = clock()
    race = None
    if tuning.shared_worlds:
        root = _Node(None, -1)
        race = _Race(information, root, tuning)
    else:
        root = _Node(None, -1) if tree is None else tree._root
    reused = root.visits
    done = 0
    polls = 0
    next_report = started + interval
    while True:
        if race is not None:
            done += race.play_world(rng)
        else:
            _iterate(root, information.determinize(rng), rng, tuning, information.observer)
            root.visits += 1
            done += 1
        if playouts is not None and done >= playouts:
            break
        if race is not None and worlds is not None and race.worlds >= worlds:
            break
        now = clock()
        if deadline is not None and now >= deadline:
            break
        if cpu_deadline is not None and cpu_clock() >= cpu_deadline:
            break
        polls += 1
        # A world of shared worlds is an iteration per move: poll after each.
        if should_stop is not None and (race is not None or polls % 16 == 0) and should_stop():
            break
        if on_progress is not None and now >= next_report:
            on_progress(
                _result(root, done, started, reused) if race is None else race.result(done, started)
            )
            next_report = now + interval
    return _result(root, done, started, reused) if race is None else race.result(done, started)
