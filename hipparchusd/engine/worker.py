"""The loop of one engine worker process (issue 18): searches asked over a pipe, answered with
progress reports and a final :class:`~.types.Analysis`. Synchronous, no trio: the daemon's
:class:`hipparchusd.server.workers.EnginePool` starts these processes and talks to them.

The daemon starts each worker as ``python -m hipparchusd.engine.worker <fd> [<engine> ...]``,
``<fd>`` one end of a socket pair, read and written as a
:class:`multiprocessing.connection.Connection`: a fresh interpreter, which shares none of the
daemon's threads, sockets or ``__main__``. The ``<engine>`` modules (each game's adapter) are
imported before the worker says it is ready, so that its first search is as fast as any (issue
24 item 7). Messages, pickled over it:

- to the worker: ``("search", job, engine, view, level, seed, interval_ms)`` (``engine`` the
  module of the game's adapter, as its kind's :class:`~.position.AdapterRef` names it; ``level``
  a level word; ``interval_ms`` ``None`` for no progress reports), ``("stop", job)``, or
  ``None`` (exit);
- from the worker: ``("ready", 0, engines)`` once, first (``engines``: those that loaded);
  then ``("alive", job, None)`` at least every :data:`HEARTBEAT_SECONDS` while a search runs
  (so the daemon tells a long search from a hung worker: issue 24 item 5), ``("progress",
  job, analysis)``, ``("done", job, analysis)`` or ``("error", job, (exception class name,
  message))``.

One search at a time: a ``stop`` ends the running search early, and it still answers ``done``
with what it found. The search polls the pipe for a ``stop`` at most every
:data:`POLL_SECONDS`, so a stop costs the search no more than that.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from multiprocessing.connection import Connection
from typing import Any

from .analysis import TreeMemory, analyze
from .position import AdapterRef
from .types import Analysis, Level

#: How often a running search looks for a ``stop`` (seconds).
POLL_SECONDS = 0.002

#: The longest a running search goes without telling the daemon it is alive (seconds).
HEARTBEAT_SECONDS = 0.25

#: The niceness a worker adds to its own: the daemon's requests are latency, the searches are
#: throughput, so on a busy machine the kernel serves the daemon first (issue 18: the daemon's
#: other clients must not notice the engine).
NICENESS = 10


def serve(conn: Connection) -> None:
    """Answer searches on ``conn`` until it closes or ``None`` comes (the process's target).
    A game's engine module is imported by its first search (the worker knows no game). The
    worker keeps the trees of its last searches (a :class:`~.analysis.TreeMemory`) for the
    searches that continue them, where a game's tuning says so."""
    memory = TreeMemory()
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        if message[0] != "search":
            continue  # a stop that came after its search had finished
        if not _run(conn, message, memory):
            return


def _run(conn: Connection, message: tuple[Any, ...], memory: TreeMemory) -> bool:
    """Carry out one ``search`` message and answer it, with the worker's ``memory`` of
    trees; False if the worker must exit after."""
    _, job, engine, view, level_text, seed, interval_ms = message
    quit_after = False
    next_poll = 0.0
    next_beat = time.monotonic() + HEARTBEAT_SECONDS

    def should_stop() -> bool:
        nonlocal next_poll, next_beat, quit_after
        now = time.monotonic()
        if now < next_poll:
            return False
        next_poll = now + POLL_SECONDS
        if now >= next_beat:
            next_beat = now + HEARTBEAT_SECONDS
            conn.send(("alive", job, None))
        while conn.poll():
            incoming: Any = conn.recv()
            if incoming is None:
                quit_after = True
                return True
            if incoming[0] == "stop" and incoming[1] == job:
                return True
        return False

    def report(analysis: Analysis) -> None:
        conn.send(("progress", job, analysis))

    try:
        analysis = analyze(
            AdapterRef(engine).load(),
            view,
            Level.parse(level_text),
            seed=seed,
            on_progress=report if interval_ms is not None else None,
            interval_ms=interval_ms or 500,
            should_stop=should_stop,
            memory=memory,
        )
    except Exception as error:  # the daemon logs it; the worker lives on
        conn.send(("error", job, (type(error).__name__, str(error))))
    else:
        conn.send(("done", job, analysis))
    return not quit_after


def preload(engines: list[str]) -> list[str]:
    """Import the adapter modules ``engines`` now rather than at their first search; those
    that loaded. One that does not load is reported on stderr and left for its searches to
    report as theirs."""
    loaded = []
    for engine in engines:
        try:
            AdapterRef(engine).load()
        except Exception as error:  # a broken module's searches report it; the worker serves
            print(f"hipparchusd engine worker: {error}", file=sys.stderr)
        else:
            loaded.append(engine)
    return loaded


def main(argv: list[str] | None = None) -> int:
    """``python -m hipparchusd.engine.worker <fd> [<engine> ...]``: import the ``<engine>``
    modules, say it is ready, then serve searches on the connection whose file descriptor is
    ``<fd>``; exit status 0 when it closes, 2 for a bad argument."""
    args = sys.argv[1:] if argv is None else argv
    if not args or not args[0].isdigit():
        print("usage: python -m hipparchusd.engine.worker <fd> [<engine> ...]", file=sys.stderr)
        return 2
    conn = Connection(int(args[0]))
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
    try:
        conn.send(("ready", 0, preload(args[1:])))
        serve(conn)
    except KeyboardInterrupt:  # the daemon's terminal got ^C too: the daemon stops us
        pass
    finally:
        conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
