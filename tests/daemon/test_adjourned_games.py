"""Started games nobody follows are adjourned after ``adjourn_timeout`` and a seat's ``resume``
brings them back (PROTOCOL.md section 7): the lobby's sweep with explicit times, then a real
server with a SQLite store and a short timeout. Positions are checked against the rules engine
playing the same moves, never against what the daemon printed."""

from __future__ import annotations

import logging
import random
from pathlib import Path
from typing import Any

import attrs
import pytest
import trio

from hipparchusd.cli import parse_settings
from hipparchusd.config_file import DAEMON_SCHEMA
from hipparchusd.games.hipparchus import HipparchusGame, MatchRecord, replay
from hipparchusd.games.hipparchus.codec import converter
from hipparchusd.lobby import Lobby, Session
from hipparchusd.protocol import ErrorCode, ProtocolError, parse_request
from hipparchusd.records import StoredGame, StoredSeat
from hipparchusd.server import Server
from hipparchusd.settings import Settings, SettingsError
from hipparchusd.store.base import StoreError
from hipparchusd.store.sqlite import SqliteStore

from .client import Client
from .conftest import StartServer
from .helpers import open_sqlite

TIMEOUT = 3600.0
SEED = 11
OPTIONS = f"seed={SEED} leader=0"


def _request(lobby: Lobby, session: Session, line: str) -> Any:
    request = parse_request(line)
    assert request is not None
    result = lobby.handle(session, request)
    assert result.response is not None
    return result.response


def _ok(lobby: Lobby, session: Session, line: str) -> dict[str, Any]:
    response = _request(lobby, session, line)
    assert response.error is None, response
    data = response.data() if callable(response.data) else response.data
    return dict(data)


def _error(lobby: Lobby, session: Session, line: str) -> ProtocolError:
    response = _request(lobby, session, line)
    assert response.error is not None, response
    error: ProtocolError = response.error
    return error


def _engine() -> HipparchusGame:
    """The match ``new hipparchus seed=11 leader=0`` deals, started, as the rules play it."""
    game = HipparchusGame(first_leader=0, seed=SEED)
    game.start()
    return game


def _lobby_play(lobby: Lobby, sessions: list[Session], engine: HipparchusGame, plays: int) -> None:
    """Make ``plays`` legal plays in g1 through the lobby, the same on ``engine``."""
    rng = random.Random(plays)
    for _ in range(plays):
        (seat,) = engine.seats_to_move()
        move = rng.choice(engine.legal_moves(seat))
        _ok(lobby, sessions[seat], f"play g1 {engine.format_move(move)}")
        engine.play(seat, move)


def _stored(lobby: Lobby, game_id: str) -> StoredGame:
    """The game as a store keeps it: its seats and its record as the snapshot."""
    table = lobby.tables[game_id]
    seats = tuple(
        StoredSeat(number, seat.name, seat.token_digest)
        for number, seat in enumerate(table.seats)
        if seat.name is not None and seat.token_digest is not None
    )
    snapshot = converter.unstructure(table.game.record())
    return StoredGame(
        game_id, table.kind.name, dict(table.options), table.created_at, seats, snapshot, (), False
    )


def _started(lobby: Lobby) -> tuple[list[Session], list[str], HipparchusGame]:
    a, b = lobby.connect(), lobby.connect()
    _ok(lobby, a, f"new hipparchus {OPTIONS}")
    tokens = [_ok(lobby, a, "join g1 0")["token"], _ok(lobby, b, "join g1 1")["token"]]
    return [a, b], tokens, _engine()


