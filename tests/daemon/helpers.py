"""Shared helpers for the daemon tests (and the audit tests): fixed deals, game set-up, and
match records replayed through the rules."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import trio

from hipparchusd.games.hipparchus import MatchRecord, MatchState
from hipparchusd.games.hipparchus.notation import format_hand
from hipparchusd.server import Server, serve
from hipparchusd.settings import Settings
from hipparchusd.store.base import GameStore, MemoryStore
from hipparchusd.store.sqlite import SqliteStore

from .client import Client

StartServer = Callable[..., Awaitable[Server]]


async def open_sqlite(nursery: trio.Nursery, state_dir: Path, **options: Any) -> SqliteStore:
    """``SqliteStore.open(state_dir, **options)``, held open by a task of ``nursery`` until the
    store is closed (``aclose``, by the test or by the server that owns it)."""

    async def hold(task_status: trio.TaskStatus[SqliteStore]) -> None:
        async with SqliteStore.open(state_dir, **options) as store:
            task_status.started(store)
            await store.wait_closed()

    store: SqliteStore = await nursery.start(hold)
    return store


@contextlib.contextmanager
def server_starter(nursery: trio.Nursery, grace_period: float) -> Iterator[StartServer]:
    """Within the block, ``await start(store=None, **settings)`` starts a server in ``nursery``
    on 127.0.0.1 port 0 with ``grace_period`` seconds of shutdown grace (with a
    :class:`MemoryStore` unless ``store`` is given); every one started is shut down on leaving.
    For the ``start_server`` fixtures of tests/daemon and tests/audit.

    Its engine workers start on demand unless ``engine_start`` says otherwise: most tests
    never search, and a daemon that starts its workers with it (the default) spends a second
    of processor time on them; the engine's tests ask for the default."""
    servers: list[Server] = []

    async def start(store: GameStore | None = None, **options: Any) -> Server:
        defaults = {"port": 0, "grace_period": grace_period, "engine_start": "on-demand"}
        settings = Settings(**{**defaults, **options})
        server: Server = await nursery.start(serve, settings, store or MemoryStore())
        servers.append(server)
        return server

    try:
        yield start
    finally:
        for server in servers:
            server.shutdown()


#: A first-round deal with distinctive hands: seat 0 alternates Sun and Moon then holds four
#: Earths; seat 1 holds runs. Face down: Moon, Earth. 10 cards of each suit in all.
HAND0 = "SMSMSMSMSMEEEE"
HAND1 = "EEESSSSMMMMEES"
FACE_DOWN = "ME"
DEAL = f"{HAND0}/{HAND1}/{FACE_DOWN}"


async def new_game(creator: Client, options: str = f"leader=0 deal={DEAL}") -> str:
    """Create a game and return its id."""
    reply = await creator.ok(f"new hipparchus {options}")
    return reply.fields()["game"]


async def seated_game(a: Client, b: Client, options: str = f"leader=0 deal={DEAL}") -> str:
    """Create a game, seat ``a`` (seat 0) and ``b`` (seat 1); return its id once started."""
    game = await new_game(a, options)
    await a.ok(f"join {game} 0 name=alice")
    await b.ok(f"join {game} 1 name=bob")
    return game


@attrs.frozen
class RoundTruth:
    """One round as the rules played it: every position's full state, in order."""

    states: tuple[MatchState, ...]

    def hands(self, seat: int) -> set[str]:
        """``seat``'s hand in notation at every moment of the round."""
        return {format_hand(s.round.hands[seat]) for s in self.states}

    def sizes(self) -> set[tuple[int, int]]:
        """Both hand sizes at every moment of the round."""
        return {(s.round.hands[0].size, s.round.hands[1].size) for s in self.states}

    @property
    def end(self) -> MatchState:
        """The state when the round was over."""
        return self.states[-1]


def replay_rounds(record: MatchRecord) -> list[RoundTruth]:
    """Each round of ``record`` replayed through the rules."""
    rounds: list[RoundTruth] = []
    state: MatchState | None = None
    for round_record in record.rounds:
        state = (
            MatchState.start(round_record.deal, record.first_leader)
            if state is None
            else state.next_round(round_record.deal)
        )
        states = [state]
        for play in round_record.plays:
            state = state.play(play)
            states.append(state)
        rounds.append(RoundTruth(tuple(states)))
    return rounds
