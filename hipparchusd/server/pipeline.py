"""From a request line to the bytes queued for every connection concerned
(:class:`Pipeline`): parse, take the request's place in its games' order (:class:`Sequencer`),
let the lobby prepare it, fetch from the store what the result needs (:data:`StoreNeed`), await
its store commands, commit it, queue the response, then the events.

A ``play`` is answered only once it is durable (a store that keeps nothing is not called), and
the result's change is committed only once the store has recorded it. The pipeline knows no
command: what a request does, and what it asks of the store, is the lobby's result.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Sequence
from time import perf_counter
from typing import TYPE_CHECKING, Protocol

import trio

from ..games.base import Outcome
from ..lobby import (
    EventMessage,
    Lobby,
    NeedsStoredGame,
    NeedsStoredToken,
    Response,
    Result,
    Session,
)
from ..lobby.results import NeedsSearch
from ..protocol import ErrorCode, LineError, Mode, ProtocolError, Request, parse_request
from ..protocol import formatting as fmt
from ..records import StoreCommand, StoredGame
from ..store.base import GameStore, StoreUnreachable
from .connection import Connection
from .engines import Engines
from .sequencer import Sequencer
from .storage import describe, execute
from .timers import Timers
from .workers import EngineError

if TYPE_CHECKING:
    from ..metrics import Metrics  # (loaded by a server that serves metrics only)

log = logging.getLogger("hipparchusd.server")

#: The ``internal`` messages for a change the store refused, and for one it stopped answering
#: about (:class:`~hipparchusd.store.base.StoreUnreachable`). This server has not made the
#: change in either case; in the second, the store may have kept it, and a restart then brings
#: it back (PROTOCOL.md section 3).
STORE_FAILED = "the game store failed; nothing was changed"
#: The ``internal`` message of a search that failed (its worker died or missed a deadline, or
#: the engine refused the view): the search changed nothing, and the request neither.
ENGINE_FAILED = "the engine failed (see the server log); nothing was changed"
STORE_UNREACHABLE = (
    "the game store stopped answering; nothing was changed here, but the store may have kept "
    "the change, and a restart would bring it back"
)


class Router(Protocol):
    """Where a server that shares its store with other daemons sends the requests for games
    another daemon holds (issue 28: :mod:`.cluster.forwarding`); a server alone has none."""

    async def route(self, conn: Connection, request: Request, line: str) -> bool | None:
        """Answer ``request`` (read as ``line``) through the daemon that holds its game:
        whether the connection must then close; or ``None`` when it is to be carried out
        here (its game is here, or was brought here just now, or it names none)."""
        ...

    def after_local(self, session: Session) -> None:
        """``session``'s request was carried out here (its output mode may have changed)."""
        ...

    def left(self, session: Session) -> None:
        """``session`` closed: the daemons holding games for it let it go."""
        ...

    def follows_elsewhere(self, session: Session) -> bool:
        """Whether ``session`` follows a game another daemon holds."""
        ...


