"""The sampling player (issue 29) on the toy game (tests/engine/nim.py): every move scored on
the same worlds with the same random numbers, the budget kept, the answer reproducible, and
the ``sampler`` level answering through :func:`analyze`."""

from __future__ import annotations

import random

import pytest
from nim import ADAPTER, NimInformation, NimState

from hipparchusd.engine.analysis import analyze
from hipparchusd.engine.sampler import sample
from hipparchusd.engine.types import Budget, Level


class CountingInformation(NimInformation):
    """Nim's information set, remembering the first random number of each deal it made: a
    deal made from the same random state gives the same first number."""

    def __init__(self, pile: int, seat: int) -> None:
        super().__init__(pile, seat)
        self.deals: list[float] = []

    def determinize(self, rng: random.Random) -> NimState:
        self.deals.append(rng.random())
        return super().determinize(rng)


def test_every_move_is_played_in_every_world() -> None:
    result = sample(NimInformation(7, 0), random.Random(3), worlds=40)
    assert {edge.key for edge in result.edges} == {1, 2}
    assert [edge.visits for edge in result.edges] == [40, 40]
    assert result.playouts == 80


def test_each_move_gets_the_same_world() -> None:
    """A state that cannot copy itself is dealt again from the world's own seed for each move:
    one deal for the moves, then one per move, all from the same random state."""
    information = CountingInformation(7, 0)
    sample(information, random.Random(1), worlds=5)
    assert len(information.deals) == 5 * 3
    for world in range(5):
        assert len(set(information.deals[3 * world : 3 * world + 3])) == 1
    assert len(set(information.deals)) == 5


def test_a_move_that_wins_at_once_is_worth_everything() -> None:
    result = sample(NimInformation(2, 1), random.Random(9), worlds=30)
    assert (result.edges[0].key, result.edges[0].mean) == (2, 1.0)
    assert result.edges[1].mean < 1.0


def test_the_sampler_is_reproducible_and_plays_through_analyze() -> None:
    level = Level.parse("sampler:60")
    assert level == Level("sampler", Budget(playouts=60))
    one = analyze(ADAPTER, {"pile": 8, "seat": 0}, level, seed=4)
    two = analyze(ADAPTER, {"pile": 8, "seat": 0}, level, seed=4)
    assert (one.best, one.moves, one.playouts) == (two.best, two.moves, two.playouts)
    assert one.playouts == 120 and all(m.visits == 60 for m in one.moves)


def test_the_sampler_level_defaults_to_160_worlds() -> None:
    assert Level.parse("sampler") == Level("sampler", Budget(playouts=160))
    assert str(Level.parse("sampler")) == "sampler"
    assert str(Level.parse("sampler:40cpu")) == "sampler:40cpu"
    analysis = analyze(ADAPTER, {"pile": 5, "seat": 0}, Level.parse("sampler"), seed=1)
    assert analysis.playouts == 320


def test_a_sampler_needs_a_budget() -> None:
    with pytest.raises(ValueError, match="needs a number of worlds"):
        sample(NimInformation(3, 0), random.Random(1), worlds=None)
