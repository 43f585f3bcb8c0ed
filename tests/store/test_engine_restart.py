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


async def test_a_game_only_the_engine_plays_is_not_restored_at_a_restart(tmp_path: Path) -> None:
    """Nobody follows anything at a start: a game whose every seat is the engine's stays in the
    store (adjourned, as every started game), not counted against max-games, and searches
    nothing; restored at every start, fifty of them filled max-games for good (issue 24)."""
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

        server = await serve_sqlite(state_dir, nursery, engine_workers=1, max_games=1)
        assert game not in server.lobby.tables and server.games == 0
        client = await Client.connect(server.ports[0])
        refused = await client.fail(f"watch {game}", "unknown-game")
        assert "adjourned" in refused.text
        await client.ok("new hipparchus")  # the one place under max-games is free
        assert server.engines.moves.searches == 0
        await client.aclose()
        await stop(server)


async def test_a_game_only_the_engine_plays_nobody_follows_is_adjourned(tmp_path: Path) -> None:
    """Like any started game (before issue 24 it was kept, searching, for ever): once nobody
    follows it for the adjourn timeout it leaves memory and max-games, its searches stop."""
    state_dir = tmp_path / "state"
    async with trio.open_nursery() as nursery:
        server = await serve_sqlite(state_dir, nursery, engine_workers=1, adjourn_timeout=0.3)
        client = await Client.connect(server.ports[0])
        game = (await client.ok("new hipparchus seed=6 leader=0")).fields()["game"]
        await client.ok(f"bot {game} level=ismcts:10000ms")
        await client.ok(f"bot {game} level=ismcts:10000ms")
        with trio.fail_after(30):
            while game in server.lobby.tables:
                await trio.sleep(0.05)
            while server.engines.moves.searches:
                await trio.sleep(0.05)
        refused = await client.fail(f"watch {game}", "unknown-game")
        assert "adjourned" in refused.text
        await client.aclose()
        await stop(server)


async def test_an_ended_game_only_the_engine_plays_is_stored_as_abandoned(tmp_path: Path) -> None:
    state_dir = tmp_path / "state"
    async with trio.open_nursery() as nursery:
        server = await serve_sqlite(state_dir, nursery, engine_workers=1)
        client = await Client.connect(server.ports[0])
        game = (await client.ok("new hipparchus seed=6 leader=0")).fields()["game"]
        await client.ok(f"bot {game} level=ismcts:10000ms")
        await client.ok(f"bot {game} level=ismcts:10000ms")
        await client.ok(f"end {game}")
        await client.aclose()
        await stop(server)

        server = await serve_sqlite(state_dir, nursery, engine_workers=1)
        client = await Client.connect(server.ports[0])
        record = await client.ok(f"record {game}")
        assert "abandoned=true" in record.text
        await client.aclose()
        await stop(server)
