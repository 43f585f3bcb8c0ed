"""Benchmark load: a fixed amount of work for a running daemon, to count its instructions.

bench_server.py and bench_durable.py measure rates and CPU time. On a shared two-core machine
those move by 10-20 % from run to run, so a change of a few per cent in the daemon's whole
path (its reader loop, trio's scheduling, the sockets, the store) cannot be seen in them.
This script plays ``--matches`` seeded matches at once against a daemon that is already
running. Each seat asks ``state``, then ``legal``, then plays a random legal move chosen from
the match's seed. The work is the same from run to run, so the daemon's instruction count,
taken under callgrind, can be compared between two versions. Subtract a run with no load to
leave start-up out:

    valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out \\
        .venv/bin/python -m hipparchusd --port 7470 --state-dir none \\
        --trusted-addresses 127.0.0.1 &
    # once it answers (a minute under valgrind):
    .venv/bin/python bench/bench_fixed_load.py --port 7470 --matches 50
    kill -TERM %1; wait; grep ^summary /tmp/cg.out

``--state-dir DIR`` instead of ``none`` counts a durable store's path. callgrind does not
follow the store's writer process, so its own instructions are left out. The script prints
the requests it made and a digest of the responses. Two versions of the daemon that print the
same digest answered the same.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import re

import trio


class Seat:
    """One connection: a request at a time, its response's lines kept, events skipped."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.buffer = b""

    async def line(self) -> str:
        while b"\n" not in self.buffer:
            data = await self.stream.receive_some(65536)
            if not data:
                raise EOFError("the daemon closed the connection")
            self.buffer += data
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode()

    async def request(self, text: str, log: list[str]) -> list[str]:
        """Send ``text``; its response's lines, up to its closing empty line."""
        await self.stream.send_all(text.encode() + b"\n")
        lines = []
        while (line := await self.line()) != "":
            if not line.startswith("*"):
                lines.append(line)
        log.append("> " + text)
        log.extend(line for line in lines if "token=" not in line)
        return lines


async def match(port: int, number: int, log: list[str]) -> None:
    """Play match ``number`` (its deal and its moves seeded by the number) to its end."""
    rng = random.Random(number)
    seats = []
    for _ in range(2):
        seat = Seat(await trio.open_tcp_stream("127.0.0.1", port))
        await seat.line()  # the greeting
        seats.append(seat)
    created = await seats[0].request(f"new hipparchus seed={number}", log)
    game = created[0].split("game=")[1].split()[0]
    for seat in seats:
        await seat.request(f"join {game}", log)
    while "status=over" not in " ".join(await seats[0].request(f"state {game}", log)):
        for seat in seats:
            moves = (await seat.request(f"legal {game}", log))[0][2:].split()
            if moves:
                await seat.request(f"play {game} {rng.choice(moves)}", log)
                break
    for seat in seats:
        await seat.stream.aclose()
    # Game ids are given in the order the matches' ``new`` arrive, which varies.
    log[:] = [re.sub(rf"\b{game}\b", "<game>", line) for line in log]


async def load(port: int, matches: int) -> tuple[int, str]:
    """Play ``matches`` matches at once; (requests made, digest of their answers)."""
    logs: list[list[str]] = [[] for _ in range(matches)]
    async with trio.open_nursery() as nursery:
        for number in range(matches):
            nursery.start_soon(match, port, number, logs[number])
    digest = hashlib.sha256()
    requests = 0
    for log in logs:
        digest.update("\n".join(log).encode())
        requests += sum(1 for line in log if line.startswith("> "))
    return requests, digest.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=7460, help="the daemon's port (7460)")
    parser.add_argument("--matches", type=int, default=50, help="matches at once (50)")
    args = parser.parse_args()
    requests, digest = trio.run(load, args.port, args.matches)
    print(f"{args.matches} matches, {requests} requests; answers digest: {digest}")


if __name__ == "__main__":
    main()
