"""The admin channel (issue 26), asked with ``hipparchusd admin``'s own client: its socket is
the daemon's user's only; status, games, show, end, connections, kick, maintenance and their
refusals; an operator's end is stored before it is announced and recorded as the operator's."""

from __future__ import annotations

import json
import socket
import stat
from pathlib import Path
from typing import Any

import attrs
import pytest
import trio

from hipparchusd import __version__
from hipparchusd.admin.command_line import ask
from hipparchusd.admin.wire import Answer, read_answer
from hipparchusd.server import Server
from hipparchusd.server.run import reload_settings
from hipparchusd.settings import Settings, SettingsError

from .client import Client, event_fields
from .helpers import HAND0, HAND1, StartServer, open_sqlite, seated_game


async def admin(server: Server, command: str, *args: str) -> Answer:
    """The daemon's answer to ``command`` over its admin socket, asked as the CLI asks."""
    path = Path(server.settings.admin_socket or "")
    line = await trio.to_thread.run_sync(ask, path, command, list(args))
    return read_answer(line)


async def ok(server: Server, command: str, *args: str) -> Any:
    answer = await admin(server, command, *args)
    assert answer.ok, (command, args, answer)
    return answer.data


async def refused(server: Server, code: str, command: str, *args: str) -> str:
    answer = await admin(server, command, *args)
    assert not answer.ok and answer.code == code, (command, args, answer)
    return answer.message


@pytest.fixture
def socket_path(tmp_path: Path) -> Path:
    # A Unix socket path must stay short (108 bytes): a folder of its own under the test's.
    return tmp_path / "run" / "admin.sock"


async def test_the_socket_is_the_daemons_users_only(
    start_server: StartServer, socket_path: Path
) -> None:
    server = await start_server(admin_socket=str(socket_path))
    assert stat.S_ISSOCK(socket_path.stat().st_mode)
    assert stat.S_IMODE(socket_path.stat().st_mode) == 0o600
    assert stat.S_IMODE(socket_path.parent.stat().st_mode) == 0o700
    status = await ok(server, "status")
    assert status["version"] == __version__ and status["uptime"] >= 0
    assert status["connections"] == 0 and status["maintenance"] is None
    assert status["games"] == {"waiting": 0, "playing": 0, "over": 0}


