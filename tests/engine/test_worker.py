"""The engine worker's loop (hipparchusd.engine.worker.serve) over a real pipe, on the toy game
(tests/engine/nim.py): a search names its game's engine module and is answered ``done``; a
module that is no engine, or a bad view, is answered ``error`` and the worker lives on; a
``stop`` ends a search early with what it found; ``None`` ends the loop."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from multiprocessing.connection import Connection
from typing import Any

import pytest

from hipparchusd.engine import WORKER_MODULE, worker
from hipparchusd.engine.types import Analysis

#: Generous: a search of a few hundred playouts of the toy game takes milliseconds.
ANSWER_SECONDS = 30.0


@pytest.fixture
def daemon_end() -> Iterator[Connection]:
    """The daemon's end of a pipe whose other end a worker loop serves in a thread."""
    ours, theirs = socket.socketpair()
    conn = Connection(ours.detach())
    worker_conn = Connection(theirs.detach())
    thread = threading.Thread(target=worker.serve, args=(worker_conn,), daemon=True)
    thread.start()
    try:
        yield conn
    finally:
        conn.send(None)
        thread.join(ANSWER_SECONDS)
        assert not thread.is_alive()
        conn.close()
        worker_conn.close()


def _answer(conn: Connection, job: int) -> tuple[str, Any]:
    """The worker's final answer to ``job`` (progress reports and heartbeats skipped)."""
    while True:
        what, number, payload = _report(conn)
        if number == job and what != "progress":
            return what, payload


def _report(conn: Connection) -> tuple[str, int, Any]:
    """The worker's next message other than a heartbeat (``alive``, which a search under load
    may send before anything else)."""
    while True:
        assert conn.poll(ANSWER_SECONDS), "the worker did not answer"
        message: tuple[str, int, Any] = conn.recv()
        if message[0] != "alive":
            return message


def test_the_worker_module_is_the_one_the_daemon_runs() -> None:
    assert worker.__name__ == WORKER_MODULE


def test_a_search_names_its_engine_module(daemon_end: Connection) -> None:
    daemon_end.send(("search", 1, "nim", {"pile": 4, "seat": 0}, "ismcts:400", 1, None))
    what, analysis = _answer(daemon_end, 1)
    assert what == "done" and isinstance(analysis, Analysis)
    assert analysis.best == "1" and analysis.playouts == 400


def test_what_cannot_be_searched_is_an_error_and_the_worker_lives_on(
    daemon_end: Connection,
) -> None:
    daemon_end.send(("search", 1, "no_such_engine", {"pile": 4, "seat": 0}, "random", 1, None))
    assert _answer(daemon_end, 1) == (
        "error",
        ("ValueError", "no engine module 'no_such_engine': No module named 'no_such_engine'"),
    )
    daemon_end.send(("search", 2, "nim", {"pile": 0, "seat": 0}, "random", 1, None))
    assert _answer(daemon_end, 2) == ("error", ("ValueError", "the game is over"))
    daemon_end.send(("search", 3, "nim", {"pile": 5, "seat": 0}, "heuristic", 1, None))
    assert _answer(daemon_end, 3)[1].best == "2"


def test_a_stop_ends_a_search_with_what_it_found(daemon_end: Connection) -> None:
    daemon_end.send(("search", 7, "nim", {"pile": 40, "seat": 0}, "ismcts:3600000ms", 1, 50))
    # The first progress report shows the search runs; then stop it.
    assert _report(daemon_end)[:2] == ("progress", 7)
    daemon_end.send(("stop", 7))
    what, analysis = _answer(daemon_end, 7)
    assert what == "done" and analysis.playouts > 0


def test_the_worker_continues_a_kept_tree(daemon_end: Connection) -> None:
    """A tuning that keeps the tree between moves: the worker's memory gives the seat's next
    decision (takes 1 and 2 made since) the kept node's visits, a view that does not extend
    it (seat 1's) none."""
    first: dict[str, Any] = {"pile": 7, "seat": 0, "taken": [], "reuse": True}
    daemon_end.send(("search", 1, "nim", first, "ismcts:600", 1, None))
    assert _answer(daemon_end, 1)[0] == "done"
    later: dict[str, Any] = {"pile": 4, "seat": 0, "taken": [1, 2], "reuse": True}
    daemon_end.send(("search", 2, "nim", later, "ismcts:300", 2, None))
    what, analysis = _answer(daemon_end, 2)
    assert what == "done" and analysis.playouts == 300
    assert sum(m.visits for m in analysis.moves) > 300
    other: dict[str, Any] = {"pile": 4, "seat": 1, "taken": [2, 1], "reuse": True}
    daemon_end.send(("search", 3, "nim", other, "ismcts:300", 3, None))
    what, analysis = _answer(daemon_end, 3)
    assert sum(m.visits for m in analysis.moves) == analysis.playouts == 300
