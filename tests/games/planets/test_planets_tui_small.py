"""The planets screen of ``hipparchus-play`` in a small terminal (80x24, and 100x30): every
seat's box shows the seat's total (P9: the game's score) as a label and its number on one line,
at every table size (3 to 6 seats), to a spectator and to a player; the text checked is the
screen as drawn, cell by cell, inside each box."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path
from typing import Any

import pytest
from play.tui_harness import game_screen, preloaded, thread_daemon, viewer, wait_for
from test_planets_tui import planets_near_its_end
from textual.widgets import Static

from hipparchusd.games.base import Pick as GamePick
from hipparchusd.games.planets.tui.screen import PlanetsScreen
from hipparchusd.games.registry import KINDS
from hipparchusd.play.app import PlayApp
from hipparchusd.play.table import SeatTable, seat_cells
from hipparchusd.store.base import MemoryStore

NAMES = ["ann", "bot-heuristic", "bot-heuristic-2", "bot-heuristic-3", "dee", "eve"]
#: A seed for each table size whose game, stopped before the hand after which a total may
#: pass 100, has every total at two digits or more (checked below).
SEEDS = {3: 5, 4: 17, 5: 17, 6: 17}


def box_text(app: PlayApp, widget: Static | SeatTable) -> list[str]:
    """The rows drawn inside ``widget``'s border, as plain text, from the whole screen."""
    strips = app.screen._compositor.render_strips()
    region = widget.region
    rows = [strip.text for strip in strips[region.y + 1 : region.bottom - 1]]
    return [row[region.x + 1 : region.right - 1].strip() for row in rows]


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
@pytest.mark.parametrize("watching", [True, False], ids=["spectator", "player"])
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_seat_box_shows_its_total(
    tmp_path: Path, players: int, watching: bool, size: tuple[int, int]
) -> None:
    asyncio.run(totals_shown(tmp_path, players, watching, size))


async def totals_shown(tmp_path: Path, players: int, watching: bool, size: tuple[int, int]) -> None:
    """Each seat's box holds a row ``total 26`` or ``tot 26`` with the seat's total (P9);
    the player's own box, at the bottom, too. Before the fix a side box at 80 columns (7 cells
    inside) wrapped ``total 26`` into ``total`` and ``26``, the number below the box's last
    row."""
    names = NAMES[:players]
    store = planets_near_its_end(players, SEEDS[players], names, over=80)
    with thread_daemon(store) as daemon:
        app = PlayApp(viewer(daemon.port, tmp_path, watching))
        async with app.run_test(size=size) as pilot:
            screen = await game_screen(pilot, app)
            assert isinstance(screen, PlanetsScreen)
            await wait_for(pilot, lambda: screen.view is not None, what="the view")
            if not watching and 0 in screen.to_move():
                # A restored game sends no to-move for the position it stands at: the turn
                # is taken as a to-move would (the prompt and the moves then take their rows).
                await screen.load_turn()
                assert screen.my_turn
                screen.redraw()
            await pilot.pause()
            totals = [int(total) for total in (screen.view or {})["totals"]]
            assert min(totals) >= 10, totals  # every total has two digits or more
            for cell, seat in seat_cells(players, 0).items():
                rows = box_text(app, screen.query_one(f"#cell-{cell}", Static))
                shown = [
                    int(found[1])
                    for found in (re.search(r"(?:^|  )(?:total|tot) (-?\d+)$", row) for row in rows)
                    if found
                ]
                assert shown == [totals[seat]], (players, cell, seat, rows)


def mid_trick(players: int, seed: int) -> MemoryStore:
    """A planets game (``g1``) played at random by the rules up to a trick of its first hand
    that every seat but one has played to (the last is to play), every seat taken."""
    options = {"players": str(players), "seed": str(seed)}
    game = KINDS["planets"].create(options)
    game.start()
    rng = random.Random(seed)
    while True:
        view: Any = game.view_data(None)
        cards = (view.get("trick") or {}).get("cards") or []
        if view["phase"] == "play" and view["tricks"] and len(cards) == players - 1:
            return preloaded("planets", options, game, NAMES[:players])
        seat = min(game.seats_to_move())
        legal = game.legal(seat)
        if isinstance(legal, GamePick):
            game.play_word(seat, ",".join(rng.sample(list(legal.items), legal.count)))
        else:
            game.play_word(seat, rng.choice(list(legal.moves)))


@pytest.mark.parametrize("watching", [True, False], ids=["spectator", "player"])
@pytest.mark.parametrize("players", [5, 6])
def test_the_cards_of_the_trick_stay_in_sight(tmp_path: Path, players: int, watching: bool) -> None:
    asyncio.run(trick_shown(tmp_path, players, watching))


async def trick_shown(tmp_path: Path, players: int, watching: bool) -> None:
    """At 80x24 a corner box has two rows, the name and the total, and no room for the card
    its seat played: the middle of the table lists the trick's cards so far (``so far ♄2
    ♄7``), so every card played to the trick in progress is on the table."""
    with thread_daemon(mid_trick(players, 3)) as daemon:
        app = PlayApp(viewer(daemon.port, tmp_path, watching))
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await game_screen(pilot, app)
            assert isinstance(screen, PlanetsScreen)
            await wait_for(pilot, lambda: screen.view is not None, what="the view")
            await pilot.pause()
            cards = [str(card) for card in (screen.view or {})["trick"]["cards"]]
            assert len(cards) == players - 1
            table = "\n".join(box_text(app, screen.query_one("#table", SeatTable)))
            missing = [card for card in cards if screen.deck.name(card) not in table]
            assert missing == [], table
