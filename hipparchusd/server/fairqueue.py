"""A queue that serves its clients in turn (:class:`FairQueue`), for the engine's searches
(issue 24 item 6): one address that asks for a hundred searches, or one connection that starts
a hundred games of bots, waits its turn behind everyone else's next search, rather than
everyone waiting behind all of its searches as in a first-come, first-served queue.

Sans I/O: the engine's pool (:class:`~.workers.EnginePool`) puts a search in and takes the
next one out when a worker is free.
"""

from __future__ import annotations

import collections
from collections.abc import Hashable
from typing import Generic, TypeVar

T = TypeVar("T", bound=Hashable)


class FairQueue(Generic[T]):
    """Items waiting, each put under an ``address`` (a peer address) and a ``flow`` (what
    shares a turn within it: a connection, a game). :meth:`take` gives the addresses a turn
    each in rotation, and within an address its flows a turn each in rotation; a flow's items
    come out in the order they were put. So of ``n`` addresses with items waiting, each gets
    every ``n``-th item taken, however many items each has waiting.

    The queue holds what its users put and have not taken or removed: each waiting search
    puts one item, so its length is bounded by the searches that may wait (a bot seat has at
    most one, a connection at most one search of its own)."""

    def __init__(self) -> None:
        self._addresses: collections.OrderedDict[
            str, collections.OrderedDict[Hashable, collections.deque[T]]
        ] = collections.OrderedDict()
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
        flows = self._addresses.setdefault(address, collections.OrderedDict())
        flows.setdefault(flow, collections.deque()).append(item)
        self._where[item] = (address, flow)

    def take(self) -> T | None:
        """The next item by turns (see the class), taken out; ``None`` when none waits."""
        if not self._addresses:
            return None
        address, flows = next(iter(self._addresses.items()))
        flow, items = next(iter(flows.items()))
        item = items.popleft()
        del self._where[item]
        # The flow, then the address, goes to the back of its rotation (or leaves it, empty).
        del flows[flow]
        if items:
            flows[flow] = items
        del self._addresses[address]
        if flows:
            self._addresses[address] = flows
        return item

    def remove(self, item: T) -> bool:
        """Take ``item`` out wherever it waits (its search was cancelled); whether it did."""
        place = self._where.pop(item, None)
        if place is None:
            return False
        address, flow = place
        flows = self._addresses[address]
        flows[flow].remove(item)
        if not flows[flow]:
            del flows[flow]
            if not flows:
                del self._addresses[address]
        return True
