"""Trial: start-up with many stored games in progress (issue 16 item 3).

Fills a fresh state directory with ``--games`` started, unfinished games (default 31,000, the
figure of the issue), written straight into the SQLite database in one transaction, then starts
``hipparchusd`` on it with ``--max-games 1000`` and prints: the time from starting the process
to its greeting, whether ``new`` is accepted, and the time for a seat's ``resume`` of one of
the stored games (which loads it).

With ``--days-idle N`` the games were last active N days ago: past the default expiry of 30
days, the daemon ends them as abandoned in the background from start-up (RULINGS H14); the
trial then also prints how long that took (watching the database until none is left).

    .venv/bin/python bench/bench_startup.py [--games 31000] [--days-idle 0]
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import trio

from hipparchusd.games.hipparchus import HipparchusGame
from hipparchusd.games.hipparchus.codec import converter
from hipparchusd.store.codec import dump
from hipparchusd.store.sqlite import SqliteStore
from hipparchusd.store.startup import DB_NAME

REPO = Path(__file__).resolve().parents[1]


def _digest(name: str) -> bytes:
    return hashlib.sha256(f"token-{name}".encode()).digest()


def fill(state_dir: Path, games: int, days_idle: float = 0) -> None:
    """Create the store, then ``games`` started games in one transaction, last active
    ``days_idle`` days ago."""

    async def create() -> None:
        async with SqliteStore.open(state_dir):
            pass

    trio.run(create)
    game = HipparchusGame(seed=4, first_leader=0)
    game.start()
    snapshot = dump("snapshot", converter.unstructure(game.record()))
    options = dump("options", {"seed": "4", "leader": "0"})
    active = time.time() - days_idle * 86400
    with contextlib.closing(sqlite3.connect(state_dir / DB_NAME)) as db:
        db.executemany(
            "INSERT INTO games (game_id, kind, options, created_at, snapshot, last_active) "
            "VALUES (?,?,?,?,?,?)",
            (
                (f"g{n}", "hipparchus", options, float(n), snapshot, active)
                for n in range(1, games + 1)
            ),
        )
        db.executemany(
            "INSERT INTO seats (game_id, seat, name, token_hash) VALUES (?,?,?,?)",
            (
                (f"g{n}", seat, f"p{seat}", _digest(f"{n}-{seat}"))
                for n in range(1, games + 1)
                for seat in (0, 1)
            ),
        )
        db.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES ('latest_game_id', ?)", (f"g{games}",)
        )
        db.commit()


def _request(sock: socket.socket, reader: object, line: str) -> str:
    sock.sendall(line.encode() + b"\n")
    return _reply(reader)


def _reply(reader: object) -> str:
    lines = []
    while True:
        text = reader.readline().decode().rstrip("\n")  # type: ignore[attr-defined]
        if text.startswith("*"):
            continue
        if text == "":
            return " ".join(lines)
        lines.append(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=31000)
    parser.add_argument("--days-idle", type=float, default=0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as tmp:
        state_dir = Path(tmp) / "state"
        start = time.perf_counter()
        fill(state_dir, args.games, args.days_idle)
        print(f"stored {args.games} started games in {time.perf_counter() - start:.1f} s")
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        start = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-m", "hipparchusd", "--config", "", "--state-dir", str(state_dir),
             "--port", str(port), "--max-games", "1000"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO,
        )  # fmt: skip
        try:
            while True:
                try:
                    sock = socket.create_connection(("127.0.0.1", port), timeout=60)
                    break
                except OSError:
                    time.sleep(0.01)
            with sock, sock.makefile("rb") as reader:
                hello = reader.readline().decode().strip()
                greeted = time.perf_counter() - start
                print(f"greeted {greeted:.2f} s after the start ({hello[:30]}...)")
                print(f"new: {_request(sock, reader, 'new hipparchus')}")
                middle = args.games // 2
                begin = time.perf_counter()
                answer = _request(sock, reader, f"resume token-{middle}-1")
                took = (time.perf_counter() - begin) * 1000
                print(f"resume of stored game g{middle}: {answer[:40]}... in {took:.1f} ms")
                if args.days_idle > 30:
                    _wait_expired(state_dir, args.games, start)
        finally:
            process.terminate()
            process.wait(30)


def _wait_expired(state_dir: Path, games: int, start: float) -> None:
    """Print how long after the start every stored game was ended as abandoned."""
    with contextlib.closing(sqlite3.connect(state_dir / DB_NAME, timeout=30)) as db:
        while True:
            (left,) = db.execute(
                "SELECT count(*) FROM games WHERE finished_at IS NULL AND snapshot IS NOT NULL "
                "AND last_active < ?",
                (time.time() - 30 * 86400,),
            ).fetchone()
            if not left:  # (the resumed game is active again)
                break
            time.sleep(0.5)
        (ended,) = db.execute("SELECT count(*) FROM games WHERE abandoned = 1").fetchone()
    took = time.perf_counter() - start
    print(f"{ended} of {games} expired games ended as abandoned {took:.1f} s after the start")


if __name__ == "__main__":
    main()
