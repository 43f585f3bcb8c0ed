"""Helpers for driving ``hipparchus-play`` headlessly (Textual's ``App.run_test`` pilot)
against a daemon running in this process (a thread of its own running trio) and bots that
play random legal moves in threads, through the blocking client."""

from __future__ import annotations

import asyncio
import hashlib
import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import trio
from textual import events
from textual.pilot import Pilot

from hipparchusd.client import Client, int_list, random_move
from hipparchusd.games.base import Pick as GamePick
from hipparchusd.games.registry import KINDS
from hipparchusd.server import Server, serve
from hipparchusd.settings import Settings
from hipparchusd.store.base import MemoryStore, StoredGame, StoredSeat


class ThreadDaemon:
    """A daemon (in-memory store) served by trio in a thread; ``host`` and ``port`` to reach
    it. Use :func:`thread_daemon`."""

    host = "127.0.0.1"

    def __init__(self, store: MemoryStore | None = None) -> None:
        self.store = store or MemoryStore()
        self.port = 0
        self._ready = threading.Event()
        self._stop: trio.Event | None = None
        self._token: trio.lowlevel.TrioToken | None = None
        self._thread = threading.Thread(target=lambda: trio.run(self._main), daemon=True)

    async def _main(self) -> None:
        self._stop = trio.Event()
        self._token = trio.lowlevel.current_trio_token()
        async with trio.open_nursery() as nursery:
            settings = Settings(port=0, host="127.0.0.1", grace_period=0.2)
            server: Server = await nursery.start(serve, settings, self.store)
            self.port = server.ports[0]
            self._ready.set()
            await self._stop.wait()
            server.shutdown()

    def start(self) -> None:
        """Start serving; return once it accepts connections."""
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("the daemon did not start")

    def stop(self) -> None:
        """Shut the daemon down and wait for its thread (once; again does nothing)."""
        if self._token is not None and self._stop is not None and self._thread.is_alive():
            self._token.run_sync_soon(self._stop.set)
        self._thread.join(10)


@contextmanager
def thread_daemon(store: MemoryStore | None = None) -> Iterator[ThreadDaemon]:
    """A :class:`ThreadDaemon` for the block (serving ``store``'s games, if given)."""
    daemon = ThreadDaemon(store)
    daemon.start()
    try:
        yield daemon
    finally:
        daemon.stop()


class Bot(threading.Thread):
    """A player that joins ``game`` and makes random legal moves (any game: the generic
    contract, PROTOCOL.md) until the game is over; ``result`` is the ``game-over`` data.

    ``script`` gives its first moves instead (e.g. a planets pass); with a ``gate`` it makes
    each move only once the gate is set (so that a test sees it still to move)."""

    def __init__(
        self,
        daemon: ThreadDaemon,
        game: str,
        name: str,
        seed: int,
        token: str | None = None,
        *,
        script: list[str] | None = None,
        gate: threading.Event | None = None,
    ) -> None:
        super().__init__(daemon=True)
        self.script = list(script or [])
        self.gate = gate
        self.token = token
        self.daemon_address = (daemon.host, daemon.port)
        self.game = game
        self.name = name
        self.rng = random.Random(seed)
        self.result: dict[str, Any] | None = None
        self.error: BaseException | None = None
        self.seat = -1

    def run(self) -> None:
        try:
            with Client.connect(*self.daemon_address, json=True, timeout=60) as client:
                if self.token is None:
                    joined = client.request_json("join", self.game, f"name={self.name}")
                    self.seat = int(joined["seat"])
                else:  # a restored game: no to-move comes for the position as it stands
                    resumed = client.request_json("resume", self.token)
                    self.seat = int(resumed["view"]["seat"])
                    legal = client.legal(self.game)
                    if legal:
                        client.request("play", self.game, random_move(legal, self.rng))
                for event in client.events():
                    if event.game != self.game:
                        continue
                    if event.kind == "to-move" and self.seat in int_list(event.data["seats"]):
                        if self.gate is not None and not self.gate.wait(30):
                            raise TimeoutError(f"{self.name}: the gate was never opened")
                        legal = client.legal(self.game)
                        if legal:
                            move = self.script.pop(0) if self.script else None
                            client.request("play", self.game, move or random_move(legal, self.rng))
                    elif event.kind == "game-over":
                        self.result = event.data
                        return
        except BaseException as error:  # reported by the test
            self.error = error


