"""The sampling player (issue 29): flat Monte Carlo over sampled deals, the baseline a search
must beat, and the ``sampler`` level.

For each of its ``worlds`` (determinizations: the unseen cards dealt at random, agreeing with
everything the seat has seen), it plays every legal move of the seat, then plays the game out
with the game's playout (which solves the last tricks exactly where the game can,
:meth:`~.position.Determinization.playout`), and scores the move by its mean reward over the
worlds. Every move is scored on the same worlds and, within a world, with the same random
numbers (common random numbers), so that the differences between moves are not the luck of
different deals. No tree, no opponent model: what "a plain sampling player" means in
Bridge and Skat programs (Ginsberg's GIB without its solver of whole deals; Long et al.,
"Understanding the success of perfect information Monte Carlo sampling in game tree search",
AAAI 2010).

The games give the information sets and determinizations (:mod:`.position`); this module
knows no game.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable

from .ismcts import Edge, SearchResult
from .position import Determinization, InformationSet, copier

#: Worlds a move of the ``sampler`` level looks at (issue 29: "deals the unseen cards at
#: random about 160 times a move").
DEFAULT_WORLDS = 160


def sample(
    information: InformationSet,
    rng: random.Random,
    *,
    worlds: int | None = DEFAULT_WORLDS,
    deadline: float | None = None,
    cpu_deadline: float | None = None,
    should_stop: Callable[[], bool] | None = None,
    started: float | None = None,
) -> SearchResult:
    """Score every move of the seat to move over sampled worlds, until ``worlds`` worlds are
    done, ``deadline`` (a ``time.perf_counter()`` reading) or ``cpu_deadline`` (a
    ``time.thread_time()`` reading) passes, or ``should_stop`` answers true; at least one
    world is always done. The result's edges are the moves, best first (higher mean reward,
    then the order the game lists them in); an edge's ``visits`` is the worlds it was played
    in, the same for every move; ``playouts`` counts the playouts made (worlds times moves).

    Deterministic for a given information set, ``rng`` state and ``worlds`` without a
    deadline.

    Raises:
        ValueError: none of ``worlds``, ``deadline`` and ``cpu_deadline`` is given.
    """
    if worlds is None and deadline is None and cpu_deadline is None:
        raise ValueError("a sampling player needs a number of worlds, a deadline or both")
    clock = time.perf_counter
    cpu_clock = time.thread_time
    if started is None:
        started = clock()
    observer = information.observer
    keys: list[Hashable] = []
    totals: list[float] = []
    done = 0
    while True:
        # One world and one stream of random numbers per round, the same for every move
        # (common random numbers): the moves' playouts differ only where the moves do.
        world_seed, seed = rng.getrandbits(64), rng.getrandbits(64)
        world = information.determinize(random.Random(world_seed))
        if not keys:
            keys = list(world.keys())
            totals = [0.0] * len(keys)
        copy = copier(information, world, world_seed)
        for index, key in enumerate(keys):
            state: Determinization = copy()
            stream = random.Random(seed)
            state.play(key, stream)
            if state.to_move() >= 0:
                state.playout(stream)
            totals[index] += state.reward(observer)
        done += 1
        if worlds is not None and done >= worlds:
            break
        if deadline is not None and clock() >= deadline:
            break
        if cpu_deadline is not None and cpu_clock() >= cpu_deadline:
            break
        if should_stop is not None and should_stop():
            break
    order = sorted(range(len(keys)), key=lambda i: -totals[i])
    edges = tuple(Edge(keys[i], done, totals[i] / done) for i in order)
    return SearchResult(edges, done * len(keys), clock() - started)
