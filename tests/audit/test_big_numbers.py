"""Numbers longer than Python's int() accepts by default (4300 digits) on a server configured
with long lines: each is refused with its documented code, never ``internal``."""

from __future__ import annotations

import trio
from daemon.client import Client
from daemon.helpers import seated_game

from .conftest import StartServer


async def test_huge_numbers_get_their_documented_errors(start_server: StartServer) -> None:
    server = await start_server(max_line_bytes=65536)
    a, b = [await Client.connect(server.ports[0]) for _ in range(2)]
    game = await seated_game(a, b)
    digits = "9" * 5000
    with trio.fail_after(5):
        await a.fail(f"play {game} 1S@{digits}", "illegal-move")
        await a.fail(f"play {game} {digits}S@1", "illegal-move")
        await a.fail(f"join {game} {digits}", "syntax")
        await a.fail(f"new hipparchus seed={digits}", "bad-option")
        assert (await a.ok(f"play {game} 1S@1")).lines == ["1S@1"]
