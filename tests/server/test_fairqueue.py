"""The searches' queue takes turns across addresses and flows (issue 24 item 6)."""

from __future__ import annotations

import pytest

from hipparchusd.server.fairqueue import FairQueue


def _drain(queue: FairQueue[str]) -> list[str]:
    taken = []
    while (item := queue.take()) is not None:
        taken.append(item)
    return taken


def test_addresses_take_turns_however_many_items_each_has() -> None:
    queue: FairQueue[str] = FairQueue()
    for number in range(1, 6):
        queue.put("10.0.0.1", "c1", f"a{number}")
    for number in range(1, 3):
        queue.put("10.0.0.2", "c2", f"b{number}")
    assert len(queue) == 7
    assert _drain(queue) == ["a1", "b1", "a2", "b2", "a3", "a4", "a5"]
    assert len(queue) == 0 and queue.take() is None


def test_the_flows_of_one_address_take_turns_and_keep_their_order() -> None:
    queue: FairQueue[str] = FairQueue()
    for item in ("g1-1", "g1-2", "g1-3"):
        queue.put("10.0.0.1", "g1", item)
    queue.put("10.0.0.1", "g2", "g2-1")
    assert _drain(queue) == ["g1-1", "g2-1", "g1-2", "g1-3"]


def test_an_address_that_starts_waiting_goes_before_one_that_had_its_turn() -> None:
    """A table's bot (one search at a time) asks while another address's hundred games of bots
    wait: it is served next, not after the flood's next search (that would be a whole search
    longer, 10 s at the longest budget, for every one of its moves)."""
    queue: FairQueue[str] = FairQueue()
    for number in range(1, 101):
        queue.put("10.0.0.1", f"g{number}", f"flood{number}")
    assert queue.take() == "flood1"  # running on the worker when the table asks
    queue.put("10.0.0.2", "table", "table1")
    assert queue.take() == "table1"
    assert queue.take() == "flood2"
    queue.put("10.0.0.2", "table", "table2")
    assert queue.take() == "table2"


def test_an_address_that_just_had_its_turn_does_not_jump_the_queue() -> None:
    """Coming back with its next search right after its turn, an address waits for the others'
    turns: it is not new again."""
    queue: FairQueue[str] = FairQueue()
    for number in range(1, 4):
        queue.put("10.0.0.1", "c1", f"a{number}")
    queue.put("10.0.0.2", "c2", "b1")
    assert [queue.take(), queue.take()] == ["a1", "b1"]
    queue.put("10.0.0.2", "c2", "b2")
    assert _drain(queue) == ["a2", "b2", "a3"]


def test_a_removed_item_is_never_taken_and_an_item_waits_once() -> None:
    queue: FairQueue[str] = FairQueue()
    queue.put("10.0.0.1", "c1", "a1")
    queue.put("10.0.0.2", "c2", "b1")
    queue.put("10.0.0.2", "c2", "b2")
    with pytest.raises(ValueError):
        queue.put("10.0.0.3", "c3", "a1")
    assert "b1" in queue
    assert queue.remove("b1") and not queue.remove("b1") and "b1" not in queue
    assert queue.remove("a1")
    assert _drain(queue) == ["b2"]
