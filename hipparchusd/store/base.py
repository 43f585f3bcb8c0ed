"""The interface between the daemon and a game store (in memory, or SQLite on disk).

The daemon calls these coroutines from the trio thread; an implementation that blocks does its
work off that thread. :meth:`GameStore.add_move` returns only once the move is durable, so the
daemon can acknowledge a ``play`` only after it returns.

Data crosses this interface already unstructured by the project's cattrs converter (JSON data:
snapshots and records are :data:`~hipparchusd.jsondata.JSON`), so a store knows nothing of any
game's classes.

Besides recording and reading games, the interface carries what a durable store adds to the
daemon's life (PROTOCOL.md section 7): which games start loaded and which stay adjourned
(:meth:`GameStore.startup_games`), the adjournment's expiry (:meth:`GameStore.mark_adjourned`,
:meth:`GameStore.expired_games`), the games a failure left in doubt
(:meth:`GameStore.take_uncertain`) and a failure that ends the daemon
(:meth:`GameStore.wait_failed`). The daemon asks every store alike; :class:`MemoryStore`
answers with no-ops, so that no caller needs to know which store it has.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

import attrs
import trio

from ..jsondata import JSON
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


class GameNotOwned(StoreError):
    """A store shared by several daemons (PostgreSQL, issue 28) refused a write because this
    daemon no longer owns the game: another daemon claimed it, or this daemon's lease lapsed
    (it was paused, or cut off from the database). Nothing was stored; the daemon must give the
    game up, since its truth is now the other daemon's (:meth:`GameStore.take_uncertain`
    names it)."""


@attrs.frozen
class StartupGames:
    """What a daemon starting on a store begins with (:meth:`GameStore.startup_games`).

    ``loaded``: the unfinished games to load into the lobby now, oldest first. ``adjourned``:
    the ids of the started, unfinished games left in the store, oldest first, until a seat's
    ``resume`` loads one (PROTOCOL.md section 7); they are not loaded, so however many there
    are, start-up reads their ids only.
    """

    loaded: tuple[StoredGame, ...]
    adjourned: tuple[str, ...] = ()


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

    async def add_seat(self, game_id: str, seat: StoredSeat, snapshot: JSON = None) -> None:
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

    async def snapshot(self, game_id: str, snapshot: JSON) -> None:
        """Replace the game's snapshot (e.g. at each new deal); earlier moves may be dropped."""
        ...

    async def add_move(
        self, game_id: str, seat: int, move: str, snapshot: JSON = None, timing: JSON = None
    ) -> None:
        """Record a move; return only once it is durable. With ``snapshot`` (a move that
        deals a new round), the snapshot after the move is stored with it or not at all; with
        ``timing`` (a timed game's move, or one the server made for the seat: RULINGS T6), its
        timing with it, given back in ``StoredGame.move_timing``."""
        ...

    async def finish(self, game_id: str, record: JSON, timing: JSON = None) -> None:
        """Record the finished game's full record, and its timing record if it has one (given
        back in ``StoredGame.timing``), kept per the retention setting."""
        ...

    async def abandon(self, game_id: str, record: JSON, last_active: float | None) -> None:
        """End the unfinished game ``game_id``, inactive since ``last_active`` (seconds since
        the epoch, as the store reported it; ``None``: the server holds the game and ends it,
        no activity is checked), as abandoned: no winner, ``record`` (the game as it stood)
        kept per the retention setting and marked abandoned (RULINGS H14).

        Raises:
            StoreError: no unfinished game ``game_id`` inactive since ``last_active`` (a seat
                resumed it meanwhile), or the write failed.
        """
        ...

    async def end_game(self, game_id: str, record: JSON, reason: str, timing: JSON = None) -> None:
        """End the unfinished game ``game_id`` as the server's operator asked (``hipparchusd
        admin end``, giving ``reason``, ``""`` for none): no winner, ``record`` (the game as it
        stood) kept per the retention setting with its ``timing`` record if it has one (as
        :meth:`finish` keeps it), marked ended by the operator with the reason.

        Raises:
            StoreError: no unfinished game ``game_id``, or the write failed.
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

    async def startup_games(self) -> StartupGames:
        """The games a daemon starting on this store loads at once, and the ids of those it
        leaves adjourned (:class:`StartupGames`). A store that can bring a game back later
        leaves every started one adjourned, those whose every seat the daemon's engine plays
        too (loaded at every start, they would fill max-games for good: issue 24 item 6); a
        store that cannot loads every unfinished game it has.

        Raises:
            StoreError: a stored game cannot be read, or the read failed.
        """
        ...

    async def mark_adjourned(self, game_ids: Sequence[str]) -> None:
        """The daemon adjourned (unloaded) the unfinished games ``game_ids``, which nobody
        followed: their expiry (:meth:`expired_games`) counts from now, not from their last
        move.

        Raises:
            StoreError: the write failed.
        """
        ...

    async def expired_games(self, days: float, limit: int) -> list[tuple[StoredGame, float]]:
        """Up to ``limit`` started, unfinished games that nothing wrote, resumed or adjourned
        for ``days`` days by the store's clock, least recently active first, each as
        :meth:`load_unfinished` gives it with its last activity (seconds since the epoch, to
        pass to :meth:`abandon`); the daemon ends them as abandoned (RULINGS H14).

        Raises:
            StoreError: a stored game cannot be read, or the read failed.
            ValueError: ``days`` not above 0.
        """
        ...

    def take_uncertain(self) -> set[str]:
        """The ids of the games whose calls failed with :class:`StoreUnreachable` since the
        last call of this method (their outcome is known to the store only, which is the
        truth): the daemon unloads them, so that a seat's ``resume`` loads each as the store
        has it. Each id is given once."""
        ...

    @property
    def restarts(self) -> int:
        """How many times the store replaced a part of itself that died (a writer process),
        for the daemon's metrics; 0 for a store with no such part."""
        ...

    def observe_commits(self, observer: Callable[[int], None]) -> None:
        """From now on call ``observer`` after each commit with the number of calls it carried
        (a group commit's batch), for the daemon's metrics; it must be quick and not raise. A
        store that commits nothing never calls it."""
        ...

    async def wait_failed(self) -> str:
        """Return once the store has failed for good (it can no longer record anything, and
        will not recover by itself), saying why, naming the store: the daemon then stops with
        an error, so that its supervisor restarts it. A store that cannot fail so never
        returns."""
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

    async def add_seat(self, game_id: str, seat: StoredSeat, snapshot: JSON = None) -> None:
        """Nothing to do."""

    async def remove_seat(self, game_id: str, seat: int) -> None:
        """Nothing to do."""

    async def snapshot(self, game_id: str, snapshot: JSON) -> None:
        """Nothing to do."""

    async def add_move(
        self, game_id: str, seat: int, move: str, snapshot: JSON = None, timing: JSON = None
    ) -> None:
        """Nothing to do."""

    async def finish(self, game_id: str, record: JSON, timing: JSON = None) -> None:
        """Nothing to do."""

    async def abandon(self, game_id: str, record: JSON, last_active: float | None) -> None:
        """Nothing to do."""

    async def end_game(self, game_id: str, record: JSON, reason: str, timing: JSON = None) -> None:
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

    async def startup_games(self) -> StartupGames:
        """Every unfinished game (:meth:`load_unfinished`: none), loaded at once: a game
        unloaded from this store could not come back, so none is left adjourned."""
        return StartupGames(loaded=tuple(await self.load_unfinished()))

    async def mark_adjourned(self, game_ids: Sequence[str]) -> None:
        """Nothing to do."""

    async def expired_games(self, days: float, limit: int) -> list[tuple[StoredGame, float]]:
        """Always empty: nothing is kept, so nothing is adjourned."""
        return []

    def take_uncertain(self) -> set[str]:
        """Always empty: every call's outcome is known."""
        return set()

    #: Nothing here is ever replaced.
    restarts = 0

    def observe_commits(self, observer: Callable[[int], None]) -> None:
        """Nothing to do: nothing is committed."""

    async def wait_failed(self) -> str:
        """Never returns: nothing here can fail for good."""
        await trio.sleep_forever()

    async def aclose(self) -> None:
        """Nothing to do."""