async def test_a_second_daemon_does_not_take_the_first_ones_socket(
    start_server: StartServer, socket_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    first = await start_server(admin_socket=str(socket_path))
    await start_server(admin_socket=str(socket_path))
    assert "admin socket" in caplog.text and "another daemon's" in caplog.text
    assert (await ok(first, "status"))["connections"] == 0


async def test_a_stale_socket_is_replaced(start_server: StartServer, socket_path: Path) -> None:
    socket_path.parent.mkdir(mode=0o700)
    stale = socket.socket(socket.AF_UNIX)
    stale.bind(str(socket_path))
    stale.close()  # a daemon that died left its socket behind
    server = await start_server(admin_socket=str(socket_path))
    assert (await ok(server, "status"))["games"]["playing"] == 0


async def test_games_show_and_connections(start_server: StartServer, socket_path: Path) -> None:
    server = await start_server(admin_socket=str(socket_path))
    a = await Client.connect(server.ports[0])
    b = await Client.connect(server.ports[0])
    spectator = await Client.connect(server.ports[0])
    game = await seated_game(a, b)
    await spectator.ok(f"watch {game}")
    await b.aclose()
    await a.events_until(["disconnected"])
    (listed,) = (await ok(server, "games"))["games"]
    assert listed["game"] == game and listed["status"] == "playing"
    assert listed["spectators"] == 1
    assert [(s["name"], s["presence"]) for s in listed["seats"]] == [
        ("alice", "here"),
        ("bob", "away"),
    ]
    assert listed["seats"][1]["connection"] is None
    shown = await ok(server, "show", game)
    # The operator sees every hand (seat 0's and seat 1's own views) and the whole record.
    assert HAND0 in json.dumps(shown["views"][0]) and HAND1 in json.dumps(shown["views"][1])
    assert HAND0 not in json.dumps(shown["view"])  # the spectators' view shows no hand
    assert HAND1 in json.dumps(shown["record"])
    assert shown["seq"] == server.lobby.tables[game].seq
    rows = (await ok(server, "connections"))["connections"]
    assert sorted(row["connection"] for row in rows) == sorted(server.connections)
    assert all(row["transport"] == "tcp" for row in rows)
    await refused(server, "unknown-game", "show", "g99")
    await refused(server, "syntax", "show")
    await refused(server, "unknown-command", "shutdown")


async def test_kick_closes_a_connection(start_server: StartServer, socket_path: Path) -> None:
    server = await start_server(admin_socket=str(socket_path))
    a = await Client.connect(server.ports[0])
    (number,) = server.connections
    await ok(server, "kick", str(number))
    with trio.fail_after(5), pytest.raises(EOFError):
        while True:
            await a.read_line()
    await refused(server, "unknown-connection", "kick", str(number))
    await refused(server, "syntax", "kick", "first")


async def test_maintenance_refuses_new_games_with_the_message(
    start_server: StartServer, socket_path: Path
) -> None:
    server = await start_server(admin_socket=str(socket_path))
    a = await Client.connect(server.ports[0])
    b = await Client.connect(server.ports[0])
    game = await seated_game(a, b)
    await ok(server, "maintenance", "on", "back", "at", "five")
    reply = await a.fail("new hipparchus", "maintenance")
    assert reply.text == "maintenance back at five"
    # Games in progress go on.
    (seat,) = server.lobby.tables[game].game.seats_to_move()
    player = (a, b)[seat]
    move = (await player.ok(f"legal {game}")).lines[0].split()[0]
    await player.ok(f"play {game} {move}")
    assert (await ok(server, "status"))["maintenance"] == "back at five"
    await refused(server, "syntax", "maintenance", "maybe")
    await ok(server, "maintenance", "off")
    await a.ok("new hipparchus")


async def test_end_is_stored_before_every_follower_is_told(
    start_server: StartServer, socket_path: Path, tmp_path: Path, nursery: trio.Nursery
) -> None:
    store = await open_sqlite(nursery, tmp_path / "state")
    server = await start_server(store=store, admin_socket=str(socket_path))
    a = await Client.connect(server.ports[0])
    b = await Client.connect(server.ports[0])
    watcher = await Client.connect(server.ports[0])
    game = await seated_game(a, b)
    await watcher.ok(f"watch {game}")
    waiting = (await a.ok("new hipparchus")).fields()["game"]
    await refused(server, "not-started", "end", waiting)
    ended = await ok(server, "end", game, "reported", "cheating")
    assert ended == {"game": game, "followers": 3}
    for client in (a, b, watcher):
        events = await client.events_until(["game-over"])
        _, _, _, fields = event_fields(events[-1])
        assert fields == {"winners": "-", "scores": "-", "resigned": "-", "operator": "true"}
    await a.fail(f"legal {game}", "game-over")
    await a.fail(f"resign {game}", "game-over")
    state = (await a.ok(f"state {game}")).fields()
    assert state["status"] == "over" and state["operator"] == "true"
    assert (await a.ok(f"record {game}")).fields()["operator"] == "true"
    await refused(server, "game-over", "end", game)
    stored = await store.load_finished(game)
    assert stored is not None and stored.operator_end == "reported cheating"
    assert not stored.abandoned


async def test_an_end_the_store_refuses_changes_nothing(
    start_server: StartServer, socket_path: Path, tmp_path: Path, nursery: trio.Nursery
) -> None:
    store = await open_sqlite(nursery, tmp_path / "state")
    server = await start_server(store=store, admin_socket=str(socket_path))
    a = await Client.connect(server.ports[0])
    b = await Client.connect(server.ports[0])
    game = await seated_game(a, b)

    async def broken(game_id: str, record: object, reason: str) -> None:
        raise OSError("disk full")

    store.end_game = broken  # type: ignore[method-assign]
    await refused(server, "internal", "end", game)
    assert server.lobby.tables[game].status == "playing"
    assert not any("game-over" in line for line in a.events + b.events)


async def test_reload_reports_what_changed(start_server: StartServer, socket_path: Path) -> None:
    server = await start_server(admin_socket=str(socket_path))
    message = await refused(server, "internal", "reload")
    assert "no configuration" in message
    changed_settings = attrs.evolve(server.settings, max_games=7, port=1)
    server.reload = lambda: reload_settings(server, lambda: changed_settings)
    changed = await ok(server, "reload")
    assert changed["applied"] == {"max-games": ["1000", "7"]}
    assert changed["need_restart"] == {"port": ["0", "1"]}
    assert server.lobby.max_games == 7

    def bad() -> Settings:
        raise SettingsError("max_games must be a whole number >= 1, not 0")

    server.reload = lambda: reload_settings(server, bad)
    assert "settings unchanged" in await refused(server, "bad-config", "reload")