def test_an_unfollowed_started_game_is_adjourned_and_resume_brings_it_back() -> None:
    lobby = Lobby(max_games=1)
    (a, b), tokens, engine = _started(lobby)
    _lobby_play(lobby, [a, b], engine, 5)
    stored = _stored(lobby, "g1")
    lobby.disconnect(a)
    assert lobby.adjourn_unfollowed(0.0, TIMEOUT) == ()  # one seat still connected
    lobby.disconnect(b)
    assert lobby.adjourn_unfollowed(100.0, TIMEOUT) == ()  # first seen unfollowed
    # The abandon sweep runs as well and must not restart the started game's clock.
    lobby.drop_abandoned(100.0 + TIMEOUT / 2, 600.0)
    assert lobby.adjourn_unfollowed(100.0 + TIMEOUT - 0.5, TIMEOUT) == ()
    assert lobby.adjourn_unfollowed(100.0 + TIMEOUT, TIMEOUT) == ("g1",)
    assert "g1" not in lobby.tables and lobby.active_games == 0
    assert not lobby._tokens

    c = lobby.connect()
    for line in ("state g1", "watch g1", "join g1", "legal g1", "play g1 1S@1", "record g1"):
        error = _error(lobby, c, line)
        assert error.code == ErrorCode.UNKNOWN_GAME
        assert "adjourned" in error.message and "resume" in error.message
    assert _error(lobby, c, f"resume {tokens[0]}").code == ErrorCode.BAD_TOKEN  # lobby only
    assert _ok(lobby, c, "games")["games"] == []
    assert _ok(lobby, c, "new hipparchus")["game"] == "g2"  # the limit is free again

    # At the limit nothing changes.
    with pytest.raises(ProtocolError) as refused:
        lobby.bring_back(stored)
    assert refused.value.code == ErrorCode.LIMIT and "g1" in refused.value.message
    assert "g1" not in lobby.tables and _error(lobby, c, "state g1").code == "unknown-game"

    lobby.max_games = 2
    table = lobby.bring_back(stored)
    assert table.id == "g1" and table.status == "playing" and lobby.active_games == 2
    d = lobby.connect()
    state = _ok(lobby, d, f"resume {tokens[0]}")
    assert state["game"] == "g1" and state["view"] == converter.unstructure(engine.view(0))
    assert table.game.view(1) == engine.view(1)
    assert _ok(lobby, c, "state g1")["view"] == converter.unstructure(engine.view(None))
    # No longer adjourned: the ids index forgot it, so a later unknown id is plain again.
    assert "g1" not in lobby._adjourned


def test_followed_waiting_and_finished_games_are_never_adjourned() -> None:
    lobby = Lobby()
    (a, _), _, _ = _started(lobby)  # g1: both seats connected
    w, x = lobby.connect(), lobby.connect()
    _ok(lobby, w, "new hipparchus")  # g2: waiting (the abandon timeout's business)
    _ok(lobby, x, f"new hipparchus {OPTIONS}")  # g3: started, watched only
    _ok(lobby, x, "join g3 0")
    _ok(lobby, w, "join g3 1")
    _ok(lobby, a, "watch g3")
    lobby.disconnect(x)
    lobby.disconnect(w)
    _ok(lobby, a, "new hipparchus")  # g4: started and finished (resigned), unfollowed
    y, z = lobby.connect(), lobby.connect()
    _ok(lobby, y, "join g4 0")
    _ok(lobby, z, "join g4 1")
    _ok(lobby, y, "resign g4")
    lobby.disconnect(y)
    lobby.disconnect(z)
    for now in (0.0, TIMEOUT, 10 * TIMEOUT):
        assert lobby.adjourn_unfollowed(now, TIMEOUT) == ()
    assert set(lobby.tables) == {"g1", "g2", "g3", "g4"}
    # The spectator's leaving starts the clock.
    _ok(lobby, a, "unwatch g3")
    assert lobby.adjourn_unfollowed(11 * TIMEOUT, TIMEOUT) == ()
    assert lobby.adjourn_unfollowed(12 * TIMEOUT, TIMEOUT) == ("g3",)


