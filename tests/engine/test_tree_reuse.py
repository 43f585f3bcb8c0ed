"""The tree kept between moves (issue 29), on the toy game (tests/engine/nim.py): a search
continues the kept subtree of the moves made since (its root's visits start at that node's),
a decision that does not extend the kept one starts afresh, and the memory stays bounded."""

from __future__ import annotations

import random

import pytest
from nim import ADAPTER, REUSE, NimInformation, NimPosition

from hipparchusd.engine.analysis import TreeMemory, analyze
from hipparchusd.engine.ismcts import Tuning, search
from hipparchusd.engine.types import Level
from hipparchusd.jsondata import JSON


def test_a_search_continues_the_kept_subtree() -> None:
    """Pile 7, seat 0 takes 1, seat 1 takes 2: the node (1, 2) of the first search is the
    root of the second. Every iteration through it but the one that added it went on to one
    of its children, so the new root's moves start with its visits less one, and the new
    search's iterations are added to them."""
    first = search(NimInformation(7, 0), random.Random(1), playouts=600, tuning=REUSE)
    assert first.tree is not None and first.reused == 0
    assert first.tree.visits == 600
    kept = first.tree.subtree((1, 2))
    assert kept is not None
    visits = kept.visits
    assert 0 < visits < 600
    second = search(NimInformation(4, 0), random.Random(2), playouts=300, tree=kept)
    assert second.reused == visits
    assert second.playouts == 300
    assert sum(edge.visits for edge in second.edges) == visits - 1 + 300
    assert second.tree is not None and second.tree.visits == visits + 300
    assert second.edges[0].key == 1  # leave 3: still the winning take


def test_continuing_a_kept_tree_is_deterministic() -> None:
    def run() -> tuple[object, ...]:
        first = search(NimInformation(8, 1), random.Random(3), playouts=400, tuning=REUSE)
        assert first.tree is not None
        kept = first.tree.subtree((2, 1))
        return search(NimInformation(5, 1), random.Random(4), playouts=200, tree=kept).edges

    assert run() == run()


def test_a_move_never_searched_has_no_subtree() -> None:
    first = search(NimInformation(2, 0), random.Random(1), playouts=50, tuning=REUSE)
    assert first.tree is not None
    assert first.tree.subtree((2, 1)) is None  # taking 2 ended the game: nothing after it
    assert first.tree.subtree((3,)) is None
    assert first.tree.subtree(()) is not None


def test_shared_worlds_ignore_a_kept_tree() -> None:
    first = search(NimInformation(7, 0), random.Random(1), playouts=300, tuning=REUSE)
    assert first.tree is not None
    kept = first.tree.subtree((1, 2))
    shared = Tuning(shared_worlds=True, race_z=0.0, reuse=True)
    result = search(NimInformation(4, 0), random.Random(2), worlds=10, tuning=shared, tree=kept)
    assert result.reused == 0 and result.tree is None
    assert [edge.visits for edge in result.edges] == [10, 10]


def _view(pile: int, seat: int, taken: list[int], reuse: bool = True) -> JSON:
    return {"pile": pile, "seat": seat, "taken": list(taken), "reuse": reuse}


def test_analyze_continues_the_tree_of_the_seats_last_decision() -> None:
    """The memory's tree after pile 7 (seat 0), continued at pile 4 after takes 1 and 2: the
    moves' visits are the kept node's, less one, plus this search's; the same search on a
    tree of its own gives exactly those of a fresh tree."""
    memory = TreeMemory()
    level = Level.parse("ismcts:600")
    analyze(ADAPTER, _view(7, 0, []), level, seed=1, memory=memory)
    assert len(memory) == 1
    expected = search(NimInformation(7, 0), random.Random(1), playouts=600, tuning=REUSE)
    assert expected.tree is not None
    kept = expected.tree.subtree((1, 2))
    assert kept is not None
    second = analyze(ADAPTER, _view(4, 0, [1, 2]), Level.parse("ismcts:300"), seed=2, memory=memory)
    assert second.playouts == 300
    assert sum(m.visits for m in second.moves) == kept.visits - 1 + 300
    assert len(memory) == 1  # taken, and the new tree kept


@pytest.mark.parametrize(
    "later",
    [
        _view(4, 1, [2, 1]),  # seat 1, whose kept decision ([1]) it does not extend
        _view(4, 0, [2, 1]),  # other takes: not the decision kept
        _view(7, 0, [3]),  # not a continuation of (1, 2) either
        _view(4, 0, [1, 2], reuse=False),  # a search that keeps no tree
    ],
)
def test_a_decision_that_does_not_extend_the_kept_one_starts_afresh(later: JSON) -> None:
    memory = TreeMemory()
    analyze(ADAPTER, _view(7, 0, []), Level.parse("ismcts:600"), seed=1, memory=memory)
    analyze(ADAPTER, _view(6, 1, [1]), Level.parse("ismcts:100"), seed=1, memory=memory)
    answer = analyze(ADAPTER, later, Level.parse("ismcts:300"), seed=2, memory=memory)
    assert sum(m.visits for m in answer.moves) == answer.playouts == 300


def test_without_reuse_the_memory_keeps_nothing() -> None:
    memory = TreeMemory()
    analyze(ADAPTER, _view(7, 0, [], reuse=False), Level.parse("ismcts:100"), seed=1, memory=memory)
    assert len(memory) == 0


def test_the_memory_keeps_its_last_trees_only() -> None:
    memory = TreeMemory(slots=2)
    level = Level.parse("ismcts:50")
    for seat in (0, 1, 0):
        analyze(ADAPTER, _view(9, seat, [] if seat == 0 else [1]), level, seed=1, memory=memory)
    assert len(memory) == 2
    with pytest.raises(ValueError, match="slot"):
        TreeMemory(slots=0)
    position = NimPosition(_view(9, 0, []))
    assert memory.take(position, REUSE) is not None  # the newest of seat 0, taken out
    assert memory.take(position, REUSE) is None  # the first was dropped for the third
    assert len(memory) == 1
    memory.clear()
    assert len(memory) == 0
