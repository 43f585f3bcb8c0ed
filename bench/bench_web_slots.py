"""Trial: can one address deny the web listener to every browser? (issue 24 item 1)

Runs a ``hipparchusd`` subprocess with its web listener (``--state-dir none``, the default
limits) and attacks it from 127.0.0.1: ``--connections`` connections (default 1,000), each
sending ``GET /ws HTTP/1.1`` and nothing more, and opening again ``--every`` seconds (default
10) after the daemon closes it. Meanwhile a browser from 127.0.0.2 (another peer address on
the loopback interface) makes real WebSocket handshakes one after another for ``--seconds``
(default 25), each given 5 s to be greeted. Printed: how many handshakes were served of those
tried, their median and longest time to the greeting, and what the attacker's connections got
(kept pending, refused with 429, closed at once).

    .venv/bin/python bench/bench_web_slots.py [--connections 1000] [--seconds 25]

Run it with another checkout's interpreter (its ``.venv/bin/python``) to measure that one: the
daemon is the ``hipparchusd`` that interpreter imports.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import resource
import statistics
import sys
import time

import trio
import wsproto
import wsproto.events as ws_events
from daemons import daemon


async def _stream(port: int, source: str) -> trio.SocketStream:
    sock = trio.socket.socket(trio.socket.AF_INET, trio.socket.SOCK_STREAM)
    await sock.bind((source, 0))
    await sock.connect(("127.0.0.1", port))
    return trio.SocketStream(sock)


async def _attacker(port: int, every: float, counts: collections.Counter[str]) -> None:
    """One attacking connection: a request line and nothing more, again after each close."""
    while True:
        try:
            stream = await _stream(port, "127.0.0.1")
        except OSError:
            counts["connect failed"] += 1
            await trio.sleep(every)
            continue
        try:
            await stream.send_all(b"GET /ws HTTP/1.1\r\n")
            first = await stream.receive_some(64)
            counts["refused 429" if first.startswith(b"HTTP/1.1 429") else "closed"] += 1
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            counts["reset"] += 1
        finally:
            with contextlib.suppress(Exception):
                await stream.aclose()
        await trio.sleep(every)


async def _handshake(port: int) -> float | None:
    """Seconds from connecting to the greeting of a browser-like session from 127.0.0.2, or
    ``None`` if it was not greeted within 5 s."""
    start = time.perf_counter()
    with trio.move_on_after(5):
        try:
            stream = await _stream(port, "127.0.0.2")
        except OSError:
            return None
        try:
            ws = wsproto.WSConnection(wsproto.ConnectionType.CLIENT)
            request = ws_events.Request(host=f"127.0.0.1:{port}", target="/ws")
            await stream.send_all(ws.send(request))
            while True:
                data = await stream.receive_some(65536)
                if not data:
                    return None
                ws.receive_data(data)
                for event in ws.events():
                    if isinstance(event, ws_events.RejectConnection):
                        return None
                    if isinstance(event, ws_events.TextMessage) and event.data.startswith(
                        "* server hello"
                    ):
                        return time.perf_counter() - start
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            return None
        finally:
            with contextlib.suppress(Exception):
                await stream.aclose()
    return None


async def trial(port: int, connections: int, every: float, seconds: float) -> None:
    counts: collections.Counter[str] = collections.Counter()
    served: list[float] = []
    tried = 0
    async with trio.open_nursery() as nursery:
        for _ in range(connections):
            nursery.start_soon(_attacker, port, every, counts)
        await trio.sleep(2)  # the attack in place
        end = trio.current_time() + seconds
        while trio.current_time() < end:
            tried += 1
            took = await _handshake(port)
            if took is not None:
                served.append(took)
            await trio.sleep(0.5)
        nursery.cancel_scope.cancel()
    times = (
        f"median {statistics.median(served) * 1000:.0f} ms, longest {max(served) * 1000:.0f} ms"
        if served
        else "none"
    )
    attacker = ", ".join(f"{n} {what}" for what, n in sorted(counts.items()))
    print(
        f"web slots: {connections} connections from one address sending a request line every "
        f"{every:g} s; a browser from another address for {seconds:g} s: {len(served)} of "
        f"{tried} handshakes served ({times}); the attacker's connections: {attacker}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=1000)
    parser.add_argument("--every", type=float, default=10.0)
    parser.add_argument("--seconds", type=float, default=25.0)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, max(soft, 4 * args.connections + 256))
    resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    print(f"daemon: the hipparchusd of {sys.executable}")
    with daemon(web=True) as running:
        port = running.web_port
        assert port is not None
        trio.run(trial, port, args.connections, args.every, args.seconds)


if __name__ == "__main__":
    main()
