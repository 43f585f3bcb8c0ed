"""The Hipparchus screen of ``hipparchus-play`` in a small terminal (80x24): both seats' boxes
show the cards each seat has won, by suit (public, H8: what scores the round, H10), to a
spectator and to a player at its turn (whose prompt takes four rows, leaving the top box
one); the text checked is the screen as drawn, inside each box."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from play.tui_harness import game_screen, preloaded, thread_daemon, viewer, wait_for
from textual.widgets import Static

from hipparchusd.games.hipparchus.tui.follow import SUIT_LETTERS
from hipparchusd.games.hipparchus.tui.screen import HipparchusScreen
from hipparchusd.games.registry import KINDS
from hipparchusd.play.app import PlayApp
from hipparchusd.play.table import seat_cells
from hipparchusd.store.base import MemoryStore


def after(moves: int) -> MemoryStore:
    """A match (``g1``, seed 3) after ``moves`` random legal plays, both seats taken."""
    options = {"seed": "3"}
    game = KINDS["hipparchus"].create(dict(options))
    game.start()
    rng = random.Random(1)
    for _ in range(moves):
        seat = min(game.seats_to_move())
        game.play_word(seat, rng.choice(list(game.legal(seat).moves)))
    return preloaded("hipparchus", options, game, ["ann", "bot-heuristic"])


def box_text(app: PlayApp, widget: Static) -> list[str]:
    """The rows drawn inside ``widget``'s border, as plain text, from the whole screen."""
    strips = app.screen._compositor.render_strips()
    region = widget.region
    rows = [strip.text for strip in strips[region.y + 1 : region.bottom - 1]]
    return [row[region.x + 1 : region.right - 1].strip() for row in rows]


@pytest.mark.parametrize("watching", [True, False], ids=["spectator", "player"])
def test_both_boxes_show_the_cards_won(tmp_path: Path, watching: bool) -> None:
    asyncio.run(won_shown(tmp_path, watching))


async def won_shown(tmp_path: Path, watching: bool) -> None:
    """Seven plays in (seed 3), seat 1 leads and we (seat 0) are to follow: each box holds
    its seat's won counts, ``☉3 ☽0 ⊕3`` (with ``won`` before them when there is room).
    Before, the top box of a player at its turn had one row, for the name."""
    with thread_daemon(after(7)) as daemon:
        app = PlayApp(viewer(daemon.port, tmp_path, watching))
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await game_screen(pilot, app)
            assert isinstance(screen, HipparchusScreen)
            await wait_for(pilot, lambda: screen.view is not None, what="the view")
            if not watching:
                assert 0 in screen.to_move()
                # A restored game sends no to-move for the position it stands at: the turn
                # is taken as a to-move would (its prompt then takes its rows).
                await screen.load_turn()
                assert screen.my_turn
                screen.redraw()
            await pilot.pause()
            won = (screen.view or {})["won"]
            assert sum(map(sum, won)) > 0, won
            for cell, seat in seat_cells(2, 0).items():
                rows = box_text(app, screen.query_one(f"#cell-{cell}", Static))
                counts = " ".join(
                    f"{screen.deck.cards(letter).plain}{won[seat][index]}"
                    for index, letter in enumerate(SUIT_LETTERS)
                )
                assert any(row.endswith(counts) for row in rows), (cell, counts, rows)


def test_the_title_says_what_the_round_wins_are_at_80_columns(tmp_path: Path) -> None:
    asyncio.run(title_shown(tmp_path))


async def title_shown(tmp_path: Path) -> None:
    """The title row, as drawn at 80x24, ends with the round wins and what they are for
    (H12: the first to win two rounds takes the match). Before, "(two win the match)" was
    cut at "(two win"."""
    with thread_daemon(after(7)) as daemon:
        app = PlayApp(viewer(daemon.port, tmp_path, False))
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await game_screen(pilot, app)
            await wait_for(pilot, lambda: screen.view is not None, what="the view")
            await pilot.pause()
            title = screen.query_one("#title", Static)
            row = app.screen._compositor.render_strips()[title.region.y].text
            assert row.rstrip().endswith("you 0 - 0 bot-heuristic, first to 2 rounds"), row


def test_a_spectator_title_that_does_not_fit_80_columns_takes_a_second_row(
    tmp_path: Path,
) -> None:
    asyncio.run(spectator_title_shown(tmp_path))


async def spectator_title_shown(tmp_path: Path) -> None:
    """A spectator's title of a fixed deal (seed 3), ``... ann 0 - 0 bot-heuristic, first to
    2 rounds  ·  fixed deal  ·  watching``, is wider than 80 columns: it wraps, so that
    ``watching``, the word that says why there is no hand, is drawn. Before, the title had
    one row and what followed the round wins was cut off."""
    with thread_daemon(after(7)) as daemon:
        app = PlayApp(viewer(daemon.port, tmp_path, True))
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await game_screen(pilot, app)
            await wait_for(pilot, lambda: screen.view is not None, what="the view")
            await pilot.pause()
            title = screen.query_one("#title", Static)
            strips = app.screen._compositor.render_strips()
            rows = [strip.text.strip() for strip in strips[title.region.y : title.region.bottom]]
            assert len(rows) == 2, rows
            assert rows == [
                "Hipparchus  game g1  ·  round 1  ·  ann 0 - 0 bot-heuristic, first to 2 rounds",
                "·  fixed deal  ·  watching",
            ]
