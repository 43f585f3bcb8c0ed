"""A tree for every seat (MO-ISMCTS, :attr:`hipparchusd.engine.position.Tuning.multi_observer`)
on a toy game with a hidden move: the opponent chooses the move it makes, where the single tree
lets it choose only what the searching seat sees of it.

The game: seat 0 either takes ``safe`` (0.3 for it, the game over) or plays on (``risk``).
Then seat 1, whose hand (dealt at random, unseen by seat 0) is ``A`` or ``B``, plays one of its
cards face down: with ``A`` it holds ``x`` and ``y``, with ``B`` ``x`` and ``z``; seat 0 sees
only that a card was played (``m``). ``x`` loses for seat 1; ``y`` and ``z`` win. An opponent
that picks its card knowing its hand always wins, so ``risk`` is worth 0 to seat 0 and
``safe`` is right. An opponent choosing at random among the cards of one public form (the
single tree's) wins half the time, which makes ``risk`` look worth 0.5.
"""

from __future__ import annotations

import random
from collections.abc import Hashable

import pytest
from nim import NimInformation

from hipparchusd.engine.ismcts import Tuning, search

SAFE_VALUE = 0.3
WINNING = {"y", "z"}


class HiddenCardState:
    """A determinization of the toy game: seat 1's hand and what has been played."""

    def __init__(self, hand: str) -> None:
        self.hand = hand
        self.moves: list[str] = []
        self._options: dict[str, list[str]] = {}

    @property
    def seats(self) -> int:
        return 2

    def to_move(self) -> int:
        if not self.moves:
            return 0
        if self.moves == ["risk"]:
            return 1
        return -1

    def own_keys(self) -> list[str]:
        if not self.moves:
            return ["safe", "risk"]
        return ["x", "y"] if self.hand == "A" else ["x", "z"]

    def seen_as(self, key: Hashable, seat: int) -> Hashable:
        # Seat 1's cards are face down: seat 0 sees only that one was played.
        return "m" if seat != self.to_move() and self.to_move() == 1 else key

    def play_own(self, key: Hashable) -> None:
        assert isinstance(key, str)
        self.moves.append(key)

    # The single tree's interface: seat 1's cards keyed as seat 0 sees them.
    def keys(self) -> list[str]:
        own = self.own_keys()
        if self.to_move() == 0:
            self._options = {key: [key] for key in own}
        else:
            self._options = {"m": own}
        return list(self._options)

    def play(self, key: Hashable, rng: random.Random) -> None:
        assert isinstance(key, str)
        matching = self._options[key]
        self.moves.append(matching[rng.randrange(len(matching))])

    def playout(self, rng: random.Random) -> None:
        while self.to_move() >= 0:
            keys = self.keys()
            self.play(keys[rng.randrange(len(keys))], rng)

    def reward(self, seat: int) -> float:
        if self.moves == ["safe"]:
            return SAFE_VALUE if seat == 0 else 1.0 - SAFE_VALUE
        mine = 0.0 if self.moves[1] in WINNING else 1.0
        return mine if seat == 0 else 1.0 - mine


class HiddenCardInformation:
    """Seat 0's information: seat 1's hand is ``A`` or ``B``, as likely."""

    @property
    def observer(self) -> int:
        return 0

    def determinize(self, rng: random.Random) -> HiddenCardState:
        return HiddenCardState(rng.choice("AB"))


def _root(tuning: Tuning, seed: int) -> dict[Hashable, float]:
    result = search(HiddenCardInformation(), random.Random(seed), playouts=3000, tuning=tuning)
    return {edge.key: edge.mean for edge in result.edges}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_each_seat_chooses_in_its_own_tree(seed: int) -> None:
    """With a tree for every seat, seat 1 learns the card that wins with its hand (``y``
    with ``A``, ``z`` with ``B``: each is available only with its hand), so ``risk`` is
    worth little to seat 0 and ``safe`` comes first; the single tree's seat 1 picks among
    its face-down cards at random, so there ``risk`` looks worth about half."""
    multi = _root(Tuning(multi_observer=True), seed)
    assert max(multi, key=lambda key: multi[key]) == "safe"
    assert multi["risk"] < 0.2
    single = _root(Tuning(), seed)
    assert max(single, key=lambda key: single[key]) == "risk"
    assert 0.4 < single["risk"] < 0.6


def test_the_searching_seats_tree_keys_the_others_moves_as_it_sees_them() -> None:
    """The tree kept is seat 0's: below ``risk`` a single node, seat 1's card as seat 0 sees
    it (``m``), never which card."""
    result = search(
        HiddenCardInformation(), random.Random(4), playouts=500, tuning=Tuning(multi_observer=True)
    )
    assert result.tree is not None
    below = result.tree.subtree(["risk"])
    assert below is not None and below.subtree(["m"]) is not None
    for card in ("x", "y", "z"):
        assert below.subtree([card]) is None


def test_a_tree_for_every_seat_needs_a_game_that_says_how_each_seat_sees_a_move() -> None:
    with pytest.raises(TypeError, match="MultiObserved"):
        search(
            NimInformation(5, 0), random.Random(1), playouts=10, tuning=Tuning(multi_observer=True)
        )
