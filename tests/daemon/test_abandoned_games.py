"""Games nobody joins are dropped after ``abandon_timeout`` (PROTOCOL.md section 7): the lobby's
sweep with explicit times, then a real server with a short timeout."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
import trio

from hipparchusd.cli import parse_settings
from hipparchusd.lobby import Lobby, Session
from hipparchusd.protocol import parse_request
from hipparchusd.records import DropGame, StoredGame, StoredSeat
from hipparchusd.settings import Settings, SettingsError

from .client import Client
from .conftest import StartServer
from .helpers import new_game, seated_game

TIMEOUT = 600.0


def _ok(lobby: Lobby, session: Session, line: str) -> dict[str, str]:
    request = parse_request(line)
    assert request is not None
    result = lobby.handle(session, request)
    assert result.response is not None and result.response.error is None, result.response
    return dict(w.split("=", 1) for w in " ".join(result.response.text).split() if "=" in w)


def _code(lobby: Lobby, session: Session, line: str) -> str:
    request = parse_request(line)
    assert request is not None
    response = lobby.handle(session, request).response
    assert response is not None and response.error is not None, response
    return str(response.error.code)


def test_an_unfollowed_waiting_game_is_dropped_once_the_timeout_has_passed() -> None:
    lobby = Lobby(max_games=1)
    a = lobby.connect()
    _ok(lobby, a, "new hipparchus")
    assert _code(lobby, a, "new hipparchus") == "limit"
    assert not lobby.drop_abandoned(100.0, TIMEOUT).games  # first seen unfollowed: the clock starts
    assert not lobby.drop_abandoned(100.0 + TIMEOUT - 0.5, TIMEOUT).games
    assert lobby.active_games == 1
    result = lobby.drop_abandoned(100.0 + TIMEOUT, TIMEOUT)
    assert result.games == ("g1",)
    assert result.store_calls == [DropGame("g1")]
    assert result.response is None and result.deliveries == []
    assert lobby.active_games == 0
    assert _code(lobby, a, "state g1") == "unknown-game"
    assert _code(lobby, a, "join g1") == "unknown-game"
    # The limit is free again, and the dropped id is not given out again.
    assert _ok(lobby, a, "new hipparchus")["game"] == "g2"


def test_a_game_with_a_seated_or_watching_connection_is_kept() -> None:
    lobby = Lobby()
    a, w = lobby.connect(), lobby.connect()
    _ok(lobby, a, "new hipparchus")
    _ok(lobby, a, "join g1")
    _ok(lobby, w, "new hipparchus")
    _ok(lobby, w, "watch g2")
    for now in (0.0, TIMEOUT, 10 * TIMEOUT):
        assert not lobby.drop_abandoned(now, TIMEOUT).games
    assert lobby.active_games == 2


def test_a_started_game_whose_players_all_left_is_kept() -> None:
    lobby = Lobby()
    a, b = lobby.connect(), lobby.connect()
    _ok(lobby, a, "new hipparchus")
    token = _ok(lobby, a, "join g1")["token"]
    _ok(lobby, b, "join g1")
    lobby.disconnect(a)
    lobby.disconnect(b)
    for now in (0.0, TIMEOUT, 10 * TIMEOUT):
        assert not lobby.drop_abandoned(now, TIMEOUT).games
    c = lobby.connect()
    assert _ok(lobby, c, f"resume {token}")["game"] == "g1"


def test_the_clock_starts_again_when_the_last_follower_goes() -> None:
    lobby = Lobby()
    a, w = lobby.connect(), lobby.connect()
    _ok(lobby, a, "new hipparchus")
    lobby.drop_abandoned(0.0, TIMEOUT)  # unfollowed since 0
    # Someone watches and stops again between two sweeps: the game was followed meanwhile.
    _ok(lobby, w, "watch g1")
    _ok(lobby, w, "unwatch g1")
    assert not lobby.drop_abandoned(TIMEOUT, TIMEOUT).games  # unfollowed since TIMEOUT
    assert not lobby.drop_abandoned(2 * TIMEOUT - 1, TIMEOUT).games
    # A seat taken and left (here by disconnecting) counts the same way.
    _ok(lobby, a, "join g1")
    lobby.disconnect(a)
    assert not lobby.drop_abandoned(2 * TIMEOUT, TIMEOUT).games
    assert lobby.drop_abandoned(3 * TIMEOUT, TIMEOUT).games == ("g1",)


def test_a_restored_waiting_game_whose_player_never_resumes_is_dropped_with_its_token() -> None:
    lobby = Lobby()
    seat = StoredSeat(0, "alice", bytes(32))
    stored = StoredGame("g7", "hipparchus", {}, 1.0, (seat,), None, (), False)
    table = lobby.restore(stored)
    assert table.status == "waiting"
    lobby.drop_abandoned(0.0, TIMEOUT)
    assert lobby.drop_abandoned(TIMEOUT, TIMEOUT).games == ("g7",)
    assert "g7" not in lobby.tables and lobby.active_games == 0
    assert not lobby._tokens  # the seat's token resumes nothing any more


async def test_the_games_limit_frees_up_after_the_timeout(
    start_server: StartServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="hipparchusd.lobby")
    server = await start_server(max_games=2, abandon_timeout=0.2)
    client = await Client.connect(server.ports[0])
    first = await new_game(client)
    await new_game(client)
    await client.fail("new hipparchus", "limit")
    await client.aclose()
    await trio.sleep(0.5)
    user = await Client.connect(server.ports[0])
    await user.fail(f"watch {first}", "unknown-game")
    await user.fail(f"record {first}", "unknown-game")
    assert (await user.ok("games")).lines == []
    await new_game(user)
    await new_game(user)
    await user.fail("new hipparchus", "limit")
    dropped = [r for r in caplog.records if "dropped" in r.getMessage()]
    assert len(dropped) == 2 and all(r.levelno == logging.INFO for r in dropped)
    assert dropped[0].getMessage().startswith(f"game {first} dropped")


async def test_games_followed_by_a_connected_session_are_kept(start_server: StartServer) -> None:
    server = await start_server(abandon_timeout=0.2)
    port = server.ports[0]
    seated, watcher, a, b, creator = [await Client.connect(port) for _ in range(5)]
    held = await new_game(seated)
    await seated.ok(f"join {held}")
    watched = await new_game(watcher)
    await watcher.ok(f"watch {watched}")
    playing = await seated_game(a, b)
    await a.aclose()
    await b.aclose()  # a started game is kept even with nobody connected
    abandoned = await new_game(creator)
    await trio.sleep(0.5)
    games = [line.split()[0] for line in (await creator.ok("games")).lines]
    assert games == [f"game={held}", f"game={watched}", f"game={playing}"]
    await creator.fail(f"state {abandoned}", "unknown-game")
    # The kept ones still work: the seated player's game starts when someone joins.
    await creator.ok(f"join {held}")
    assert (await seated.ok(f"state {held}")).fields()["status"] == "playing"


async def test_zero_never_drops(start_server: StartServer) -> None:
    server = await start_server(abandon_timeout=0, idle_timeout=0.1)
    client = await Client.connect(server.ports[0])
    game = await new_game(client)
    await client.aclose()
    await trio.sleep(0.3)
    assert server.games == 1 and game in server.lobby.tables


def test_the_option_comes_from_the_command_line_or_the_configuration_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert Settings().abandon_timeout == 600.0
    assert parse_settings(["--config", ""]).abandon_timeout == 600.0
    assert parse_settings(["--config", "", "--abandon-timeout", "30"]).abandon_timeout == 30.0
    config = tmp_path / "config.toml"
    config.write_text("abandon-timeout = 45\n")
    assert parse_settings(["--config", str(config)]).abandon_timeout == 45.0
    assert parse_settings(["--config", str(config), "--abandon-timeout", "0"]).abandon_timeout == 0
    with pytest.raises(SystemExit):
        parse_settings(["--config", "", "--abandon-timeout", "-1"])
    assert "abandon_timeout must be a number of seconds >= 0" in capsys.readouterr().err
    with pytest.raises(SettingsError):
        Settings(abandon_timeout=-5)


async def test_a_reload_changes_the_timeout_from_the_next_sweep(start_server: StartServer) -> None:
    server = await start_server(abandon_timeout=1000, idle_timeout=0.1)
    client = await Client.connect(server.ports[0])
    game = await new_game(client)
    await trio.sleep(0.3)
    assert game in server.lobby.tables
    server.reconfigure(Settings(port=0, abandon_timeout=0.1, idle_timeout=0.1))
    await trio.sleep(0.4)
    assert game not in server.lobby.tables and server.games == 0
