"""Benchmark: the daemon's CPU per request on its hot path, in one process, without a client.

``bench_server.py`` measures the daemon over loopback against real clients, which on a shared
two-core machine moves by 10-20 % from run to run: too much to see a change of a few per cent.
This benchmark runs the same per-request path as the server's reader task (line splitting,
``parse_request``, the lobby's prepare and commit, the store call, the response, the events for
each follower, the write of each connection's output) for seeded random matches, each seat on
its own connection (a socket pair whose other end this process drains), and prints the time per
request: steadier, so before/after comparisons of the Python side need only a few seconds.
It leaves out what the daemon spends in the kernel and in trio's scheduler between requests.

The SHA-256 of every byte the connections were sent (except the seat tokens, which are random)
is printed too: two versions of the daemon that print the same digest sent the same bytes.

    .venv/bin/python bench/bench_requests.py [--matches 150] [--repeat 5] [--json] [--durable]
                                           [--at-once N] [--metrics]

``--metrics`` counts what a daemon serving Prometheus metrics counts (issue 26: at most 5 %
more instructions). Compare instruction counts, which the machine's load does not move: run
``valgrind --tool=callgrind`` on ``--repeat 1 --matches 20`` with and without ``--metrics``,
and on ``--matches 0`` (start-up and imports only, which prints no figures) with and without
it; a request's share is the difference of the two.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import socket
import time

import trio

from hipparchusd.protocol import LineSplitter, Mode
from hipparchusd.server import Server
from hipparchusd.server.connection import TcpConnection
from hipparchusd.settings import Settings
from hipparchusd.store.base import MemoryStore


class Seat:
    """One connection of the server, with the socket its output can be read from."""

    def __init__(self, server: Server, mode: Mode) -> None:
        ours, theirs = socket.socketpair()
        ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 20)
        ours.setblocking(False)
        theirs.setblocking(False)
        stream = trio.SocketStream(trio.socket.from_stdlib_socket(ours))
        session = server.lobby.connect("127.0.0.1")
        session.mode = mode
        self.conn = TcpConnection(stream, session, 1000, server.pipeline.dirty)
        server.connections[session.id] = self.conn
        self.splitter = LineSplitter(server.settings.max_line_bytes)
        self.peer = theirs

    def output(self) -> bytes:
        """What the server sent since the last call."""
        data = b""
        while True:
            try:
                data += self.peer.recv(1 << 20)
            except BlockingIOError:
                return data

    def close(self) -> None:
        self.conn.stream.socket.close()
        self.peer.close()


class DurableMemoryStore(MemoryStore):
    """A store that keeps nothing but says it is durable (``--durable``): every play then
    takes a durable store's path through the server (its store commands made and awaited in
    the game's order, the snapshots of new deals and finished games made), without the cost
    of SQLite itself."""

    durable = True


async def run(
    matches: int, mode: Mode, durable: bool = False, at_once: int = 1, metrics: bool = False
) -> tuple[float, int, str]:
    """Play ``matches`` seeded random matches, ``at_once`` at a time (a move in each in turn);
    (seconds spent in the server, requests, digest of the output)."""
    # The connections come from a trusted address, as the load of bench_server.py and
    # bench_durable.py does: the per-address limits would refuse hundreds of them.
    settings = Settings(trusted_addresses=("127.0.0.1",))
    server = Server(settings, DurableMemoryStore() if durable else MemoryStore())
    if metrics:
        server.enable_metrics()
    rng = random.Random(1)
    digest = hashlib.sha256()
    spent = 0.0
    requests = 0

    async def send(seat: Seat, line: str) -> None:
        # As Server._read does for each line it receives.
        nonlocal spent, requests
        requests += 1
        started = time.perf_counter()
        for item in seat.splitter.feed(f"{line}\n".encode()):
            await server.pipeline.answer(seat.conn, item)
            server.pipeline.flush()
        spent += time.perf_counter() - started

    async def start(number: int) -> tuple[str, tuple[Seat, Seat]]:
        seats = (Seat(server, mode), Seat(server, mode))
        game = f"g{number + 1}"
        await send(seats[0], f"new hipparchus seed={number}")
        await send(seats[0], f"join {game}")
        await send(seats[1], f"join {game}")
        for seat in seats:
            lines = seat.output().split(b"\n")
            digest.update(b"\n".join(line for line in lines if b"token" not in line))
        return game, seats

    async def move(game: str, seats: tuple[Seat, Seat]) -> bool:
        """One move of ``game`` (``legal``, then a random legal ``play``); False once over."""
        table = server.lobby.tables[game]
        if table.game.outcome is not None:
            for seat in seats:
                seat.close()
            return False
        (to_move,) = table.game.seats_to_move()
        seat = seats[to_move]
        await send(seat, f"legal {game}")
        digest.update(seat.output())
        moves = [table.game.format_move(m) for m in table.game.legal_moves(to_move)]
        await send(seat, f"play {game} {rng.choice(moves)}")
        for seat in seats:
            digest.update(seat.output())
        return True

    for first in range(0, matches, at_once):
        playing = [await start(number) for number in range(first, min(first + at_once, matches))]
        while playing:
            playing = [(game, seats) for game, seats in playing if await move(game, seats)]
    return spent, requests, digest.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=150, help="matches per run (default 150)")
    parser.add_argument("--repeat", type=int, default=5, help="runs; the best counts (default 5)")
    parser.add_argument("--json", action="store_true", help="JSON-mode connections")
    parser.add_argument(
        "--durable", action="store_true", help="a store that says it is durable (see above)"
    )
    parser.add_argument(
        "--at-once",
        type=int,
        default=1,
        metavar="N",
        help="matches played at once, a move in each in turn (default 1; bench_server has 100)",
    )
    parser.add_argument(
        "--metrics", action="store_true", help="count the Prometheus metrics as the daemon does"
    )
    args = parser.parse_args()
    mode = Mode.JSON if args.json else Mode.TEXT
    times = []
    for _ in range(args.repeat):
        spent, requests, digest = trio.run(
            run, args.matches, mode, args.durable, args.at_once, args.metrics
        )
        times.append(spent / max(requests, 1) * 1e6)
    if not requests:
        print("no matches played: start-up only")
        return
    times.sort()
    store = "a durable store" if args.durable else "a store that keeps nothing"
    counted = ", metrics counted" if args.metrics else ""
    print(f"{requests} requests per run ({mode} mode, {store}{counted}), {args.repeat} runs")
    print(
        f"  server time per request: best {times[0]:.1f} us, median {times[len(times) // 2]:.1f} us"
    )
    print(f"  output digest: {digest}")


if __name__ == "__main__":
    main()
