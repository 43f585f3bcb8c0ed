"""A toy game for the engine's own tests, so that they need no game of the daemon's: a pile of
tokens, two seats take one or two in turn, and the seat that takes the last one wins. With
perfect play the seat to move wins unless the pile is a multiple of three (it takes the pile
modulo three), which gives the tests their expected moves.

The view is ``{"pile": n, "seat": s, "searched": true}``; nothing is hidden, so a
determinization is the position itself. ``searched: false`` asks for a position the ``ismcts``
level does not search (:meth:`hipparchusd.engine.position.Position.searched`). ``taken``, the
takes made so far (both seats', in order), with ``reuse: true``, asks the search to continue
the tree of the seat's last decision (:attr:`hipparchusd.engine.position.Tuning.reuse`): a
decision extends another of the same seat whose takes are a prefix of its own.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence

from hipparchusd.engine.position import PAPER, Position, Tuning
from hipparchusd.engine.types import MoveStats
from hipparchusd.jsondata import JSON


class NimState:
    """A determinization: the pile, the seat to move, the winner once the pile is empty."""

    def __init__(self, pile: int, mover: int) -> None:
        self.pile = pile
        self.mover = mover
        self.winner = -1

    def to_move(self) -> int:
        return -1 if self.winner >= 0 else self.mover

    def keys(self) -> list[int]:
        return [take for take in (1, 2) if take <= self.pile]

    def play(self, key: Hashable, rng: random.Random) -> None:
        assert isinstance(key, int) and 1 <= key <= min(2, self.pile)
        self.pile -= key
        if self.pile == 0:
            self.winner = self.mover
        self.mover = 1 - self.mover

    def playout(self, rng: random.Random) -> None:
        while self.winner < 0:
            keys = self.keys()
            self.play(keys[rng.randrange(len(keys))], rng)

    def reward(self, seat: int) -> float:
        return 1.0 if self.winner == seat else 0.0


class SolvableNimState(NimState):
    """Nim with an exact solver (:class:`hipparchusd.engine.position.Solvable`): the seat to
    move wins unless the pile is a multiple of three. It counts a position per token, so a
    pile above ``nodes`` is out of its reach; ``solves`` counts the calls."""

    solves = 0

    def solve(self, nodes: int) -> tuple[float, float] | None:
        SolvableNimState.solves += 1
        if self.pile > nodes:
            return None
        winner = self.mover if self.pile % 3 else 1 - self.mover
        return (1.0, 0.0) if winner == 0 else (0.0, 1.0)


class NimInformation:
    """The whole position: nothing is hidden."""

    def __init__(self, pile: int, seat: int) -> None:
        self.pile = pile
        self._observer = seat

    @property
    def observer(self) -> int:
        return self._observer

    def determinize(self, rng: random.Random) -> NimState:
        return NimState(self.pile, self._observer)


class SolvableNimInformation(NimInformation):
    """The whole position, as solvable states."""

    def determinize(self, rng: random.Random) -> SolvableNimState:
        return SolvableNimState(self.pile, self._observer)


class NimPosition(Position):
    """The seat to move's decision."""

    def __init__(self, view: JSON) -> None:
        if not isinstance(view, dict) or not isinstance(view.get("pile"), int):
            raise ValueError("a nim view is {pile, seat}")
        pile = view["pile"]
        seat = view.get("seat")
        assert isinstance(pile, int) and isinstance(seat, int)
        if pile < 1:
            raise ValueError("the game is over")
        self.pile = pile
        self.seat = seat
        self._searched = view.get("searched", True) is True
        taken = view.get("taken", [])
        assert isinstance(taken, list)
        self.taken = tuple(int(str(take)) for take in taken)
        self.reuse = view.get("reuse", False) is True

    def random_move(self, rng: random.Random) -> str:
        return str(rng.choice([take for take in (1, 2) if take <= self.pile]))

    def heuristic_move(self, rng: random.Random) -> str:
        return str(self.pile % 3 or 1)

    def information_set(self) -> NimInformation:
        return NimInformation(self.pile, self.seat)

    def stats(self, key: Hashable, visits: int, mean_reward: float) -> MoveStats:
        return MoveStats(str(key), visits, mean_reward)

    def neutral_stats(self, move: str) -> MoveStats:
        return MoveStats(move, 0, 0.5)

    def searched(self) -> bool:
        return self._searched

    def tuning(self) -> Tuning:
        return REUSE if self.reuse else PAPER

    def lineage(self) -> Hashable | None:
        return (self.seat, self.taken)

    def path_from(self, earlier: Hashable) -> Sequence[Hashable] | None:
        assert isinstance(earlier, tuple)
        seat, taken = earlier
        if seat != self.seat or self.taken[: len(taken)] != taken:
            return None
        return self.taken[len(taken) :]


#: The paper's search, continuing kept trees.
REUSE = Tuning(reuse=True)


class NimAdapter:
    """The adapter, as a game's engine module defines it."""

    def position(self, view: JSON) -> NimPosition:
        return NimPosition(view)


ADAPTER = NimAdapter()
