"""Shared helpers for the store tests."""

from __future__ import annotations

import contextlib
import hashlib
import os
import random
import shutil
import signal
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import trio

from hipparchusd.games.hipparchus import HipparchusGame
from hipparchusd.records import StoredSeat
from hipparchusd.server import Server, serve
from hipparchusd.settings import Settings
from hipparchusd.store.sqlite import SqliteStore


async def open_sqlite(nursery: trio.Nursery, state_dir: Path, **options: Any) -> SqliteStore:
    """``SqliteStore.open(state_dir, **options)``, held open by a task of ``nursery`` until the
    store is closed (``aclose``, by the test or by a server that owns it): for tests that open
    and close stores at moments of their choosing. An error opening it is raised here."""

    async def hold(task_status: trio.TaskStatus[SqliteStore]) -> None:
        async with SqliteStore.open(state_dir, **options) as store:
            task_status.started(store)
            await store.wait_closed()

    store: SqliteStore = await nursery.start(hold)
    return store


def stored_seat(seat: int, name: str) -> StoredSeat:
    """Seat ``seat`` taken by ``name``, with the digest of the token ``token-<name>``."""
    return StoredSeat(seat, name, hashlib.sha256(f"token-{name}".encode()).digest())


async def serve_sqlite(state_dir: Path, nursery: trio.Nursery, **settings: Any) -> Server:
    """A daemon on a free port of 127.0.0.1 with a SQLite store in ``state_dir``, started in
    ``nursery``; ``settings`` override :class:`~hipparchusd.settings.Settings` fields. Its
    engine workers start on demand (most of these tests never search) unless told."""
    store = await open_sqlite(nursery, state_dir)
    options = {
        "port": 0,
        "grace_period": 0.1,
        "state_dir": str(state_dir),
        "engine_start": "on-demand",
        **settings,
    }
    server: Server = await nursery.start(serve, Settings(**options), store)
    return server


def play_random(game: HipparchusGame, rng: random.Random, plays: int | None = None) -> list[str]:
    """Make up to ``plays`` random legal plays (all, to the match's end, when ``None``) chosen
    by ``rng``; return them as canonical move texts."""
    made: list[str] = []
    while game.outcome is None and (plays is None or len(made) < plays):
        (seat,) = game.seats_to_move()
        play = rng.choice(game.legal_moves(seat))
        game.play(seat, play)
        made.append(game.format_move(play))
    return made


@contextlib.contextmanager
def held_writer(store: SqliteStore) -> Iterator[None]:
    """Stop the store's writer process (SIGSTOP) for the block, so that the calls made meanwhile
    wait together in its socket and form one batch when it goes on (SIGCONT)."""
    os.kill(store.writer_pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(store.writer_pid, signal.SIGCONT)


@contextlib.contextmanager
def open_db(path: Path) -> Iterator[sqlite3.Connection]:
    """A plain connection to a store's database, as an operator's ``sqlite3`` would have;
    committed and closed on leaving."""
    conn = sqlite3.connect(path)
    try:
        with conn:
            yield conn
    finally:
        conn.close()


def without_root_privileges() -> list[str]:
    """A command prefix under which file permissions bite: none for a normal user; for root,
    ``setpriv`` dropping the capabilities that let root ignore them."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv (util-linux): permissions cannot bite")
    prefix = [setpriv, "--bounding-set", "-dac_override,-dac_read_search"]
    probe = subprocess.run([*prefix, "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip(f"running as root and setpriv cannot drop capabilities: {probe.stderr!r}")
    return prefix
