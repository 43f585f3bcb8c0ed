"""Benchmark: the cost of several daemons on one PostgreSQL store and one Redis bus (issue 28).

This machine has 2 cores and the load generator needs one, so it measures cost, not
throughput: the daemons' CPU (each daemon process and its store writer process, from /proc)
per acknowledged move, and each ``play``'s time from request to ``=``, for the same load
(``--games`` matches at once, each seat on its own connection, a seat to move asking ``legal``
and playing a random legal move, a finished match replaced by a new one) in three runs:

- ``one``: one daemon;
- ``direct``: two daemons, each match made and played through the same one (its owner), the
  matches split between them;
- ``forwarded``: two daemons, each match made through one and played through the other, so that
  every request is forwarded to its owner over the bus.

It starts its own throwaway PostgreSQL cluster and ``redis-server`` (as the tests do,
``tests/services.py``) and prints, per run, the moves, the daemons' CPU per move, and the
plays' median and 99th-percentile times; then the ratios issue 28 asks for (two daemons' CPU
per move over one's: at most 1.2 direct, 2 forwarded; forwarded p99 over direct p99: at most 2)
and the capacity per core they imply (moves per CPU-second of a daemon). The runs alternate
``--repeat`` times and medians are compared (the machine is shared).

    .venv/bin/python bench/bench_cluster.py [--games 40] [--seconds 10] [--warmup 3] [--repeat 2]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import trio

_ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(_ROOT / "tests"), str(_ROOT / "bench")]

from bench_durable import (  # noqa: E402
    Game,
    _children_cpu_seconds,
    _cpu_seconds,
    drive_matches,
    start_daemon,
)
from services import postgres_missing, redis_missing, start_postgres, start_redis  # noqa: E402


def _start_node(store: str, bus: str, node: str, log: Path) -> tuple[subprocess.Popen[bytes], int]:
    """A daemon process, node ``node``; its process and port once it greets."""
    options = ["--config", "", "--store", store, "--node", node, "--bus", bus]
    return start_daemon(options, log, timeout=30)


async def _load(routes: Sequence[tuple[int, int]], seconds: float) -> list[tuple[float, float]]:
    """``routes``: one (make port, play port) per match kept going; the plays, timed from
    the start."""
    plays: list[tuple[float, float]] = []
    table: dict[str, Game] = {}
    begin = trio.current_time()
    async with trio.open_nursery() as nursery:
        for make, play in routes:
            nursery.start_soon(drive_matches, make, play, table, plays, begin + seconds)
    return [(end - begin, took) for end, took in plays]


def _daemon_cpu(pid: int) -> float:
    return _cpu_seconds(pid) + _children_cpu_seconds(pid)


def run(mode: str, args: argparse.Namespace, postgres: object, bus: str, workdir: Path,
        number: int) -> dict[str, float]:  # fmt: skip
    """One run of ``mode`` on a fresh database: its figures."""
    store = postgres.create_database(f"bench_{mode}_{number}")  # type: ignore[attr-defined]
    nodes = 1 if mode == "one" else 2
    started = [
        _start_node(store, bus, f"n{i}", workdir / f"{mode}-{number}-n{i}.log")
        for i in range(nodes)
    ]
    ports = [port for _, port in started]
    if mode == "one":
        routes = [(ports[0], ports[0])] * args.games
    elif mode == "direct":
        routes = [(ports[i % 2], ports[i % 2]) for i in range(args.games)]
    else:
        routes = [(ports[i % 2], ports[1 - i % 2]) for i in range(args.games)]
    try:
        before = [_daemon_cpu(process.pid) for process, _ in started]
        plays = trio.run(_load, routes, args.warmup + args.seconds)
        cpu = sum(_daemon_cpu(p.pid) for p, _ in started) - sum(before)
    finally:
        for process, _ in started:
            process.terminate()
        for process, _ in started:
            process.wait(60)
    took = sorted(t for end, t in plays if end >= args.warmup)
    moves = len(plays)
    return {
        "moves": moves,
        "cpu_per_move_us": cpu / max(moves, 1) * 1e6,
        "p50_ms": statistics.median(took) * 1e3,
        "p99_ms": took[int(len(took) * 0.99)] * 1e3,
        "rate": len(took) / args.seconds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="concurrent matches (40)")
    parser.add_argument("--seconds", type=float, default=10.0, help="measured time (10)")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds not timed (3)")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each mode (2)")
    args = parser.parse_args()
    for why in (postgres_missing(), redis_missing()):
        if why is not None:
            sys.exit(f"cannot run: {why}")
    print(f"load average before: {os.getloadavg()[0]:.2f} (cpus: {os.cpu_count()})")
    figures: dict[str, list[dict[str, float]]] = {"one": [], "direct": [], "forwarded": []}
    with tempfile.TemporaryDirectory(prefix="bench-cluster-") as tmp:
        workdir = Path(tmp)
        postgres = start_postgres()  # (its own folder: the postgres user must reach it)
        redis = start_redis()
        try:
            for number in range(args.repeat):
                for mode in figures:
                    got = run(mode, args, postgres, redis.url, workdir, number)
                    figures[mode].append(got)
                    print(
                        f"{mode:>9}: {got['moves']:6.0f} moves, {got['rate']:6.0f}/s; daemons' "
                        f"CPU {got['cpu_per_move_us']:5.0f} us per move; play p50 "
                        f"{got['p50_ms']:5.1f} ms, p99 {got['p99_ms']:6.1f} ms"
                    )
        finally:
            redis.stop()
            postgres.stop()

    def median(mode: str, key: str) -> float:
        return statistics.median(run[key] for run in figures[mode])

    one = median("one", "cpu_per_move_us")
    direct = median("direct", "cpu_per_move_us")
    forwarded = median("forwarded", "cpu_per_move_us")
    print(f"CPU per move, two daemons direct / one daemon:    {direct / one:.2f} (at most 1.2)")
    print(f"CPU per move, two daemons forwarded / one daemon: {forwarded / one:.2f} (at most 2)")
    ratio = median("forwarded", "p99_ms") / median("direct", "p99_ms")
    print(f"play p99, forwarded / direct:                      {ratio:.2f} (at most 2)")
    print(
        f"capacity per core: {1e6 / direct:.0f} moves/s when requests reach their game's owner, "
        f"{1e6 / forwarded:.0f} moves/s when every request is forwarded"
    )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
