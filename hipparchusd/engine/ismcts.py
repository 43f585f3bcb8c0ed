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

The games give the information sets and determinizations searched
(:mod:`hipparchusd.engine.position`); this module knows no game.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable

import attrs

from .position import Determinization, InformationSet

#: UCB1's exploration constant for rewards in [0, 1] (the paper uses 0.7).
EXPLORATION = 0.7


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


@attrs.frozen
class SearchResult:
    """The root moves, best first (most visited, then higher mean), the iterations made and
    the seconds elapsed since the search's start."""

    edges: tuple[Edge, ...]
    playouts: int
    elapsed: float


def _iterate(root: _Node, state: Determinization, rng: random.Random) -> None:
    """One SO-ISMCTS iteration on ``state``: select, expand, simulate, back up."""
    node = root
    path: list[_Node] = []
    log = math.log
    sqrt = math.sqrt
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
        best_score = -1.0
        for key in keys:
            child = children[key]
            score = child.total / child.visits + EXPLORATION * sqrt(
                log(child.available) / child.visits
            )
            if score > best_score:
                best, best_score = child, score
        assert best is not None
        state.play(best.key, rng)
        path.append(best)
        node = best
    if state.to_move() >= 0:
        state.playout(rng)
    for node in path:
        node.visits += 1
        node.total += state.reward(node.player)


def _result(root: _Node, playouts: int, started: float) -> SearchResult:
    edges = [
        Edge(child.key, child.visits, child.total / child.visits if child.visits else 0.0)
        for child in root.children.values()
    ]
    edges.sort(key=lambda edge: (-edge.visits, -edge.mean))
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
) -> SearchResult:
    """Search ``information`` until ``playouts`` iterations are done, ``deadline`` (a
    ``time.perf_counter()`` reading) passes or ``cpu_deadline`` (a ``time.thread_time()``
    reading: the searching thread's CPU time) passes, whichever comes first, or
    ``should_stop`` answers true (polled every few iterations). At least one iteration is
    always made. The root moves reported are those expanded: the searching seat's moves are
    the same in every determinization, so each is expanded once before any is visited twice.
    ``on_progress`` gets the result so far every ``interval`` seconds.

    Deterministic for a given information set, ``rng`` state and ``playouts`` when there is
    no deadline and ``should_stop`` never answers true.

    Raises:
        ValueError: none of ``playouts``, ``deadline`` and ``cpu_deadline`` is given.
    """
    if playouts is None and deadline is None and cpu_deadline is None:
        raise ValueError("a search needs a playout budget, a deadline or a CPU deadline")
    cpu_clock = time.thread_time
    clock = time.perf_counter
    if started is None:
        started = clock()
    root = _Node(None, -1)
    done = 0
    next_report = started + interval
    while True:
        _iterate(root, information.determinize(rng), rng)
        done += 1
        if playouts is not None and done >= playouts:
            break
        now = clock()
        if deadline is not None and now >= deadline:
            break
        if cpu_deadline is not None and cpu_clock() >= cpu_deadline:
            break
        if should_stop is not None and done % 16 == 0 and should_stop():
            break
        if on_progress is not None and now >= next_report:
            on_progress(_result(root, done, started))
            next_report = now + interval
    return _result(root, done, started)
