"""Benchmark: ten thousand timed games waiting on their clocks, then flagging (issue 27).

A ``hipparchusd`` subprocess (its state in a temporary SQLite store, as a daemon's is) serves
``--games`` Hipparchus games, each between two connections of this process (one holds seat 0 of
every game, the other seat 1), with banks spread over ``--spread`` seconds from ``--bank`` on
(``clock=<bank>s first_move=off absence=off``): nobody ever moves, so every game waits on seat
0's clock and then flags, as a resignation.

Printed:

- the daemon's CPU while every game waits and none is due yet (its sweep of connections and
  games once a second included), in percent of one core: the deadlines cost nothing while
  they wait (one heap on one task, no task per game, no polling);
- the lateness of the flags: when each ``game-over ... timeout=0`` reached this process, less
  the moment its game was started (its last join sent) plus the seat's time and its lag
  allowance (p50, p99, max): never less than the daemon's own lateness, and more by this
  process's delays; the target is p99 within 50 ms;
- the daemon's CPU per flag while they fall (each one stored, then announced to both seats);
- the cost of the server's own move for a planets seat out of time or absent (the engine's
  heuristic level, worked out in the daemon: it must not wait for a worker), per decision.

    .venv/bin/python bench/bench_clocks.py [--games 10000] [--bank 60] [--spread 20]

Run on a quiet machine for the lateness: the client shares the cores with the daemon.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import trio
from bench_server import Lines, cpu_seconds, free_port, percentile, start

DEAL = "SMSMSMSMSMEEEE/EEESSSSMMMMEES/ME"
#: The lag allowance every seat starts with (hipparchusd.clocks.LAG_MS), in seconds.
LAG = 1.0
#: Seconds of the waiting phase over which the daemon's CPU is measured.
WAIT_WINDOW = 10.0


async def send_lines(conn: Lines, lines: list[bytes]) -> None:
    """Send ``lines`` in pieces of a few hundred (the daemon reads requests as fast as their
    answers are read: a client may pipeline any number)."""
    for start_at in range(0, len(lines), 500):
        await conn.stream.send_all(b"".join(lines[start_at : start_at + 500]))


class Reader:
    """Reads a connection as fast as lines come (a task), so that the time an event is noted is
    the time it arrived: each game's ``to-move`` and ``game-over`` times, and the responses'
    first lines."""

    def __init__(self, conn: Lines) -> None:
        self.conn = conn
        self.responses: list[bytes] = []
        #: Game id to (arrival, seconds seat 0 has) of its to-move.
        self.to_move: dict[str, tuple[float, float]] = {}
        #: Game id to the arrival of its game-over, and that line.
        self.over: dict[str, tuple[float, bytes]] = {}
        self.arrived = trio.Event()

    async def run(self) -> None:
        conn = self.conn
        in_response = False
        with_line = conn.line
        while True:
            line = await with_line()
            if in_response:
                in_response = bool(line)
                continue
            if line[:1] == b"*":
                parts = line.split()
                if parts[3] == b"to-move":
                    left = int(parts[-1].split(b"=")[1]) / 1000
                    self.to_move[parts[1].decode()] = (time.monotonic(), left)
                elif parts[3] == b"game-over":
                    self.over[parts[1].decode()] = (time.monotonic(), line)
            elif line:
                self.responses.append(line)
                self.arrived.set()
                in_response = True

    async def wait_responses(self, count: int) -> None:
        """Until ``count`` responses have come (woken as each does)."""
        while len(self.responses) < count:
            self.arrived = trio.Event()
            await self.arrived.wait()

    async def wait(self, test: Callable[[], bool], timeout: float) -> None:
        with trio.fail_after(timeout):
            while not test():
                await trio.sleep(0.05)


async def run(games: int, bank: float, spread: float, port: int, daemon: object) -> None:
    a = Lines(await trio.open_tcp_stream("127.0.0.1", port))
    b = Lines(await trio.open_tcp_stream("127.0.0.1", port))
    await a.line()
    await b.line()
    seat0, seat1 = Reader(a), Reader(b)
    banks = [round(bank + spread * n / games, 3) for n in range(games)]
    async with trio.open_nursery() as nursery:
        nursery.start_soon(seat0.run)
        nursery.start_soon(seat1.run)
        # Seat 0's connection creates and joins each game; seat 1's joins it, starting it.
        started = time.monotonic()
        await send_lines(
            a,
            [
                line
                for n, seconds in enumerate(banks)
                for line in (
                    f"new hipparchus leader=0 deal={DEAL} clock={seconds}s first_move=off "
                    f"absence=off\n".encode(),
                    f"join g{n + 1} 0\n".encode(),
                )
            ],
        )
        await seat0.wait(lambda: len(seat0.responses) == 2 * games, 600)
        # One join at a time: the game starts, and seat 0's clock with it, between the moment
        # its join is sent and its answer; the flag is due no earlier than that moment plus
        # seat 0's time and lag allowance (so the lateness measured is never less than the
        # daemon's own).
        sent: dict[str, float] = {}
        for n in range(games):
            game = f"g{n + 1}"
            sent[game] = time.monotonic()
            await b.stream.send_all(f"join {game} 1\n".encode())
            await seat1.wait_responses(n + 1)
        await seat0.wait(lambda: len(seat0.to_move) == games, 600)
        refused = [x for x in seat0.responses + seat1.responses if x[:1] != b"="]
        assert not refused, refused[:3]
        print(f"{games} timed games started in {time.monotonic() - started:.1f} s")

        due = {game: sent[game] + left + LAG for game, (_, left) in seat0.to_move.items()}
        window = min(due.values()) - time.monotonic() - 1
        if window < WAIT_WINDOW:
            sys.exit(f"raise --bank: the first flag is due in {window + 1:.1f} s")
        cpu_before = cpu_seconds(daemon)  # type: ignore[arg-type]
        await trio.sleep(WAIT_WINDOW)
        cpu_waiting = cpu_seconds(daemon) - cpu_before  # type: ignore[arg-type]
        print(
            f"waiting: daemon CPU {100 * cpu_waiting / WAIT_WINDOW:.2f} % of a core over "
            f"{WAIT_WINDOW:g} s, {games} games each waiting on a clock"
        )

        cpu_before = cpu_seconds(daemon)  # type: ignore[arg-type]
        flags_start = time.monotonic()
        await seat0.wait(
            lambda: len(seat0.over) == games, max(due.values()) - time.monotonic() + 60
        )
        cpu_flags = cpu_seconds(daemon) - cpu_before  # type: ignore[arg-type]
        elapsed = time.monotonic() - flags_start
        assert all(line.endswith(b"timeout=0") for _, line in seat0.over.values())
        late = [1000 * (seat0.over[g][0] - due[g]) for g in seat0.over]
        print(
            f"flags: {len(seat0.over)} of {games} in {elapsed:.1f} s; lateness p50 "
            f"{percentile(late, 0.5):.1f} ms, p99 {percentile(late, 0.99):.1f} ms, max "
            f"{max(late):.1f} ms (earliest {min(late):.1f} ms)"
        )
        print(f"flags: daemon CPU {1e6 * cpu_flags / games:.0f} us per flag, stored and sent")
        nursery.cancel_scope.cancel()
    await a.stream.aclose()
    await b.stream.aclose()


def heuristic_cost(decisions: int = 2000) -> None:
    """The server's own planets move (the heuristic level), per decision, in this process."""
    from hipparchusd.engine.types import view_seed
    from hipparchusd.games.planets.kind import PLANETS
    from hipparchusd.games.registry import KINDS

    kind = KINDS["planets"]
    assert kind.engine is not None
    adapter = kind.engine.load()
    rng = random.Random(1)
    views = []
    for game_number in range(50):
        game = PLANETS.create({"players": str(3 + game_number % 4), "seed": str(game_number)})
        game.start()
        while game.outcome is None and len(views) < decisions:
            (seat, *_) = sorted(game.seats_to_move())
            views.append(game.view_data(seat))
            legal = game.legal(seat)
            word = (
                rng.choice(legal.moves)
                if hasattr(legal, "moves")
                else ",".join(rng.sample(legal.items, legal.count))  # type: ignore[union-attr]
            )
            game.play_word(seat, word)
    times = []
    for view in views:
        started = time.perf_counter()
        adapter.position(view).heuristic_move(random.Random(view_seed(view)))
        times.append(time.perf_counter() - started)
    print(
        f"the server's planets move (heuristic level, in the daemon): median "
        f"{1e6 * statistics.median(times):.0f} us, p99 {1e6 * percentile(times, 0.99):.0f} us "
        f"per decision ({len(views)} decisions)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--bank", type=float, default=60.0, help="the first game's bank (s)")
    parser.add_argument("--spread", type=float, default=20.0, help="banks spread over (s)")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    heuristic_cost()
    port = free_port()
    with tempfile.TemporaryDirectory() as state:
        daemon = start(
            [
                "-m", "hipparchusd", "--port", str(port), "--state-dir", str(Path(state)),
                "--max-games", str(args.games + 10), "--max-games-per-connection",
                str(args.games + 10), "--trusted-addresses", "127.0.0.1",
                "--outbound-queue", str(8 * args.games), "--log-level", "warning",
            ],
            port,
        )  # fmt: skip
        try:
            trio.run(run, args.games, args.bank, args.spread, port, daemon)
        finally:
            daemon.terminate()
            daemon.wait(30)


if __name__ == "__main__":
    main()
