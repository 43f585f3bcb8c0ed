"""The interface between the daemon and a game store (in memory, or SQLite on disk).

The daemon calls these coroutines from the trio thread; an implementation that blocks does its
work off that thread. :meth:`GameStore.add_move` returns only once the move is durable, so the
daemon can acknowledge a ``play`` only after it returns.

Data crosses this interface already unstructured by the project's cattrs converter (plain dicts,
lists, strings and ints), so a store knows nothing of any game's classes.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..records import StoredGame, StoredSeat


class StoreError(OSError):
    """The store cannot do what was asked: a state directory that cannot be written, a damaged
    or unknown database, a schema newer than this program, or a failed write. The message says
    which file and what to do; start-up stops on it (the CLI prints it and exits non-zero)."""


class StoreUnreachable(StoreError):
    """The store stopped answering while it had the call: its writer process died, or could
    not be read from. Unlike a plain :class:`StoreError`, the call's outcome is unknown: the
    write may have been committed before the writer stopped, and the next daemon to open the
    store then finds it. A call made once the store is known to be broken is never sent, and
    fails with a plain :class:`StoreError`."""


class GameStore(Protocol):
    """A place to keep games. Every method may raise ``OSError`` (or a subclass, usually
    :class:`StoreError`) on failure; a failed write records nothing.

    Calls are applied in the order they are made, so the daemon must make a game's calls in
    the game's order: ``create_game``, ``add_seat`` for each seat (the last with the snapshot of
    the started game), then ``add_move`` for each move (with a snapshot when it deals a new
    round), and ``finish``. A snapshot covers exactly the moves recorded before it. A deal is
    stored with the call that makes it, never after it: a restart must not deal a round anew.
    """

    @property
    def durable(self) -> bool:
        """Whether what is stored outlives the process (a game unloaded from memory can then
        be brought back from the store: adjournment, PROTOCOL.md section 7). The server makes
        no changes to a store that is not durable: it would keep nothing of them."""
        ...

    async def load_unfinished(self) -> list[StoredGame]:
        """Every game not yet finished, oldest first."""
        ...

    async def create_game(
        self, game_id: str, kind: str, options: dict[str, str], created_at: float
    ) -> None:
        """Record a new game."""
        ...

    async def add_seat(self, game_id: str, seat: StoredSeat, snapshot: Any = None) -> None:
        """Record that a seat was taken (replacing what was recorded for that seat before: a
        seat freed before the game starts may be taken again); with ``snapshot``, the started
        game's first snapshot, stored with the seat or not at all."""
        ...

    async def remove_seat(self, game_id: str, seat: int) -> None:
        """Forget a seat freed before the game started (its holder left), token digest
        included, so that a restart does not give it back to its former holder.

        Raises:
            StoreError: no unfinished, unstarted game ``game_id`` with ``seat`` recorded is
                stored, or the write failed.
        """
        ...

    async def snapshot(self, game_id: str, snapshot: Any) -> None:
        """Replace the game's snapshot (e.g. at each new deal); earlier moves may be dropped."""
        ...

    async def add_move(self, game_id: str, seat: int, move: str, snapshot: Any = None) -> None:
        """Record a move; return only once it is durable. With ``snapshot`` (a move that
        deals a new round), the snapshot after the move is stored with it or not at all."""
        ...

    async def finish(self, game_id: str, record: Any) -> None:
        """Record the finished game's full record (kept per the retention setting)."""
        ...

    async def abandon(self, game_id: str, record: Any, last_active: float | None) -> None:
        """End the unfinished game ``game_id``, inactive since ``last_active`` (seconds since
        the epoch, as the store reported it; ``None``: the server holds the game and ends it,
        no activity is checked), as abandoned: no winner, ``record`` (the game as it stood)
        kept per the retention setting and marked abandoned (RULINGS H14).

        Raises:
            StoreError: no unfinished game ``game_id`` inactive since ``last_active`` (a seat
                resumed it meanwhile), or the write failed.
        """
        ...

    async def drop_game(self, game_id: str) -> None:
        """Forget a game that never started (no snapshot), its seats included: the daemon
        drops a waiting game nobody follows after ``abandon_timeout`` seconds. Its id still
        counts for :meth:`latest_game_id`, so that it is never given to another game.

        Raises:
            StoreError: no unfinished, unstarted game ``game_id`` is stored (a started game is
                never dropped), or the write failed.
        """
        ...

    async def load_finished(self, game_id: str) -> StoredGame | None:
        """The finished game ``game_id`` with its final record as ``snapshot`` (and no moves),
        or ``None`` when the store holds no finished game of that id (unknown, unfinished, or
        past retention)."""
        ...

    async def find_by_token(self, token_hash: bytes) -> StoredGame | None:
        """The game one of whose seats has the token digest ``token_hash``: an unfinished one
        as :meth:`load_unfinished` gives it, else a finished one still kept as
        :meth:`load_finished` gives it (``finished`` set); ``None`` when no game has such a
        seat. The daemon asks when ``resume`` names a token of no loaded game: the game may
        have been adjourned, or have ended before a restart (its seats then get its final
        view, as before the restart)."""
        ...

    async def latest_game_id(self) -> str | None:
        """The id of the game created last among those the store holds (finished or not), or
        ``None`` when it holds none; the daemon numbers new games after it."""
        ...

    async def aclose(self) -> None:
        """Flush and close."""
        ...


class MemoryStore:
    """A store that keeps nothing: for throwaway servers and tests (``--state-dir none``)."""

    #: Nothing outlives the process, so no game is ever adjourned (it could not come back).
    durable = False

    async def load_unfinished(self) -> list[StoredGame]:
        """Always empty."""
        return []

    async def create_game(
        self, game_id: str, kind: str, options: dict[str, str], created_at: float
    ) -> None:
        """Nothing to do."""

    async def add_seat(self, game_id: str, seat: StoredSeat, snapshot: Any = None) -> None:
        """Nothing to do."""

    async def remove_seat(self, game_id: str, seat: int) -> None:
        """Nothing to do."""

    async def snapshot(self, game_id: str, snapshot: Any) -> None:
        """Nothing to do."""

    async def add_move(self, game_id: str, seat: int, move: str, snapshot: Any = None) -> None:
        """Nothing to do."""

    async def finish(self, game_id: str, record: Any) -> None:
        """Nothing to do."""

    async def abandon(self, game_id: str, record: Any, last_active: float | None) -> None:
        """Nothing to do."""

    async def drop_game(self, game_id: str) -> None:
        """Nothing to do."""

    async def load_finished(self, game_id: str) -> StoredGame | None:
        """Always ``None``: nothing is kept."""
        return None

    async def find_by_token(self, token_hash: bytes) -> StoredGame | None:
        """Always ``None``: nothing is kept."""
        return None

    async def latest_game_id(self) -> str | None:
        """Always ``None``: nothing is kept."""
        return None

    async def aclose(self) -> None:
        """Nothing to do."""
