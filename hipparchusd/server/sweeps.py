"""The server's periodic sweeps (:class:`Sweeps`): closing the idle connections and those
past their request deadline, dropping the abandoned games, adjourning the unfollowed ones and
unloading those a store failure left uncertain (every second or so), and ending the
adjourned games past their expiry (every minute). They act through the pipeline, in each
game's order, like requests; the :class:`~.lifecycle.Server` runs them in its nursery.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Final

import trio

from ..lobby import Lobby, Session
from ..protocol import ErrorCode
from ..protocol import formatting as fmt
from ..records import StoredGame
from ..settings import Settings
from ..store.base import GameStore
from .connection import Connection
from .engines import Engines
from .pipeline import Pipeline

log = logging.getLogger("hipparchusd.server")

#: Seconds between two looks for adjourned games past their expiry (the first at start-up).
EXPIRY_INTERVAL: Final = 60.0
#: Expired games read from the store at a time.
EXPIRY_BATCH: Final = 100


class Sweeps:
    """The sweeps of one server: :meth:`sweep` and :meth:`expire_periodically` run until
    cancelled. They read ``settings`` at every round: the server sets a reloaded one here.

    Args:
        settings: the timeouts and the expiry (``idle_timeout``, ``request_timeout``,
            ``abandon_timeout``, ``adjourn_timeout``, ``adjourn_expiry_days``).
        lobby: the games and sessions swept.
        store: where adjourned games are kept and expire.
        pipeline: what carries out the sweeps' results, in the games' order.
        engines: whose searches on a game adjourned or unloaded are stopped.
        connections: the open connections by session id.
    """

    def __init__(
        self,
        settings: Settings,
        lobby: Lobby,
        store: GameStore,
        pipeline: Pipeline,
        engines: Engines,
        connections: dict[int, Connection],
    ) -> None:
        self.settings = settings
        self.lobby = lobby
        self.store = store
        self.pipeline = pipeline
        self.engines = engines
        self.connections = connections
        #: Games the store left in doubt that a request held at the last sweep (see
        #: :meth:`reload_uncertain`).
        self._uncertain: set[str] = set()
        #: Told of each game unloaded because the store holds its truth, with the sessions
        #: that followed it (a daemon sharing its store closes them, issue 28); none alone.
        self.on_unload: Callable[[str, tuple[Session, ...]], None] | None = None

    async def sweep(self) -> None:
        """Every second (or a quarter of the shorter timeout), close the idle connections and
        those past their request deadline, drop the abandoned games and adjourn the unfollowed
        ones (PROTOCOL.md section 7). One
        sweep for all connections and games keeps the per-request path free of timers. The
        timeouts are read at every sweep, since a reload may change them (0: never). With a
        store that is not durable nothing is adjourned: it could not come back."""
        while True:
            settings = self.settings
            timeouts = [
                t
                for t in (settings.idle_timeout, settings.abandon_timeout, settings.request_timeout)
                if t > 0
            ]
            if self._adjourn_timeout(settings) > 0:
                timeouts.append(settings.adjourn_timeout)
            await trio.sleep(min([1.0, *(t / 4 for t in timeouts)]))
            now = trio.current_time()
            settings = self.settings
            if settings.idle_timeout > 0:
                self._close_idle(now, settings.idle_timeout)
            if settings.request_timeout > 0:
                self._close_slow_lines(now, settings.request_timeout)
            if settings.abandon_timeout > 0:
                result = self.lobby.drop_abandoned(now, settings.abandon_timeout)
                if result.games:
                    await self.pipeline.carry_out(result, None)
            if self._adjourn_timeout(settings) > 0:
                await self.adjourn_unfollowed(settings.adjourn_timeout)
            self.reload_uncertain()

    async def adjourn_unfollowed(self, timeout: float) -> None:
        """Adjourn the games in progress nobody has followed for ``timeout`` seconds
        (:meth:`Lobby.adjourn_unfollowed`, timed from the first call that finds each one
        unfollowed; a drain asks with 0), stopping their searches; with a durable store only."""
        busy = self.pipeline.sequencer.busy
        adjourned = self.lobby.adjourn_unfollowed(trio.current_time(), timeout, busy)
        for game_id in adjourned:
            self.engines.stop_game(game_id, "adjourned")
        if adjourned:
            # Their expiry counts from now, not from their last move.
            try:
                await self.store.mark_adjourned(adjourned)
            except OSError as error:
                log.error("noting adjourned games in the store failed: %s", error)

    async def expire_periodically(self) -> None:
        """At start-up, then every :data:`EXPIRY_INTERVAL` seconds, end the adjourned games
        past ``adjourn_expiry_days`` (:meth:`expire_adjourned`; read at every round, since a
        reload may change it). A task of its own: ending thousands of games after a long
        stop must not hold up the sweep of connections."""
        while True:
            try:
                await self.expire_adjourned()
            except OSError as error:
                log.error("ending expired adjourned games failed: %s", error)
            await trio.sleep(EXPIRY_INTERVAL)

    async def expire_adjourned(self) -> tuple[str, ...]:
        """End as abandoned every adjourned game that nothing moved, resumed or adjourned for
        ``adjourn_expiry_days`` days by the store's clock (issue 16 item 3, RULINGS H14: no
        winner, its record kept under the retention rule); the ids ended. A game loaded now
        (a seat resumed it) is never ended, and each one is ended in the game's order
        (:meth:`Pipeline.sequenced`), so a ``resume`` racing with its end either keeps it
        going or finds it over. Nothing is done with an expiry of 0, or with a store that
        adjourns no game (it finds none expired).

        Raises:
            OSError: the store failed reading the expired games.
        """
        store = self.store
        ended: list[str] = []

        async def end(stored: StoredGame, last_active: float) -> None:
            prepare = functools.partial(self.lobby.expire, stored, last_active)
            result = await self.pipeline.sequenced((stored.game_id,), prepare, None)
            if result.store_calls and result.pending is None:  # stored, then committed
                ended.append(stored.game_id)

        days = self.settings.adjourn_expiry_days
        while days > 0:
            found = await store.expired_games(days, EXPIRY_BATCH)
            before = len(ended)
            # All at once: their store calls then share the writer's commits (group commit).
            async with trio.open_nursery() as nursery:
                for stored, last_active in found:
                    if stored.game_id not in self.lobby.tables:
                        nursery.start_soon(end, stored, last_active)
            if len(found) < EXPIRY_BATCH or len(ended) == before:
                break
            days = self.settings.adjourn_expiry_days
        if ended:
            log.info("%d adjourned games ended as abandoned (expiry %g days)", len(ended), days)
        return tuple(ended)

    def reload_uncertain(self) -> None:
        """Unload the games whose store calls the store's dead writer had (their outcome is
        known to the database only, which is the truth): the next ``resume`` of a seat loads
        each from the store as it is (issue 16 item 4). A game with a request in progress
        waits for a later sweep."""
        uncertain, self._uncertain = self._uncertain | self.store.take_uncertain(), set()
        for game_id in uncertain:
            table = self.lobby.tables.get(game_id)
            if table is None:
                continue
            if self.pipeline.sequencer.busy(game_id):
                self._uncertain.add(game_id)  # a later sweep
                continue
            followers = table.followers()
            self.lobby.adjourn(game_id)
            self.engines.stop_game(game_id, "adjourned")
            if self.on_unload is not None:
                self.on_unload(game_id, followers)
            log.warning(
                "game %s unloaded: the store holds its truth (its writer died during one of "
                "its calls, or another daemon owns it now); a seat's resume loads it again as "
                "the store has it",
                game_id,
            )

    def _adjourn_timeout(self, settings: Settings) -> float:
        """The adjourn timeout in force: 0 (never) unless the store is durable."""
        return settings.adjourn_timeout if self.store.durable else 0.0

    def _close_idle(self, now: float, timeout: float) -> None:
        """Close the connections that sent nothing for ``timeout`` seconds and follow no game
        in progress."""
        for conn in list(self.connections.values()):
            if conn.busy:
                continue
            session = conn.session
            if (
                now - conn.last_input >= timeout
                and self.lobby.is_idle(session)
                and not self.pipeline.follows_elsewhere(session)
            ):
                conn.timed_out = True
                conn.cancel_scope.cancel()

    def _close_slow_lines(self, now: float, timeout: float) -> None:
        """Close, with ``? limit``, the connections holding the start of a request line whose
        first byte came ``timeout`` seconds ago or more: a client that trickles a line out
        byte by byte must not keep its connection slot for ever (issue 16 item 1)."""
        for conn in list(self.connections.values()):
            started = conn.line_started
            if started is not None and now - started >= timeout and not conn.busy:
                if self.pipeline.metrics is not None:
                    self.pipeline.metrics.refused("request-timeout")
                message = f"request line not completed within {timeout:g} s (request-timeout)"
                conn.enqueue(fmt.failure(None, conn.session.mode, ErrorCode.LIMIT, message))
                conn.flush()
                conn.closed_because = "request timeout"
                conn.cancel_scope.cancel()