async def wait_for(
    pilot: Pilot[Any], condition: Callable[[], bool], timeout: float = 20.0, what: str = ""
) -> None:
    """Let the app run until ``condition()`` holds (raising AssertionError after
    ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or condition}")
        await asyncio.sleep(0.005)


def new_game(daemon: ThreadDaemon, kind: str, *options: str) -> str:
    """A new game's id (nobody seated)."""
    with Client.connect(daemon.host, daemon.port, json=True) as client:
        return str(client.request_json("new", kind, *options)["game"])


def fetch_record(daemon: ThreadDaemon, game: str) -> dict[str, Any]:
    """``record <game>`` (JSON)."""
    with Client.connect(daemon.host, daemon.port, json=True) as client:
        return client.request_json("record", game)


_CHARACTERS = {"enter": "\r", "space": " ", "escape": "\x1b", "backspace": "\x08"}
_KEY_NAMES = {"@": "at", ",": "comma", "?": "question_mark", " ": "space"}


async def press(pilot: Pilot[Any], *keys: str) -> None:
    """Key presses, posted to the app as a terminal would send them, without the pilot's
    wait for an idle process (this process also runs the daemon and the bots, so it is
    seldom idle): the caller waits for what it expects with :func:`wait_for`."""
    app = pilot.app
    for key in keys:
        if len(key) == 1:
            app.post_message(events.Key(_KEY_NAMES.get(key, key), key))
        else:
            app.post_message(events.Key(key, _CHARACTERS.get(key)))
    await asyncio.sleep(0.01)


async def type_text(pilot: Pilot[Any], text: str) -> None:
    """Type ``text`` then Enter."""
    await press(pilot, *text, "enter")


class PreloadedStore(MemoryStore):
    """A memory store that holds one unfinished game when the daemon starts, which the daemon
    restores as after a restart (its seats are taken back with their tokens)."""

    def __init__(self, stored: StoredGame) -> None:
        self.stored = stored

    async def load_unfinished(self) -> list[StoredGame]:
        """The preloaded game."""
        return [self.stored]


def token_of(seat: int) -> str:
    """The resume token given to ``seat`` of a preloaded game."""
    return f"{seat:x}" * 32


def planets_near_its_end(
    players: int, seed: int, names: list[str], over: int = 80
) -> PreloadedStore:
    """A planets game (``g1``) played at random by the rules, stopped at the start of the
    first hand after which a total may exceed 100 (some total is over ``over``), every seat
    taken (:func:`token_of` gives the tokens): a short way to a game's end."""
    kind = KINDS["planets"]
    options = {"players": str(players), "seed": str(seed)}
    game = kind.create(options)
    game.start()
    rng = random.Random(seed)
    while True:
        view: Any = game.view_data(None)
        at_start = view["phase"] == "pass" and not view["passed"]
        at_start = at_start or (
            view["phase"] == "play" and not view["tricks"] and not view["trick"]
        )
        if at_start and max(view["totals"]) > over:
            break
        if game.outcome is not None:
            raise ValueError(f"seed {seed}: the game ended before a total passed {over}")
        seat = min(game.seats_to_move())
        legal = game.legal(seat)
        if isinstance(legal, GamePick):
            word = ",".join(rng.sample(list(legal.items), legal.count))
        else:
            word = rng.choice(list(legal.moves))
        game.play_word(seat, word)
    seats = tuple(
        StoredSeat(seat, names[seat], hashlib.sha256(token_of(seat).encode()).digest())
        for seat in range(players)
    )
    stored = StoredGame("g1", "planets", options, time.time(), seats, game.record_data(), (), False)
    return PreloadedStore(stored)
