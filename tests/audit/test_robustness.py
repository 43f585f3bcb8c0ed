"""Bad bytes, odd framing and awkward timing over real TCP (PROTOCOL.md sections 1-3 and 7):
each gets its documented answer, and the connection and the game stay sound."""

from __future__ import annotations

import pytest
import trio
from daemon.client import Client, event_fields
from daemon.helpers import seated_game

from .conftest import StartServer

LIMIT = 4096


async def _clients(port: int, count: int) -> list[Client]:
    return [await Client.connect(port) for _ in range(count)]


def _padded(command: bytes, total: int, crlf: bool = False) -> bytes:
    """``command`` padded with spaces to a line of ``total`` bytes, its LF (and CR) included."""
    end = b"\r\n" if crlf else b"\n"
    return command + b" " * (total - len(command) - len(end)) + end


@pytest.mark.parametrize("crlf", [False, True])
@pytest.mark.parametrize("chunk", [None, 1000, 4095])
async def test_lines_around_the_limit(
    start_server: StartServer, crlf: bool, chunk: int | None
) -> None:
    server = await start_server()
    client = await Client.connect(server.ports[0])
    data = b"".join(
        [
            _padded(b"1 name", LIMIT - 1, crlf),
            _padded(b"2 name", LIMIT, crlf),
            _padded(b"3 name", LIMIT + 1, crlf),  # too long: no id in the answer
            _padded(b"4 name", 3 * LIMIT + 7, crlf),  # one answer, however long
            b"5 name\n",
        ]
    )
    if chunk is None:
        await client.send(data)
    else:
        for start in range(0, len(data), chunk):
            await client.send(data[start : start + chunk])
            await trio.sleep(0)
    replies = [await client.read_reply() for _ in range(5)]
    assert [(r.ok, r.id) for r in replies] == [
        (True, "1"),
        (True, "2"),
        (False, ""),
        (False, ""),
        (True, "5"),
    ]
    assert replies[2].code == replies[3].code == "line-too-long"
    assert (await client.ok("6 name")).id == "6"


async def test_bad_bytes_get_syntax_and_change_nothing(start_server: StartServer) -> None:
    server = await start_server()
    a, b, w = await _clients(server.ports[0], 3)
    game = await seated_game(a, b)
    await w.ok(f"watch {game}")
    before = (await w.ok(f"state {game}")).text
    for line, code in [
        (b"name\x00\n", "syntax"),
        (b"\x00\n", "syntax"),
        (b"1 na\x00me\n", "syntax"),
        (f"2 play {game} 1S@1\x00\n".encode(), "illegal-move"),
        (f"3 play {game}\x001S@1\n".encode(), "syntax"),
        (f"4 play {game} 1S@\xff1\n".encode("latin-1"), "syntax"),
        (b"5 name \xc3\n", "syntax"),  # a truncated sequence
        (b"6 name \xed\xa0\x80\n", "syntax"),  # a surrogate
        (b"7 name \xc0\xaf\n", "syntax"),  # an overlong encoding
        (b"8 name\x0b\n", "syntax"),  # vertical tab is not a separator
        (b"9 name\r\r\n", "syntax"),  # only one CR is dropped
        ("10 name \u2028 x\n".encode(), "syntax"),
        (b"0000000001 name\n", "syntax"),  # ten digits, leading zeros or not
        (b"12345678901 name\n", "syntax"),
        (b"11\n", "syntax"),
        (b"NAME\n", "syntax"),
        ("\uff11 name\n".encode(), "syntax"),  # a full-width digit is no id
    ]:
        await a.send(line)
        with trio.fail_after(5):
            reply = await a.read_reply()
        assert not reply.ok and reply.code == code, (line, reply)
        first = reply.lines[0]
        assert "\n" not in first and "\r" not in first
    assert (await w.ok(f"state {game}")).text == before
    assert not [e for e in w.events if event_fields(e)[0] == game and "played" in e]
    # Ids: up to nine digits, echoed exactly; tabs separate words.
    assert (await a.ok("000000001 name")).id == "000000001"
    assert (await a.ok("123456789\tname")).id == "123456789"
    assert (await a.ok(f"\t7\tstate\t{game}\t")).id == "7"
    await a.ok(f"play\t{game}\t1S@1")


async def test_many_pipelined_requests_in_one_packet(start_server: StartServer) -> None:
    server = await start_server()
    a, b = await _clients(server.ports[0], 2)
    game = await seated_game(a, b)
    commands = ["name", f"state {game}", "frobnicate", f"legal {game}", "version", "games", "x!"]
    lines = [f"{i} {commands[i % len(commands)]}" for i in range(1, 601)]
    await a.send("".join(line + "\n" for line in lines))
    replies = [await a.read_reply() for _ in lines]
    assert [r.id for r in replies] == [str(i) for i in range(1, 601)]
    for i, reply in enumerate(replies, 1):
        command = commands[i % len(commands)]
        assert reply.ok == (command not in ("frobnicate", "x!")), (command, reply)


async def test_a_line_cut_by_a_dropped_connection_is_not_carried_out(
    start_server: StartServer,
) -> None:
    server = await start_server()
    a, b = await _clients(server.ports[0], 2)
    game = await seated_game(a, b)  # seat 0 holds SMSMSMSMSMEEEE and leads
    # ``play g1 1S@11`` would be illegal (card 11 is an Earth), but the connection drops after
    # ``play g1 1S@1``: a legal move, if the server took the unfinished line for a request.
    await a.send(f"play {game} 1S@1")
    await a.stream.send_eof()
    with trio.fail_after(5):
        rest = b""
        while data := await a.stream.receive_some(1000):
            rest += data
    lines = rest.decode().split("\n")
    assert not [x for x in lines if x.startswith(("=", "?")) or " played " in x], rest
    await b.events_until(["disconnected"])
    state = (await b.ok(f"state {game}")).fields()
    assert state["view.lead"] == "-" and state["view.hand_sizes"] == "14,14", state


async def test_quit_with_events_pending(start_server: StartServer) -> None:
    server = await start_server()
    a, b = await _clients(server.ports[0], 2)
    game = await seated_game(a, b)
    await a.send(f"1 play {game} 1S@1\n2 quit\n3 name\n")
    with trio.fail_after(5):
        rest = b""
        while data := await a.stream.receive_some(65536):
            rest += data
    text = rest.decode()
    # The play's answer, its events, the quit's answer; nothing for what followed the quit.
    assert text.index("=1 1S@1\n\n") < text.index(" played seat=0 ") < text.index("=2\n\n")
    assert text.endswith("=2\n\n"), text
    events = await b.events_until(["disconnected"])
    assert [event_fields(e)[2] for e in events][-1] == "disconnected"
    assert (await b.ok(f"state {game}")).fields()["view.lead"] == "1S"


async def test_idle_timeout_spares_seats_and_spectators(start_server: StartServer) -> None:
    server = await start_server(idle_timeout=0.3)
    port = server.ports[0]
    idle, seated, watcher, creator = await _clients(port, 4)
    game = (await creator.ok("new hipparchus")).fields()["game"]
    await seated.ok(f"join {game}")  # waits for an opponent: not idle
    await watcher.ok(f"watch {game}")
    with trio.fail_after(5):
        assert await idle.stream.receive_some(100) == b""
        assert await creator.stream.receive_some(100) == b""  # created, but follows nothing
    await trio.sleep(0.5)
    assert (await seated.ok("name")).ok and (await watcher.ok("name")).ok
    assert server.connection_count == 2
