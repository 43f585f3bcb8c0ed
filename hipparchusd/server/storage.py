"""The store commands the lobby emits (:mod:`hipparchusd.records`), carried out on a
:class:`~hipparchusd.store.base.GameStore`: one command, one store call (:func:`execute`)."""

from __future__ import annotations

from typing import assert_never

from ..records import (
    Abandon,
    AddMove,
    AddSeat,
    CreateGame,
    DropGame,
    EndGame,
    Finish,
    RemoveSeat,
    Snapshot,
    StoreCommand,
)
from ..store.base import GameStore


async def execute(store: GameStore, command: StoreCommand) -> None:
    """Make the store call ``command`` stands for, on ``store``.

    Raises:
        OSError: as the store call (usually a :class:`~hipparchusd.store.base.StoreError`;
            a :class:`~hipparchusd.store.base.StoreUnreachable` when the outcome is unknown).
    """
    # Moves first: they are nearly every command.
    match command:
        case AddMove(game_id, seat, move, snapshot, None):
            await store.add_move(game_id, seat, move, snapshot)
        case AddMove(game_id, seat, move, snapshot, timing):
            await store.add_move(game_id, seat, move, snapshot, timing)
        case AddSeat(game_id, seat, snapshot):
            await store.add_seat(game_id, seat, snapshot)
        case CreateGame(game_id, kind, options, created_at):
            await store.create_game(game_id, kind, options, created_at)
        case Finish(game_id, record, None):
            await store.finish(game_id, record)
        case Finish(game_id, record, timing):
            await store.finish(game_id, record, timing)
        case Snapshot(game_id, snapshot):
            await store.snapshot(game_id, snapshot)
        case RemoveSeat(game_id, seat):
            await store.remove_seat(game_id, seat)
        case Abandon(game_id, record, last_active):
            await store.abandon(game_id, record, last_active)
        case EndGame(game_id, record, reason, None):
            await store.end_game(game_id, record, reason)
        case EndGame(game_id, record, reason, timing):
            await store.end_game(game_id, record, reason, timing)
        case DropGame(game_id):
            await store.drop_game(game_id)
        case _:
            assert_never(command)


def describe(command: StoreCommand) -> str:
    """The store call ``command`` stands for, for logs: ``add_move g3``. Names the game only
    (a seat's token digest or a snapshot's hands stay out of the log, RULINGS H13)."""
    return f"{command.call} {command.game_id}"
