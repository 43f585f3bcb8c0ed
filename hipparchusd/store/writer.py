"""The SQLite store's writer process: the only connection that writes, with group commit.

:class:`~hipparchusd.store.sqlite.SqliteStore` starts this module as a child process
(``python -m hipparchusd.store.writer``) once it has checked and migrated the database, and
talks to it over a Unix socket pair. Why a process and not a thread: the trio thread is the
daemon's bottleneck, and a writer thread in the same interpreter takes the GIL back after
every SQLite call, each time making the trio thread wait and switch. Measured with
``bench/bench_durable.py``, that hand-over cost the trio thread more CPU per move than the
rest of durability together (see the closing notes of issue 5).

The conversation, in frames (:func:`.frames.encode`: a 4-byte big-endian length, then a
pickle):

- child to parent, once at start: ``("ready", settings)``, the connection's journal mode and
  synchronous level (for tests and logs); or ``("failed", message)`` and exit 1.
- parent to child: a list of requests ``(request id, operation, arguments)``; an operation
  is a name in :data:`.sql.OPERATIONS`.
- child to parent, once the requests it took together are committed: ``(transactions,
  answers)``, where ``answers`` holds one ``(request id, error message or None, result)`` per
  request and ``transactions`` is how many commits carried them (0 when the batch failed).

Group commit (:mod:`.batching`). The child takes every request that has arrived (up to
:data:`~.batching.MAX_BATCH`) and applies them in order in one transaction; a request that
fails (say, a move for an unknown game) has written nothing, and only its own answer carries
the error. Consecutive moves go in with one INSERT. One COMMIT, one ``fsync``, then the
answers. While a commit is under way new requests gather in the socket for the next batch, so
under load the cost of a sync is shared by many moves.

Ending. The child stops at the end of its input: after the parent's :meth:`aclose`, or when the
parent dies (the kernel closes its end), in which case any batch in hand is still committed
(nothing acknowledged depends on it) before the child exits. It ignores SIGINT, SIGTERM and
SIGHUP, which a terminal or systemd sends to the whole process group: the parent decides when
writing ends. It holds the state directory's lock (inherited from the parent) until it exits,
so no second daemon opens the database while it may still write.

This module (the child's main loop), :mod:`.batching` (the batches), :mod:`.frames` (the
framing, both sides) and :mod:`.sql` (the operations and the batch's transaction) import
nothing beyond the standard library: the child starts in a few tens of milliseconds.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import socket
import sqlite3

from .batching import batches
from .frames import encode
from .sql import run_batch


def serve(sock: socket.socket, database: str) -> None:
    """Open ``database`` (already checked and migrated by the parent), say ``ready``, then
    commit batches and answer them until the input ends."""
    try:
        conn = sqlite3.connect(database, isolation_level=None, timeout=30)
        journal = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        synchronous = conn.execute("PRAGMA synchronous").fetchone()[0]
    except sqlite3.Error as error:
        sock.sendall(encode(("failed", f"cannot open {database} for writing ({error})")))
        raise SystemExit(1) from None
    try:
        sock.sendall(encode(("ready", {"journal_mode": journal, "synchronous": synchronous})))
        for batch in batches(sock):
            answer = encode(run_batch(conn, batch, database))
            with contextlib.suppress(OSError):  # the parent is gone: the rest still commits
                sock.sendall(answer)
    finally:
        conn.close()


def main(argv: list[str] | None = None) -> None:
    """``python -m hipparchusd.store.writer --fd N DATABASE``: serve the parent on the
    inherited socket ``N``."""
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_IGN)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fd", type=int, required=True, help="the socket to the daemon")
    parser.add_argument("database", help="the database file")
    args = parser.parse_args(argv)
    with socket.socket(fileno=args.fd) as sock:
        sock.setblocking(True)
        serve(sock, args.database)


if __name__ == "__main__":
    main()
