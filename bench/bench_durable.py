"""Acknowledged moves per second with many concurrent games, durable versus in memory.

Starts a daemon subprocess on a loopback port, twice: once with a state directory (every
``play`` is answered ``=`` only once its move is committed to SQLite: WAL, synchronous=FULL, group
commit) and once with ``--state-dir none``. Each run keeps ``--games`` matches going at once
(two connections each, one per seat; a finished match is replaced by a new one); a seat to move
asks ``legal`` and plays a random legal move. After a warm-up, it counts the plays answered
``=`` during ``--seconds`` seconds, and prints both rates and their ratio. Per run it also
prints the daemon's CPU: each of its threads (user and system time; the trio thread is the
first, and the bottleneck) and its store writer process, and the mean group-commit batch.

Issue 5's target: >= 2,000 acknowledged moves/s with 200 games, within 30% of the in-memory run.

    python bench/bench_durable.py [--games 200] [--seconds 10] [--warmup 3] [--clients 2]
                                  [--repeat 3]

``--clients`` runs the players in that many processes (the games split between them), so the
players' own Python does not cap the daemon. The runs alternate, durable then in memory,
``--repeat`` times, and the medians are compared: the machine is shared, its load varies.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import trio

_ROOT = Path(__file__).resolve().parents[1]


class Connection:
    """One player connection: requests one at a time; a reader task routes events."""

    def __init__(self, stream: trio.SocketStream, games: dict[str, Game]) -> None:
        self.stream = stream
        self.games = games
        self.send_reply, self.replies = trio.open_memory_channel[list[str]](1)

    async def request(self, line: str) -> list[str]:
        """Send ``line``; its response's lines (the first one with its ``=``/``?``)."""
        await self.stream.send_all(line.encode() + b"\n")
        reply = await self.replies.receive()
        if not reply[0].startswith("="):
            raise RuntimeError(f"{line!r} failed: {reply}")
        return reply

    async def read(self) -> None:
        """Split what arrives into events (routed to their games) and responses."""
        buffer = b""
        response: list[str] = []
        while True:
            data = await self.stream.receive_some(65536)
            if not data:
                return
            buffer += data
            *lines, buffer = buffer.split(b"\n")
            for raw in lines:
                line = raw.decode()
                if response:
                    if line:
                        response.append(line)
                    else:
                        await self.send_reply.send(response)
                        response = []
                elif line.startswith("*"):
                    self._event(line)
                elif line:
                    response = [line]

    def _event(self, line: str) -> None:
        parts = line.split(" ", 4)
        game = self.games.get(parts[1])
        if game is None:
            return
        # Both seats' connections get each public event: take each one once, in order.
        seq = int(parts[2])
        if seq <= game.seq:
            return
        game.seq = seq
        if parts[3] == "turn":
            game.turn = int(parts[4].split(" ", 1)[0].removeprefix("seat="))
            game.changed.set()
        elif parts[3] == "match-over":
            game.over = True
            game.changed.set()


class Game:
    """What a match's driver needs to know: whose turn, and whether it is over."""

    def __init__(self) -> None:
        self.turn: int | None = None
        self.over = False
        self.seq = 0
        self.changed = trio.Event()

    def reset(self) -> None:
        self.turn = None
        self.changed = trio.Event()


async def drive_matches(
    make: int | None,
    play: int,
    games: dict[str, Game],
    plays: list[tuple[float, float]],
    stop: float,
) -> None:
    """Play matches one after another until ``stop`` (trio clock), each made through port
    ``make`` (``None``: by the first seat's connection) and its seats on two connections to
    port ``play``; append each acknowledged play's (end, seconds taken) to ``plays``."""
    rng = random.Random()
    async with trio.open_nursery() as nursery:
        seats = []
        for _ in range(2):
            conn = Connection(await trio.open_tcp_stream("127.0.0.1", play), games)
            nursery.start_soon(conn.read)
            seats.append(conn)
        maker = seats[0]
        if make is not None:
            maker = Connection(await trio.open_tcp_stream("127.0.0.1", make), {})
            nursery.start_soon(maker.read)
        while trio.current_time() < stop:
            game_id = (await maker.request("new hipparchus"))[0].split("game=")[1]
            game = games[game_id] = Game()
            await seats[0].request(f"join {game_id} 0")
            await seats[1].request(f"join {game_id} 1")
            while trio.current_time() < stop:
                await game.changed.wait()
                if game.over:
                    break
                seat = game.turn
                assert seat is not None
                conn = seats[seat]
                legal = (await conn.request(f"legal {game_id}"))[0][2:].split(" ")
                game.reset()
                sent = trio.current_time()
                await conn.request(f"play {game_id} {rng.choice(legal)}")
                plays.append((trio.current_time(), trio.current_time() - sent))
            del games[game_id]
        nursery.cancel_scope.cancel()


async def _players(port: int, games: int, seconds: float) -> list[float]:
    plays: list[tuple[float, float]] = []
    begin = trio.current_time()
    table: dict[str, Game] = {}
    async with trio.open_nursery() as nursery:
        for _ in range(games):
            nursery.start_soon(drive_matches, None, port, table, plays, begin + seconds)
    return [end - begin for end, _ in plays]