class Pipeline:
    """Carries out the requests and the lobby's other results (a connection gone, games
    dropped) of one server, in each game's order.

    Args:
        lobby: the games and connections.
        store: where changes are recorded; one that is not ``durable`` is not called for
            them (it would keep nothing), though it is still asked for stored games.
        connections: the open connections by session id, which events are queued for.

    :attr:`engines` carries out the searches results ask for; none (a search request answers
    ``internal``) until whoever built both sets it, since :class:`~.engines.Engines` plays its
    moves with this pipeline's :meth:`sequenced` and reports with its :meth:`send`.
    """

    def __init__(
        self,
        lobby: Lobby,
        store: GameStore,
        connections: dict[int, Connection],
    ) -> None:
        self.lobby = lobby
        self.store = store
        #: ``store.durable``, read once: a store's durability is fixed by its kind (the
        #: lobby's snapshots were chosen by it too, :meth:`Lobby.for_settings`).
        self.durable = store.durable
        self.connections = connections
        self.engines: Engines | None = None
        #: Where requests for games other daemons hold go (issue 28); none for a server alone.
        self.router: Router | None = None
        #: Where each game's next deadline is kept (its clocks, an absent seat: issue 27),
        #: set again from the lobby whenever a result on the game is carried out; none until
        #: whoever built both sets it.
        self.timers: Timers | None = None
        self.sequencer = Sequencer()
        #: The figures the answers are counted in (:mod:`hipparchusd.metrics`), if any: set by
        #: the server when it serves metrics.
        self.metrics: Metrics | None = None
        #: The connections with something queued since the last :meth:`flush`.
        self.dirty: list[Connection] = []

    # -- requests ---------------------------------------------------------------------------

    async def answer(self, conn: Connection, item: str | LineError) -> bool:
        """Answer one line from ``conn``; True if the connection must close after the
        answer. What it queues waits for the caller's :meth:`flush`. With :attr:`metrics`,
        the answer's latency and error code are counted."""
        session = conn.session
        metrics = self.metrics
        if isinstance(item, LineError):
            log.debug("connection %d: %s: %s", session.id, item.code, item.message)
            conn.enqueue(fmt.failure(None, session.mode, item.code, item.message))
            if metrics is not None:
                metrics.failed(item.code)
                if item.code is ErrorCode.LINE_TOO_LONG:
                    metrics.refused("max-line-bytes")
            return False
        try:
            request = parse_request(item)
        except ProtocolError as error:
            log.debug("connection %d: %s: %s", session.id, error.code, error.message)
            conn.enqueue(fmt.failure(error.request_id, session.mode, error.code, error.message))
            if metrics is not None:
                metrics.failed(error.code)
            return False
        if request is None:
            return False
        if metrics is None:
            return (await self._answer(conn, request, item)).close
        started = perf_counter()
        result = await self._answer(conn, request, item)
        response = result.response
        refusal = None if response is None else response.error
        if refusal is None:
            metrics.answered(request.command, perf_counter() - started, None, None)
        else:
            metrics.answered(request.command, perf_counter() - started, refusal.code, refusal.limit)
        return result.close

    async def _answer(self, conn: Connection, request: Request, line: str) -> Result:
        """Answer ``request`` (read as ``line``) from ``conn`` (see :meth:`answer`): the
        result answered (its response what ``conn`` was sent; ``None`` when another daemon
        answered it, issue 28)."""
        session = conn.session
        engines = self.engines
        if engines is not None and session.id in engines.streaming_sessions:
            # Any request ends the connection's analysis (PROTOCOL.md section 9): its final
            # events come before this request's answer.
            await engines.end_stream(session.id)
        router = self.router
        if router is not None:
            try:
                routed = await router.route(conn, request, line)
            except Exception:
                log.exception("connection %d: routing %s failed", session.id, request.command)
                message = f"{request.command} failed; see the server log"
                failure = Response.failed(ProtocolError(ErrorCode.INTERNAL, message, request.id))
                conn.enqueue(failure.encode(session.mode))
                return Result(failure)
            if routed is not None:
                return Result(close=routed)
        try:
            lobby = self.lobby
            # The moment the request came, which the games' clocks read: a request that waits
            # behind others on its game is not charged for the wait (issue 27).
            now = trio.current_time()
            games = lobby.games_of(session, request)
            if self.sequencer.idle(games):
                # No earlier request on these games is still in progress: nothing to wait for.
                result = lobby.prepare(session, request, now)
                if result.engine and engines is not None:
                    result = engines.admit(result)
                needs = result.needs
                if needs is None and not self._commands(result):
                    # It awaits nothing, so no other task runs before its events are queued:
                    # it needs no place in the games' order.
                    result.commit()
                    self._deliver(result, conn)
                elif isinstance(needs, NeedsSearch):
                    result = await self._search(result, needs, conn, request)
                else:
                    result = await self._complete_holding(result, games, conn, request)
            else:
                prepare = functools.partial(lobby.prepare, session, request, now)
                result = await self.sequenced(games, prepare, conn, request)
        except Exception:
            log.exception("connection %d: %s failed", session.id, request.command)
            message = f"{request.command} failed; see the server log"
            failure = Response.failed(ProtocolError(ErrorCode.INTERNAL, message, request.id))
            conn.enqueue(failure.encode(session.mode))
            return Result(failure)
        if router is not None:
            router.after_local(session)
        return result

    async def sequenced(
        self,
        games: Sequence[str],
        prepare: Callable[[], Result],
        conn: Connection | None = None,
        request: Request | None = None,
    ) -> Result:
        """Wait for the earlier requests on ``games``, then ``prepare`` a result and carry it
        out (for ``conn``, if it answers ``request``) before the next request on them starts.
        A game the result creates or brings back is held too, for the requests that name it
        next."""
        sequencer = self.sequencer
        waits, done = sequencer.ticket(games)
        try:
            for ticket in waits:
                await ticket.wait()
            return await self._complete(prepare(), games, conn, request)
        finally:
            sequencer.release(games, done)

    async def _complete_holding(
        self, result: Result, games: Sequence[str], conn: Connection, request: Request
    ) -> Result:
        """Complete ``result``, which awaits the store and was prepared just now with no
        request in progress on ``games`` (and no checkpoint since): it takes its place in the
        order of ``games`` and of any game it creates, as :meth:`sequenced` would have before
        preparing it. Nobody can have taken one since the check."""
        held = (*games, *(g for g in result.games if g not in games))
        waits, done = self.sequencer.ticket(held)
        assert not waits, "a request was sequenced between the check and the ticket"
        try:
            return await self._complete(result, held, conn, request)
        finally:
            self.sequencer.release(held, done)

    async def _complete(
        self,
        result: Result,
        games: Sequence[str],
        conn: Connection | None,
        request: Request | None,
    ) -> Result:
        """Fetch what ``result`` needs from the store, if anything (the result then becomes
        the one the need gives back), and carry it out, holding ``games`` and the games it
        touches besides; the result carried out."""
        if result.needs is not None and request is not None:
            result = await self._fulfil(result, request)
        # Most results touch exactly the games they were sequenced on: no list to make.
        touched = result.games
        created = [] if touched == games else [g for g in touched if g not in games]
        if not created:
            await self.carry_out(result, conn)
            return result
        waits, created_done = self.sequencer.ticket(created)
        try:
            for ticket in waits:
                await ticket.wait()
            await self.carry_out(result, conn)
        finally:
            self.sequencer.release(created, created_done)
        return result

    # -- what results need from the engine --------------------------------------------------

    async def _search(
        self, result: Result, need: NeedsSearch, conn: Connection, request: Request
    ) -> Result:
        """Run the search ``need`` asks for (``genmove``), holding no game meanwhile (the
        caller's connection waits for its answer, the game's other requests do not), then
        carry out the answer it gives back in the game's order; ``limit`` when too many
        searches run, ``internal`` when the engine fails (:data:`ENGINE_FAILED`)."""
        engines = self.engines
        failure: Result | None = None
        analysis = None
        if engines is None:
            error = ProtocolError(ErrorCode.INTERNAL, "this server runs no engine", request.id)
            failure = Result(Response.failed(error))
        else:
            try:
                analysis = await engines.genmove(need.kind, need.view, need.level, conn.session)
            except ProtocolError as refusal:
                refusal.request_id = request.id
                failure = Result(Response.failed(refusal))
            except EngineError as problem:
                log.error("game %s: genmove failed: %s", need.game_id, problem)
                log.debug("game %s: %s", need.game_id, problem.detail)
                failure = Result(
                    Response.failed(ProtocolError(ErrorCode.INTERNAL, ENGINE_FAILED, request.id))
                )
        if failure is not None or analysis is None:
            assert failure is not None
            await self.carry_out(failure, conn)
            return failure
        found = analysis

        def answer() -> Result:
            # The move's time runs to when it is carried out, its search included.
            return need.answer(found, trio.current_time())

        return await self.sequenced((need.game_id,), answer, conn, request)

    # -- what results need from the store ---------------------------------------------------

    async def _fulfil(self, result: Result, request: Request) -> Result:
        """The result to carry out in place of ``result``, which needs a game only the store
        holds: the one its need gives back once the store has the game, else ``result``."""
        match result.needs:
            case NeedsStoredGame(game_id, answer):
                try:
                    stored = await self.store.load_finished(game_id)
                except OSError as error:
                    log.error("store load_finished failed: %s", error)
                    return result
                return result if stored is None else answer(stored)
            case NeedsStoredToken(token_hash, retry):
                return await self._bring_back(result, request, token_hash, retry)
            case NeedsSearch() | None:
                # A search is run before the result is sequenced (:meth:`answer`).
                return result

    async def _bring_back(
        self, result: Result, request: Request, token_hash: bytes, retry: Callable[[], Result]
    ) -> Result:
        """``retry()`` once the game the store keeps with a seat whose token digest is
        ``token_hash`` (an adjourned one) is loaded again (:meth:`Lobby.bring_back`), or
        ``result`` when the store has no such game. Refused with ``limit`` when ``max_games``
        are loaded, or ``internal`` when the game cannot be restored; nothing changes then.

        While the game is loaded and what its restore decided is stored, it is held in the
        :class:`Sequencer` (no other request on it, and no sweep, comes in between); a
        concurrent request for the same game waits, then finds it loaded.
        """
        stored = await self._find_by_token(token_hash)
        if stored is None:
            return result
        game_id = stored.game_id
        waits, done = self.sequencer.ticket((game_id,))
        try:
            if waits:
                for ticket in waits:
                    await ticket.wait()
                # Another request had the game meanwhile: what the store holds may differ.
                stored = await self._find_by_token(token_hash)
                if stored is None or stored.game_id != game_id:
                    return result
            if game_id not in self.lobby.tables:
                try:
                    await self.load(stored)
                except ProtocolError as error:
                    error.request_id = request.id
                    return Result(Response.failed(error))
                except ValueError as error:
                    log.error("cannot restore game %s: %s", game_id, error)
                    message = "the game cannot be restored; see the server log"
                    failure = ProtocolError(ErrorCode.INTERNAL, message, request.id)
                    return Result(Response.failed(failure))
                except OSError as error:
                    log.error("store failed restoring game %s: %r", game_id, error)
                    self.lobby.adjourn(game_id)
                    failure = ProtocolError(ErrorCode.INTERNAL, STORE_FAILED, request.id)
                    return Result(Response.failed(failure))
            return retry()
        finally:
            self.sequencer.release((game_id,), done)

    def follows_elsewhere(self, session: Session) -> bool:
        """Whether ``session`` follows a game another daemon holds (issue 28): it is not idle,
        though this lobby sees it follow nothing."""
        return self.router is not None and self.router.follows_elsewhere(session)

    async def load_held(self, stored: StoredGame) -> None:
        """Load the game ``stored`` (one the store just gave this daemon: it claimed it, issue
        28) in the game's order, unless a request loaded it meanwhile; as :meth:`load`.

        Raises:
            ProtocolError: ``limit`` (nothing changed).
            ValueError: the game cannot be restored (nothing changed).
            OSError: the store failed; the game is loaded.
        """
        game_id = stored.game_id
        waits, done = self.sequencer.ticket((game_id,))
        try:
            for ticket in waits:
                await ticket.wait()
            if game_id not in self.lobby.tables:
                await self.load(stored)
        finally:
            self.sequencer.release((game_id,), done)

    async def load(self, stored: StoredGame) -> None:
        """Load the adjourned game ``stored`` into the lobby again and store what its restore
        decided (:meth:`Lobby.restored_commands`).

        Raises:
            ProtocolError: ``limit``, the lobby holds ``max_games`` games (nothing changed).
            ValueError: the game cannot be restored (nothing changed).
            OSError: the store failed; the game is loaded.
        """
        table = self.lobby.bring_back(stored, trio.current_time())
        for command in self.lobby.restored_commands(table, stored):
            await execute(self.store, command)
        if self.engines is not None:
            self.engines.submit(list(self.lobby.bot_turns(table.id)))

    async def _find_by_token(self, token_hash: bytes) -> StoredGame | None:
        """``GameStore.find_by_token``; ``None`` (logged) when the store fails."""
        try:
            return await self.store.find_by_token(token_hash)
        except OSError as error:
            log.error("store find_by_token failed: %s", error)
            return None

    # -- carrying out -----------------------------------------------------------------------

    async def carry_out(self, result: Result, conn: Connection | None) -> None:
        """Await ``result``'s first store command, which records its change, then commit the
        change, await the other store commands, and queue the response for ``conn`` and the
        events for their recipients. If the first command fails, nothing changes: ``conn``
        gets ``internal`` and nobody gets an event. A result with no change pending made it
        already (:class:`~hipparchusd.lobby.Result`): each of its commands that fails is
        logged, and the response and events go out all the same.

        A store call must be atomic under cancellation (recorded in full, or not at all and
        ``Cancelled`` raised), as the stores are: so a change the store recorded is always
        committed (no checkpoint between the call's return and the commit), and once committed
        its response and events are always queued, even if a later store call is cancelled.
        """
        commands = self._commands(result)
        try:
            if commands and result.pending is not None:
                first, commands = commands[0], commands[1:]
                try:
                    await self._store(first)
                except Exception as error:
                    log.error("store %s failed: %r", describe(first), error, exc_info=error)
                    if result.response is not None:
                        unreachable = isinstance(error, StoreUnreachable)
                        message = STORE_UNREACHABLE if unreachable else STORE_FAILED
                        failure = ProtocolError(
                            ErrorCode.INTERNAL, message, result.response.request_id
                        )
                        result.response = Response.failed(failure)
                        if conn is not None:
                            conn.enqueue(result.response.encode(conn.session.mode))
                    return
            result.commit()
            try:
                for command in commands:
                    try:
                        await self._store(command)
                    except Exception as error:
                        # The change is made (and recorded, if it was pending): after a
                        # failed snapshot the store replays the moves after the earlier one.
                        log.error("store %s failed: %r", describe(command), error, exc_info=error)
            finally:
                self._deliver(result, conn)
        finally:
            self.flush()

    async def _store(self, command: StoreCommand) -> None:
        """Carry out the store ``command``, timed when there are :attr:`metrics`.

        Raises:
            OSError: as :func:`~.storage.execute`.
        """
        metrics = self.metrics
        if metrics is None:
            await execute(self.store, command)
            return
        started = perf_counter()
        try:
            await execute(self.store, command)
        finally:
            metrics.stored(command.call, perf_counter() - started)

    def _outcome(self, game_id: str) -> tuple[str, Outcome | None] | None:
        """The kind and outcome of the loaded game ``game_id`` (for :attr:`metrics`)."""
        table = self.lobby.tables.get(game_id)
        return None if table is None else (table.kind.name, table.outcome)

    def _commands(self, result: Result) -> list[StoreCommand]:
        """The store commands to carry out for ``result``: none for a store that is not
        durable, which would keep nothing of them."""
        return result.store_calls if self.durable else []

    def _deliver(self, result: Result, conn: Connection | None) -> None:
        """Queue the response of a carried-out ``result`` for ``conn`` and its events for their
        recipients (:meth:`flush` sends them)."""
        if conn is not None and result.response is not None:
            conn.enqueue(result.response.encode(conn.session.mode))
        if self.metrics is not None and result.store_calls:
            self.metrics.carried_out(result.store_calls, self._outcome)
        if result.engine and self.engines is not None:
            self.engines.submit(result.engine)
        timers = self.timers
        if timers is not None and result.games:
            deadline = self.lobby.deadline
            for game_id in result.games:
                timers.set(game_id, deadline(game_id))
        if result.deliveries:
            try:
                self.dispatch(result)
            except Exception:
                log.exception("delivering events failed")

    def dispatch(self, result: Result) -> None:
        """Queue the events of ``result`` for their recipients' connections.

        A move's events mostly go to the same recipients one after another (the lobby
        addresses a game's public events to one tuple of followers): such a run is queued
        for each connection as one piece, its bytes joined once per output mode, rather than
        event by event and recipient by recipient. Each connection still gets its events in
        order, each counted as one message (:meth:`Connection.enqueue`).
        """
        connections = self.connections
        deliveries = result.deliveries
        end = len(deliveries)
        start = 0
        while start < end:
            sessions = deliveries[start].sessions
            stop = start + 1
            while stop < end and deliveries[stop].sessions is sessions:
                stop += 1
            run, count = deliveries[start:stop], stop - start
            start = stop
            encoded: dict[Mode, bytes] = {}
            for session in sessions:
                target = connections.get(session.id)
                if target is not None:
                    mode = session.mode
                    data = encoded.get(mode)
                    if data is None:
                        data = b"".join([delivery.message.encode(mode) for delivery in run])
                        encoded[mode] = data
                    target.enqueue(data, count)

    def flush(self) -> None:
        """Send what the last result queued, one write per connection."""
        dirty = self.dirty
        for conn in dirty:
            conn.flush()
        dirty.clear()

    def send(self, session: Session, messages: Sequence[EventMessage]) -> None:
        """Queue ``messages`` for ``session``'s connection, if it is still open, and send them
        (events outside any request's result: an ``analyze`` stream's reports)."""
        conn = self.connections.get(session.id)
        if conn is None:
            return
        mode = session.mode
        for message in messages:
            conn.enqueue(message.encode(mode))
        self.flush()

    # -- connections ------------------------------------------------------------------------

    async def leave(self, session: Session) -> None:
        """Take ``session`` out of the lobby (``left`` or ``disconnected`` events), in the
        order of the games it follows, and out of the games other daemons hold for it."""
        if self.router is not None:
            self.router.left(session)
        if self.engines is not None:
            await self.engines.end_stream(session.id, "left")
        if session.id in self.lobby.sessions:
            games = self.lobby.session_games(session)
            now = trio.current_time()
            await self.sequenced(
                games, functools.partial(self.lobby.disconnect, session, now), None
            )