def test_a_busy_game_waits_and_the_remembered_ids_are_bounded() -> None:
    lobby = Lobby(adjourned_kept=1)
    for number in (1, 2):
        p, q = lobby.connect(), lobby.connect()
        _ok(lobby, p, "new hipparchus")
        _ok(lobby, p, f"join g{number}")
        _ok(lobby, q, f"join g{number}")
        lobby.disconnect(p)
        lobby.disconnect(q)
    lobby.adjourn_unfollowed(0.0, TIMEOUT)
    assert lobby.adjourn_unfollowed(TIMEOUT, TIMEOUT, lambda game: game == "g2") == ("g1",)
    assert lobby.adjourn_unfollowed(TIMEOUT, TIMEOUT) == ("g2",)
    c = lobby.connect()
    assert "adjourned" in _error(lobby, c, "state g2").message
    assert _error(lobby, c, "state g1").message == "no game 'g1'"  # forgotten, oldest first


async def _fields(client: Client, line: str) -> Any:
    return (await client.ok(line)).json()


async def _json_client(port: int) -> Client:
    client = await Client.connect(port)
    await client.ok("format json")
    return client


async def _seated(port: int) -> tuple[Client, Client, str, list[str]]:
    """Two JSON-mode connections holding seats 0 and 1 of a new game started with
    ``OPTIONS``: the connections, the game id and the seats' tokens."""
    a, b = await _json_client(port), await _json_client(port)
    game = (await _fields(a, f"new hipparchus {OPTIONS}"))["game"]
    tokens = [(await _fields(a, f"join {game} 0"))["token"]]
    tokens.append((await _fields(b, f"join {game} 1"))["token"])
    return a, b, game, tokens


async def _play(
    clients: list[Client], game: str, engine: HipparchusGame, rng: random.Random
) -> None:
    """One legal play chosen from the engine's legal moves, made through the daemon."""
    (seat,) = engine.seats_to_move()
    move = rng.choice(engine.legal_moves(seat))
    await clients[seat].ok(f"play {game} {engine.format_move(move)}")
    engine.play(seat, move)


async def _until_gone(server: Server, game: str) -> None:
    with trio.fail_after(5):
        while game in server.lobby.tables:
            await trio.sleep(0.02)


async def test_a_match_is_adjourned_resumed_and_finished(
    start_server: StartServer,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    nursery: trio.Nursery,
) -> None:
    caplog.set_level(logging.INFO, logger="hipparchusd.lobby")
    store = await open_sqlite(nursery, tmp_path / "state")
    server = await start_server(store, max_games=1, adjourn_timeout=0.2)
    port = server.ports[0]
    a, b, game, tokens = await _seated(port)
    engine, rng = _engine(), random.Random(7)
    # Into round 2, so that the store holds a later deal and moves after it.
    while engine.view(0).round_number == 1:
        await _play([a, b], game, engine, rng)
    for _ in range(3):
        await _play([a, b], game, engine, rng)
    await a.aclose()
    await b.aclose()
    await _until_gone(server, game)

    c = await _json_client(port)
    assert (await _fields(c, "games"))["games"] == []
    for line in (f"state {game}", f"watch {game}", f"join {game}", f"record {game}"):
        message = (await c.fail(line, "unknown-game")).json()["message"]
        assert "adjourned" in message and "resume" in message
    await c.fail("resume " + "0" * 32, "bad-token")
    other = (await _fields(c, "new hipparchus"))["game"]  # max-games is free again
    assert other != game

    # At max-games the resume is refused and nothing changes.
    d = await _json_client(port)
    refused = (await d.fail(f"resume {tokens[0]}", "limit")).json()["message"]
    assert game in refused and "adjourned" in refused
    assert game not in server.lobby.tables and server.games == 1
    await d.fail(f"state {game}", "unknown-game")

    server.reconfigure(attrs.evolve(server.settings, max_games=2))
    state = await _fields(d, f"resume {tokens[0]}")
    assert state["game"] == game and state["status"] == "playing"
    assert state["view"] == converter.unstructure(engine.view(0))
    e = await _json_client(port)
    state = await _fields(e, f"resume {tokens[1]}")
    assert state["view"] == converter.unstructure(engine.view(1))
    watched = await _fields(c, f"watch {game}")
    assert watched["view"] == converter.unstructure(engine.view(None))

    while engine.outcome is None:
        await _play([d, e], game, engine, rng)
    final = await _fields(d, f"state {game}")
    assert final["status"] == "over" and final["view"] == converter.unstructure(engine.view(0))
    data = await _fields(c, f"record {game}")
    record = converter.structure(data["record"], MatchRecord)
    assert record == engine.record()
    winner = engine.outcome.winners[0]
    assert record.winner == winner and replay(record).winner == winner
    assert final["view"]["winner"] == winner
    # The lobby's own lines only: other loggers' lines may name the temporary folder, whose
    # path holds this test's name (and so the word).
    lines = [
        r.getMessage()
        for r in caplog.records
        if r.name == "hipparchusd.lobby" and "adjourned" in r.getMessage()
    ]
    assert len(lines) == 1 and lines[0].startswith(f"game {game} adjourned")
    for client in (c, d, e):
        await client.aclose()