def _player_process(port: int, games: int, seconds: float, out: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    out.put(trio.run(_players, port, games, seconds))


def _user_system_seconds(stat: Path) -> tuple[float, float]:
    """User and system CPU seconds in a /proc ``stat`` file (of a process or a thread)."""
    fields = stat.read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def _cpu_seconds(pid: int) -> float:
    """User plus system CPU seconds used so far by process ``pid`` (Linux /proc)."""
    return sum(_user_system_seconds(Path(f"/proc/{pid}/stat")))


def _thread_cpu_seconds(pid: int) -> list[tuple[float, float]]:
    """CPU seconds (user, system) used so far by each thread of process ``pid``, most first."""
    used = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):  # the thread ended
            used.append(_user_system_seconds(task / "stat"))
    return sorted(used, key=sum, reverse=True)


def _children_cpu_seconds(pid: int) -> float:
    """CPU seconds used so far by the running child processes of ``pid`` (the store's writer)."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    used = 0.0
    for child in children:
        with contextlib.suppress(OSError):  # it ended
            used += _cpu_seconds(int(child))
    return used


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_daemon(
    options: list[str], log: Path, *, timeout: float = 20.0
) -> tuple[subprocess.Popen[bytes], int]:
    """A daemon process with ``options`` (besides its port and the limits a benchmark needs
    lifted), logging to ``log``: its process and port once it greets (within ``timeout``
    seconds). ``BENCH_DAEMON_PREFIX`` (e.g. ``-m cProfile -o out``) runs it under a profiler,
    as in bench_server.py.

    Raises:
        RuntimeError: it exited, or did not greet in time (killed).
    """
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(_ROOT)}
    prefix = os.environ.get("BENCH_DAEMON_PREFIX", "").split()
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, *prefix, "-m", "hipparchusd",
             "--host", "127.0.0.1", "--port", str(port), *options,
             "--max-games", "100000", "--max-connections", "10000",
             "--trusted-addresses", "127.0.0.1", "--log-level", "info"],
            stdout=out, stderr=subprocess.STDOUT, env=env,
        )  # fmt: skip
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the daemon exited: {log.read_text()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as conn:
                if conn.makefile("rb").readline().startswith(b"* server hello"):
                    return process, port
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError("the daemon did not start")


def run(state_dir: str, args: argparse.Namespace, workdir: Path) -> float:
    """One run against a fresh daemon; acknowledged moves per second in the measured window."""
    log = workdir / f"daemon-{port_label(state_dir)}.log"
    process, port = start_daemon(["--state-dir", state_dir], log)
    try:
        total = args.warmup + args.seconds
        shares = [args.games // args.clients + (i < args.games % args.clients)
                  for i in range(args.clients)]  # fmt: skip
        context = multiprocessing.get_context("spawn")
        out = context.Queue()
        workers = [
            context.Process(target=_player_process, args=(port, share, total, out))
            for share in shares
        ]
        for worker in workers:
            worker.start()
        times = [t for _ in workers for t in out.get()]
        for worker in workers:
            worker.join()
        cpu = _cpu_seconds(process.pid)
        threads = _thread_cpu_seconds(process.pid)
        children = _children_cpu_seconds(process.pid)
    finally:
        process.terminate()
        process.wait(30)
    for line in log.read_text().splitlines():
        if "hipparchusd.store" in line and " closed: " in line:
            transactions, requests = [int(w) for w in line.split() if w.isdigit()][-2:]
            print(f"  group commit: {requests / max(transactions, 1):.1f} requests per transaction")
    counted = [t for t in times if args.warmup <= t < total]
    rate = len(counted) / args.seconds
    print(
        f"  {port_label(state_dir)}: {len(times)} moves in all; the daemon used {cpu:.1f} s of "
        f"CPU, {cpu / max(len(times), 1) * 1e6:.0f} us per acknowledged move"
    )
    print(
        "  the daemon's threads used "
        + ", ".join(f"{user + system:.1f} s ({system:.1f} s system)" for user, system in threads)
        + (f"; its writer process {children:.1f} s" if children else "")
    )  # fmt: skip
    return rate


def port_label(state_dir: str) -> str:
    return "memory" if state_dir == "none" else "durable"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent matches (200)")
    parser.add_argument("--seconds", type=float, default=10.0, help="measured time (10)")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds not counted (3)")
    parser.add_argument("--clients", type=int, default=2, help="player processes (2)")
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs of each kind, alternating; medians (3)"
    )
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f} (cpus: {os.cpu_count()})")
    durable: list[float] = []
    memory: list[float] = []
    with tempfile.TemporaryDirectory(prefix="bench-durable-") as tmp:
        workdir = Path(tmp)
        for number in range(args.repeat):
            durable.append(run(str(workdir / f"state-{number}"), args, workdir))
            print(f"durable (SQLite, WAL, synchronous=FULL): {durable[-1]:8.0f} moves/s")
            memory.append(run("none", args, workdir))
            print(f"in memory (--state-dir none):            {memory[-1]:8.0f} moves/s")
    d, m = statistics.median(durable), statistics.median(memory)
    print(f"median durable:   {d:8.0f} acknowledged moves/s (target >= 2000)")
    print(f"median in memory: {m:8.0f} acknowledged moves/s")
    print(f"durable / in memory: {d / m:.2f} (target >= 0.70)")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
