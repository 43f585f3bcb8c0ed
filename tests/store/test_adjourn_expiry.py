"""An adjourned game that no seat resumes within the expiry (``adjourn-expiry-days``, default
30) is ended as abandoned: no winner, its record kept under the retention rule (RULINGS H14 in
docs/rules.md; issue 16 item 3). Days pass on an injected clock, not in real time."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest
import trio
from store_helpers import open_db, open_sqlite, stored_seat

from hipparchusd.cli import parse_settings
from hipparchusd.config_file import DAEMON_SCHEMA
from hipparchusd.games.base import GameOver, Outcome
from hipparchusd.games.hipparchus import HipparchusGame
from hipparchusd.games.hipparchus.codec import converter
from hipparchusd.lobby import Lobby
from hipparchusd.lobby.messages import LOBBY_EVENTS, EventMessage
from hipparchusd.protocol import Mode
from hipparchusd.records import Abandon, StoredGame
from hipparchusd.server import Server, serve
from hipparchusd.server.run import reload_settings
from hipparchusd.settings import Settings, SettingsError
from hipparchusd.store.base import MemoryStore, StoreError
from hipparchusd.store.export import export_games
from hipparchusd.store.startup import DB_NAME

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the daemon tests' client
from daemon.client import Client

DAY = 86400.0
#: When the tests' games are played, by the injected clock (seconds since the epoch).
START = 1_800_000_000.0


class Clock:
    """A wall clock the test moves (the store's, which times the expiry)."""

    def __init__(self, now: float = START) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def _serve(
    state_dir: Path, nursery: trio.Nursery, clock: Clock, retention_days: float = 0, **settings: Any
) -> Server:
    store = await open_sqlite(nursery, state_dir, clock=clock, retention_days=retention_days)
    options = {
        "port": 0,
        "grace_period": 0.1,
        "state_dir": str(state_dir),
        "adjourn_timeout": 0.1,
        "retention_days": retention_days,
        **settings,
    }
    server: Server = await nursery.start(serve, Settings(**options), store)
    return server


async def _adjourned_game(server: Server, plays: int = 3) -> tuple[str, list[str], HipparchusGame]:
    """A game both seats joined and played ``plays`` moves of, then left: adjourned once the
    adjourn timeout (0.1 s, real time) has passed. Its id, the seats' tokens, and the same game
    played alongside on the engine (seed 3, seat 0 leads)."""
    engine = HipparchusGame(seed=3, first_leader=0)
    engine.start()
    rng = random.Random(7)
    a, b = await Client.connect(server.ports[0]), await Client.connect(server.ports[0])
    game = (await a.ok("new hipparchus seed=3 leader=0")).fields()["game"]
    tokens = [(await a.ok(f"join {game} 0")).fields()["token"]]
    tokens.append((await b.ok(f"join {game} 1")).fields()["token"])
    for _ in range(plays):
        (seat,) = engine.seats_to_move()
        move = rng.choice(engine.legal_moves(seat))
        await (a, b)[seat].ok(f"play {game} {engine.format_move(move)}")
        engine.play(seat, move)
    await a.aclose()
    await b.aclose()
    await _until_adjourned(server, game)
    return game, tokens, engine


async def _until_adjourned(server: Server, game: str) -> None:
    with trio.fail_after(5):
        while game in server.lobby.tables:
            await trio.sleep(0.02)


async def _resume(client: Client, token: str) -> dict[str, Any]:
    state: dict[str, Any] = (await client.ok(f"resume {token}")).json()
    return state


async def test_an_adjourned_game_ends_as_abandoned_after_the_expiry_and_not_before(
    state_dir: Path,
) -> None:
    clock = Clock()
    async with trio.open_nursery() as nursery:
        server = await _serve(state_dir, nursery, clock)
        game, tokens, engine = await _adjourned_game(server)
        # Its expiry counts from its adjournment (now), not from its creation or last move.
        clock.now = START + 30 * DAY - 60
        assert await server.sweeps.expire_adjourned() == ()
        client = await Client.connect(server.ports[0])
        assert "adjourned" in (await client.fail(f"state {game}", "unknown-game")).text
        await client.fail(f"record {game}", "unknown-game")

        clock.now = START + 30 * DAY + 60
        assert await server.sweeps.expire_adjourned() == (game,)
        assert await server.sweeps.expire_adjourned() == ()  # once
        assert server.lobby.active_games == 0 and game not in server.lobby.tables

        await client.ok("format json")
        record = (await client.ok(f"record {game}")).json()
        assert len(record.pop("players")) == 2
        assert record == {
            "game": game,
            "kind": "hipparchus",
            "options": {"seed": "3", "leader": "0"},
            "record": converter.unstructure(engine.record()),  # the game as it stood
            "abandoned": True,
        }
        # Each seat's resume answers its final view: over, abandoned, no winner.
        for seat, token in enumerate(tokens):
            seated = await Client.connect(server.ports[0])
            await seated.ok("format json")
            state = await _resume(seated, token)
            await seated.aclose()
            assert state["game"] == game and state["status"] == "over"
            assert state["abandoned"] is True
            assert state["view"] == converter.unstructure(engine.view(seat))
        assert server.lobby.active_games == 0  # a finished game counts against no limit
        assert server.lobby.tables[game].outcome == Outcome.abandonment()
        assert Outcome.abandonment() == Outcome((), (), None, abandoned=True)
        # The seat to move may not move on: its game is over.
        (to_move,) = engine.seats_to_move()
        word = engine.format_move(engine.legal_moves(to_move)[0])
        mover = await Client.connect(server.ports[0])
        await mover.ok(f"resume {tokens[to_move]}")
        assert "abandoned" in (await mover.fail(f"legal {game}", "game-over")).text
        await mover.fail(f"play {game} {word}", "game-over")
        await mover.fail(f"resign {game}", "game-over")
        await mover.aclose()
        await client.aclose()
        server.shutdown()

    # Exported like every finished game, marked abandoned; its record replays to where it
    # stood.
    (exported,) = export_games(state_dir)["data"]
    assert exported["game_id"] == game and exported["abandoned"] is True
    assert exported["record"] == converter.unstructure(engine.record())
    assert exported["finished_at"] == "2027-02-14T08:01:00+00:00"  # START + 30 days + 60 s

    # The same after a restart: the token answers the final view, record serves it.
    async with trio.open_nursery() as nursery:
        server = await _serve(state_dir, nursery, clock)
        client = await Client.connect(server.ports[0])
        await client.ok("format json")
        state = await _resume(client, tokens[1])
        assert state["status"] == "over" and state["abandoned"] is True
        assert state["view"] == converter.unstructure(engine.view(1))
        record = (await client.ok(f"record {game}")).json()
        assert record["abandoned"] is True
        await client.aclose()
        server.shutdown()


async def test_retention_later_prunes_the_abandoned_game(state_dir: Path) -> None:
    clock = Clock()
    async with trio.open_nursery() as nursery:
        server = await _serve(state_dir, nursery, clock, retention_days=10)
        game, tokens, _ = await _adjourned_game(server, plays=1)
        clock.now = START + 31 * DAY
        assert await server.sweeps.expire_adjourned() == (game,)
        server.shutdown()
    # Kept for the retention's 10 days from its end, as any finished game.
    clock.now = START + 40 * DAY
    async with trio.open_nursery() as nursery:
        store = await open_sqlite(nursery, state_dir, clock=clock, retention_days=10)
        kept = await store.load_finished(game)
        await store.aclose()
    assert kept is not None and kept.abandoned and kept.finished
    assert [item["game_id"] for item in export_games(state_dir)["data"]] == [game]
    clock.now = START + 42 * DAY
    async with trio.open_nursery() as nursery:
        store = await open_sqlite(nursery, state_dir, clock=clock, retention_days=10)
        assert await store.load_finished(game) is None
        assert await store.find_by_token(stored_seat(0, "x").token_hash) is None
        await store.aclose()
    assert export_games(state_dir)["data"] == []
    async with trio.open_nursery() as nursery:
        server = await _serve(state_dir, nursery, clock, retention_days=10)
        client = await Client.connect(server.ports[0])
        await client.fail(f"resume {tokens[0]}", "bad-token")
        await client.fail(f"record {game}", "unknown-game")
        await client.aclose()
        server.shutdown()


async def test_a_resume_just_before_the_expiry_keeps_the_game(state_dir: Path) -> None:
    clock = Clock()
    async with trio.open_nursery() as nursery:
        server = await _serve(state_dir, nursery, clock)
        game, tokens, engine = await _adjourned_game(server)
        clock.now = START + 30 * DAY - 1
        a = await Client.connect(server.ports[0])
        await a.ok("format json")
        state = await _resume(a, tokens[0])
        assert state["status"] == "playing" and "abandoned" not in state
        # Loaded (followed or not), a game is never ended, however old its last activity.
        clock.now = START + 90 * DAY
        assert await server.sweeps.expire_adjourned() == ()
        await a.aclose()
        await _until_adjourned(server, game)  # adjourned again now: its expiry restarts
        clock.now = START + 119 * DAY
        assert await server.sweeps.expire_adjourned() == ()
        # The game goes on where it stood.
        b = await Client.connect(server.ports[0])
        (seat,) = engine.seats_to_move()
        await b.ok(f"resume {tokens[seat]}")
        await b.ok(f"play {game} {engine.format_move(engine.legal_moves(seat)[0])}")
        await b.aclose()
        await _until_adjourned(server, game)
        # Its last move and adjournment were at day 119: ended 30 days after, not before.
        clock.now = START + 149 * DAY - 60
        assert await server.sweeps.expire_adjourned() == ()
        clock.now = START + 149 * DAY + 60
        assert await server.sweeps.expire_adjourned() == (game,)
        server.shutdown()


async def test_start_up_ends_the_games_that_expired_while_the_daemon_was_stopped(
    state_dir: Path,
) -> None:
    clock = Clock()
    engine = HipparchusGame(seed=4, first_leader=0)
    engine.start()
    async with trio.open_nursery() as nursery:
        store = await open_sqlite(nursery, state_dir, clock=clock)
        for game_id, at in (("g1", START), ("g2", START + 20 * DAY)):
            clock.now = at
            await store.create_game(game_id, "hipparchus", {"seed": "4", "leader": "0"}, at)
            await store.add_seat(game_id, stored_seat(0, f"a{game_id}"))
            await store.add_seat(
                game_id, stored_seat(1, f"b{game_id}"), converter.unstructure(engine.record())
            )
        await store.aclose()
    clock.now = START + 45 * DAY  # g1 is 45 days old, g2 25
    async with trio.open_nursery() as nursery:
        server = await _serve(state_dir, nursery, clock)
        client = await Client.connect(server.ports[0])
        with trio.fail_after(5):  # the first look is at start-up, in the background
            while "g1" in server.lobby._adjourned:
                await trio.sleep(0.02)
        await client.ok("format json")
        assert (await _resume(client, "token-ag1"))["status"] == "over"
        assert (await _resume(client, "token-ag2"))["status"] == "playing"
        await client.aclose()
        server.shutdown()


async def test_a_resume_between_finding_and_ending_the_game_keeps_it(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    clock = Clock()
    engine = HipparchusGame(seed=4, first_leader=0)
    engine.start()
    store = await open_sqlite(nursery, state_dir, clock=clock)
    try:
        await store.create_game("g1", "hipparchus", {}, START)
        await store.add_seat("g1", stored_seat(0, "ann"))
        await store.add_seat("g1", stored_seat(1, "bob"), converter.unstructure(engine.record()))
        clock.now = START + 30 * DAY - 1
        assert await store.expired_games(30, 10) == []
        clock.now = START + 30 * DAY + 1
        ((found, last_active),) = await store.expired_games(30, 10)
        assert found.game_id == "g1" and last_active == START
        await store.find_by_token(stored_seat(1, "bob").token_hash)  # a seat resumes it
        with pytest.raises(StoreError, match="inactive since"):
            await store.abandon("g1", found.snapshot, last_active)
        assert await store.expired_games(30, 10) == []
        (kept,) = await store.load_unfinished()
        assert kept.game_id == "g1" and not kept.abandoned
        with pytest.raises(ValueError, match="more than 0 days"):
            await store.expired_games(0, 10)
    finally:
        await store.aclose()


async def test_an_expiry_of_0_or_a_memory_store_ends_nothing(state_dir: Path) -> None:
    clock = Clock()
    async with trio.open_nursery() as nursery:
        server = await _serve(state_dir, nursery, clock, adjourn_expiry_days=0)
        game, _, _ = await _adjourned_game(server, plays=1)
        clock.now = START + 1000 * DAY
        assert await server.sweeps.expire_adjourned() == ()
        server.reconfigure(attrs.evolve(server.settings, adjourn_expiry_days=1500))
        assert await server.sweeps.expire_adjourned() == ()
        server.reconfigure(attrs.evolve(server.settings, adjourn_expiry_days=30))
        assert await server.sweeps.expire_adjourned() == (game,)
        server.shutdown()
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, Settings(port=0), MemoryStore())
        assert await server.sweeps.expire_adjourned() == ()
        server.shutdown()


def test_the_expiry_comes_from_the_command_line_the_file_or_a_reload(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert Settings().adjourn_expiry_days == 30.0
    assert parse_settings(["--config", ""]).adjourn_expiry_days == 30.0
    given = parse_settings(["--config", "", "--adjourn-expiry-days", "7.5"])
    assert given.adjourn_expiry_days == 7.5
    config = tmp_path / "config.toml"
    config.write_text("adjourn-expiry-days = 45\n")
    assert parse_settings(["--config", str(config)]).adjourn_expiry_days == 45.0
    overridden = parse_settings(["--config", str(config), "--adjourn-expiry-days", "0"])
    assert overridden.adjourn_expiry_days == 0
    with pytest.raises(SystemExit):
        parse_settings(["--config", "", "--adjourn-expiry-days", "-1"])
    assert "adjourn_expiry_days must be a number of days >= 0" in capsys.readouterr().err
    with pytest.raises(SettingsError):
        Settings(adjourn_expiry_days=-5)
    (key,) = [k for k in DAEMON_SCHEMA.keys if k.name == "adjourn-expiry-days"]
    assert key.reloadable


async def test_a_reload_changes_the_expiry(caplog: pytest.LogCaptureFixture) -> None:
    async with trio.open_nursery() as nursery:
        server: Server = await nursery.start(serve, Settings(port=0), MemoryStore())
        reload_settings(server, lambda: Settings(port=0, adjourn_expiry_days=2))
        assert server.settings.adjourn_expiry_days == 2
        assert "reload: adjourn-expiry-days: 30.0 -> 2" in caplog.text
        server.shutdown()


def test_the_abandoned_games_game_over_event_names_no_winner() -> None:
    abandoned = GameOver.of(Outcome.abandonment())
    message = EventMessage("g4", 9, "game-over", LOBBY_EVENTS[GameOver](abandoned))
    assert message.encode(Mode.TEXT) == (
        b"* g4 9 game-over winners=- scores=- resigned=- abandoned=true\n"
    )
    # Every other game's event reads as before: no abandoned field.
    won = GameOver.of(Outcome((0,), (2, 1)))
    assert LOBBY_EVENTS[GameOver](won) == {"winners": [0], "scores": [2, 1], "resigned": None}


def test_the_lobby_ends_a_game_it_cannot_rebuild_with_its_last_snapshot(
    caplog: pytest.LogCaptureFixture,
) -> None:
    lobby = Lobby()
    lobby.adjourn_stored(["g1", "g2"])
    seats = (stored_seat(0, "ann"), stored_seat(1, "bob"))
    gone = StoredGame("g1", "no-such-kind", {}, 1.0, seats, {"deals": []}, ((0, "x"),), False)
    result = lobby.expire(gone, 5.0)
    assert result.store_calls == [Abandon("g1", {"deals": []}, 5.0)]
    assert "g1: unknown kind 'no-such-kind'" in caplog.text
    result.commit()
    assert "g1" not in lobby._adjourned and "g2" in lobby._adjourned
    # A game of a kind it serves keeps every move, even those after the snapshot.
    engine = HipparchusGame(seed=4, first_leader=0)
    engine.start()
    snapshot = converter.unstructure(engine.record())
    (seat,) = engine.seats_to_move()
    move = engine.legal_moves(seat)[0]
    engine.play(seat, move)
    options = {"seed": "4", "leader": "0"}
    moves = ((seat, engine.format_move(move)),)
    kept = StoredGame("g2", "hipparchus", options, 1.0, seats, snapshot, moves, False)
    result = lobby.expire(kept, 6.0)
    assert result.store_calls == [Abandon("g2", converter.unstructure(engine.record()), 6.0)]
    # A game loaded meanwhile (a seat resumed it) is left alone.
    lobby.restore(kept)
    assert lobby.expire(kept, 6.0).store_calls == []


async def test_moves_mark_their_game_active_at_most_once_an_hour(
    state_dir: Path, nursery: trio.Nursery
) -> None:
    clock = Clock()
    engine = HipparchusGame(seed=4, first_leader=0)
    engine.start()
    store = await open_sqlite(nursery, state_dir, clock=clock)

    def last_active() -> float:
        with open_db(state_dir / DB_NAME) as conn:
            (value,) = conn.execute("SELECT last_active FROM games").fetchone()
        return float(value)

    try:
        await store.create_game("g1", "hipparchus", {"seed": "4", "leader": "0"}, START)
        await store.add_seat("g1", stored_seat(0, "ann"))
        await store.add_seat("g1", stored_seat(1, "bob"), converter.unstructure(engine.record()))
        rng = random.Random(3)
        for minutes in (30, 59, 61, 90):
            clock.now = START + minutes * 60
            (seat,) = engine.seats_to_move()
            move = rng.choice(engine.legal_moves(seat))
            engine.play(seat, move)
            await store.add_move("g1", seat, engine.format_move(move))
            # (An UPDATE rewrites the row, snapshot included: not at every move.)
            expected = START if minutes < 60 else START + 61 * 60
            assert last_active() == expected
        clock.now = START + 91 * 60
        await store.mark_adjourned(["g1"])  # adjourned: exact
        assert last_active() == START + 91 * 60
    finally:
        await store.aclose()
