"""Fault run: daemons killed with ``kill -9`` under load, on one PostgreSQL store and one Redis
bus (issue 28). Too long for the test suite; prints its figures.

Starts a throwaway PostgreSQL cluster and ``redis-server`` (as the tests do,
``tests/services.py``) and ``--nodes`` daemons, makes ``--games`` matches spread over them:
hipparchus between two players, hipparchus against the engine, and planets among three engine
seats (those play themselves and are taken over by a surviving daemon). Each player plays
random legal moves through a daemon picked at random; whenever its connection fails or is
closed it reconnects to another daemon and resumes its seat. Every ``--interval`` seconds a
random daemon is killed (SIGKILL) and started again under its name, for ``--seconds``.

Then, with every daemon up, it checks what the database holds against what the players were
told: for every game, each seat's acknowledged plays are its stored plays in order (for a match
still going: the ``moves`` rows; finished: the record, which must replay exactly with the
kind's rules) with at most one more per seat stored (a play committed as its daemon died,
never answered); and it prints the counts: plays acknowledged, reconnections, kills, games
finished, and any difference found (there should be none).

    .venv/bin/python bench/bench_cluster_chaos.py [--nodes 3] [--games 60] [--seconds 120]
                                                  [--interval 4]
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import re
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import trio

_ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(_ROOT / "tests"), str(_ROOT / "bench")]

from bench_cluster import _start_node  # noqa: E402
from services import postgres_missing, redis_missing, start_postgres, start_redis  # noqa: E402

from hipparchusd.games.registry import find_kind  # noqa: E402
from hipparchusd.store.codec import load, load_options  # noqa: E402


class Lost(Exception):
    """The connection failed, closed, or answered ``? internal``/``? shutting-down``."""


class Line:
    """A connection that reads responses and notes ``to-move`` events for its game."""

    def __init__(self, stream: trio.SocketStream, game: str) -> None:
        self.stream, self.game = stream, game
        self.buffer = b""
        self.movers: set[int] = set()
        self.moved = trio.Event()

    async def _line(self) -> str:
        while b"\n" not in self.buffer:
            data = await self.stream.receive_some(65536)
            if not data:
                raise Lost("closed")
            self.buffer += data
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode()

    async def request(self, text: str) -> list[str]:
        try:
            await self.stream.send_all(text.encode() + b"\n")
            while True:
                line = await self._line()
                if line.startswith("*"):
                    self._event(line)
                    continue
                lines = [line]
                while (more := await self._line()) != "":
                    lines.append(more)
                if line.startswith("="):
                    return lines
                raise Lost(line)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as error:
            raise Lost(repr(error)) from None

    async def wait_turn(self, seat: int) -> bool:
        """Read events until ``seat`` is to move (True) or the game is over (False)."""
        try:
            while seat not in self.movers:
                line = await self._line()
                if line.startswith("*"):
                    self._event(line)
                    if self.movers == {-1}:
                        return False
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as error:
            raise Lost(repr(error)) from None
        return True

    def _event(self, line: str) -> None:
        parts = line.split(" ")
        if len(parts) > 3 and parts[1] == self.game:
            if parts[3] == "to-move":
                seats = parts[4].removeprefix("seats=")
                self.movers = {int(s) for s in seats.split(",")}
            elif parts[3] == "game-over":
                self.movers = {-1}


class Cluster:
    def __init__(self, store: str, bus: str, nodes: int, workdir: Path) -> None:
        self.store, self.bus, self.workdir = store, bus, workdir
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.ports: dict[str, int] = {}
        self.kills = 0
        for i in range(nodes):
            self.start(f"n{i}")

    def start(self, node: str) -> None:
        log = self.workdir / f"{node}-{time.monotonic_ns()}.log"
        self.procs[node], self.ports[node] = _start_node(self.store, self.bus, node, log)

    def any_port(self, rng: random.Random) -> int:
        live = [n for n, p in self.procs.items() if p.poll() is None]
        return self.ports[rng.choice(live)]

    def stop(self) -> None:
        for process in self.procs.values():
            process.terminate()
        for process in self.procs.values():
            process.wait(60)


async def _player(
    cluster: Cluster, game: str, seat: int, token: str, acked: dict[tuple[str, int], list[str]],
    stop: float, counts: dict[str, int],
) -> None:  # fmt: skip
    rng = random.Random()
    while trio.current_time() < stop:
        try:
            stream = await trio.open_tcp_stream("127.0.0.1", cluster.any_port(rng))
        except OSError:
            await trio.sleep(0.2)
            continue
        line = Line(stream, game)
        try:
            await line._line()  # the greeting
            await line.request(f"resume {token}")
            while trio.current_time() < stop:
                legal = (await line.request(f"legal {game}"))[0][2:].split(" ")
                if legal == [""]:  # not this seat's turn: wait for it (or look again)
                    line.movers.discard(seat)
                    with trio.move_on_after(5):  # (events stop while the game moves)
                        if not await line.wait_turn(seat):
                            return
                    continue
                line.movers.discard(seat)
                answer = await line.request(f"play {game} {rng.choice(legal)}")
                acked[game, seat].append(answer[0][2:])
        except Lost as lost:
            if "game-over" in str(lost) or "finished" in str(lost):
                return
            counts["reconnections"] += 1
            reason = re.sub(r"\bg?\d+\b", "N", str(lost))[:90]
            counts[reason] = counts.get(reason, 0) + 1
            await trio.sleep(0.1)
        finally:
            await stream.aclose()


async def _chaos(cluster: Cluster, stop: float, *, interval: float) -> None:
    """Every ``interval`` seconds, SIGKILL a random running daemon (never the last one) and
    start it again under its name in the background, so that kills do not wait for restarts."""
    rng = random.Random()
    async with trio.open_nursery() as nursery:
        while trio.current_time() + interval < stop:
            await trio.sleep(interval)
            live = [n for n, p in cluster.procs.items() if p.poll() is None]
            if len(live) < 2:
                continue
            node = rng.choice(live)
            cluster.procs[node].kill()
            cluster.procs[node].wait()
            cluster.kills += 1
            nursery.start_soon(trio.to_thread.run_sync, cluster.start, node)


async def _run(
    cluster: Cluster, args: argparse.Namespace, fault: Callable[[float], Awaitable[None]]
) -> tuple[dict, dict, list]:  # type: ignore[type-arg]
    """Make the games, then play them for ``args.seconds`` while ``fault(stop)`` runs."""
    rng = random.Random(1)
    acked: dict[tuple[str, int], list[str]] = {}
    counts = {"reconnections": 0}
    seats: list[tuple[str, int, str]] = []
    games: list[str] = []
    for number in range(args.games):
        stream = await trio.open_tcp_stream("127.0.0.1", cluster.any_port(rng))
        line = Line(stream, "")
        await line._line()
        shape = number % 4
        if shape == 3:
            game = (await line.request("new planets players=3"))[0].split("game=")[1]
            for seat in range(3):
                await line.request(f"bot {game} {seat}")
        else:
            game = (await line.request("new hipparchus"))[0].split("game=")[1]
            joiners = []
            for seat in range(2):
                if shape == 2 and seat == 1:
                    await line.request(f"bot {game} 1")
                    continue
                # Each seat from its own connection (one holds one seat), kept open until the
                # match starts (a seat left before the start is given up).
                port = cluster.any_port(rng)
                joiner = Line(await trio.open_tcp_stream("127.0.0.1", port), game)
                joiners.append(joiner)
                await joiner._line()
                reply = await joiner.request(f"join {game} {seat}")
                token = next(w for w in reply[0].split() if w.startswith("token="))[6:]
                seats.append((game, seat, token))
                acked[game, seat] = []
            for joiner in joiners:
                await joiner.stream.aclose()
        games.append(game)
        await stream.aclose()
    begin = trio.current_time()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(fault, begin + args.seconds)
        for game, seat, token in seats:
            nursery.start_soon(_player, cluster, game, seat, token, acked, begin + args.seconds,
                               counts)  # fmt: skip
    return acked, counts, games


def _check(store: str, acked: dict[tuple[str, int], list[str]], games: list[str]) -> list[str]:
    import psycopg

    problems: list[str] = []
    finished = 0
    with psycopg.connect(store, autocommit=True) as conn:
        for game in games:
            kind, options, record = conn.execute(
                "SELECT kind, options, record FROM games WHERE game_id = %s", (game,)
            ).fetchone() or (None, None, None)
            if kind is None:
                problems.append(f"{game}: not in the database")
                continue
            if record is not None:
                finished += 1
                where = f"game {game}"
                data = load(record, "record", where)
                try:
                    served = find_kind(kind).restore(load_options(options, where), data)
                except ValueError as error:
                    problems.append(f"{game}: its record does not replay: {error}")
                    continue
                rounds = data.get("rounds", []) if isinstance(data, dict) else []
                stored_total = sum(len(r["plays"]) for r in rounds)  # type: ignore[index,arg-type,union-attr]
                told = sum(len(v) for (g, _), v in acked.items() if g == game)
                humans = sum(1 for (g, _) in acked if g == game)
                if kind == "hipparchus" and humans == 2 and not told <= stored_total <= told + 2:
                    problems.append(f"{game}: {told} plays acknowledged, {stored_total} stored")
                del served
                continue
            rows = conn.execute(
                "SELECT seat, move FROM moves WHERE game_id = %s ORDER BY id", (game,)
            ).fetchall()
            for (g, seat), told in acked.items():
                if g != game:
                    continue
                stored = [move for s, move in rows if s == seat]
                if stored[: len(told)] != told or len(stored) > len(told) + 1:
                    problems.append(f"{game} seat {seat}: told {told}, stored {stored}")
    print(f"games finished: {finished} of {len(games)}")
    return problems


def report_failures(counts: dict[str, int]) -> None:
    """The answers and closings that made players reconnect, most frequent first."""
    reasons = sorted(((n, r) for r, n in counts.items() if r != "reconnections"), reverse=True)
    for number, reason in reasons[:8]:
        print(f"  {number:5d} x {reason}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=3)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--interval", type=float, default=4.0, help="seconds between kills")
    args = parser.parse_args()
    for why in (postgres_missing(), redis_missing()):
        if why is not None:
            sys.exit(f"cannot run: {why}")
    print(f"load average before: {os.getloadavg()[0]:.2f} (cpus: {os.cpu_count()})")
    workdir = Path(os.environ.get("TMPDIR", "/tmp")) / f"bench-chaos-{os.getpid()}"
    workdir.mkdir(parents=True)
    postgres = start_postgres()
    redis = start_redis()
    try:
        store = postgres.create_database("chaos")
        cluster = Cluster(store, redis.url, args.nodes, workdir)
        try:
            chaos = functools.partial(_chaos, cluster, interval=args.interval)
            acked, counts, games = trio.run(_run, cluster, args, chaos)
        finally:
            cluster.stop()
        problems = _check(store, acked, games)
    finally:
        redis.stop()
        postgres.stop()
    told = sum(len(v) for v in acked.values())
    print(
        f"{args.nodes} daemons, {len(games)} games, {args.seconds:g} s: {cluster.kills} kills, "
        f"{told} plays acknowledged to players, {counts['reconnections']} reconnections"
    )
    print(f"acknowledged plays lost or stored twice: {len(problems)}")
    report_failures(counts)
    for problem in problems[:20]:
        print("  " + problem)
    print(f"logs: {workdir}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
