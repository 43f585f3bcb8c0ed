"""Helpers for driving ``hipparchus-play`` headlessly (Textual's ``App.run_test`` pilot)
against a daemon running in this process (a thread of its own running trio) and bots that
play random legal moves in threads, through the blocking client; and the pilot's steps that
every game's terminal tests share (waiting for a turn, pressing keys, clicking a choice,
making a move one of four ways, screenshots).

With ``HIPPARCHUS_TUI_SCREENSHOTS=1`` the screenshots the tests take are also written to docs/
(docs/tui-*.svg) for the README."""

from __future__ import annotations

import asyncio
import hashlib
import io
import os
import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import trio
from rich.console import Console
from textual import events
from textual.pilot import Pilot

from hipparchusd.client import Client, int_list, random_move
from hipparchusd.games.base import GameKind, ServedGame
from hipparchusd.games.registry import register, unregister
from hipparchusd.play.app import Options, PlayApp
from hipparchusd.play.game_screen import GameScreen
from hipparchusd.play.widgets import ChoiceBar, ConfirmScreen, ResultScreen
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
def serving(kind: GameKind) -> Iterator[GameKind]:
    """``kind`` served by every daemon of this process for the block (a kind that lives under
    tests/, such as tests/tinygame's), then no more."""
    register(kind)
    try:
        yield kind
    finally:
        unregister(kind.name)


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


async def seat_in_order(pilot: Pilot[Any], bots: list[Bot]) -> list[Bot]:
    """Start ``bots`` one at a time, each once the one before is seated, so that they take the
    free seats in their order; answer ``bots``."""
    for bot in bots:
        bot.start()
        await wait_for(pilot, lambda bot=bot: bot.seat >= 0, what=f"{bot.name} seated")
    return bots


def bots_saw(bots: list[Bot], over: dict[str, Any] | None) -> None:
    """Wait for each bot to end: without an error, having seen ``over`` as the game's end."""
    for bot in bots:
        bot.join(10)
        assert bot.error is None and bot.result == over, (bot.name, bot.error, bot.result)


async def wait_for(
    pilot: Pilot[Any],
    condition: Callable[[], bool],
    timeout: float = 20.0,
    what: str = "",
    progress: Callable[[], object] | None = None,
) -> None:
    """Let the app run until ``condition()`` holds (raising AssertionError after
    ``timeout`` seconds). With ``progress``, the timeout counts from the last change of
    ``progress()`` instead: a long wait that keeps moving (a whole match on a loaded machine)
    is bounded by its progress, not by a guess at its total time."""
    deadline = time.monotonic() + timeout
    seen = progress() if progress is not None else None
    while not condition():
        if progress is not None and (now := progress()) != seen:
            seen, deadline = now, time.monotonic() + timeout
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


def viewer(port: int, data_dir: Path, watching: bool) -> Options:
    """The client's options for a preloaded game ``g1`` on ``port``: a spectator watching it
    (no delay between moves), or the player of seat 0 resuming with its token."""
    if watching:
        return Options(port=port, watch="g1", delay=0.0, data_dir=data_dir)
    return Options(port=port, resume=token_of(0), data_dir=data_dir)


def preloaded(
    kind: str, options: dict[str, str], game: ServedGame, names: list[str]
) -> PreloadedStore:
    """A store that holds ``game`` (of ``kind``, made with ``options``, started) as ``g1``
    with every seat taken by ``names`` (:func:`token_of` gives the tokens)."""
    seats = tuple(
        StoredSeat(seat, name, hashlib.sha256(token_of(seat).encode()).digest())
        for seat, name in enumerate(names)
    )
    stored = StoredGame("g1", kind, options, time.time(), seats, game.record_data(), (), False)
    return PreloadedStore(stored)


#: The terminal's size in every test (columns, lines).
SIZE = (132, 40)
#: Where the README's screenshots are.
DOCS = Path(__file__).resolve().parents[2] / "docs"


def screenshot(app: PlayApp, name: str, tmp_path: Path) -> None:
    """Save an SVG of the screen to ``tmp_path`` (and docs/ when asked for)."""
    app.save_screenshot(name, str(tmp_path))
    assert (tmp_path / name).read_text(encoding="utf-8").startswith("<svg")
    if os.environ.get("HIPPARCHUS_TUI_SCREENSHOTS"):
        app.save_screenshot(name, str(DOCS))


