"""``hipparchus-play``'s shared parts driven headlessly (Textual's ``App.run_test`` pilot)
against a daemon in this process and bots in threads, with high card (tests/tinygame), a game
that no part of the client knows: served for the test, the generic screen plays it. Leaving
before and after the start, resuming from the lobby, the lobby and its kinds from the server,
the kind a new game takes by default, a dropped connection, and the screen each kind names.
"""

from __future__ import annotations

import asyncio
import socket
import stat
from pathlib import Path
from typing import Any

import attrs
import pytest
from textual.widgets import Input, Select
from tinygame.kind import HIGHCARD

from hipparchusd.client import Client
from hipparchusd.games.registry import KINDS
from hipparchusd.play.app import Options, PlayApp, parse_args
from hipparchusd.play.game_screen import GameScreen
from hipparchusd.play.generic_screen import GenericScreen
from hipparchusd.play.kinds import screen_class
from hipparchusd.play.lobby import LobbyScreen
from hipparchusd.play.seat_actions import Seating
from hipparchusd.play.seats import SeatStore
from hipparchusd.play.widgets import ConfirmScreen, Look, ResultScreen
from play.tui_harness import (
    SIZE,
    Bot,
    ThreadDaemon,
    game_screen,
    new_game,
    press,
    resign,
    serving,
    thread_daemon,
    wait_for,
)


def test_each_game_must_provide_the_screen_hooks() -> None:
    """The per-game hooks are abstract: the shared screen alone cannot be made; the screen of
    every kind served can, and is the one its kind names (the generic one where it names none)."""
    connection: Any = None  # only kept by the constructor

    def make(screen_class: type[GameScreen], kind: str) -> GameScreen:
        seating = Seating("g1", kind, 0, "token", ["you", None])
        return screen_class(
            connection,
            seating,
            None,
            0,
            Look(),
            on_finished=lambda *_: None,
            forget_token=lambda: None,
        )

    assert GameScreen.__abstractmethods__ == {
        "to_move",
        "reduce",
        "explain",
        "load_turn",
        "title_text",
        "seat_panel",
        "center",
    }
    with serving(HIGHCARD):
        kinds = list(KINDS.values())
        with pytest.raises(TypeError, match="abstract"):
            make(GameScreen, kinds[0].name)
        for kind in kinds:
            screen = make(screen_class(kind.name), kind.name)
            if kind.tui is None:
                assert type(screen) is GenericScreen
            else:
                module, _, name = kind.tui.partition(":")
                assert (type(screen).__module__, type(screen).__name__) == (module, name)
    assert screen_class("no-such-kind") is GenericScreen
    assert any(kind.tui is not None for kind in kinds) and HIGHCARD.tui is None


def test_leaving_before_the_start_frees_the_seat_and_says_so(tmp_path: Path) -> None:
    asyncio.run(leave_early(tmp_path))


async def leave_early(tmp_path: Path) -> None:
    """Ctrl+C while waiting for the other players: the message says the seat is free (it is,
    the game had not started) and the saved token is forgotten."""
    with serving(HIGHCARD), thread_daemon() as daemon:
        app = PlayApp(Options(port=daemon.port, new="highcard", data_dir=tmp_path))
        async with app.run_test(size=SIZE) as pilot:
            screen = await game_screen(pilot, app)
            game = screen.seating.game
            assert [s.game for s in SeatStore(tmp_path).load()] == [game]
            await press(pilot, "ctrl+c")
            await wait_for(pilot, lambda: app.return_code is not None, what="the exit")
        assert app.return_code == 130
        assert "your seat is free again" in app.exit_message
        assert SeatStore(tmp_path).load() == []
        with Client.connect(daemon.host, daemon.port, json=True) as client:
            await_free = client.request_json("games")["games"]
        assert [g["players"] for g in await_free if g["game"] == game] == [[None] * 3]


def test_new_game_options_without_a_kind_take_the_servers_first_kind(tmp_path: Path) -> None:
    asyncio.run(first_kind(tmp_path))


async def first_kind(tmp_path: Path) -> None:
    """``--seed`` alone creates a game of the first kind the server's ``kinds`` lists."""
    with thread_daemon() as daemon:
        with Client.connect(daemon.host, daemon.port, json=True) as client:
            first = client.request_json("kinds")["kinds"][0]
        options = parse_args(["--port", str(daemon.port), "--seed", "5"])
        app = PlayApp(attrs.evolve(options, data_dir=tmp_path))
        async with app.run_test(size=SIZE) as pilot:
            screen = await game_screen(pilot, app)
            assert screen.seating.kind == first
            await press(pilot, "ctrl+c")
            await wait_for(pilot, lambda: app.return_code is not None, what="the exit")
        with Client.connect(daemon.host, daemon.port, json=True) as client:
            games = client.request_json("games")["games"]
        assert [(g["kind"], g["fixed_deal"]) for g in games] == [(first, True)]


