"""The lobby's games outside of requests: restoring them from the store (after a restart, or
for ``resume`` of an adjourned game), dropping or adjourning the ones that nobody follows, and
ending as abandoned the adjourned ones that nobody resumes (PROTOCOL.md section 7)."""

from __future__ import annotations

import collections
import logging
import re
from collections.abc import Callable, Sequence

from ..clocks import Clocks
from ..games.base import BadOption, GameError, Outcome
from ..jsondata import JSONObject
from ..protocol import ErrorCode, ProtocolError
from ..records import Abandon, DropGame, Finish, Snapshot, StoreCommand, StoredGame
from ..wording import counted
from .base import LobbyBase
from .results import Result
from .tables import Lifecycle, Table
from .timing import ending_from, time_rules

log = logging.getLogger("hipparchusd.lobby")


class Housekeeping(LobbyBase):
    """Restoring, adjourning and dropping games: a part of :class:`~.core.Lobby`."""

    def restore(self, stored: StoredGame, now: float = 0.0) -> Table:
        """Bring back a game the store kept (e.g. after a restart): its seats, names and token
        digests, and its position (the snapshot, then the moves after it). Its seats have no
        connection until their tokens ``resume`` them (they are away from ``now``, the
        server's monotonic seconds, RULINGS T4); ``seq`` starts again from 0, so clients take
        the resume snapshot as their new starting point. Later ids follow it.

        A timed game's clocks are where its last stored move left them, and those of the seats
        to move run again from ``now`` (T6: the time it was not loaded is charged to nobody).

        A game the server ended as abandoned (``stored.abandoned``) is over, whatever its
        record says (RULINGS H14).

        Raises:
            ValueError: an unknown kind, a game id already in use, or a snapshot or move the
                game refuses (nothing is changed).
        """
        if stored.game_id in self.tables:
            raise ValueError(f"game {stored.game_id} is already loaded")
        table = self._rebuild(stored, now)
        self.tables[table.id] = table
        self._adjourned.pop(table.id, None)
        for seat_number, seat in enumerate(table.seats):
            if seat.token_digest is not None:
                self._tokens[seat.token_digest] = (table, seat_number)
        if table.finished:
            self._finished.append(table.id)
        self._note_game_id(stored.game_id)
        log.info("game %s restored (%s, %s)", table.id, table.kind.name, table.status)
        return table

    def _rebuild(self, stored: StoredGame, now: float = 0.0) -> Table:
        """The table of ``stored`` (see :meth:`restore`), made without touching the lobby.

        Raises:
            ValueError: an unknown kind, a snapshot or move the game refuses, or a seat it
                does not have.
        """
        kind = self.kinds.get(stored.kind)
        if kind is None:
            raise ValueError(f"game {stored.game_id}: unknown kind {stored.kind!r}")
        # The games' messages may name cards (a deal option, a record, a hand position), and
        # this one is logged: it says only which step failed (RULINGS H13, issue 16 item 9).
        step = "its options are refused"
        try:
            rules, options = time_rules(kind, stored.options)
            if stored.snapshot is None:
                game = kind.create(options)
            else:
                step = "its stored record does not load"
                game = kind.restore(options, stored.snapshot)
            for index, (mover, text) in enumerate(stored.moves, 1):
                step = f"its stored move {index} (seat {mover}) is refused"
                game.play_word(mover, text)
        except (BadOption, GameError, ValueError) as error:
            code = getattr(error, "code", type(error).__name__)
            raise ValueError(f"game {stored.game_id}: {step} ({code})") from None
        table = Table.new(stored.game_id, kind, game, stored.options, stored.created_at, rules)
        for taken in stored.seats:
            if not 0 <= taken.seat < len(table.seats):
                raise ValueError(f"game {stored.game_id}: no seat {taken.seat}")
            seat = table.seats[taken.seat]
            seat.name, seat.token_digest, seat.bot = taken.name, taken.token_hash, taken.bot
        if stored.snapshot is not None:
            table.enter(Lifecycle.PLAYING)
        elif all(seat.taken for seat in table.seats):
            # Stopped between the last seat and the first snapshot: nothing was sent yet
            # (the server stores before it sends), so the game starts afresh.
            game.start()
            table.enter(Lifecycle.PLAYING)
        if stored.finished:
            table.ended = (
                Outcome.operator_end()
                if stored.operator_end is not None
                else ending_from(stored.timing, game)
            )
            if isinstance(stored.timing, dict):
                decisions = stored.timing.get("decisions")
                if isinstance(decisions, list):
                    table.decisions = [d for d in decisions if isinstance(d, dict)]
        if stored.abandoned and table.started and game.outcome is None:
            table.abandoned = True
            table.enter(Lifecycle.OVER)
        elif game.outcome is not None or table.ended is not None:
            table.enter(Lifecycle.OVER)
        elif table.started:
            self._resume_time(table, stored, now)
        return table

    @staticmethod
    def _resume_time(table: Table, stored: StoredGame, now: float) -> None:
        """Bring back the time of ``table``, a started game restored from ``stored`` at
        ``now``: its moves and timing record from the timing stored with its moves, its
        clocks where the last of them left them (every bank full if none did), those of the
        seats to move running from ``now`` (RULINGS T6), and every seat a person plays away
        from ``now`` (T4: nobody holds it until a ``resume``).

        Raises:
            ValueError: a stored timing that does not fit the game (nothing of the lobby is
                changed).
        """
        table.plies = len(stored.move_timing)
        last: JSONObject | None = None
        for timing in stored.move_timing:
            if isinstance(timing, dict):
                table.decisions.append({k: v for k, v in timing.items() if k != "clocks"})
                if "clocks" in timing:
                    last = timing
        for seat in table.seats:
            if seat.taken and seat.bot is None:
                seat.away_since = now
        control = table.rules.control
        if control is None:
            return
        try:
            clocks = (
                Clocks.start(control, len(table.seats))
                if last is None
                else Clocks.from_stored(control, len(table.seats), last["clocks"])
            )
        except ValueError as error:
            raise ValueError(f"game {stored.game_id}: its stored clocks ({error})") from None
        table.clocks = clocks.run(table.game.seats_to_move(), now)

    @staticmethod
    def restored_commands(table: Table, stored: StoredGame) -> list[StoreCommand]:
        """What restoring ``stored`` as ``table`` (:meth:`restore`) decided, for the store to
        record before anything is served: a game its stored moves ended is finished; a game
        restored from moves after its snapshot, or started afresh, gets a new snapshot, which
        keeps any deal made while replaying (dealt from the system's randomness, and seen by
        nobody yet) for the next restart. Empty when the store holds the game as it is."""
        if stored.finished:
            return []  # stored as it ended: finishing it again would restart its retention
        if table.finished:
            return [Finish(table.id, table.game.record_data())]
        if table.started and (stored.moves or stored.snapshot is None):
            return [Snapshot(table.id, table.game.record_data())]
        return []

    def drop_abandoned(self, now: float, timeout: float) -> Result:
        """Drop the games still waiting for players that nobody has followed (no connection
        holds a seat in one or watches it) for ``timeout`` seconds or more, so that games
        nobody joins do not use up ``max_games`` for good (PROTOCOL.md section 7). A dropped
        game's id becomes unknown; its result carries a :class:`DropGame` store command per game.

        Called periodically by the server with ``now`` on a monotonic clock (seconds): a game
        is timed from the first call that finds it unfollowed (after a follower leaves, from
        the next call), so it may live up to one calling interval longer than ``timeout``.
        Started games are never dropped: their seats may come back with their tokens (they
        may be adjourned instead, :meth:`adjourn_unfollowed`, which times them).
        """
        result = Result()
        dropped: list[str] = []
        for table in list(self.tables.values()):
            if table.followers():
                table.unattended_since = None
            elif table.started:
                continue
            elif table.unattended_since is None:
                table.unattended_since = now
            elif now - table.unattended_since >= timeout:
                table.enter(Lifecycle.DROPPED)
                self._forget(table.id)
                dropped.append(table.id)
                result.store_calls.append(DropGame(table.id))
                log.info(
                    "game %s dropped: still waiting for players and followed by nobody for %g s",
                    table.id,
                    timeout,
                )
        result.games = tuple(dropped)
        return result

    def adjourn_unfollowed(
        self, now: float, timeout: float, busy: Callable[[str], bool] = lambda game_id: False
    ) -> tuple[str, ...]:
        """Adjourn the started, unfinished games that nobody has followed (no connection holds
        a seat in one or watches it) for ``timeout`` seconds or more (:meth:`adjourn`), so
        that games whose players all went away do not use up ``max_games`` for good
        (PROTOCOL.md section 7). Returns their ids. No store call is needed: the store keeps
        such a game as it is, and :meth:`bring_back` loads it again when a seat resumes.

        Timed as :meth:`drop_abandoned` (``now`` on a monotonic clock, from the first call
        that finds the game unfollowed). A game for which ``busy`` is true (a request on it is
        still being carried out) waits for a later call. Only call this with a durable store:
        an adjourned game comes back only from the store.
        """
        adjourned: list[str] = []
        for table in list(self.tables.values()):
            if not table.started or table.finished:
                continue
            if table.followers():
                # (A game the engine alone plays is no exception: nobody would watch it end,
                # and its searches would keep the workers from everyone else: issue 24.)
                table.unattended_since = None
            elif table.unattended_since is None:
                table.unattended_since = now
            elif now - table.unattended_since >= timeout and not busy(table.id):
                self.adjourn(table.id)
                adjourned.append(table.id)
                log.info(
                    "game %s adjourned: followed by nobody for %g s; kept in the store until "
                    "a seat resumes it",
                    table.id,
                    timeout,
                )
        return tuple(adjourned)

    def expire(self, stored: StoredGame, last_active: float) -> Result:
        """End the adjourned game ``stored`` as abandoned (RULINGS H14; issue 16 item 3):
        nobody resumed it within the expiry, whose count started at ``last_active`` (seconds
        since the epoch, as the store gave it with the game, ``GameStore.expired_games``).
        The result's store command (:class:`Abandon`) keeps the game's record as it stood,
        with no winner; once it is stored the id is no longer noted as adjourned, and a seat's
        ``resume`` then answers its final view (as for any finished game), ``record`` serves
        it, and ``play`` and ``legal`` answer ``game-over``. Nobody follows an adjourned game,
        so no event is sent.

        A game loaded again meanwhile (a seat resumed it) is left alone: an empty result. A
        game that cannot be rebuilt (say, its kind is no longer served) is ended all the same,
        keeping its last stored snapshot as its record (the moves after it are lost); logged.
        """
        game_id = stored.game_id
        result = Result()
        if game_id in self.tables or stored.finished:
            return result
        record = stored.snapshot
        try:
            record = self._rebuild(stored).game.record_data()
        except ValueError as error:
            log.error(
                "game %s: %s; ended as abandoned with its last stored snapshot as its record",
                game_id,
                error,
            )
        result.store_calls.append(Abandon(game_id, record, last_active))
        result.games = (game_id,)

        def ended() -> None:
            self._adjourned.pop(game_id, None)
            log.info(
                "game %s ended as abandoned: adjourned and resumed by nobody; no winner; its "
                "record is kept",
                game_id,
            )

        result.pending = ended
        return result

    def adjourn(self, game_id: str) -> None:
        """Unload the loaded game ``game_id``: the lobby forgets its table and its seats'
        tokens (it no longer counts against ``max_games``) and remembers its id, so that
        commands naming it say it is adjourned. The store must hold it: :meth:`bring_back`
        loads it again.

        Raises:
            KeyError: no game ``game_id`` is loaded.
        """
        self.tables[game_id].enter(Lifecycle.ADJOURNED)
        self._forget(game_id)
        self._adjourned[game_id] = None
        while len(self._adjourned) > self.adjourned_kept:
            del self._adjourned[next(iter(self._adjourned))]

    def adjourn_stored(self, game_ids: Sequence[str]) -> None:
        """Note the games ``game_ids``, which only the store holds (started games at
        start-up), as adjourned: commands naming one say so, and a seat's ``resume`` loads it
        (:meth:`bring_back`). Later ids follow theirs."""
        for game_id in game_ids:
            self._note_game_id(game_id)
        # Only the newest are remembered: deleting the oldest one by one from a dict is
        # quadratic (each next(iter()) walks past the deleted slots).
        newest = list(game_ids)[-self.adjourned_kept :] if self.adjourned_kept else []
        for game_id in newest:
            self._adjourned.pop(game_id, None)
            self._adjourned[game_id] = None
        excess = len(self._adjourned) - self.adjourned_kept
        if excess > 0:
            self._adjourned = dict.fromkeys(list(self._adjourned)[excess:])

    def bring_back(self, stored: StoredGame, now: float = 0.0) -> Table:
        """Load an adjourned game again, for ``resume`` of one of its seats' tokens: ``stored``
        is the game as the store kept it (``GameStore.find_by_token``); see :meth:`restore`.
        It counts against ``max_games`` again. A finished game (``stored.finished``, its
        final record) is loaded whatever the count, as finished games do not count: its seats'
        ``resume`` then answers its final view, as before a restart.

        Raises:
            ProtocolError: ``limit``, ``max_games`` games are loaded (nothing is changed).
            ValueError: as :meth:`restore` (nothing is changed).
        """
        if not stored.finished and self.active_games >= self.max_games:
            raise ProtocolError(
                ErrorCode.LIMIT,
                f"the server holds {counted(self.max_games, 'game')}: {stored.game_id[:40]} stays "
                "adjourned; resume it once a game ends",
                limit="max-games",
            )
        return self.restore(stored, now)

    def count_stored_games(self, latest_game_id: str | None) -> None:
        """Number new games after ``latest_game_id``, the game the store created last
        (``GameStore.latest_game_id``, finished games included), so that no id is used twice
        across restarts."""
        if latest_game_id is not None and re.fullmatch(r"g[0-9]{1,18}", latest_game_id):
            self._note_game_id(latest_game_id)

    def grant_game_numbers(self, first: int, last: int) -> None:
        """Number the games this lobby creates from now on from the block ``first`` to
        ``last`` (inclusive), after those granted before: a store that several daemons share
        reserves each daemon its own blocks, so that two never give one id (issue 28). From
        the first grant on, games are numbered only from granted blocks, and a ``new`` with
        none left answers ``internal`` (:meth:`game_numbers_left` says when to ask for more).

        Raises:
            ValueError: an empty block.
        """
        if not 1 <= first <= last:
            raise ValueError(f"no game numbers from {first} to {last}")
        if self._numbers is None:
            self._numbers = collections.deque()
        self._numbers.append([first, last])

    @property
    def game_numbers_left(self) -> int | None:
        """How many granted game numbers are left (``None``: the lobby numbers games itself)."""
        if self._numbers is None:
            return None
        return sum(last - start + 1 for start, last in self._numbers if start <= last)
