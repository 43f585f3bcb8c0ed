"""What the lobby and a game store say to each other, in neither's terms: a game as a store
keeps it (:class:`StoredGame`, :class:`StoredSeat`) and the changes the lobby asks the store to
record (:data:`StoreCommand`: :class:`CreateGame`, :class:`AddSeat`, :class:`RemoveSeat`,
:class:`AddMove`, :class:`Snapshot`, :class:`Finish`, :class:`Abandon`, :class:`EndGame`,
:class:`DropGame`).

The lobby makes these values and imports no store; the server's shell interprets each command
as one call of :class:`~hipparchusd.store.base.GameStore` (:mod:`hipparchusd.server.storage`).
Snapshots and records cross as unstructured JSON (a game's codec made them), so neither side
needs a game's classes. Every value here is frozen: a command is made once per change, read by
the shell, and compared in tests.
"""

from __future__ import annotations

from typing import ClassVar, TypeAlias

import attrs

from .jsondata import JSON


@attrs.frozen
class StoredSeat:
    """A taken seat: its number, the player's name, and the SHA-256 digest of its resume token
    (the token itself is never stored); ``bot``, the engine's level word for a seat the
    daemon's engine plays (``bot``), else ``None``."""

    seat: int
    name: str
    token_hash: bytes
    bot: str | None = None


@attrs.frozen
class StoredGame:
    """Everything needed to bring a game back after a restart.

    ``options`` are the creation options as given to ``new`` (key to value text); ``snapshot`` is
    the latest unstructured game record (deals and moves up to when it was taken; for a
    finished game, its final record); ``moves`` are the (seat, canonical move text) pairs made
    after that snapshot, in order. ``abandoned``: a finished game ended as abandoned (nobody
    resumed it within the expiry, RULINGS H14): no winner, its record the game as it stood.
    ``operator_end``: for a finished game the server's operator ended (``hipparchusd admin
    end``; no winner, its record the game as it stood), the reason the operator gave (``""``
    for none); else ``None``.

    Time (RULINGS T6): ``move_timing`` holds, for an unfinished game, the timing stored with
    each of its moves (all of them, those the snapshot covers included, in order; ``None`` for
    a move stored without: an untimed game's own moves), from which its clocks resume;
    ``timing`` holds, for a finished game, its timing record (``None`` if it has none).
    """

    game_id: str
    kind: str
    options: dict[str, str]
    created_at: float
    seats: tuple[StoredSeat, ...]
    snapshot: JSON
    moves: tuple[tuple[int, str], ...]
    finished: bool
    abandoned: bool = False
    operator_end: str | None = None
    move_timing: tuple[JSON, ...] = ()
    timing: JSON = None


# The commands. Each names the store call it stands for (``call``, for logs); the shell makes
# that call with the fields in order (``GameStore`` says what each call records and when it
# fails).


@attrs.frozen
class CreateGame:
    """``GameStore.create_game``: record the new game ``game_id`` of ``kind`` with its
    creation ``options``, made at ``created_at`` (seconds since the epoch)."""

    call: ClassVar[str] = "create_game"

    game_id: str
    kind: str
    options: dict[str, str]
    created_at: float


@attrs.frozen
class AddSeat:
    """``GameStore.add_seat``: record ``seat`` of ``game_id``; with ``snapshot`` (the seat
    that starts the game), the started game's first snapshot with it."""

    call: ClassVar[str] = "add_seat"

    game_id: str
    seat: StoredSeat
    snapshot: JSON = None


@attrs.frozen
class RemoveSeat:
    """``GameStore.remove_seat``: forget ``seat`` of ``game_id``, freed before the start."""

    call: ClassVar[str] = "remove_seat"

    game_id: str
    seat: int


@attrs.frozen
class AddMove:
    """``GameStore.add_move``: record ``seat``'s ``move`` (canonical text) in ``game_id``;
    with ``snapshot`` (a move that deals a new round), the snapshot after it with it; with
    ``timing`` (a timed game's move, or one the server made for the seat), the move's timing
    with it: what the decision cost and every seat's clock after it (RULINGS T6)."""

    call: ClassVar[str] = "add_move"

    game_id: str
    seat: int
    move: str
    snapshot: JSON = None
    timing: JSON = None


@attrs.frozen
class Snapshot:
    """``GameStore.snapshot``: replace the snapshot of ``game_id`` (it covers every move
    recorded so far)."""

    call: ClassVar[str] = "snapshot"

    game_id: str
    snapshot: JSON


@attrs.frozen
class Finish:
    """``GameStore.finish``: ``game_id`` is over; keep its final ``record``, and its timing
    record with it if it has one (``timing``: a timed game's, or one whose seat the server
    decided for, or that its clocks or an absence ended)."""

    call: ClassVar[str] = "finish"

    game_id: str
    record: JSON
    timing: JSON = None


@attrs.frozen
class Abandon:
    """``GameStore.abandon``: ``game_id``, adjourned and inactive since ``last_active``
    (seconds since the epoch, as the store gave it), is over as abandoned; keep ``record``,
    the game as it stood (RULINGS H14). ``last_active`` is ``None`` for a game the server
    holds and ends itself (its creator's ``end`` of a game only the engine plays): no
    activity to check."""

    call: ClassVar[str] = "abandon"

    game_id: str
    record: JSON
    last_active: float | None


@attrs.frozen
class EndGame:
    """``GameStore.end_game``: the server's operator ended ``game_id`` (``hipparchusd admin
    end``), giving ``reason`` (``""`` for none): over with no winner; keep ``record``, the
    game as it stood, and its timing record with it if it has one (``timing``, as
    :class:`Finish`'s: a timed game's decisions up to the end)."""

    call: ClassVar[str] = "end_game"

    game_id: str
    record: JSON
    reason: str
    timing: JSON = None


@attrs.frozen
class DropGame:
    """``GameStore.drop_game``: forget ``game_id``, which never started."""

    call: ClassVar[str] = "drop_game"

    game_id: str


#: A change for the store to record.
StoreCommand: TypeAlias = (
    CreateGame | AddSeat | RemoveSeat | AddMove | Snapshot | Finish | Abandon | EndGame | DropGame
)
