"""The keys a game screen offers (hipparchusd/play/seat_actions.py, ``check_action``): its
footer names only the keys that work for whoever is at the screen. A spectator (``--watch``)
is offered neither Enter's play nor Ctrl+R's resign, and pressing them sends nothing; a player
is offered both during the game, neither once it is over. In every game with a
screen of its own (Hipparchus, planets), at 80x24; the footer is read as drawn."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from hipparchusd.games.registry import KINDS
from hipparchusd.play.app import Options, PlayApp
from hipparchusd.play.game_screen import GameScreen
from hipparchusd.play.widgets import RulesScreen
from hipparchusd.store.base import MemoryStore
from play.tui_harness import (
    game_screen,
    preloaded,
    press,
    resign,
    thread_daemon,
    token_of,
    wait_for,
)

#: Each kind's options for a game started with every seat taken (``g1``).
GAMES = {"hipparchus": {"seed": "3"}, "planets": {"players": "4", "seed": "3"}}


def started(kind: str) -> MemoryStore:
    """A game of ``kind`` just started, its seats taken (``token_of`` gives the tokens)."""
    options = GAMES[kind]
    game = KINDS[kind].create(dict(options))
    game.start()
    names = ["ann", "bob", "cy", "dee"][: int(options.get("players", "2"))]
    return preloaded(kind, dict(options), game, names)


def footer(app: PlayApp) -> list[str]:
    """The words of the footer, the screen's last row as drawn."""
    return re.findall(r"[a-z]+", app.screen._compositor.render_strips()[-1].text)


def spy(screen: GameScreen) -> list[str]:
    """The commands the screen sends from now on, recorded (and still sent)."""
    sent: list[str] = []
    request = screen.connection.request

    async def recorded(command: str, *args: Any, **kwargs: Any) -> Any:
        sent.append(command)
        return await request(command, *args, **kwargs)

    screen.connection.request = recorded  # type: ignore[method-assign]
    return sent


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_a_spectator_is_offered_no_play_and_no_resign(tmp_path: Path, kind: str) -> None:
    asyncio.run(spectator(tmp_path, kind))


async def spectator(tmp_path: Path, kind: str) -> None:
    """Watching a game under way: the footer offers the rules and leaving, not ``play`` nor
    ``resign``; Enter and Ctrl+R send nothing and ask nothing; ``?`` says what works while
    watching before the players' keys."""
    with thread_daemon(started(kind)) as daemon:
        app = PlayApp(Options(port=daemon.port, watch="g1", delay=0.0, data_dir=tmp_path))
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await game_screen(pilot, app)
            assert screen.seating.seat is None
            await wait_for(pilot, lambda: screen.view is not None, what="the view")
            await pilot.pause()
            words = footer(app)
            assert "play" not in words and "resign" not in words, words
            assert "rules" in words and "leave" in words, words
            sent = spy(screen)
            await press(pilot, "enter", "ctrl+r")
            await pilot.pause()
            assert app.screen is screen, "no question (resign?) is asked"
            assert sent == [] and screen.moves_made == 0
            await press(pilot, "question_mark")  # the keys say what works while watching
            await wait_for(pilot, lambda: isinstance(app.screen, RulesScreen), what="the rules")
            rules = app.screen
            assert isinstance(rules, RulesScreen)
            assert rules.text.startswith("**Keys.** You are watching: `?` shows this, Ctrl+Q")


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_a_player_is_offered_play_and_resign_then_leave(tmp_path: Path, kind: str) -> None:
    asyncio.run(player(tmp_path, kind))


async def player(tmp_path: Path, kind: str) -> None:
    """A seat's screen offers ``play`` and ``resign`` during the game; once the player has
    resigned (the game is over) neither is offered, and Enter leaves (the status line says
    so)."""
    with thread_daemon(started(kind)) as daemon:
        app = PlayApp(Options(port=daemon.port, resume=token_of(0), data_dir=tmp_path))
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await game_screen(pilot, app)
            await wait_for(pilot, lambda: screen.view is not None, what="the view")
            await pilot.pause()
            words = footer(app)
            assert "play" in words and "resign" in words, words
            await resign(pilot, app, screen)
            await wait_for(pilot, lambda: app.screen is not screen, what="the result")
            await press(pilot, "enter")  # closes the result
            await wait_for(pilot, lambda: app.screen is screen, what="the table")
            await pilot.pause()
            words = footer(app)
            assert "play" not in words and "resign" not in words, words
            assert "leave" in words, words
            assert screen.status_text().plain.startswith("Game over. Enter")
            await press(pilot, "enter")
            await wait_for(pilot, lambda: app.return_code is not None, what="Enter to leave")
        assert app.return_code == 0 and app.exit_message == "Game g1 is over."
