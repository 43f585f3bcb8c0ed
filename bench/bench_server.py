"""Benchmark: the daemon under 200 concurrent connections, against a bare trio echo server.

100 matches at once (2 seats each, 200 connections) play random matches over loopback against
a ``hipparchusd`` subprocess: each seat waits for its ``turn`` event, asks ``legal``, and plays
a random legal move. Printed: moves per second, request/response round trips per second, and the
latency of ``play`` (p50, p99). Then, in the same run, a bare trio line-echo server (also a
subprocess) answers the same number of round trips over 200 connections: the ceiling for a
trio line server on this machine. Targets (issue 3): >= 50 % of the echo throughput, play
p99 <= 20 ms.

    .venv/bin/python bench/bench_server.py [--pairs 100] [--matches 10] [--transport]

``--engine-games N`` keeps N games between the daemon's own engine seats (``bot``, at
``--engine-level``, default ``ismcts``: 100 ms per move) running throughout the measurement, a
new one started as each ends (issue 18: the daemon's other clients must not notice its engine,
whose searches run in worker processes; the target is a play p99 within 2x of the figure
without them). Compare a run with ``--engine-games 20`` to one without.

``--transport`` adds a breakdown: the same echo clients against the daemon's own server with
every line answered at once, unparsed. The gap between that and the daemon is what the
protocol and the games cost per round trip; the gap to the echo server, what trio's stream API
costs that the daemon's transport avoids.

The client runs in this process, the servers each in their own: on a machine with two cores,
the figures depend on the load (printed first). The CPU time per round trip of the server and
of the client (this process) are printed too: they move much less with the load than the
rates, and the client's share bounds the rate any server can reach here.
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import attrs
import trio


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Lines:
    """A line reader over a trio stream: each chunk received is split into lines at once, so
    a chunk of several lines costs one Python call, not one per line (the load generator's
    CPU shares the two cores with the server it measures). The daemon's and the echo server's
    clients both read with it."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        #: Complete lines received and not yet taken, without their LF.
        self.lines: collections.deque[bytes] = collections.deque()
        self._partial = b""  # the start of a line whose LF has not come yet

    async def fill(self) -> None:
        """Receive until at least one complete line is waiting in :attr:`lines`.

        Raises:
            EOFError: the peer closed the connection.
        """
        while not self.lines:
            data = await self.stream.receive_some(65536)
            if not data:
                raise EOFError
            if self._partial:
                data = self._partial + data
            *complete, self._partial = data.split(b"\n")
            self.lines.extend(complete)

    async def line(self) -> bytes:
        """The next line, without its LF."""
        if not self.lines:
            await self.fill()
        return self.lines.popleft()


class Stats:
    def __init__(self) -> None:
        self.round_trips = 0
        self.moves = 0
        self.matches = 0
        self.play_latency: list[float] = []
        #: Moves the engine's seats made meanwhile (``--engine-games``).
        self.engine_moves = [0]


async def request(
    conn: Lines, line: bytes, stats: Stats, events: collections.deque[bytes]
) -> list[bytes]:
    """Send a request (one line, LF included), return its response lines; events read
    meanwhile go to ``events``. Lines received after the response stay in ``conn.lines``."""
    await conn.stream.send_all(line)
    stats.round_trips += 1
    lines = conn.lines
    while True:
        if not lines:
            await conn.fill()
        first = lines.popleft()
        if first[:1] == b"*":
            events.append(first)
            continue
        response = [first]
        while True:
            if not lines:
                await conn.fill()
            more = lines.popleft()
            if not more:
                break
            response.append(more)
        if first[:1] != b"=":
            raise RuntimeError(f"{line!r} failed: {response!r}")
        return response


async def play_seat(
    conn: Lines,
    seat: int,
    game: str,
    rng: random.Random,
    stats: Stats,
    pending: collections.deque[bytes],
) -> None:
    """Play ``seat`` of ``game`` until the match is over: at each ``turn`` event for the
    seat, ask ``legal`` and play one of the legal moves at random."""
    ours = f"* {game} ".encode()
    me = f" turn seat={seat} ".encode()
    legal_request = f"legal {game}\n".encode()
    play_request = f"play {game} ".encode()
    lines = conn.lines
    while True:
        if pending:
            line = pending.popleft()
        else:
            if not lines:
                await conn.fill()
            line = lines.popleft()
        if not line.startswith(ours):
            continue
        if me not in line:
            if b" match-over " in line:
                return
            continue
        legal = await request(conn, legal_request, stats, pending)
        moves = legal[0][2:].split() if legal[0].startswith(b"= ") else []
        move = rng.choice(moves)
        started = time.perf_counter()
        await request(conn, play_request + move + b"\n", stats, pending)
        stats.play_latency.append(time.perf_counter() - started)
        stats.moves += 1


