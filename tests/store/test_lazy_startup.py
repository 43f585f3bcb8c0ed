"""Start-up leaves started games adjourned, reading only their ids: however many the store
holds, the daemon greets at once, accepts ``new`` up to ``max-games``, and loads a game when
one of its seats resumes it (issue 16 item 3)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import trio
from store_helpers import serve_sqlite, stored_seat

from hipparchusd.games.hipparchus import HipparchusGame
from hipparchusd.games.hipparchus.codec import converter
from hipparchusd.lobby import Lobby
from hipparchusd.protocol import parse_request
from hipparchusd.store.sqlite import SqliteStore

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the daemon tests' client
from daemon.client import Client

GAMES = 40


async def test_stored_games_in_progress_neither_load_nor_count_at_start_up(
    state_dir: Path,
) -> None:
    game = HipparchusGame(seed=4, first_leader=0)
    game.start()
    snapshot = converter.unstructure(game.record())
    async with SqliteStore.open(state_dir) as store:
        for number in range(1, GAMES + 1):
            game_id = f"g{number}"
            await store.create_game(game_id, "hipparchus", {"seed": "4", "leader": "0"}, 1.0)
            await store.add_seat(game_id, stored_seat(0, f"a{number}"))
            await store.add_seat(game_id, stored_seat(1, f"b{number}"), snapshot)

    async with trio.open_nursery() as nursery:
        server = await serve_sqlite(state_dir, nursery, max_games=5)
        assert server.lobby.active_games == 0 and not server.lobby.tables
        client = await Client.connect(server.ports[0])
        for _ in range(5):  # the stored games take no place under max-games
            await client.ok("new hipparchus")
        reply = await client.fail("new hipparchus", "limit")
        assert "max-games" in reply.text
        # New games are numbered after the stored ones.
        assert sorted(server.lobby.tables) == sorted(f"g{GAMES + n}" for n in range(1, 6))
        reply = await client.fail("state g7", "unknown-game")
        assert "adjourned" in reply.text
        # A seat's resume would load its game, but the 5 new games fill max-games.
        await client.fail("resume token-a7", "limit")
        await client.aclose()
        server.shutdown()

    async with trio.open_nursery() as nursery:
        # The 5 games waiting for players come back at start-up; one place is left.
        server = await serve_sqlite(state_dir, nursery, max_games=6)
        assert server.lobby.active_games == 5
        client = await Client.connect(server.ports[0])
        await client.ok("format json")
        state = (await client.ok("resume token-b7")).json()
        assert state["game"] == "g7" and state["status"] == "playing"
        assert state["view"] == converter.unstructure(game.view(1))
        assert "g7" in server.lobby.tables and server.lobby.active_games == 6
        await client.aclose()
        server.shutdown()


def test_noting_many_adjourned_ids_is_quick_and_keeps_the_newest() -> None:
    lobby = Lobby(adjourned_kept=10_000)
    ids = [f"g{n}" for n in range(1, 50_001)]
    start = time.perf_counter()
    lobby.adjourn_stored(ids)
    assert time.perf_counter() - start < 1.0  # was quadratic: seconds for 31,000
    session = lobby.connect()
    request = parse_request("state g50000")
    assert request is not None
    response = lobby.handle(session, request).response
    assert response is not None and response.error is not None
    assert "adjourned" in response.error.message
    request = parse_request("new hipparchus")
    assert request is not None
    response = lobby.handle(session, request).response
    assert response is not None and response.data == {"game": "g50001"}
