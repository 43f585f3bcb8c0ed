"""The search's issue 29 parts on the toy game (tests/engine/nim.py): shared worlds at the root
(every root move on the same world and random numbers, the beaten moves dropped from the race)
and the exact solver a game's determinization may offer."""

from __future__ import annotations

import random

import pytest
from nim import NimInformation, SolvableNimInformation, SolvableNimState

from hipparchusd.engine.ismcts import Tuning, search

SHARED = Tuning(shared_worlds=True)


@pytest.mark.parametrize(("pile", "take"), [(4, 1), (5, 2), (7, 1), (8, 2)])
def test_shared_worlds_find_the_winning_take(pile: int, take: int) -> None:
    result = search(NimInformation(pile, 0), random.Random(2), playouts=4000, tuning=SHARED)
    assert result.edges[0].key == take
    assert result.edges[0].mean > result.edges[1].mean


def test_shared_worlds_drop_the_beaten_move_and_keep_the_budget() -> None:
    """At a pile of 4, taking 2 loses against any sensible play: after the race's first
    checks it gets no more worlds, the winning take every one; the last world is finished,
    so the playouts may pass the budget by less than the moves."""
    result = search(NimInformation(4, 0), random.Random(5), playouts=3000, tuning=SHARED)
    best, beaten = result.edges
    assert (best.key, beaten.key) == (1, 2)
    assert beaten.visits < best.visits
    assert 3000 <= result.playouts < 3002
    assert best.visits + beaten.visits == result.playouts


def test_without_a_race_every_move_gets_every_world() -> None:
    tuning = Tuning(shared_worlds=True, race_z=0.0)
    result = search(NimInformation(4, 0), random.Random(5), worlds=300, tuning=tuning)
    assert [edge.visits for edge in result.edges] == [300, 300]
    assert result.playouts == 600


def test_shared_worlds_are_reproducible() -> None:
    one = search(NimInformation(9, 1), random.Random(7), playouts=900, tuning=SHARED)
    two = search(NimInformation(9, 1), random.Random(7), playouts=900, tuning=SHARED)
    assert one.edges == two.edges and one.playouts == two.playouts


def test_a_solvable_world_gives_exact_values() -> None:
    """With solve_nodes enough for the pile, each root move's world is solved exactly: the
    winning take is worth 1 in every world, the other 0, and no playout is needed."""
    SolvableNimState.solves = 0
    tuning = Tuning(shared_worlds=True, solve_nodes=50)
    result = search(SolvableNimInformation(10, 0), random.Random(1), worlds=20, tuning=tuning)
    assert [(edge.key, edge.mean) for edge in result.edges] == [(1, 1.0), (2, 0.0)]
    assert SolvableNimState.solves >= 20


def test_the_solver_values_the_leaves_it_can_reach() -> None:
    """A solver that reaches only piles of 6 or fewer still values the leaves of a pile of 12
    exactly once the tree gets there, and the search finds the winning take (12: none wins,
    so 11 -> take 2 from 11; here a pile of 11)."""
    SolvableNimState.solves = 0
    tuning = Tuning(solve_nodes=6)
    result = search(SolvableNimInformation(11, 0), random.Random(3), playouts=2000, tuning=tuning)
    assert result.edges[0].key == 2
    assert SolvableNimState.solves > 0


def test_worlds_need_shared_worlds() -> None:
    with pytest.raises(ValueError, match="shared worlds"):
        search(NimInformation(3, 0), random.Random(1), worlds=5)


def test_the_opponents_constant_makes_its_choices_greedier() -> None:
    """``opponent_exploration`` applies to the other seat's choices alone. At a pile of 3
    seat 0 loses whatever it takes; after it takes 1 the opponent wins by taking the 2 left
    and loses by taking 1. A far smaller constant for the opponent leaves its losing reply
    fewer visits there, while seat 0's root keeps the usual constant and both its (losing)
    moves keep a fair share of the iterations."""
    wasted = []
    for constant in (0.05, 3.0):
        tuning = Tuning(opponent_exploration=constant)
        result = search(NimInformation(3, 0), random.Random(8), playouts=3000, tuning=tuning)
        assert result.tree is not None
        assert min(edge.visits for edge in result.edges) > 600
        losing, winning = (result.tree.subtree([1, take]) for take in (1, 2))
        assert losing is not None and winning is not None
        wasted.append(losing.visits / (losing.visits + winning.visits))
    assert wasted[0] < 0.01 < wasted[1]


def test_an_opponent_that_errs_is_searched_as_one() -> None:
    """``opponent_error`` e makes the other seat's choices in the tree uniformly random with
    chance e. At a pile of 3 seat 0's take of 1 loses to the reply of 2 and wins after the
    reply of 1 (the last take wins): against a greedy opponent it is worth about 0, against
    one that errs half the time about e / 2 = 0.25, and the losing reply then keeps about a
    quarter of the visits below it; the take of 2 leaves a single reply and stays lost."""
    values = {}
    for error in (0.0, 0.5):
        tuning = Tuning(opponent_exploration=0.05, opponent_error=error)
        result = search(NimInformation(3, 0), random.Random(8), playouts=4000, tuning=tuning)
        edges = {edge.key: edge for edge in result.edges}
        assert edges[2].mean == 0.0
        assert result.tree is not None
        losing, winning = (result.tree.subtree([1, take]) for take in (1, 2))
        assert losing is not None and winning is not None
        values[error] = (edges[1].mean, losing.visits / (losing.visits + winning.visits))
    assert values[0.0][0] < 0.02 and values[0.0][1] < 0.02
    assert 0.2 < values[0.5][0] < 0.3 and 0.2 < values[0.5][1] < 0.3