async def run_pair(port: int, matches: int, seed: int, stats: Stats) -> None:
    rng = random.Random(seed)
    streams = [await trio.open_tcp_stream("127.0.0.1", port) for _ in range(2)]
    conns = [Lines(s) for s in streams]
    for conn in conns:
        await conn.line()  # greeting
    for _ in range(matches):
        pending: list[collections.deque[bytes]] = [collections.deque(), collections.deque()]
        created = await request(conns[0], b"new hipparchus\n", stats, pending[0])
        game = created[0].split(b"=")[-1].decode()
        await request(conns[0], f"join {game}\n".encode(), stats, pending[0])
        await request(conns[1], f"join {game}\n".encode(), stats, pending[1])
        async with trio.open_nursery() as nursery:
            for seat in (0, 1):
                nursery.start_soon(play_seat, conns[seat], seat, game, rng, stats, pending[seat])
        stats.matches += 1
    for stream in streams:
        await stream.aclose()


async def echo_server(port: int) -> None:
    """A bare trio line-echo server: each line comes back as it is."""

    async def handle(stream: trio.SocketStream) -> None:
        buffer = bytearray()
        try:
            while data := await stream.receive_some(65536):
                buffer += data
                end = buffer.rfind(b"\n")
                if end >= 0:
                    await stream.send_all(bytes(buffer[: end + 1]))
                    del buffer[: end + 1]
        except trio.BrokenResourceError:
            pass

    await trio.serve_tcp(handle, port, host="127.0.0.1")


async def transport_server(port: int) -> None:
    """The daemon's own server (``hipparchusd.server``) with every request line answered
    ``= 2E@5`` at once, before any parsing: what its transport costs (reading, framing, the
    outbound queue, the writes, trio's scheduling) without the protocol and the games."""
    from hipparchusd.server import Connection, Pipeline
    from hipparchusd.server.run import serve
    from hipparchusd.settings import Settings
    from hipparchusd.store.base import MemoryStore

    answer = b"= 2E@5\n\n"

    async def answer_at_once(self: Pipeline, conn: Connection, item: object) -> bool:
        conn.enqueue(answer)
        return False

    Pipeline.answer = answer_at_once  # type: ignore[method-assign]
    settings = Settings(
        host="127.0.0.1", port=port, max_connections=10_000, trusted_addresses=("127.0.0.1",)
    )
    await serve(settings, MemoryStore())


