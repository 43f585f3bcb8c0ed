"""Games the store kept come back after a restart: seats, tokens, position, and new ids after
theirs."""

from __future__ import annotations

from typing import Any

import pytest

from hipparchusd.games.hipparchus import HipparchusGame
from hipparchusd.lobby import Lobby, token_digest
from hipparchusd.records import StoredGame, StoredSeat
from hipparchusd.store.base import MemoryStore

from .client import Client
from .conftest import StartServer
from .helpers import DEAL, HAND1


class KeepingStore(MemoryStore):
    """An in-memory store that keeps what it is told, as a real store would."""

    durable = True

    def __init__(self, games: dict[str, dict[str, Any]] | None = None) -> None:
        self.games = games if games is not None else {}

    async def load_unfinished(self) -> list[StoredGame]:
        return [
            StoredGame(
                g["id"],
                g["kind"],
                g["options"],
                g["created_at"],
                tuple(g["seats"]),
                g["snapshot"],
                tuple(g["moves"]),
                False,
            )
            for g in self.games.values()
            if not g["finished"]
        ]

    async def create_game(
        self, game_id: str, kind: str, options: dict[str, str], created_at: float
    ) -> None:
        self.games[game_id] = {
            "id": game_id, "kind": kind, "options": options, "created_at": created_at,
            "seats": [], "snapshot": None, "moves": [], "finished": False,
        }  # fmt: skip

    async def add_seat(self, game_id: str, seat: StoredSeat, snapshot: Any = None) -> None:
        self.games[game_id]["seats"].append(seat)
        if snapshot is not None:
            await self.snapshot(game_id, snapshot)

    async def snapshot(self, game_id: str, snapshot: Any) -> None:
        self.games[game_id]["snapshot"] = snapshot
        self.games[game_id]["moves"] = []

    async def add_move(self, game_id: str, seat: int, move: str, snapshot: Any = None) -> None:
        self.games[game_id]["moves"].append((seat, move))
        if snapshot is not None:
            await self.snapshot(game_id, snapshot)

    async def finish(self, game_id: str, record: Any) -> None:
        self.games[game_id]["finished"] = True


def test_a_waiting_game_comes_back_with_its_seat_and_token() -> None:
    lobby = Lobby()
    token = "ab" * 16
    stored = StoredGame(
        "g7", "hipparchus", {"leader": "0", "deal": DEAL}, 1.0,
        (StoredSeat(0, "alice", token_digest(token)),), None, (), False,
    )  # fmt: skip
    table = lobby.restore(stored)
    assert table.status == "waiting" and table.names == ["alice", None]
    with pytest.raises(ValueError, match="already loaded"):
        lobby.restore(stored)
    with pytest.raises(ValueError, match="unknown kind"):
        lobby.restore(StoredGame("g8", "chess", {}, 1.0, (), None, (), False))
    assert "g8" not in lobby.tables
    from hipparchusd.protocol import parse_request

    a = lobby.connect()
    request = parse_request(f"resume {token}")
    assert request is not None
    result = lobby.handle(a, request)
    assert result.response is not None and result.response.error is None
    new = parse_request("new hipparchus")
    assert new is not None
    created = lobby.handle(a, new)
    assert created.response is not None and created.response.text == ["game=g8"]


@pytest.mark.skipif(
    not hasattr(HipparchusGame, "restore"),
    reason="HipparchusGame.restore (store branch) is not merged into this branch yet",
)
async def test_a_game_in_progress_survives_a_restart(start_server: StartServer) -> None:
    store = KeepingStore()
    first = await start_server(store)
    a = await Client.connect(first.ports[0])
    b = await Client.connect(first.ports[0])
    game = (await a.ok(f"new hipparchus leader=0 deal={DEAL}")).fields()["game"]
    token_a = (await a.ok(f"join {game}")).fields()["token"]
    token_b = (await b.ok(f"join {game}")).fields()["token"]
    await a.ok(f"play {game} 1M@2")
    before = (await b.ok(f"state {game}")).fields()
    await a.aclose()
    await b.aclose()
    first.shutdown()
    await first.stopped.wait()

    second = await start_server(KeepingStore(store.games))
    b2 = await Client.connect(second.ports[0])
    after = (await b2.ok(f"resume {token_b}")).fields()
    for key in ("view.hand", "view.lead", "view.to_move", "view.hand_sizes", "players"):
        assert after[key] == before[key]
    assert after["view.hand"] == HAND1
    a2 = await Client.connect(second.ports[0])
    await a2.ok(f"resume {token_a}")
    assert (await b2.ok(f"play {game} 2M@8")).lines == ["2M@8"]
    assert (await a2.ok("new hipparchus")).fields()["game"] == "g2"