def test_leaving_a_started_game_keeps_the_seat_and_the_lobby_offers_it_back(
    tmp_path: Path,
) -> None:
    asyncio.run(leave_and_come_back(tmp_path))


async def leave_and_come_back(tmp_path: Path) -> None:
    """Ctrl+Q during a game: the seat stays reserved and its token is kept, readable by the
    user alone; the lobby, opened again, offers the seat back, and Enter takes it; resigning
    then ranks us last, and the others, level at no round won, share the win (tinygame's
    rules)."""
    with serving(HIGHCARD), thread_daemon() as daemon:
        app = PlayApp(Options(port=daemon.port, new="highcard", data_dir=tmp_path))
        async with app.run_test(size=SIZE) as pilot:
            screen = await game_screen(pilot, app)
            game = screen.seating.game
            bots = [Bot(daemon, game, name, seed) for seed, name in enumerate(("bob", "cy"))]
            for bot in bots:
                bot.start()
            await wait_for(pilot, lambda: screen.status == "playing", what="the start")
            await press(pilot, "ctrl+q")
            await wait_for(pilot, lambda: app.return_code is not None, what="the exit")
        assert app.return_code == 130
        assert "your seat stays reserved" in app.exit_message
        saved = SeatStore(tmp_path)
        assert [s.game for s in saved.load()] == [game]
        assert stat.S_IMODE(saved.path.stat().st_mode) == 0o600
        assert stat.S_IMODE(saved.directory.stat().st_mode) == 0o700

        # --resume without a token takes the saved seat back; leaving again keeps it.
        back = PlayApp(Options(port=daemon.port, resume="", data_dir=tmp_path))
        async with back.run_test(size=SIZE) as pilot:
            screen = await game_screen(pilot, back)
            assert screen.seating.game == game and screen.seating.seat == 0
            await press(pilot, "ctrl+c")
            await wait_for(pilot, lambda: back.return_code is not None, what="the exit")
        assert back.return_code == 130 and "stays reserved" in back.exit_message
        assert [s.game for s in saved.load()] == [game]

        again = PlayApp(Options(port=daemon.port, data_dir=tmp_path))
        async with again.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(again.screen, ConfirmScreen), what="offer")
            await press(pilot, "enter")
            screen = await game_screen(pilot, again)
            assert screen.seating.game == game and screen.seating.seat == 0
            assert screen.view is not None and screen.view["seat"] == 0
            await resign(pilot, again, screen)
            assert screen.over["resigned"] == 0
        for bot in bots:
            bot.join(10)
            assert bot.result is not None and bot.result["winners"] == [1, 2]
        assert SeatStore(tmp_path).load() == []


def test_the_lobby_lists_the_servers_kinds_and_games_and_creates_one(tmp_path: Path) -> None:
    asyncio.run(lobby(tmp_path))


async def lobby(tmp_path: Path) -> None:
    """The lobby lists the games, and offers the kinds the server's ``kinds`` lists, in its
    order, the first chosen; ``n`` creates one of the kind chosen and the options typed, and
    joins it."""
    with serving(HIGHCARD), thread_daemon() as daemon:
        waiting = new_game(daemon, "highcard")
        with Client.connect(daemon.host, daemon.port, json=True) as client:
            served = client.request_json("kinds")["kinds"]
        assert "highcard" in served
        app = PlayApp(Options(port=daemon.port, data_dir=tmp_path, name="zed"))
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), what="lobby")
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            await wait_for(pilot, lambda: bool(lobby.games), what="the games")
            assert [g["game"] for g in lobby.games] == [waiting]
            kind = lobby.query_one("#kind", Select)
            assert [str(prompt) for prompt, _ in kind._options] == served
            assert kind.value == served[0]
            kind.value = "highcard"
            lobby.query_one("#options", Input).value = "best_of=2 seed=3"
            await lobby.action_new()
            screen = await game_screen(pilot, app)
            assert isinstance(screen, GenericScreen) and screen.seating.kind == "highcard"
            assert screen.seating.seat == 0 and screen.seating.players[0] == "zed"
            assert len(screen.seating.players) == 3
            await press(pilot, "ctrl+q")
            await wait_for(pilot, lambda: app.return_code is not None, what="the exit")


def test_a_game_from_the_lobby_goes_back_to_it_once_over(tmp_path: Path) -> None:
    asyncio.run(back_to_the_lobby(tmp_path))