async def run_echo(port: int, connections: int, round_trips: int, latency: list[float]) -> float:
    """Seconds for ``round_trips`` line round trips spread over ``connections``; each round
    trip's latency is appended to ``latency``."""
    per_connection = max(1, round_trips // connections)

    async def client() -> None:
        conn = Lines(await trio.open_tcp_stream("127.0.0.1", port))
        request = b"play g12 2E@5\n"
        for _ in range(per_connection):
            started = time.perf_counter()
            await conn.stream.send_all(request)
            await conn.line()
            latency.append(time.perf_counter() - started)
        await conn.stream.aclose()

    started = time.perf_counter()
    async with trio.open_nursery() as nursery:
        for _ in range(connections):
            nursery.start_soon(client)
    return time.perf_counter() - started


def start(args: list[str], port: int) -> subprocess.Popen[bytes]:
    prefix = os.environ.get("BENCH_SERVER_PREFIX", "").split()  # e.g. "-m cProfile -o out"
    process = subprocess.Popen([sys.executable, *prefix, *args], stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError(f"{args} did not start")


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def engine_games(port: int, level: str, moves: list[int]) -> None:
    """Keep one game between two engine seats going: create it, seat the engine twice, watch
    it to its ``game-over``, and start the next; ``moves[0]`` counts the engine's moves."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    conn = Lines(stream)
    await conn.line()  # greeting
    stats = Stats()  # the engine games' round trips are not the measured ones
    events: collections.deque[bytes] = collections.deque()
    try:
        while True:
            created = await request(conn, b"new hipparchus\n", stats, events)
            game = created[0].split(b"=")[-1].decode()
            await request(conn, f"watch {game}\n".encode(), stats, events)
            for _ in range(2):
                await request(conn, f"bot {game} level={level}\n".encode(), stats, events)
            ours = f"* {game} ".encode()
            while True:
                line = events.popleft() if events else await conn.line()
                if line.startswith(ours) and b" played " in line:
                    moves[0] += 1
                if line.startswith(ours) and b" game-over " in line:
                    break
    finally:
        await stream.aclose()


async def bench(pairs: int, matches: int, port: int, engine: int = 0, level: str = "") -> Stats:
    stats = Stats()
    async with trio.open_nursery() as outer:
        for _ in range(engine):
            outer.start_soon(engine_games, port, level, stats.engine_moves)
        if engine:
            await trio.sleep(1.0)  # the engine's workers started and searching
        async with trio.open_nursery() as nursery:
            for pair in range(pairs):
                nursery.start_soon(run_pair, port, matches, pair, stats)
        outer.cancel_scope.cancel()
    return stats


def cpu_seconds(process: subprocess.Popen[bytes]) -> float:
    """CPU time (user + system) ``process`` has used so far (Linux /proc; else 0)."""
    try:
        fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@attrs.define
class Run:
    """One measurement: round trips per second, the server's CPU per round trip (us) during
    the load, and latencies (ms): ``play`` for the daemon, every round trip for echo."""

    rate: float
    cpu_us: float
    p50: float
    p99: float
    moves_per_s: float = 0.0
    client_cpu_us: float = 0.0
    engine_moves_per_s: float = 0.0


def run_daemon(
    pairs: int, matches: int, durable: bool, engine: int = 0, level: str = "ismcts"
) -> tuple[Run, int]:
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="bench-hipparchusd-") as state_dir:
        daemon = start(
            ["-m", "hipparchusd", "--port", str(port), "--log-level", "warning",
             "--max-connections", str(2 * pairs + engine + 10),
             "--max-games", str(pairs * 2 + engine * 2),
             "--trusted-addresses", "127.0.0.1",
             "--state-dir", state_dir if durable else "none"],
            port,
        )  # fmt: skip
        return measure_daemon(daemon, pairs, matches, port, engine, level)


def measure_daemon(
    daemon: subprocess.Popen[bytes],
    pairs: int,
    matches: int,
    port: int,
    engine: int = 0,
    level: str = "ismcts",
) -> tuple[Run, int]:
    try:
        cpu = cpu_seconds(daemon)
        started = time.perf_counter()
        client_cpu = time.process_time()
        stats = trio.run(bench, pairs, matches, port, engine, level)
        client_cpu = time.process_time() - client_cpu
        elapsed = time.perf_counter() - started
        cpu = cpu_seconds(daemon) - cpu
    finally:
        daemon.terminate()
        daemon.wait(15)
    latency = stats.play_latency
    run = Run(
        stats.round_trips / elapsed,
        cpu / stats.round_trips * 1e6,
        percentile(latency, 0.5) * 1000,
        percentile(latency, 0.99) * 1000,
        stats.moves / elapsed,
        client_cpu / stats.round_trips * 1e6,
        stats.engine_moves[0] / elapsed,
    )
    return run, stats.round_trips


def run_echo_server(connections: int, round_trips: int, transport: bool = False) -> Run:
    """The echo clients' run against the bare trio echo server, or with ``transport`` against
    :func:`transport_server`."""
    port = free_port()
    server = "--transport-server" if transport else "--echo-server"
    echo = start([__file__, server, str(port)], port)
    latency: list[float] = []
    try:
        cpu = cpu_seconds(echo)
        client_cpu = time.process_time()
        elapsed = trio.run(run_echo, port, connections, round_trips, latency)
        client_cpu = time.process_time() - client_cpu
        cpu = cpu_seconds(echo) - cpu
    finally:
        echo.terminate()
        echo.wait(15)
    done = len(latency)
    return Run(
        done / elapsed, cpu / done * 1e6, percentile(latency, 0.5) * 1000,
        percentile(latency, 0.99) * 1000, 0.0, client_cpu / done * 1e6,
    )  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=100, help="matches at once (default 100)")
    parser.add_argument("--matches", type=int, default=10, help="matches per pair (default 10)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each (default 3)")
    parser.add_argument(
        "--durable",
        action="store_true",
        help="give the daemon a (temporary) state directory: every move is stored in SQLite "
        "before it is answered; by default it keeps games in memory only (--state-dir none), "
        "the measurement of issue 3 (bench/bench_durable.py measures the store)",
    )
    parser.add_argument(
        "--transport",
        action="store_true",
        help="also run the echo clients against the daemon's server with every request "
        "answered at once, unparsed: the cost of its transport alone, as a breakdown",
    )
    parser.add_argument(
        "--engine-games",
        type=int,
        default=0,
        metavar="N",
        help="keep N games between the daemon's engine seats running meanwhile (default 0)",
    )
    parser.add_argument(
        "--engine-level", default="ismcts", help="their level (default ismcts: 100 ms a move)"
    )
    parser.add_argument("--echo-server", type=int, metavar="PORT", help=argparse.SUPPRESS)
    parser.add_argument("--transport-server", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.echo_server:
        trio.run(echo_server, args.echo_server)
        return
    if args.transport_server:
        trio.run(transport_server, args.transport_server)
        return

    load = os.getloadavg()
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} CPUs)")
    connections = 2 * args.pairs
    daemon_runs: list[Run] = []
    echo_runs: list[Run] = []
    transport_runs: list[Run] = []
    for _ in range(args.repeat):
        run, round_trips = run_daemon(
            args.pairs, args.matches, args.durable, args.engine_games, args.engine_level
        )
        daemon_runs.append(run)
        echo_runs.append(run_echo_server(connections, round_trips))
        if args.transport:
            transport_runs.append(run_echo_server(connections, round_trips, transport=True))
    print(f"{connections} connections, {args.pairs} matches at once, {args.repeat} runs "
          f"(about {round_trips} round trips each); median [min-max]:")  # fmt: skip

    def show(name: str, runs: list[Run], field: str, unit: str, digits: int = 0) -> float:
        values = sorted(getattr(r, field) for r in runs)
        median = statistics.median(values)
        print(f"  {name:<28}{median:10.{digits}f} {unit}   "
              f"[{values[0]:.{digits}f}-{values[-1]:.{digits}f}]")  # fmt: skip
        return median

    store = "SQLite in a temporary state directory" if args.durable else "memory (--state-dir none)"
    print(f"daemon (legal + play per move, random legal moves; store: {store}):")
    show("moves/s", daemon_runs, "moves_per_s", "")
    if args.engine_games:
        print(f"  with {args.engine_games} engine games ({args.engine_level}) running meanwhile:")
        show("engine moves/s", daemon_runs, "engine_moves_per_s", "")
    daemon_rate = show("round trips/s", daemon_runs, "rate", "")
    show("server CPU per round trip", daemon_runs, "cpu_us", "us")
    show("client CPU per round trip", daemon_runs, "client_cpu_us", "us")
    show("play latency p50", daemon_runs, "p50", "ms", 2)
    p99 = show("play latency p99", daemon_runs, "p99", "ms", 2)
    print("bare trio echo server (same round trips):")
    echo_rate = show("round trips/s", echo_runs, "rate", "")
    show("server CPU per round trip", echo_runs, "cpu_us", "us")
    show("client CPU per round trip", echo_runs, "client_cpu_us", "us")
    show("latency p50", echo_runs, "p50", "ms", 2)
    show("latency p99", echo_runs, "p99", "ms", 2)
    if transport_runs:
        print("the daemon's server answering every line at once, unparsed (same clients):")
        show("round trips/s", transport_runs, "rate", "")
        show("server CPU per round trip", transport_runs, "cpu_us", "us")
    # Each daemon run is followed at once by its echo run: their ratio moves less with the
    # machine's load than the ratio of the medians, which may come from different minutes.
    paired = sorted(d.rate / e.rate for d, e in zip(daemon_runs, echo_runs, strict=True))
    print(f"daemon/echo throughput: {daemon_rate / echo_rate:.0%} (target >= 50%); "
          f"play p99 {p99:.1f} ms (target <= 20 ms)")  # fmt: skip
    print(f"daemon/echo run by run: median {statistics.median(paired):.0%} "
          f"[{paired[0]:.0%}-{paired[-1]:.0%}]")  # fmt: skip
    load = os.getloadavg()
    print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
