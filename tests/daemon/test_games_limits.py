"""One connection, or one peer address, may hold only so many games waiting for players
(issue 16 item 2): otherwise a single client that creates and follows games fills
``max_games`` and every other ``new`` is refused until it disconnects."""

from __future__ import annotations

from pathlib import Path

import pytest

from hipparchusd.addresses import AddressSet
from hipparchusd.cli import parse_settings
from hipparchusd.config_file import ConfigError, load_settings
from hipparchusd.lobby import Lobby, Session
from hipparchusd.protocol import parse_request
from hipparchusd.settings import Settings

from .client import Client
from .conftest import StartServer


def _answer(lobby: Lobby, session: Session, line: str) -> tuple[str | None, str]:
    """(error code or None, the response's text or message)."""
    request = parse_request(line)
    assert request is not None
    response = lobby.handle(session, request).response
    assert response is not None
    if response.error is not None:
        return str(response.error.code), response.error.message
    return None, " ".join(response.text)


def _new(lobby: Lobby, session: Session) -> str:
    code, text = _answer(lobby, session, "new hipparchus")
    assert code is None, text
    return text.removeprefix("game=")


def test_new_then_join_is_capped_per_connection_and_names_the_limit() -> None:
    lobby = Lobby(max_games=100, max_games_per_connection=3, max_games_per_address=50)
    greedy = lobby.connect("10.0.0.1:4000")
    for _ in range(3):
        game = _new(lobby, greedy)
        assert _answer(lobby, greedy, f"join {game}")[0] is None
    code, message = _answer(lobby, greedy, "new hipparchus")
    assert code == "limit"
    assert "max-games-per-connection" in message and "3" in message
    # Someone else can still create games: the server's own limit is far from reached.
    other = lobby.connect("10.0.0.2:4000")
    other_game = _new(lobby, other)
    # Following another waiting game (join or watch) counts too.
    assert _answer(lobby, greedy, f"watch {other_game}")[0] == "limit"
    assert _answer(lobby, greedy, f"join {other_game}")[0] == "limit"
    assert _answer(lobby, greedy, "state g1")[0] is None  # a refused command changes nothing


def test_a_started_game_no_longer_counts() -> None:
    lobby = Lobby(max_games=100, max_games_per_connection=1)
    a, b = lobby.connect("10.0.0.1:1"), lobby.connect("10.0.0.2:1")
    game = _new(lobby, a)
    assert _answer(lobby, a, f"join {game}")[0] is None
    assert _answer(lobby, a, "new hipparchus")[0] == "limit"
    assert _answer(lobby, b, f"join {game}")[0] is None  # the game starts
    assert _answer(lobby, a, "new hipparchus")[0] is None
    # Watching a started game is never refused.
    assert _answer(lobby, b, "watch g2")[0] is None
    assert _answer(lobby, b, f"watch {game}")[0] == "already-seated"


def test_games_created_but_not_followed_count_until_dropped() -> None:
    lobby = Lobby(max_games=100, max_games_per_connection=2)
    a = lobby.connect("10.0.0.1:1")
    _new(lobby, a)
    _new(lobby, a)
    assert _answer(lobby, a, "new hipparchus")[0] == "limit"
    lobby.drop_abandoned(0.0, 1.0)
    lobby.drop_abandoned(5.0, 1.0)  # both dropped: nobody followed them
    assert lobby.active_games == 0
    assert _answer(lobby, a, "new hipparchus")[0] is None


def test_connections_from_one_address_share_a_limit_unless_trusted() -> None:
    lobby = Lobby(max_games=100, max_games_per_connection=2, max_games_per_address=3)
    first, second = lobby.connect("10.0.0.1:1"), lobby.connect("10.0.0.1:2")
    _new(lobby, first)
    _new(lobby, first)
    _new(lobby, second)
    code, message = _answer(lobby, second, "new hipparchus")
    assert code == "limit" and "max-games-per-address" in message
    # A game already counted for the address may be followed by its other connection.
    assert _answer(lobby, second, "watch g1")[0] is None
    # Another address is not affected; a disconnect gives back the places.
    elsewhere = lobby.connect("10.0.0.9:1")
    assert _answer(lobby, elsewhere, "new hipparchus")[0] is None
    lobby.disconnect(first)
    lobby.drop_abandoned(0.0, 1.0)
    lobby.drop_abandoned(5.0, 1.0)
    assert _answer(lobby, second, "new hipparchus")[0] is None
    # Trusted addresses are exempt from the per-address limit only.
    trusting = Lobby(
        max_games_per_connection=2, max_games_per_address=1, trusted=AddressSet.of(["10.0.0.0/8"])
    )
    c1, c2 = trusting.connect("10.1.2.3:1"), trusting.connect("10.1.2.3:2")
    for session in (c1, c1, c2, c2):
        assert _answer(trusting, session, "new hipparchus")[0] is None
    assert _answer(trusting, c1, "new hipparchus")[0] == "limit"


def test_the_limits_are_set_from_the_command_line_and_the_file(tmp_path: Path) -> None:
    settings = parse_settings(
        ["--config", "", "--max-games-per-connection", "4", "--trusted-addresses", "::1,127.0.0.1"]
    )
    assert settings.max_games_per_connection == 4
    assert settings.max_games_per_address == Settings().max_games_per_address
    assert settings.trusted_addresses == ("::1/128", "127.0.0.1/32")
    assert "127.0.0.1" in settings.trusted and "127.0.0.2" not in settings.trusted
    assert "::ffff:127.0.0.1" in settings.trusted
    assert "127.0.0.1" not in Settings().trusted  # loopback is not exempt by default
    config = tmp_path / "config.toml"
    config.write_text('max-games-per-address = 7\ntrusted-addresses = "10.0.0.0/8"\n')
    from_file = load_settings(config, {})
    assert from_file.max_games_per_address == 7
    assert from_file.trusted_addresses == ("10.0.0.0/8",)
    config.write_text('trusted-addresses = "10.0.0.0/8, nowhere"\n')
    with pytest.raises(ConfigError, match=r"trusted-addresses.*'nowhere'"):
        load_settings(config, {})
    with pytest.raises(SystemExit):
        parse_settings(["--config", "", "--max-games-per-connection", "0"])


async def test_the_server_applies_the_limit_from_its_settings(start_server: StartServer) -> None:
    server = await start_server(max_games_per_connection=2)
    client = await Client.connect(server.ports[0])
    try:
        for _ in range(2):
            game = (await client.ok("new hipparchus")).fields()["game"]
            await client.ok(f"join {game}")
        reply = await client.fail("new hipparchus", "limit")
        assert "max-games-per-connection" in reply.text
        other = await Client.connect(server.ports[0])
        await other.ok("new hipparchus")
        await other.aclose()
        server.reconfigure(Settings(max_games_per_connection=3, port=0))
        await client.ok("new hipparchus")
    finally:
        await client.aclose()
