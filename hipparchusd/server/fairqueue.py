"""A queue that serves its clients in turn (:class:`FairQueue`), for the engine's searches
(issue 24 item 6): one address that asks for a hundred searches, or one connection that starts
a hundred games of bots, waits its turn behind everyone else's next search, rather than
everyone waiting behind all of its searches as in a first-come, first-served queue.

The turns are start-time fair queuing with a unit cost per item (Goyal, Vin and Cheng, "Start-
time fair queueing", SIGCOMM 1996): each address (and, within it, each flow) has the turn it is
due, one more each time it is served; the one due soonest is served next; and one that had
nothing waiting and now has is due no later than the turn being served, so a client that
searches one thing at a time (a table's bot) goes before one that has had turn after turn,
instead of behind all of it.

Sans I/O: the engine's pool (:class:`~.workers.EnginePool`) puts a search in and takes the
next one out when a worker is free.
"""

from __future__ import annotations

import collections
from collections.abc import Hashable
from typing import Final, Generic, TypeVar

T = TypeVar("T", bound=Hashable)
K = TypeVar("K", bound=Hashable)

#: The most clients whose turns are remembered while they have nothing waiting; beyond it the
#: longest remembered is forgotten, and looks new (due now) when it comes back.
REMEMBERED: Final = 4096


class _Turns(Generic[K]):
    """The turns of some clients (keys): ``due`` the turn of each that has something waiting,
    ``now`` the turn served last."""

    def __init__(self) -> None:
        self.due: dict[K, int] = {}
        self.now = 0
        self._spent: collections.OrderedDict[K, int] = collections.OrderedDict()

    def waiting(self, key: K) -> None:
        """``key`` had nothing waiting and now has: due at its next turn, or now if that has
        passed (what it did not ask for while it waited for nothing is not owed to it)."""
        self.due[key] = max(self._spent.pop(key, 0), self.now)

    def first(self) -> K:
        """The key due soonest (the first of those due as soon); some key must wait."""
        return min(self.due, key=self.due.__getitem__)

    def served(self, key: K, *, more: bool) -> None:
        """``key`` was served its turn: its next is one later; ``more`` whether it still has
        something waiting."""
        turn = self.due.pop(key)
        self.now = turn
        if more:
            self.due[key] = turn + 1
            return
        self._spent[key] = turn + 1
        for old in [old for old, due in self._spent.items() if due <= turn]:
            del self._spent[old]  # due now anyway: nothing to remember
        while len(self._spent) > REMEMBERED:
            self._spent.popitem(last=False)

    def gone(self, key: K) -> None:
        """``key`` has nothing waiting any more without being served (its item was removed)."""
        self._spent[key] = self.due.pop(key)


class _Address(Generic[T]):
    """One address's flows: each flow's items in order, and their turns."""

    def __init__(self) -> None:
        self.flows: dict[Hashable, collections.deque[T]] = {}
        self.turns: _Turns[Hashable] = _Turns()


class FairQueue(Generic[T]):
    """Items waiting, each put under an ``address`` (a peer address) and a ``flow`` (what
    shares a turn within it: a connection, a game). :meth:`take` gives the addresses a turn
    each, and within an address its flows a turn each (see the module); a flow's items come
    out in the order they were put. So of ``n`` addresses with items waiting, each gets every
    ``n``-th item taken, however many items each has waiting, and an address that starts
    waiting gets the next turn but those of others that also had none since.

    The queue holds what its users put and have not taken or removed: each waiting search
    puts one item, so its length is bounded by the searches that may wait (a bot seat has at
    most one, a connection at most one search of its own); the turns it remembers of clients
    with nothing waiting, by :data:`REMEMBERED`."""

    def __init__(self) -> None:
        self._addresses: dict[str, _Address[T]] = {}
        self._turns: _Turns[str] = _Turns()
        self._where: dict[T, tuple[str, Hashable]] = {}

    def __len__(self) -> int:
        """Items waiting."""
        return len(self._where)

    def __contains__(self, item: object) -> bool:
        return item in self._where

    def put(self, address: str, flow: Hashable, item: T) -> None:
        """Add ``item`` at the end of ``flow`` of ``address``.

        Raises:
            ValueError: ``item`` waits already.
        """
        if item in self._where:
            raise ValueError("that item waits already")
        place = self._addresses.get(address)
        if place is None:
            place = self._addresses[address] = _Address()
            self._turns.waiting(address)
        items = place.flows.get(flow)
        if items is None:
            items = place.flows[flow] = collections.deque()
            place.turns.waiting(flow)
        items.append(item)
        self._where[item] = (address, flow)

    def take(self) -> T | None:
        """The next item by turns (see the class), taken out; ``None`` when none waits."""
        if not self._addresses:
            return None
        address = self._turns.first()
        place = self._addresses[address]
        flow = place.turns.first()
        items = place.flows[flow]
        item = items.popleft()
        del self._where[item]
        if not items:
            del place.flows[flow]
        place.turns.served(flow, more=bool(items))
        if not place.flows:
            del self._addresses[address]
        self._turns.served(address, more=address in self._addresses)
        return item

    def remove(self, item: T) -> bool:
        """Take ``item`` out wherever it waits (its search was cancelled); whether it did."""
        where = self._where.pop(item, None)
        if where is None:
            return False
        address, flow = where
        place = self._addresses[address]
        items = place.flows[flow]
        items.remove(item)
        if not items:
            del place.flows[flow]
            place.turns.gone(flow)
            if not place.flows:
                del self._addresses[address]
                self._turns.gone(address)
        return True
