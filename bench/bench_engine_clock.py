"""Benchmark: the daemon's engine seats keep time (issue 27, RULINGS T1-T2).

``--games`` timed games (default 200, ``clock=10s+0.1s``) between two of the daemon's engine
seats (``bot``, at ``--level``, default ``ismcts``: 100 ms a move when the clock allows), played
``--concurrent`` at a time against a ``hipparchusd`` subprocess, so that searches also wait for
a worker. Each seat's search gets its share of its bank for the decisions left in the round, and
one that would have no time left once a worker takes it plays the heuristic's move at once.

Printed: the games played and how many were lost on time (the target is none), the lowest bank
any seat had left after a decision, and the decisions' times (median, p99, max) from the games'
timing records, with how many took some of the lag allowance.

    .venv/bin/python bench/bench_engine_clock.py [--games 200] [--concurrent 4]
        [--tc 10s+0.1s] [--level ismcts] [--kind hipparchus]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from typing import Any

import trio
from bench_server import Lines, free_port, percentile, start


async def request(conn: Lines, line: str) -> str:
    """Send one request; its response's first line (events before it are skipped)."""
    await conn.stream.send_all(line.encode() + b"\n")
    while True:
        first = (await conn.line()).decode()
        if not first.startswith("*"):
            break
    while await conn.line():
        pass
    if not first.startswith("="):
        raise RuntimeError(f"{line}: {first}")
    return first[1:].strip()


async def one_game(port: int, args: argparse.Namespace, results: list[dict[str, Any]]) -> None:
    conn = Lines(await trio.open_tcp_stream("127.0.0.1", port))
    try:
        await conn.line()  # greeting
        await request(conn, "format json")
        game = json.loads(await request(conn, f"new {args.kind} clock={args.tc}"))["game"]
        await request(conn, f"watch {game}")
        seats = 2 if args.kind == "hipparchus" else 4
        for _ in range(seats):
            await request(conn, f"bot {game} level={args.level}")
        while True:
            event = json.loads((await conn.line()).decode()[2:] or "{}")
            if event.get("game") == game and event.get("kind") == "game-over":
                break
        record = json.loads(await request(conn, f"record {game}"))
        results.append({"over": event["data"], "timing": record["timing"]})
    finally:
        await conn.stream.aclose()


async def run(port: int, args: argparse.Namespace) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = []
    limit = trio.Semaphore(args.concurrent)

    async def slot() -> None:
        async with limit:
            await one_game(port, args, results)
            done = len(results)
            if done % 20 == 0:
                print(f"  {done} games", flush=True)

    async with trio.open_nursery() as nursery:
        for _ in range(args.games):
            nursery.start_soon(slot)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--concurrent", type=int, default=4)
    parser.add_argument("--tc", default="10s+0.1s", help="the clock= of every game")
    parser.add_argument("--level", default="ismcts")
    parser.add_argument("--kind", default="hipparchus", choices=("hipparchus", "planets"))
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    port = free_port()
    daemon = start(
        ["-m", "hipparchusd", "--port", str(port), "--state-dir", "none",
         "--log-level", "warning"],
        port,
    )  # fmt: skip
    started = time.monotonic()
    try:
        results = trio.run(run, port, args)
    finally:
        daemon.terminate()
        daemon.wait(30)
    flags = [r for r in results if "timeout" in r["over"]]
    decisions = [d for r in results for d in r["timing"]["decisions"]]
    spent = [d["spent_ms"] for d in decisions]
    lagged = sum(1 for d in decisions if d["lag_ms"])
    # The lowest bank left after a decision: replayed from each game's control and decisions.
    lowest = min(_lowest_bank(r["timing"]) for r in results)
    print(
        f"{len(results)} games at clock={args.tc}, level {args.level}, {args.concurrent} at a "
        f"time, in {time.monotonic() - started:.0f} s: {len(flags)} lost on time"
    )
    print(
        f"decisions: {len(spent)}; time median {statistics.median(spent):.0f} ms, p99 "
        f"{percentile(spent, 0.99):.0f} ms, max {max(spent)} ms; {lagged} took some of the lag "
        f"allowance; the lowest bank left after a decision: {lowest} ms"
    )


def _lowest_bank(timing: dict[str, Any]) -> int:
    """The lowest bank any seat had after one of its decisions in a game's timing record."""
    from hipparchusd.clocks import TimeControl

    control = TimeControl.parse(timing["control"])
    assert control.bank is not None
    banks: dict[int, int] = {}
    lowest = control.bank
    for decision in timing["decisions"]:
        seat = decision["seat"]
        bank = max(0, banks.get(seat, control.bank) - decision["spent_ms"]) + control.increment
        banks[seat] = bank
        lowest = min(lowest, bank)
    return lowest


if __name__ == "__main__":
    main()
