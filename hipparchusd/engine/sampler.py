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
from collections.abc import Callable

from .ismcts import SearchResult, Tuning, search
from .position import InformationSet
from .types import SAMPLER_WORLDS

#: The search that is the sampling player: every move on each world, played out at once, no
#: race (every move gets every world) and no solver beyond the game's playout.
SAMPLER = Tuning(shared_worlds=True, race_z=0.0, tree=False)


def sample(
    information: InformationSet,
    rng: random.Random,
    *,
    worlds: int | None = SAMPLER_WORLDS,
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
    return search(
        information,
        rng,
        worlds=worlds,
        deadline=deadline,
        cpu_deadline=cpu_deadline,
        should_stop=should_stop,
        started=started,
        tuning=SAMPLER,
    )
