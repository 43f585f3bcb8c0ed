"""One client must not hold every connection slot (issue 16 items 1, 6 and 7): a cap on the
connections of one peer address, a deadline for completing a request line, an idle timeout
that a trickle of bytes does not reset but a pipelining client being answered does not trip,
an answer for those who connect during the shutdown grace period, and a connection limit
lowered to what the open-file limit allows, with one log line."""

from __future__ import annotations

import errno
import logging
import subprocess
import sys
import textwrap
from typing import Any

import pytest
import trio

from hipparchusd.server import Server

from .client import Client
from .conftest import StartServer


async def _from(address: str, port: int) -> Client:
    """A client connecting from the loopback source ``address`` (another peer address)."""
    sock = trio.socket.socket(trio.socket.AF_INET, trio.socket.SOCK_STREAM)
    await sock.bind((address, 0))
    await sock.connect(("127.0.0.1", port))
    return Client(trio.SocketStream(sock))


async def _refused(client: Client) -> str:
    """The one line a refused connection gets, checking that it is then closed."""
    with trio.fail_after(3):
        line = await client.read_line()
        assert await client.read_line() == ""  # the end of the response
        with pytest.raises(EOFError):
            await client.read_line()
    return line


async def test_one_address_gets_only_so_many_connections(start_server: StartServer) -> None:
    server = await start_server(max_connections_per_address=3)
    port = server.ports[0]
    kept = [await Client.connect(port) for _ in range(3)]
    extra = await Client.connect(port, greet=False)
    line = await _refused(extra)
    assert line.startswith("? limit") and "max-connections-per-address 3" in line, line
    # Another address is served, and a closed connection frees its address's slot.
    other = await _from("127.0.0.2", port)
    assert (await other.read_line()).startswith("* server hello")
    await kept.pop().aclose()
    await trio.sleep(0.1)
    again = await Client.connect(port)
    await again.ok("name")
    for client in (*kept, other, again):
        await client.aclose()


async def test_trusted_addresses_are_exempt_only_when_configured(
    start_server: StartServer,
) -> None:
    server = await start_server(max_connections_per_address=1, trusted_addresses=("127.0.0.0/8",))
    clients = [await Client.connect(server.ports[0]) for _ in range(4)]
    for client in clients:
        await client.ok("name")
        await client.aclose()


async def test_a_request_line_must_be_completed_in_time(start_server: StartServer) -> None:
    server = await start_server(request_timeout=0.6, idle_timeout=0)
    client = await Client.connect(server.ports[0])
    start = trio.current_time()
    # Slowloris: a byte now and then, never the LF.
    with trio.move_on_after(5):
        try:
            for byte in b"protocol_version" * 10:
                await client.send(bytes([byte]))
                await trio.sleep(0.1)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
    line = await _refused(client)
    assert line.startswith("? limit request line not completed within 0.6 s"), line
    assert trio.current_time() - start < 2.5
    # A line completed in time is answered as usual.
    polite = await Client.connect(server.ports[0])
    await polite.send("prot")
    await trio.sleep(0.2)
    await polite.send("ocol_version\n")
    assert (await polite.read_reply()).lines == ["1"]
    await polite.aclose()


async def test_a_partial_line_does_not_keep_a_connection_alive(start_server: StartServer) -> None:
    server = await start_server(idle_timeout=0.6, request_timeout=0)
    client = await Client.connect(server.ports[0])
    start = trio.current_time()
    with trio.move_on_after(5):
        try:
            for _ in range(50):
                await client.send(b"n")
                await trio.sleep(0.1)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
    with trio.fail_after(3), pytest.raises(EOFError):
        await client.read_line()
    assert trio.current_time() - start < 2.5


async def test_idle_time_counts_from_the_last_request_answered(start_server: StartServer) -> None:
    """A client pipelines 1,500 requests at once and reads the answers steadily, for longer
    than the idle timeout (its small receive buffer holds the server back): it is not idle
    while they are answered, and is closed only an idle timeout after the last."""
    server = await start_server(idle_timeout=0.5, outbound_queue=8)
    sock = trio.socket.socket(trio.socket.AF_INET, trio.socket.SOCK_STREAM)
    sock.setsockopt(trio.socket.SOL_SOCKET, trio.socket.SO_RCVBUF, 4096)
    await sock.connect(("127.0.0.1", server.ports[0]))
    client = Client(trio.SocketStream(sock))
    assert (await client.read_line()).startswith("* server hello")
    count = 1500
    await client.send("".join(f"{n} help\n" for n in range(1, count + 1)))
    start = trio.current_time()
    for n in range(1, count + 1):
        reply = await client.read_reply()  # EOFError here: closed as idle mid-way
        assert reply.ok and reply.id == str(n)
        if n % 10 == 0:
            await trio.sleep(0.01)
    answered = trio.current_time()
    assert answered - start > 1.0  # longer than the idle timeout
    with trio.fail_after(3), pytest.raises(EOFError):
        await client.read_line()


async def test_a_connection_during_the_grace_period_is_told_and_closed(
    start_server: StartServer,
) -> None:
    server = await start_server(grace_period=3.0)
    staying = await Client.connect(server.ports[0])
    server.shutdown()
    assert (await staying.next_event()).startswith("* server shutdown grace=3")
    late = await Client.connect(server.ports[0], greet=False)
    line = await _refused(late)
    assert line.startswith("? shutting-down"), line
    await staying.aclose()


async def test_the_connection_limit_follows_the_open_file_limit(
    start_server: StartServer,
) -> None:
    server = await start_server(max_connections=100)
    server.file_capacity = 2  # as run.serve sets it when the open-file limit is too low
    kept = [await Client.connect(server.ports[0]) for _ in range(2)]
    extra = await Client.connect(server.ports[0], greet=False)
    assert (await _refused(extra)) == "? limit too many connections"
    for client in kept:
        await client.aclose()


def test_an_open_file_limit_too_low_is_logged_once_and_lowers_the_limit() -> None:
    script = textwrap.dedent(
        """
        import logging, resource
        logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
        resource.setrlimit(resource.RLIMIT_NOFILE, (200, 200))
        from hipparchusd.server.run import SPARE_FILES, ensure_open_files
        print("capacity", ensure_open_files(1000), 200 - SPARE_FILES)
        print("enough", ensure_open_files(10))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    capacity, expected = done.stdout.split("\n")[0].split()[1:]
    assert capacity == expected
    assert "enough None" in done.stdout
    assert done.stderr.count("WARNING") == 1
    assert "serving at most 136 connections" in done.stderr


class _FailingListener(trio.abc.Listener[Any]):
    async def accept(self) -> Any:
        await trio.sleep(0.01)
        raise OSError(errno.EMFILE, "Too many open files")

    async def aclose(self) -> None:
        pass


async def test_accept_failures_are_logged_once(
    start_server: StartServer, caplog: pytest.LogCaptureFixture
) -> None:
    server: Server = await start_server()
    caplog.set_level(logging.INFO, logger="hipparchusd.server")
    async with trio.open_nursery() as nursery:
        nursery.start_soon(server._accept, _FailingListener(), nursery)
        await trio.sleep(0.6)
        nursery.cancel_scope.cancel()
    failures = [r for r in caplog.records if "accept failed" in r.getMessage()]
    assert len(failures) == 1
