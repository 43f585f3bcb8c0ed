"""Flow control: a client that pipelines many requests and reads the answers must get every
answer (PROTOCOL.md section 7 closes only a connection that does not read), and a client that
stops reading must neither block others nor be kept at the cost of unbounded memory."""

from __future__ import annotations

import time

import trio
from daemon.client import Client

from .conftest import StartServer


async def _pipeline(client: Client, line: bytes, count: int) -> int:
    """Send ``count`` copies of ``line`` in one write while reading; return answers read."""
    answered = 0

    async def read() -> None:
        nonlocal answered
        for _ in range(count):
            reply = await client.read_reply()
            assert reply.ok, reply
            answered += 1

    with trio.move_on_after(20):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(read)
            await client.send(line * count)
    return answered


async def test_a_client_that_pipelines_and_reads_gets_every_answer(
    start_server: StartServer,
) -> None:
    server = await start_server()  # the default queue of 256 messages
    client = await Client.connect(server.ports[0])
    # ``help`` answers are long (about 1.5 kB each): 2000 of them are far more than the queue
    # and the socket buffers hold, so the server must wait for the client to read.
    assert await _pipeline(client, b"help\n", 2000) == 2000
    assert (await client.ok("name")).lines == ["hipparchusd"]
    await client.aclose()


async def test_a_pipelining_client_does_not_starve_the_others(start_server: StartServer) -> None:
    server = await start_server()
    port = server.ports[0]
    hog = await Client.connect(port)
    other = await Client.connect(port)
    worst = 0.0

    async def measure() -> None:
        nonlocal worst
        for _ in range(40):
            start = time.perf_counter()
            await other.ok("protocol_version")
            worst = max(worst, time.perf_counter() - start)
            await trio.sleep(0.005)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(measure)
        for _ in range(3):
            assert await _pipeline(hog, b"name\n", 13000) == 13000  # 64 kB of requests
    # Generous for a loaded 2-core machine (about 0.3 ms unloaded); a server that answers a
    # whole 64 kB packet of requests before letting anyone else in took 80-95 ms.
    assert worst < 0.04, worst
