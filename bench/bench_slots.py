"""Trial: can one client deny the service to everyone else? (issue 16 items 1, 2 and 6)

Runs a ``hipparchusd`` subprocess (``--state-dir none``, the default limits unless given) and
attacks it from 127.0.0.1 while a bystander connects from 127.0.0.2 (another peer address on
the loopback interface). Printed, per trial:

1. slots: the attacker opens ``--connections`` connections (default 1,000) that read the
   greeting and send nothing: how many the daemon kept, how many it refused with ``? limit``,
   and whether the bystander is greeted and answered, with its round-trip time.
2. slowloris: ``--trickle`` connections (default 100) each send one byte every second and
   never a line end: how many the daemon closed, and after how long (``--request-timeout``,
   lowered to 3 s here so the trial is short), while the bystander is still served.
3. games: one connection runs ``new`` then ``join`` as fast as it can for ``--games`` rounds
   (default 1,000): how many games it got before ``? limit``, in how long, and whether the
   bystander's ``new`` succeeds afterwards.
4. pipeline: a client pipelines ``--pipelined`` ``help`` requests (default 3,000) and reads
   the answers steadily with a small receive buffer, for longer than the idle timeout
   (lowered to 1 s): whether every answer arrives.

    .venv/bin/python bench/bench_slots.py [--connections 1000] [--games 1000]
"""

from __future__ import annotations

import argparse
import contextlib
import resource
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import trio

REPO = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def _daemon(*options: str) -> Iterator[int]:
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "hipparchusd", "--config", "", "--state-dir", "none",
         "--port", str(port), *options],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port)):
                break
            time.sleep(0.05)
        yield port
    finally:
        process.terminate()
        process.wait(10)