async def back_to_the_lobby(tmp_path: Path) -> None:
    """A game joined from the lobby: once it is over, Enter closes the result and Enter again
    goes back to the lobby (not out of the program), which lists the games anew; a game
    watched from the lobby goes back to it when the spectator leaves. High card has no
    computer opponent on this server (``kinds`` lists no level for it): the waiting table
    offers none, and ``b`` there does nothing."""
    with serving(HIGHCARD), thread_daemon() as daemon:
        game = new_game(daemon, "highcard", "best_of=1")
        app = PlayApp(Options(port=daemon.port, data_dir=tmp_path))
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), what="lobby")
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            await wait_for(pilot, lambda: bool(lobby.games), what="the games")
            await press(pilot, "j")
            screen = await game_screen(pilot, app)
            assert screen.levels == () and "computer opponent" not in screen.status_text().plain
            await press(pilot, "b")
            await asyncio.sleep(0.1)  # nothing is to happen: no dialog, nothing typed
            assert app.screen is screen and screen.buffer == ""
            bots = [Bot(daemon, game, name, seed) for seed, name in enumerate(("bob", "cy"))]
            for bot in bots:
                bot.start()
            await wait_for(pilot, lambda: screen.status == "playing", what="the start")
            await resign(pilot, app, screen)
            await wait_for(pilot, lambda: isinstance(app.screen, ResultScreen), what="the end")
            await press(pilot, "enter")
            await wait_for(pilot, lambda: app.screen is screen, what="the result to close")
            assert screen.status_text().plain == "Game over. Enter goes back to the lobby."
            await press(pilot, "enter")
            await wait_for(pilot, lambda: app.screen is lobby, what="the lobby again")
            assert app.return_code is None and app.game_screen is None
            await wait_for(pilot, lambda: not lobby.games, what="the games anew")
            assert _lobby_says(lobby).startswith(f"Game {game} is over. No game yet")

            # Watching from the lobby: Ctrl+Q stops watching and goes back to it.
            watched = new_game(daemon, "highcard")
            await lobby.action_refresh()
            assert [g["game"] for g in lobby.games] == [watched]
            await press(pilot, "w")
            spectator = await game_screen(pilot, app)
            assert spectator.seating.seat is None
            await press(pilot, "ctrl+q")
            await wait_for(pilot, lambda: app.screen is lobby, what="the lobby after watching")
            await wait_for(
                pilot,
                lambda: f"Stopped watching {watched}." in _lobby_says(lobby),
                what="the lobby's line",
            )
            await press(pilot, "q")
            await wait_for(pilot, lambda: app.return_code is not None, what="the exit")
        assert app.return_code == 0
        for bot in bots:
            bot.join(10)


def _lobby_says(lobby: LobbyScreen) -> str:
    """The lobby's line under its table."""
    return str(lobby.query_one("#lobby-status").render())


def test_a_dropped_connection_says_the_seat_is_kept(tmp_path: Path) -> None:
    asyncio.run(dropped(tmp_path))


async def dropped(tmp_path: Path) -> None:
    """The daemon goes away during a game: the client leaves with status 1, saying why and
    that the seat is kept for ``--resume``."""
    with serving(HIGHCARD):
        daemon = ThreadDaemon()
        daemon.start()
        try:
            app = PlayApp(Options(port=daemon.port, new="highcard", data_dir=tmp_path))
            async with app.run_test(size=SIZE) as pilot:
                screen = await game_screen(pilot, app)
                for seed, name in enumerate(("bob", "cy")):
                    Bot(daemon, screen.seating.game, name, seed).start()
                await wait_for(pilot, lambda: screen.status == "playing", what="the start")
                daemon.stop()
                await wait_for(pilot, lambda: app.return_code is not None, what="the exit")
            assert app.return_code == 1
            assert "--resume takes it back" in app.exit_message
            assert [s.game for s in SeatStore(tmp_path).load()] == [screen.seating.game]
        finally:
            daemon.stop()


def test_no_daemon_at_the_address_says_how_to_start_one(tmp_path: Path) -> None:
    asyncio.run(no_daemon(tmp_path))


async def no_daemon(tmp_path: Path) -> None:
    """A refused connection (nothing listens: the daemon not started yet) exits with status 1
    and says how to start one on that port, as well as the OS's reason."""
    with socket.socket() as probe:  # a port that was free a moment ago, now closed again
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = PlayApp(Options(port=port, data_dir=tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.return_code is not None, what="the exit")
    assert app.return_code == 1
    assert f"cannot talk to 127.0.0.1:{port}" in app.exit_message
    assert f"Start it with: hipparchusd --port {port} " in app.exit_message
