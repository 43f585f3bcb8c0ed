"""The daemon's side of the PostgreSQL store (:class:`PostgresStore`): a
:class:`~hipparchusd.store.base.GameStore` that several daemons share, and this daemon's node in
it, its lease, and the games it owns (issue 28).

The writer. As SQLite's store does, this one never touches the database from the trio thread:
a child process (:mod:`.writer`, psycopg) holds the daemon's one connection and commits in
batches, and :class:`~hipparchusd.store.writer_link.WriterLink` carries the calls to it and
replaces it if it dies. Reads go through it too.

The node. At start the store registers its node (``--node``) and gets an epoch; a task of its
nursery renews the node's lease every third of it, by the database's clock
(:func:`.nodes.renew`), and learns which nodes are live. The daemon owns the games it creates
and those it claims (:meth:`locate`, :meth:`claim_orphans`, at start-up
:meth:`startup_games`); for each it keeps the fence of its claim, which every write names
(:mod:`.fencing`). A write the database refuses (another node claimed the game, or the lease
lapsed) fails with :class:`~hipparchusd.store.base.GameNotOwned` and the game is given up: its
fence forgotten and its id handed to :meth:`take_uncertain`, so that the daemon unloads it.

The lease lost. When a renewal finds the lease over, or no renewal has succeeded for most of
the lease (the database unreachable), the node has lost every game: all fences are forgotten,
their games handed to :meth:`take_uncertain`, :meth:`wait_lease_lost` returns, and the store
registers the node again (a new epoch), retrying until the database answers.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import time
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any, Final, Literal

import attrs
import trio

from ...jsondata import JSON
from ...records import StoredGame, StoredSeat
from ...wording import counted
from ..base import GameNotOwned, StartupGames, StoreError
from ..codec import dump, dump_options
from ..retention import Retention
from ..rows import stored_game
from ..spawn import Writer
from ..startup import running
from ..writer_link import LinkedStore, WriterLink
from .launch import start_writer
from .url import describe

#: Of a lease, the part after the last renewal sent within which the node still counts itself
#: live: below 1, so that it gives its games up before any other node may claim them.
LEASE_MARGIN: Final = 0.8
_DAY: Final = 86400.0

log = logging.getLogger("hipparchusd.store")


@attrs.frozen
class Location:
    """Where a game is, as :meth:`PostgresStore.locate` found it.

    ``state``: ``none`` (no such game), ``finished`` (``game`` is it, its record in the
    snapshot's place), ``owned`` (another live node, ``owner``, owns it), ``claimed`` (this node
    owns it now: ``game`` is it, to load). ``game_id`` names it, unless there is none.
    """

    state: Literal["none", "finished", "owned", "claimed"]
    owner: str | None = None
    game: StoredGame | None = None
    game_id: str | None = None


class PostgresStore(LinkedStore):
    """The shared, durable :class:`~hipparchusd.store.base.GameStore` in PostgreSQL, and this
    daemon's node in it (see the module). Open one with
    ``async with PostgresStore.open(url, node=...) as store:``.

    ``node`` is this daemon's name, ``epoch`` its registration's number, ``live_nodes`` the
    nodes whose leases were live at the last renewal (name to epoch), ``where`` the database
    as messages name it (no password).
    """

    durable = True

    def __init__(
        self,
        *,
        url: str,
        writer: Writer,
        node: str,
        lease: float,
        retention_days: float,
        clock: Callable[[], float],
        max_pending: int,
    ) -> None:
        """Use :meth:`open`."""
        self.where = describe(url)
        self.node = node
        self.lease = lease
        self.epoch = 0
        self.live_nodes: dict[str, int] = {}
        self.retention_days = retention_days
        self._retention = Retention(retention_days, clock)
        self._clock = clock
        self._link = WriterLink(
            writer, start=lambda: start_writer(url, node), where=self.where, max_pending=max_pending
        )
        #: The fence of each game this node owns (created or claimed), which its writes name.
        self._fences: dict[str, int] = {}
        #: Games given up (the lease lost) since the last :meth:`take_uncertain`.
        self._given_up: set[str] = set()
        #: Set (and replaced) each time the lease is lost; counted in ``lease_losses``.
        self._lease_lost = trio.Event()
        self.lease_losses = 0
        self._nodes_seen = trio.Event()
        #: When (trio's clock) the node stops counting itself live without another renewal.
        self._live_until = 0.0
        self._closed = False

    @property
    def owned(self) -> frozenset[str]:
        """The games this node owns now."""
        return frozenset(self._fences)

    def owns(self, game_id: str) -> bool:
        """Whether this node owns ``game_id`` now (as far as it knows: the database has the
        last word at each write)."""
        return game_id in self._fences

    @classmethod
    @contextlib.asynccontextmanager
    async def open(
        cls,
        url: str,
        *,
        node: str,
        lease: float = 10.0,
        retention_days: float = 0,
        clock: Callable[[], float] = time.time,
        max_pending: int = 4096,
    ) -> AsyncIterator[PostgresStore]:
        """Start the writer on ``url`` (it checks and migrates the layout), register ``node``
        with a lease of ``lease`` seconds, keep the lease renewed in a task, and prune the
        finished games past ``retention_days`` (0: kept forever). The node is retired when the
        block ends (:meth:`aclose`).

        Raises:
            StoreError: the database cannot be reached or used (the message says why and names
                it), or another live daemon holds the name ``node``.
            ValueError: a negative ``retention_days``, a ``lease`` under 1 s or a
                ``max_pending`` below 1.
        """
        if retention_days < 0:
            raise ValueError(f"retention must be 0 (forever) or more days, not {retention_days}")
        if lease < 1:
            raise ValueError(f"a node's lease must be 1 s or more, not {lease}")
        if max_pending < 1:
            raise ValueError(f"max_pending must be at least 1, not {max_pending}")
        writer = await start_writer(url, node)
        store = cls(
            url=url,
            writer=writer,
            node=node,
            lease=lease,
            retention_days=retention_days,
            clock=clock,
            max_pending=max_pending,
        )
        try:
            async with trio.open_nursery() as nursery:
                store._link.start(nursery)
                try:
                    await store._register(wait=True)
                    await store.refresh_nodes()
                    nursery.start_soon(store._keep_lease, name="hipparchusd-store-lease")
                    pruned = await store._prune()
                    log.info(
                        "store %s open as node %s (epoch %d, lease %g s; PostgreSQL %s, "
                        "synchronous_commit %s; writer pid %d); %s pruned",
                        store.where,
                        node,
                        store.epoch,
                        lease,
                        store.settings.get("server_version"),
                        store.settings.get("synchronous_commit"),
                        store.writer_pid,
                        counted(pruned, "finished game"),
                    )
                    yield store
                finally:
                    await store.aclose()
                    nursery.cancel_scope.cancel()
        except BaseExceptionGroup as group:
            if len(group.exceptions) == 1:
                raise group.exceptions[0] from None
            raise

    # -- the node ---------------------------------------------------------------------------

    async def _register(self, *, wait: bool) -> None:
        """Register the node (a new epoch). Another process holding the name with a live lease
        is waited for when it is this host's and gone (a daemon just killed, restarting), or
        for one lease when ``wait``; then refused.

        Raises:
            StoreError: the name is another live daemon's, or the call failed.
        """
        deadline = trio.current_time() + (self.lease + 1 if wait else 0)
        host = socket.gethostname()
        while True:
            sent = trio.current_time()
            status, found = await self._link.call(
                "register_node", (self.node, self.lease, os.getpid(), host, False)
            )
            if status == "ok":
                break
            pid, holder, left = found
            if holder == host and not running(pid):
                status, found = await self._link.call(
                    "register_node", (self.node, self.lease, os.getpid(), host, True)
                )
                break
            if trio.current_time() + min(left, 0.5) > deadline:
                raise StoreError(
                    f"node {self.node} is in use by another hipparchusd (pid {pid} on {holder}) "
                    f"in {self.where}; give each daemon its own --node"
                )
            await trio.sleep(min(left, 0.5))
        self.epoch = int(found)
        self._live_until = sent + self.lease * LEASE_MARGIN

    async def _keep_lease(self) -> None:
        """Renew the lease every third of it until cancelled; when it is lost, give up every
        game (see the module) and register again."""
        while True:
            await trio.sleep(self.lease / 3)
            if self._closed:
                return
            sent = trio.current_time()
            try:
                renewed, live = await self._link.call("renew", (self.node, self.epoch, self.lease))
            except StoreError as error:
                if trio.current_time() < self._live_until:
                    log.warning("store %s: renewing the lease failed: %s", self.where, error)
                    continue
                renewed, live = False, None
            if renewed:
                self._live_until = sent + self.lease * LEASE_MARGIN
                self._see_nodes(dict(live))
                continue
            self._give_up_all()
            while not self._closed:
                try:
                    await self._register(wait=False)
                except StoreError as error:
                    log.warning("store %s: registering node %s again failed: %s", self.where,
                                self.node, error)  # fmt: skip
                    await trio.sleep(self.lease / 3)
                    continue
                log.warning(
                    "store %s: node %s registered again (epoch %d)", self.where, self.node,
                    self.epoch,
                )  # fmt: skip
                break

    async def refresh_nodes(self) -> None:
        """Renew the lease now, and so learn the live nodes (:attr:`live_nodes`): at start,
        and when the store names an owner not yet seen live (a daemon started since the last
        renewal). A lapsed lease is left to the renewing task.

        Raises:
            StoreError: the call failed.
        """
        sent = trio.current_time()
        renewed, live = await self._link.call("renew", (self.node, self.epoch, self.lease))
        if renewed:
            self._live_until = sent + self.lease * LEASE_MARGIN
            self._see_nodes(dict(live))

    def _see_nodes(self, live: dict[str, int]) -> None:
        if live != self.live_nodes:
            self.live_nodes = live
            self._nodes_seen.set()
            self._nodes_seen = trio.Event()

    def _give_up_all(self) -> None:
        """The lease is lost: every owned game is given up (see the module)."""
        log.error(
            "store %s: the lease of node %s (epoch %d) lapsed: giving up its %s",
            self.where,
            self.node,
            self.epoch,
            counted(len(self._fences), "game"),
        )
        self._given_up |= set(self._fences)
        self._fences.clear()
        self.lease_losses += 1
        self._lease_lost.set()
        self._lease_lost = trio.Event()

    async def wait_lease_lost(self) -> None:
        """Return the next time the node's lease is lost (see the module)."""
        await self._lease_lost.wait()

    async def wait_nodes_changed(self) -> dict[str, int]:
        """Return the live nodes once they differ from those :attr:`live_nodes` held."""
        await self._nodes_seen.wait()
        return self.live_nodes

    def _fence(self, game_id: str) -> int:
        """The fence of ``game_id``, which this node owns.

        Raises:
            GameNotOwned: it owns no such game (nothing is sent).
        """
        fence = self._fences.get(game_id)
        if fence is None:
            raise GameNotOwned(f"node {self.node} does not own game {game_id}; nothing was stored")
        return fence

    async def _write(self, operation: str, arguments: tuple[Any, ...]) -> Any:
        """A fenced write of the game ``arguments[0]``: given up if the database says it is no
        longer this node's."""
        try:
            return await self._link.call(operation, arguments)
        except GameNotOwned:
            self._fences.pop(arguments[0], None)
            raise

    def _claimed(self, claimed: tuple[Any, int]) -> StoredGame:
        rows, fence = claimed
        game = stored_game(rows, finished=False, where=self.where)
        self._fences[game.game_id] = fence
        return game

    async def reserve_game_numbers(self, count: int) -> tuple[int, int]:
        """Reserve ``count`` game numbers for this node: the first and the last.

        Raises:
            StoreError: the call failed.
        """
        first: int = await self._link.call("reserve_ids", (count,))
        return first, first + count - 1

    async def locate(self, game_id: str) -> Location:
        """Where game ``game_id`` is (:class:`Location`), claiming it for this node when it is
        unfinished and its owner is gone (none, or a node whose lease is over, or this node's
        earlier registration).

        Raises:
            StoreError: the call failed (``GameNotOwned``: this node's lease is over).
        """
        return self._location(await self._link.call("locate", (game_id, self.node, self.epoch)))

    async def locate_token(self, token_hash: bytes) -> Location:
        """:meth:`locate` of the game with a seat whose token digest is ``token_hash`` (an
        unfinished one first; one claimed so is marked active now: it is being resumed).

        Raises:
            StoreError: the call failed.
        """
        found = await self._link.call(
            "locate_token", (token_hash, self._clock(), self.node, self.epoch)
        )
        return self._location(found)

    def _location(self, found: tuple[str, Any]) -> Location:
        state, detail = found
        if state == "claimed":
            game = self._claimed(detail)
            return Location("claimed", self.node, game, game.game_id)
        if state == "finished":
            game = stored_game(detail, finished=True, where=self.where)
            return Location("finished", None, game, game.game_id)
        if state == "owned":
            owner, game_id = detail
            return Location("owned", str(owner), None, str(game_id))
        return Location("none")

    async def claim_orphans(self, limit: int) -> list[StoredGame]:
        """Claim up to ``limit`` started, unfinished games whose owner is gone and whose every
        seat the engine plays (nobody would resume them), to play them on here.

        Raises:
            StoreError: the call failed.
        """
        found = await self._link.call("orphans", (limit, self.node, self.epoch))
        return [self._claimed(claimed) for claimed in found]

    async def release(self, game_ids: Sequence[str]) -> None:
        """Give up the games ``game_ids`` (unloaded here): the next node that needs one claims
        it at once.

        Raises:
            StoreError: the call failed (the games stay this node's until its lease ends).
        """
        ids = [game_id for game_id in game_ids if self._fences.pop(game_id, None) is not None]
        if ids:
            await self._link.call("release", (ids, self.node, self.epoch))

    # -- the GameStore interface --------------------------------------------------------------

    async def load_unfinished(self) -> list[StoredGame]:
        """Every game not yet finished that this node owns now, oldest first (the others are
        claimed one by one, :meth:`locate`)."""
        found = await self._link.call("owned_games", (list(self._fences),))
        return [stored_game(rows, finished=False, where=self.where) for rows in found]

    async def create_game(
        self, game_id: str, kind: str, options: dict[str, str], created_at: float
    ) -> None:
        """Record a new game, owned by this node.

        Raises:
            StoreError: a game of that id is already stored, or the write failed
                (``GameNotOwned``: this node's lease is over).
        """
        text = dump_options(options)
        fence: int = await self._link.call(
            "create_game", (game_id, kind, text, created_at, self.node, self.epoch)
        )
        self._fences[game_id] = fence

    async def add_seat(self, game_id: str, seat: StoredSeat, snapshot: JSON = None) -> None:
        """As ``SqliteStore.add_seat``, fenced."""
        text = None if snapshot is None else dump("snapshot", snapshot)
        arguments = (game_id, seat.seat, seat.name, seat.token_hash, text, self._clock(), seat.bot)
        await self._write("add_seat", (*arguments, self.node, self.epoch, self._fence(game_id)))

    async def remove_seat(self, game_id: str, seat: int) -> None:
        """As ``SqliteStore.remove_seat``, fenced."""
        await self._write(
            "remove_seat", (game_id, seat, self.node, self.epoch, self._fence(game_id))
        )

    async def snapshot(self, game_id: str, snapshot: JSON) -> None:
        """As ``SqliteStore.snapshot``, fenced."""
        text = dump("snapshot", snapshot)
        owner = (self.node, self.epoch, self._fence(game_id))
        await self._write("snapshot", (game_id, text, self._clock(), *owner))

    async def add_move(
        self, game_id: str, seat: int, move: str, snapshot: JSON = None, timing: JSON = None
    ) -> None:
        """Record ``seat``'s move, with its ``timing`` if any (issue 27); return once the
        database has committed it (never with ``synchronous_commit`` off). Fenced: refused
        (``GameNotOwned``) unless this node owns the game and its lease is live when the move
        is written."""
        text = None if snapshot is None else dump("snapshot", snapshot)
        timed = None if timing is None else dump("timing", timing)
        owner = (self.node, self.epoch, self._fence(game_id))
        await self._write("add_move", (game_id, seat, move, text, self._clock(), *owner, timed))

    async def finish(self, game_id: str, record: JSON, timing: JSON = None) -> None:
        """As ``SqliteStore.finish``, fenced; the game has no owner from then on."""
        text = dump("record", record)
        timed = None if timing is None else dump("timing", timing)
        now = self._clock()
        owner = (self.node, self.epoch, self._fence(game_id))
        due = self._retention.due(now)
        await self._write("finish", (game_id, text, now, due, *owner, timed))
        self._fences.pop(game_id, None)

    async def abandon(self, game_id: str, record: JSON, last_active: float | None) -> None:
        """As ``SqliteStore.abandon``, of a game this node claimed (:meth:`expired_games`)."""
        text = dump("record", record)
        now = self._clock()
        owner = (self.node, self.epoch, self._fence(game_id))
        prune = self._retention.due(now)
        await self._write("abandon", (game_id, text, now, last_active, prune, *owner))
        self._fences.pop(game_id, None)

    async def end_game(self, game_id: str, record: JSON, reason: str, timing: JSON = None) -> None:
        """As ``SqliteStore.end_game`` (the operator's end, issue 26), fenced; the game has no
        owner from then on."""
        text = dump("record", record)
        timed = None if timing is None else dump("timing", timing)
        now = self._clock()
        owner = (self.node, self.epoch, self._fence(game_id))
        due = self._retention.due(now)
        await self._write("end_game", (game_id, text, now, reason, due, *owner, timed))
        self._fences.pop(game_id, None)

    async def drop_game(self, game_id: str) -> None:
        """As ``SqliteStore.drop_game``, fenced."""
        await self._write("drop_game", (game_id, self.node, self.epoch, self._fence(game_id)))
        self._fences.pop(game_id, None)

    async def load_finished(self, game_id: str) -> StoredGame | None:
        """As ``SqliteStore.load_finished``."""
        rows = await self._link.call("load_finished", (game_id,))
        return None if rows is None else stored_game(rows, finished=True, where=self.where)

    async def find_by_token(self, token_hash: bytes) -> StoredGame | None:
        """The game with a seat whose token digest is ``token_hash``, claimed for this node if
        unfinished (:meth:`locate_token`); ``None`` when there is none, or another live node
        owns it (the daemon forwards such a ``resume`` to it instead)."""
        location = await self.locate_token(token_hash)
        return location.game

    async def latest_game_id(self) -> str | None:
        """Always ``None``: the daemons sharing this store number their games from blocks
        (:meth:`reserve_game_numbers`), so no id is used twice."""
        return None

    async def startup_games(self) -> StartupGames:
        """The games this node owned before (under an earlier epoch) that a restart loads at
        once, claimed again: those waiting for players (as ``SqliteStore.startup_games``). The
        others stay in the database, claimed by the next node that needs them.

        Raises:
            StoreError: a stored game cannot be read, or the call failed.
        """
        found = await self._link.call("startup", (self.node, self.epoch))
        return StartupGames(loaded=tuple(self._claimed(claimed) for claimed in found))

    async def mark_adjourned(self, game_ids: Sequence[str]) -> None:
        """The daemon adjourned (unloaded) ``game_ids``: their expiry counts from now, and this
        node gives them up (:meth:`release`), so that any node may claim one at once."""
        await self._link.call("touch", (list(game_ids), self._clock()))
        await self.release(game_ids)

    async def expired_games(self, days: float, limit: int) -> list[tuple[StoredGame, float]]:
        """As ``SqliteStore.expired_games``; each game is claimed for this node, so that two
        nodes never end the same one.

        Raises:
            StoreError: a stored game cannot be read, or the call failed.
            ValueError: ``days`` not above 0.
        """
        if not days > 0:
            raise ValueError(f"an expiry must be more than 0 days, not {days}")
        before = self._clock() - days * _DAY
        found = await self._link.call("expired", (before, limit, self.node, self.epoch))
        return [(self._claimed(claimed), active) for claimed, active in found]

    def take_uncertain(self) -> set[str]:
        """The games whose calls' outcome only the database knows (the writer died, or lost
        its connection during COMMIT), that the database said are no longer this node's, or
        that the lost lease gave up, since the last call; the daemon unloads them."""
        games = self._link.take_uncertain() | self._given_up
        self._given_up = set()
        for game_id in games:
            self._fences.pop(game_id, None)
        return games

    async def wait_failed(self) -> str:
        """Return once the writer died and none would start again, saying so."""
        await self._link.failed.wait()
        return f"store {self.where}: its writer process died and could not be restarted"

    async def aclose(self) -> None:
        """Retire the node (its lease ended: other nodes may claim its games at once), let
        every call made so far commit, and stop the writer. Idempotent."""
        if self._closed:
            return
        self._closed = True
        with trio.CancelScope(shield=True):
            try:
                released = await self._link.call("retire", (self.node, self.epoch))
                log.info(
                    "store %s: node %s retired, its lease ended (%s it owned)",
                    self.where,
                    self.node,
                    counted(released, "game"),
                )
            except StoreError as error:
                log.warning("store %s: retiring node %s failed: %s", self.where, self.node, error)
            self._fences.clear()
            await self._link.aclose()
        log.info("store %s closed", self.where)

    async def _prune(self) -> int:
        """Delete finished games past retention now; how many."""
        before = self._retention.now()
        if before is None:
            return 0
        pruned: int = await self._link.call("prune", (before,))
        return pruned
