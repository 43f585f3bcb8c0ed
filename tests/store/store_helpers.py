"""Shared helpers for the store tests."""

from __future__ import annotations

import contextlib
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from hipparchusd.games.hipparchus import HipparchusGame


def play_random(game: HipparchusGame, rng: random.Random, plays: int | None = None) -> list[str]:
    """Make up to ``plays`` random legal plays (all, to the match's end, when ``None``) chosen
    by ``rng``; return them as canonical move texts."""
    made: list[str] = []
    while game.outcome is None and (plays is None or len(made) < plays):
        (seat,) = game.seats_to_move()
        play = rng.choice(game.legal_moves(seat))
        game.play(seat, play)
        made.append(game.format_move(play))
    return made


@contextlib.contextmanager
def open_db(path: Path) -> Iterator[sqlite3.Connection]:
    """A plain connection to a store's database, as an operator's ``sqlite3`` would have;
    committed and closed on leaving."""
    conn = sqlite3.connect(path)
    try:
        with conn:
            yield conn
    finally:
        conn.close()
