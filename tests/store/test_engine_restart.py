"""The engine's seats survive a restart (issue 18): a daemon stopped while its engine seat
searches comes back with the seat still the engine's (``bot`` is stored with the seat), which
searches again and plays on once the game is loaded again (a seat's ``resume``: start-up
leaves started games in the store); the person's seat resumes with its token as ever."""

from __future__ import annotations

import sys
from pathlib import Path

import trio
from store_helpers import serve_sqlite

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the daemon tests' client
from daemon.client import Client, event_fields


async def stop(server: object) -> None:
    server.shutdown()  # type: ignore[attr-defined]
    with trio.fail_after(10):
        await server.stopped.wait()  # type: ignore[attr-defined]


async def test_a_restart_keeps_the_engines_seat_playing(tmp_path: Path) -> None:
    state_dir = tmp_path / "state"
    async with trio.open_nursery() as nursery:
        server = await serve_sqlite(state_dir, nursery, engine_workers=1)
        client = await Client.connect(server.ports[0])
        game = (await client.ok("new hipparchus seed=5 leader=1")).fields()["game"]
        token = (await client.ok(f"join {game} 0")).fields()["token"]
        # The engine leads with a long budget: the daemon stops while it searches.
        await client.ok(f"bot {game} level=ismcts:1500ms name=engine")
        await client.events_until(["to-move"])
        assert server.lobby.tables[game].seats[1].thinking
        await client.aclose()
        await stop(server)

        server = await serve_sqlite(state_dir, nursery, engine_workers=1)
        client = await Client.connect(server.ports[0])
        # A started game stays in the store until a seat resumes it; then its engine seat is
        # the engine's again.
        await client.ok(f"resume {token}")
        table = server.lobby.tables[game]
        assert table.seats[1].bot == "ismcts:1500ms" and table.names == ["player0", "engine"]
        # The engine searches again and plays; then it is the person's turn.
        events = await client.events_until(["to-move"], timeout=10)
        played = [event_fields(e)[3] for e in events if event_fields(e)[2] == "played"]
        assert played and played[0]["seat"] == "1"
        assert event_fields(events[-1])[3] == {"seats": "0"}
        move = (await client.ok(f"legal {game}")).lines[0].split()[0]
        await client.ok(f"play {game} {move}")
        await client.aclose()
        await stop(server)


async def test_a_game_only_the_engine_plays_goes_on_after_a_restart(tmp_path: Path) -> None:
    """Nobody would resume a game whose every seat is the engine's: start-up loads it at once
    (other started games stay in the store until a seat resumes them) and it plays on."""
    state_dir = tmp_path / "state"
    async with trio.open_nursery() as nursery:
        server = await serve_sqlite(state_dir, nursery, engine_workers=1)
        client = await Client.connect(server.ports[0])
        game = (await client.ok("new hipparchus seed=6 leader=0")).fields()["game"]
        await client.ok(f"watch {game}")
        await client.ok(f"bot {game} level=ismcts:300ms")
        await client.ok(f"bot {game} level=ismcts:300ms")
        await client.events_until(["played"], timeout=10)
        await client.aclose()
        await stop(server)

        server = await serve_sqlite(state_dir, nursery, engine_workers=1)
        assert game in server.lobby.tables
        client = await Client.connect(server.ports[0])
        await client.ok(f"watch {game}")
        events = await client.events_until(["played"], timeout=10)
        assert event_fields(events[-1])[3]["seat"] in ("0", "1")
        await client.aclose()
        await stop(server)