async def game_screen(pilot: Pilot[Any], app: PlayApp) -> GameScreen:
    """The game screen, once shown."""
    await wait_for(
        pilot,
        lambda: app.game_screen is not None and app.screen is app.game_screen,
        what="the game screen",
    )
    assert app.game_screen is not None
    return app.game_screen


async def next_turn(
    pilot: Pilot[Any], app: PlayApp, screen: GameScreen, results: list[str] | None = None
) -> bool:
    """Wait for our next turn (True) or the game's end (False), closing result screens (and
    adding each one's text, :func:`result_text`, to ``results`` if given, in the order they
    were shown)."""
    while True:
        await wait_for(
            pilot,
            lambda: (
                screen.my_turn
                or isinstance(app.screen, ResultScreen)
                or (screen.over is not None and app.screen is screen)
            ),
            what="a turn or a result",
        )
        if isinstance(app.screen, ResultScreen):
            top = app.screen
            if results is not None:
                results.append(result_text(app))
            await press(pilot, "enter")
            await wait_for(pilot, lambda top=top: app.screen is not top, what="the result to close")
            continue
        if screen.over is not None:
            return False
        if screen.my_turn and app.screen is screen:
            return True


async def resign(pilot: Pilot[Any], app: PlayApp, screen: GameScreen) -> None:
    """Resign (Ctrl+R, then ``y`` to the question) and wait for the game's end."""
    await press(pilot, "ctrl+r")
    await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
    await press(pilot, "y")
    await wait_for(pilot, lambda: screen.over is not None, what="the resignation")


async def click_item(pilot: Pilot[Any], bar_id: str, index: int) -> None:
    """Click item ``index`` of a choice bar (again if the layout moved under the pointer)."""
    for _ in range(5):
        await asyncio.sleep(0.05)  # the bar drawn with its items
        bar = pilot.app.screen.query_one(f"#{bar_id}", ChoiceBar)
        spot = next((spot for spot in bar._spots if spot[3] == index), None)
        if spot is not None and await pilot.click(f"#{bar_id}", offset=(spot[1], spot[0])):
            return
    raise AssertionError(f"could not click item {index} of #{bar_id}")


async def made(pilot: Pilot[Any], screen: GameScreen, before: int) -> None:
    """Wait until the daemon accepted our move."""
    try:
        await wait_for(pilot, lambda: screen.moves_made > before, what="the move's answer")
    except AssertionError:
        state = (screen.my_turn, screen.selected, screen.buffer, screen.refusal)
        raise AssertionError(f"no move made: {state} {screen.transcript[-5:]}") from None


async def choose(
    pilot: Pilot[Any], screen: GameScreen, way: int, index: int, word: str, label: str = ""
) -> None:
    """Make the move ``index`` (``word``) one of four ways: arrows and Enter, its label (its
    number in the list when it has none), its notation typed in lower case, or two clicks."""
    if way == 0:
        steps = (index - screen.selected) % screen.selectable()
        await press(pilot, *["right"] * steps)
        await wait_for(pilot, lambda: screen.selected == index, what="the selection")
        await press(pilot, "enter")
    elif way in (1, 2):
        typed = (label or str(index + 1)) if way == 1 else word.lower()
        await press(pilot, *typed)
        await wait_for(pilot, lambda: screen.buffer == typed, what="the typing")
        await press(pilot, "enter")
    else:  # a click selects, a click on the selected move makes it
        if screen.selected != index:
            await click_item(pilot, "moves", index)
            await wait_for(pilot, lambda: screen.selected == index, what="the click")
        await click_item(pilot, "moves", index)


def result_text(app: PlayApp) -> str:
    """The result screen on top, as plain text (its title and body)."""
    top = app.screen
    assert isinstance(top, ResultScreen)
    console = Console(width=100, record=True, file=io.StringIO())
    console.print(top.title_text)
    console.print(top.body)
    return console.export_text()


def row_of(text: str, label: str) -> list[str]:
    """The words of the table row of ``label`` in a result's text (seat, took, added,
    total)."""
    rows = [
        words
        for words in (line.split() for line in text.splitlines())
        if words[:1] == [label] and len(words) == 4
    ]
    assert len(rows) == 1, (label, text)
    return rows[0]
