"""A rejected command changes nothing (PROTOCOL.md section 3): for every kind of refusal, from
seats, a spectator and a stranger, before the start, mid-round and after the end, the whole
lobby (game record, every view, seq, seats, tokens, followers) is the same afterwards and no
connection received an event."""

from __future__ import annotations

from typing import Any

import trio
from daemon.client import Client
from daemon.helpers import DEAL

from hipparchusd.games.hipparchus.codec import converter
from hipparchusd.server import Server

from .conftest import StartServer


def _lobby_snapshot(server: Server) -> Any:
    lobby = server.lobby
    tables = {}
    for game_id, table in lobby.tables.items():
        game = table.game
        tables[game_id] = (
            converter.unstructure(game.record()),
            [converter.unstructure(game.view(seat)) for seat in (0, 1, None)],
            table.seq,
            list(table.names),
            [None if s.holder is None else s.holder.id for s in table.seats],
            [s.token_digest for s in table.seats],
            [s.id for s in table.spectators],
            table.started,
            table.finished,
        )
    sessions = {
        s.id: (str(s.mode), dict(s.seats), sorted(s.watching)) for s in lobby.sessions.values()
    }
    return tables, sessions, dict(lobby._tokens), lobby._next_game, list(lobby._finished)


async def _refuse_all(
    server: Server, clients: dict[str, Client], cases: list[tuple[str, str, str]]
) -> None:
    """Send each (client, line, code) case and check it changed nothing and sent no event."""
    for who, line, code in cases:
        for client in clients.values():
            await client.ok("name")  # the events of what came before have arrived
        before = _lobby_snapshot(server)
        counts = {name: len(c.events) for name, c in clients.items()}
        with trio.fail_after(5):
            await clients[who].fail(line, code)
            for client in clients.values():
                await client.ok("name")  # any event caused would have arrived by now
        assert _lobby_snapshot(server) == before, (who, line)
        assert {name: len(c.events) for name, c in clients.items()} == counts, (who, line)


async def test_refusals_change_nothing(start_server: StartServer) -> None:
    server = await start_server(max_games=2)
    port = server.ports[0]
    a, b, w, x = [await Client.connect(port) for _ in range(4)]
    clients = {"a": a, "b": b, "w": w, "x": x}
    await b.ok("format json")
    game = (await x.ok(f"new hipparchus leader=0 deal={DEAL}")).fields()["game"]
    token_a = (await a.ok(f"join {game} 0 name=alice")).fields()["token"]
    await w.ok(f"watch {game}")
    general = [
        ("x", "new chess", "unknown-kind"),
        ("x", "new hipparchus leader=2", "bad-option"),
        ("x", "new hipparchus seed=1 seed=2", "bad-option"),
        ("x", "new hipparchus deal=SSSSSSSSSSSSSS/MMMMMMMMMMEEEE/EE", "bad-option"),
        ("x", "new hipparchus =1", "syntax"),
        ("x", "state g99", "unknown-game"),
        ("x", f"state {game} {game}", "syntax"),
        ("x", "frobnicate", "unknown-command"),
        ("x", "help frobnicate", "unknown-command"),
        ("x", "format yaml", "syntax"),
        ("x", f"unwatch {game}", "not-following"),
        ("x", f"leave {game}", "not-following"),
        ("x", f"resume {'f' * 32}", "bad-token"),
        ("x", f"resume {token_a}x", "bad-token"),
        ("x", f"resume {token_a.upper()}", "bad-token"),
        ("x", f"record {game}", "game-not-over"),
        ("w", f"resume {'0' * 32}", "bad-token"),
    ]
    waiting = [
        ("x", f"join {game} 0", "seat-taken"),
        ("x", f"join {game} 2", "syntax"),
        ("x", f"join {game} 01x", "syntax"),
        ("x", f"join {game} 1 name=b@d", "bad-option"),
        ("x", f"join {game} 1 colour=red", "bad-option"),
        ("x", f"join {game} 1 name=" + "n" * 33, "bad-option"),
        ("a", f"join {game} 1", "already-seated"),
        ("a", f"watch {game}", "already-seated"),
        ("a", f"legal {game}", "not-started"),
        ("a", f"play {game} 1S@1", "not-started"),
        ("a", f"resign {game}", "not-started"),
        ("w", f"legal {game}", "not-seated"),
    ]
    await _refuse_all(server, clients, general + waiting)

    token_b = (await b.ok(f"join {game} 1 name=bob")).json()["token"]
    await a.ok(f"play {game} 1S@1")  # seat 1 to follow a Sun
    playing = [
        ("x", f"join {game}", "seat-taken"),
        ("x", f"join {game} 1", "seat-taken"),
        ("x", f"legal {game}", "not-seated"),
        ("x", f"play {game} 1S@1", "not-seated"),
        ("x", f"resign {game}", "not-seated"),
        ("w", f"play {game} 1S@1", "not-seated"),
        ("w", f"leave {game}x", "unknown-game"),
        ("a", f"play {game} 1M@2", "not-your-turn"),
        ("a", f"play {game} nonsense", "not-your-turn"),
        ("a", f"resume {token_b}", "already-seated"),
        ("a", f"unwatch {game}", "not-following"),
        ("a", f"play {game}", "syntax"),
        ("a", f"play {game} 1M@2 extra", "syntax"),
        ("b", f"play {game} 1S@99", "illegal-move"),
        ("b", f"play {game} 1S@0", "illegal-move"),
        ("b", f"play {game} 4E@1", "illegal-move"),
        ("b", f"play {game} 1M@1", "illegal-move"),  # card 1 is an Earth
        ("b", f"play {game} 1S@4", "illegal-move"),  # same suit, same count (RULINGS H5)
        ("b", f"play {game} 1E@1", "illegal-move"),  # has Suns of another count to follow
        ("b", f"play {game} 1s@4", "illegal-move"),
        ("b", f"play {game} 2S@4@", "illegal-move"),
        ("b", f"play {game} {'9' * 4000}", "illegal-move"),
        ("b", f"play {game} 2S@{'9' * 4000}", "illegal-move"),
        ("b", f"join {game} 0", "already-seated"),
        ("b", f"watch {game}", "already-seated"),
        ("b", f"resume {token_a}", "already-seated"),
    ]
    await _refuse_all(server, clients, general + playing)
    await x.ok("new hipparchus")  # the second of max_games=2
    await _refuse_all(server, clients, [("x", "new hipparchus", "limit")])

    await b.ok(f"resign {game}")
    over = [
        ("a", f"play {game} 1M@2", "game-over"),
        ("b", f"play {game} 1S@4", "game-over"),
        ("a", f"resign {game}", "game-over"),
        ("b", f"resign {game}", "game-over"),
        ("x", f"play {game} 1S@1", "not-seated"),
        ("x", f"join {game}", "seat-taken"),
    ]
    await _refuse_all(server, clients, over)