async def test_two_seats_resuming_at_once_load_the_game_once(
    start_server: StartServer, tmp_path: Path, nursery: trio.Nursery
) -> None:
    store = await open_sqlite(nursery, tmp_path / "state")
    server = await start_server(store, adjourn_timeout=0.1)
    port = server.ports[0]
    a, b, game, tokens = await _seated(port)
    engine = _engine()
    await _play([a, b], game, engine, random.Random(1))
    await a.aclose()
    await b.aclose()
    await _until_gone(server, game)
    c, d = await _json_client(port), await _json_client(port)
    views: dict[int, Any] = {}

    async def resume(client: Client, seat: int) -> None:
        views[seat] = (await _fields(client, f"resume {tokens[seat]}"))["view"]

    async with trio.open_nursery() as tasks:
        tasks.start_soon(resume, c, 0)
        tasks.start_soon(resume, d, 1)
    assert views == {seat: converter.unstructure(engine.view(seat)) for seat in (0, 1)}
    assert server.games == 1
    table = server.lobby.tables[game]
    assert [s.holder is not None and s.holder.id for s in table.seats] == [
        _session_id(server, c),
        _session_id(server, d),
    ]
    await c.aclose()
    await d.aclose()


def _session_id(server: Server, client: Client) -> int:
    """The lobby session id of ``client``'s connection (matched by its local port)."""
    local = client.stream.socket.getsockname()[1]
    for number, conn in server.connections.items():
        if conn.stream.socket.getpeername()[1] == local:
            return number
    raise AssertionError("no such connection")


async def test_a_spectator_or_one_connected_seat_keeps_a_game_loaded(
    start_server: StartServer, tmp_path: Path, nursery: trio.Nursery
) -> None:
    store = await open_sqlite(nursery, tmp_path / "state")
    server = await start_server(store, adjourn_timeout=0.1)
    port = server.ports[0]
    a, b, c, d, w = [await Client.connect(port) for _ in range(5)]
    half = (await a.ok(f"new hipparchus {OPTIONS}")).fields()["game"]
    await a.ok(f"join {half} 0")
    await b.ok(f"join {half} 1")
    watched = (await c.ok(f"new hipparchus {OPTIONS}")).fields()["game"]
    await c.ok(f"join {watched} 0")
    await d.ok(f"join {watched} 1")
    await w.ok(f"watch {watched}")
    await b.aclose()  # seat 0 of ``half`` stays connected
    await c.aclose()
    await d.aclose()  # only the spectator follows ``watched``
    await trio.sleep(0.5)
    assert half in server.lobby.tables and watched in server.lobby.tables
    assert len((await a.ok("games")).lines) == 2
    await w.ok(f"unwatch {watched}")
    await _until_gone(server, watched)
    assert half in server.lobby.tables
    await a.aclose()
    await w.aclose()


