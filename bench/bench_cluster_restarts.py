"""Fault run: PostgreSQL, then Redis, restarted under load (issue 28). Too long for the test
suite; prints its figures.

Two daemons on a throwaway PostgreSQL cluster and ``redis-server`` (``tests/services.py``),
``--games`` matches as ``bench_cluster_chaos.py`` makes them, played by players that connect to
a daemon at random (so that about half their requests are forwarded). After ``--settle``
seconds PostgreSQL is restarted (``pg_ctl restart -m fast``: every session is cut), and after
as many again ``redis-server`` is restarted; play goes on until ``--seconds``. Meanwhile the
daemons must answer ``? internal ... nothing was changed`` (or close a connection whose outcome
is unknown), never a false ``=``, and recover by themselves. Then every seat's acknowledged
plays are checked against the database as in ``bench_cluster_chaos.py``, and the answers that
made players reconnect are counted by their text.

    .venv/bin/python bench/bench_cluster_restarts.py [--games 30] [--seconds 40] [--settle 8]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import trio

_ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(_ROOT / "tests"), str(_ROOT / "bench")]

from bench_cluster_chaos import Cluster, _check, _run, report_failures  # noqa: E402
from services import (  # noqa: E402
    Postgres,
    Redis,
    postgres_missing,
    redis_missing,
    start_postgres,
    start_redis,
)


async def _restarts(postgres: Postgres, redis: Redis, settle: float, took: dict[str, float],
                    stop: float) -> None:  # fmt: skip
    await trio.sleep(settle)
    began = time.monotonic()
    await trio.to_thread.run_sync(lambda: postgres.ctl("restart", "-m", "fast"))
    took["postgresql"] = time.monotonic() - began
    await trio.sleep(settle)
    began = time.monotonic()
    await trio.to_thread.run_sync(redis.restart)
    took["redis"] = time.monotonic() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--settle", type=float, default=8.0, help="seconds before each restart")
    args = parser.parse_args()
    for why in (postgres_missing(), redis_missing()):
        if why is not None:
            sys.exit(f"cannot run: {why}")
    print(f"load average before: {os.getloadavg()[0]:.2f} (cpus: {os.cpu_count()})")
    workdir = Path(os.environ.get("TMPDIR", "/tmp")) / f"bench-restarts-{os.getpid()}"
    workdir.mkdir(parents=True)
    postgres = start_postgres()
    redis = start_redis()
    took: dict[str, float] = {}
    try:
        store = postgres.create_database("restarts")
        cluster = Cluster(store, redis.url, 2, workdir)
        try:

            async def fault(stop: float) -> None:
                await _restarts(postgres, redis, args.settle, took, stop)

            acked, counts, games = trio.run(_run, cluster, args, fault)
            alive = all(process.poll() is None for process in cluster.procs.values())
        finally:
            cluster.stop()
        problems = _check(store, acked, games)
    finally:
        redis.stop()
        postgres.stop()
    told = sum(len(v) for v in acked.values())
    print(
        f"2 daemons, {len(games)} games, {args.seconds:g} s: PostgreSQL restarted in "
        f"{took.get('postgresql', -1):.1f} s, Redis in {took.get('redis', -1):.1f} s; "
        f"{told} plays acknowledged, {counts['reconnections']} reconnections; both daemons "
        f"{'still running' if alive else 'NOT all running'}"
    )
    print(f"acknowledged plays lost or stored twice: {len(problems)}")
    for problem in problems[:20]:
        print("  " + problem)
    report_failures(counts)
    print(f"logs: {workdir}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