class Line:
    """A minimal line client over a trio socket."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.buffer = bytearray()

    @classmethod
    async def open(cls, port: int, source: str = "127.0.0.1", rcvbuf: int | None = None) -> Line:
        sock = trio.socket.socket(trio.socket.AF_INET, trio.socket.SOCK_STREAM)
        if rcvbuf is not None:
            sock.setsockopt(trio.socket.SOL_SOCKET, trio.socket.SO_RCVBUF, rcvbuf)
        await sock.bind((source, 0))
        await sock.connect(("127.0.0.1", port))
        return cls(trio.SocketStream(sock))

    async def line(self) -> str:
        while b"\n" not in self.buffer:
            data = await self.stream.receive_some(65536)
            if not data:
                raise EOFError
            self.buffer += data
        end = self.buffer.index(b"\n")
        text = self.buffer[:end].decode()
        del self.buffer[: end + 1]
        return text

    async def reply(self) -> list[str]:
        """The lines of the next response (events skipped)."""
        while True:
            first = await self.line()
            if first.startswith(("=", "?")):
                break
        lines = [first]
        while (more := await self.line()) != "":
            lines.append(more)
        return lines

    async def request(self, text: str) -> list[str]:
        await self.stream.send_all(text.encode() + b"\n")
        return await self.reply()

    async def aclose(self) -> None:
        with contextlib.suppress(Exception):
            await self.stream.aclose()


async def _bystander(port: int) -> str:
    start = time.perf_counter()
    try:
        with trio.fail_after(5):
            client = await Line.open(port, "127.0.0.2")
            hello = await client.line()
            answer = await client.request("name")
            await client.aclose()
    except (OSError, EOFError, trio.TooSlowError) as error:
        return f"NOT served ({type(error).__name__})"
    ms = (time.perf_counter() - start) * 1000
    ok = hello.startswith("* server hello") and answer[0].startswith("=")
    return f"{'served' if ok else 'NOT served'} in {ms:.1f} ms"


@contextlib.asynccontextmanager
async def _many(port: int, count: int) -> AsyncIterator[tuple[list[Line], int]]:
    kept: list[Line] = []
    refused = 0
    for _ in range(count):
        client = await Line.open(port)
        first = await client.line()
        if first.startswith("? limit"):
            refused += 1
            await client.aclose()
        else:
            kept.append(client)
    try:
        yield kept, refused
    finally:
        for client in kept:
            await client.aclose()


async def trial_slots(port: int, count: int) -> None:
    async with _many(port, count) as (kept, refused):
        print(f"slots: {count} idle connections from one address: {len(kept)} kept, "
              f"{refused} refused with '? limit'; bystander {await _bystander(port)}")  # fmt: skip


async def trial_slowloris(port: int, count: int, timeout: float) -> None:
    async with _many(port, count) as (kept, refused):
        start = trio.current_time()
        closed_after: list[float] = []

        async def trickle(client: Line) -> None:
            try:
                while trio.current_time() - start < timeout * 4:
                    await client.stream.send_all(b"x")
                    await trio.sleep(1.0)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass
            with contextlib.suppress(EOFError, trio.BrokenResourceError):
                with trio.move_on_after(timeout * 4):
                    while True:
                        await client.line()
            closed_after.append(trio.current_time() - start)

        async with trio.open_nursery() as nursery:
            for client in kept:
                nursery.start_soon(trickle, client)
            await trio.sleep(timeout / 2)
            during = await _bystander(port)
        worst = max(closed_after) if closed_after else float("nan")
        print(
            f"slowloris: {len(kept)} connections sending a byte a second ({refused} refused "
            f"at connect): all closed within {worst:.1f} s as the clients saw it (up to 1 s "
            f"late; request-timeout {timeout:g} s); bystander meanwhile {during}"
        )


async def _greeted(port: int, source: str = "127.0.0.1") -> Line:
    """A greeted connection, retried while the server still counts closed ones (its per-address
    count drops as it notices them go)."""
    while True:
        client = await Line.open(port, source)
        if (await client.line()).startswith("* server hello"):
            return client
        await client.aclose()
        await trio.sleep(0.05)


async def trial_games(port: int, rounds: int) -> None:
    client = await _greeted(port)
    got, refusal = 0, ""
    start = time.perf_counter()
    for _ in range(rounds):
        answer = await client.request("new hipparchus")
        if not answer[0].startswith("="):
            refusal = answer[0]
            break
        game = answer[0].split("game=")[1]
        await client.request(f"join {game}")
        got += 1
    seconds = time.perf_counter() - start
    other = await Line.open(port, "127.0.0.2")
    await other.line()
    theirs = (await other.request("new hipparchus"))[0]
    print(f"games: one connection got {got} games in {seconds * 1000:.0f} ms, then "
          f"{refusal!r}; bystander's new: {theirs!r}")  # fmt: skip
    await other.aclose()
    await client.aclose()


async def trial_pipeline(port: int, count: int) -> None:
    client = await Line.open(port, rcvbuf=4096)
    await client.line()
    await client.stream.send_all(b"".join(f"{n} help\n".encode() for n in range(1, count + 1)))
    start = time.perf_counter()
    answered = 0
    try:
        for n in range(1, count + 1):
            await client.reply()
            answered += 1
            if n % 20 == 0:
                await trio.sleep(0.01)
    except EOFError:
        pass
    seconds = time.perf_counter() - start
    print(f"pipeline: {answered} of {count} pipelined answers read over {seconds:.1f} s "
          f"(idle timeout 1 s)")  # fmt: skip
    await client.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--connections", type=int, default=1000)
    parser.add_argument("--trickle", type=int, default=100)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--pipelined", type=int, default=3000)
    args = parser.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with _daemon() as port:
        trio.run(trial_slots, port, args.connections)
        trio.run(trial_games, port, args.games)
    with _daemon("--request-timeout", "3", "--max-connections-per-address", "200") as port:
        trio.run(trial_slowloris, port, args.trickle, 3.0)
    with _daemon("--idle-timeout", "1", "--outbound-queue", "8") as port:
        trio.run(trial_pipeline, port, args.pipelined)


if __name__ == "__main__":
    main()