async def test_with_no_durable_store_nothing_is_adjourned(start_server: StartServer) -> None:
    server = await start_server(adjourn_timeout=0.1)  # a MemoryStore (--state-dir none)
    a, b, game, _ = await _seated(server.ports[0])
    await a.aclose()
    await b.aclose()
    await trio.sleep(0.5)
    assert game in server.lobby.tables and server.games == 1


async def test_a_reload_changes_the_timeout_from_the_next_sweep(
    start_server: StartServer, tmp_path: Path, nursery: trio.Nursery
) -> None:
    store = await open_sqlite(nursery, tmp_path / "state")
    # The sweep's period is a quarter of its shortest timeout: a short request timeout makes it
    # sweep often without an idle timeout that would drop a client slow to be seated under load.
    server = await start_server(store, adjourn_timeout=0, request_timeout=0.4)
    a, b, game, _ = await _seated(server.ports[0])
    await a.aclose()
    await b.aclose()
    await trio.sleep(0.3)
    assert game in server.lobby.tables  # 0: never
    server.reconfigure(attrs.evolve(server.settings, adjourn_timeout=0.1))
    await _until_gone(server, game)


def test_the_option_comes_from_the_command_line_or_the_configuration_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert Settings().adjourn_timeout == 3600.0
    assert parse_settings(["--config", ""]).adjourn_timeout == 3600.0
    assert parse_settings(["--config", "", "--adjourn-timeout", "30"]).adjourn_timeout == 30.0
    config = tmp_path / "config.toml"
    config.write_text("adjourn-timeout = 45\n")
    assert parse_settings(["--config", str(config)]).adjourn_timeout == 45.0
    assert parse_settings(["--config", str(config), "--adjourn-timeout", "0"]).adjourn_timeout == 0
    with pytest.raises(SystemExit):
        parse_settings(["--config", "", "--adjourn-timeout", "-1"])
    assert "adjourn_timeout must be a number of seconds >= 0" in capsys.readouterr().err
    with pytest.raises(SettingsError):
        Settings(adjourn_timeout=-5)
    (key,) = [k for k in DAEMON_SCHEMA.keys if k.name == "adjourn-timeout"]
    assert key.reloadable


class FlakyStore:
    """A :class:`SqliteStore` whose methods named in ``failing`` raise ``StoreError``."""

    def __init__(self, inner: SqliteStore) -> None:
        self.inner = inner
        self.failing: set[str] = set()

    def __getattr__(self, name: str) -> Any:
        if name not in self.failing:
            return getattr(self.inner, name)

        async def fail(*args: Any) -> None:
            raise StoreError(f"{name} failed (test)")

        return fail


async def test_a_resume_the_store_fails_changes_nothing(
    start_server: StartServer, tmp_path: Path, nursery: trio.Nursery
) -> None:
    store = FlakyStore(await open_sqlite(nursery, tmp_path / "state"))
    server = await start_server(store, adjourn_timeout=0.1)
    port = server.ports[0]
    a, b, game, (token, _) = await _seated(port)
    engine, rng = _engine(), random.Random(2)
    for _ in range(2):  # moves after the start's snapshot: bringing it back stores a new one
        await _play([a, b], game, engine, rng)
    await a.aclose()
    await b.aclose()
    await _until_gone(server, game)
    c = await _json_client(port)
    store.failing = {"find_by_token"}
    await c.fail(f"resume {token}", "bad-token")
    store.failing = {"snapshot"}
    await c.fail(f"resume {token}", "internal")
    assert game not in server.lobby.tables and server.games == 0
    assert "adjourned" in (await c.fail(f"state {game}", "unknown-game")).json()["message"]
    store.failing = set()
    state = await _fields(c, f"resume {token}")
    assert state["view"] == converter.unstructure(engine.view(0))
    await c.aclose()
