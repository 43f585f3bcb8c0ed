"""Group commit in a store's writer process: the requests read from the daemon's socket, cut
into the batches that one transaction each commits (:func:`batches`). Both writers use it:
SQLite's (:mod:`.writer`) and PostgreSQL's (:mod:`.pg.writer`). Standard library only, so that
a writer process starts quickly.

While a commit is under way new requests gather in the socket for the next batch, so under
load the cost of a sync is shared by many moves. A batch much smaller than the one before
waits :data:`COMMIT_DELAY` seconds for its fellows (as PostgreSQL's ``commit_delay``).
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from typing import Any, Final

from .frames import FrameReader

#: Most requests committed in one transaction.
MAX_BATCH: Final = 1024
#: Seconds the child waits for more requests when a batch comes out much smaller than the one
#: before.
COMMIT_DELAY: Final = 0.0003
#: Bytes read from the socket at a time (below the allocator's mmap threshold).
_READ_SIZE: Final = 1 << 16

#: A request: (request id, operation name, arguments).
Request = tuple[int, str, tuple[Any, ...]]


def batches(sock: socket.socket) -> Iterator[list[Request]]:
    """The batches to commit, in order, until the parent closes its end: each batch is what
    has arrived when the last one is done (waiting for the first request), up to
    :data:`MAX_BATCH` requests."""
    reader = FrameReader()
    pending: list[Request] = []
    previous = 0
    ended = False
    while not ended or pending:
        if not pending and not ended:
            data = sock.recv(_READ_SIZE)  # blocks: nothing to do until a request comes
            ended = not data
            for frame in reader.feed(data):
                pending.extend(frame)
            if not pending:
                continue
        ended = _take_waiting(sock, reader, pending) or ended
        # Under load (the last batch held several requests), a batch much smaller than the
        # last means its fellows are on their way: waiting a little for them saves commits.
        if not ended and previous > 1 and len(pending) < previous // 2:
            time.sleep(COMMIT_DELAY)
            ended = _take_waiting(sock, reader, pending)
        batch, pending = pending[:MAX_BATCH], pending[MAX_BATCH:]
        previous = len(batch)
        yield batch


def _take_waiting(sock: socket.socket, reader: FrameReader, pending: list[Request]) -> bool:
    """Add to ``pending`` every request already received; True at the end of the input."""
    while len(pending) < MAX_BATCH:
        try:
            data = sock.recv(_READ_SIZE, socket.MSG_DONTWAIT)
        except BlockingIOError:
            return False
        if not data:
            return True
        for frame in reader.feed(data):
            pending.extend(frame)
    return False
