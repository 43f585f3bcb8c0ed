"""A game as a store's writer reads it (:data:`~.sql.GameRows`, plain values that cross the
process boundary) made into the :class:`~hipparchusd.records.StoredGame` the lobby restores:
the options, snapshot and record read from their enveloped JSON (:mod:`.codec`). Both stores'
writers give their rows in that one shape."""

from __future__ import annotations

from ..records import StoredGame, StoredSeat
from .codec import load, load_options
from .sql import GameRows


def stored_game(rows: GameRows, *, finished: bool, where: str) -> StoredGame:
    """A :class:`StoredGame` from a writer's rows of a game (a finished game's snapshot is its
    record); ``where`` names the store for error messages.

    Raises:
        StoreError: a stored value cannot be read (:func:`~.codec.load`).
    """
    row, seats, moves, timings = rows
    game_id, kind, options, created_at, stored, abandoned, timing, operator_end = row
    place = f"{where}, game {game_id}"
    return StoredGame(
        game_id=game_id,
        kind=kind,
        options=load_options(options, place),
        created_at=created_at,
        seats=tuple(StoredSeat(*seat) for seat in seats),
        snapshot=None
        if stored is None
        else load(stored, "record" if finished else "snapshot", place),
        moves=tuple(moves),
        finished=finished,
        abandoned=bool(abandoned),
        operator_end=operator_end,
        move_timing=tuple(None if t is None else load(t, "timing", place) for t in timings),
        timing=None if timing is None else load(timing, "timing", place),
    )
