"""The shared game screen: :class:`GameScreen`, the table with the seats around it, the
trick in the middle, the hand, the legal moves, whose move it is, and a log of every event
explained. Each game's own screen (``games/<kind>/tui/screen.py``, named by its
:class:`~hipparchusd.games.base.GameKind`'s ``tui``) provides the game's hooks (the abstract
methods); :mod:`.generic_screen` provides them for a game that has no screen of its own.

Events are queued by the connection's reader the moment they arrive and applied by a worker
(:meth:`GameScreen.consume`), paced by ``delay`` seconds for a spectator; the player chooses
meanwhile. A seat's view is taken from ``state`` at each of its turns (the position then
waits for it) and followed from the events in between (each game's reducer, :meth:`reduce`).
Results (a round's, then the game's) are shown one after the other, in the order they came
(:meth:`GameScreen.show_result`). While the table waits for players, ``b`` seats a computer
opponent at a level the server offers (:mod:`.opponents`).
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.widgets import Footer, RichLog, Static

from ..client import ConnectionClosed, Event, ServerError
from .clocks import Clocks
from .connection import Connection
from .phrases import game_over_without_result, sentence
from .seat_actions import ScreenABCMeta, SeatActions, Seating
from .table import SeatTable, seat_line
from .widgets import ChoiceBar, Look, ResultScreen

TYPED = frozenset("0123456789@,abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


class GameScreen(SeatActions, metaclass=ScreenABCMeta):  # type: ignore[metaclass]
    """What every game screen shares. Subclasses must follow and render their game (the
    abstract ``reduce``, ``explain``, ``to_move``, ``title_text``, ``seat_panel``, ``center``)
    and take their turns (the abstract ``load_turn``), and choose moves as they need
    (``hand_items``, ``move_items``, ``selected_word``, ``word_for``...).

    ``on_finished(message, code)`` is called when the player leaves; ``forget_token`` when
    the seat's token is of no more use (the game is over, or the seat was freed). ``rules``
    is the game's rules text (Markdown) that ``?`` shows after the screen's :attr:`KEYS`;
    ``levels`` the engine levels the server offers for the game's kind (``kinds``), weakest
    first, none when it has no computer opponent for it.
    """

    #: The game's events after which a spectator's watch pauses ``delay`` seconds (the others
    #: are instant): those a person watches, such as a card played or a trick taken.
    PACED: ClassVar[frozenset[str]] = frozenset()
    #: Whether the seat's hand is drawn (above the moves); a screen that shows only the moves
    #: leaves it out.
    SHOWS_HAND: ClassVar[bool] = True

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "choose", show=False),
        Binding("right", "move(1)", "choose", show=False),
        Binding("up", "count(1)", "more", show=False),
        Binding("down", "count(-1)", "fewer", show=False),
        Binding("enter", "submit", "play"),
        Binding("enter", "finish", "leave", show=False),  # once over: the status line says
        Binding("space", "mark", "mark", show=False),
        Binding("escape", "clear", "clear", show=False),
        Binding("backspace", "erase", "erase", show=False),
        Binding("question_mark", "rules", "rules"),
        Binding("ctrl+r", "resign", "resign"),
        Binding("ctrl+k", "claim", "claim the game"),
        Binding("b", "add_opponent", "computer opponent"),
    ]

    def __init__(
        self,
        connection: Connection,
        seating: Seating,
        snapshot: dict[str, Any] | None,
        snapshot_order: int,
        look: Look,
        *,
        delay: float = 0.0,
        on_finished: Callable[[str, int], None],
        forget_token: Callable[[], None],
        rules: str = "",
        levels: Sequence[str] = (),
    ) -> None:
        super().__init__()
        self.rules = rules
        self.levels = tuple(levels)
        self.connection = connection
        self.seating = seating
        self.look = look
        self.delay = delay
        self.on_finished = on_finished
        self.forget_token = forget_token
        self.view: dict[str, Any] | None = (snapshot or {}).get("view")
        self.status = str((snapshot or {}).get("status") or "waiting")
        if snapshot and snapshot.get("players"):
            self.seating.players = list(snapshot["players"])
        self.snapshot_order = snapshot_order
        self.queue: asyncio.Queue[tuple[Event, int]] = asyncio.Queue()
        self.my_turn = False
        self.selected = 0
        self.buffer = ""
        self.refusal = ""
        self.over: dict[str, Any] | None = None
        self.disconnected: set[int] = set()
        #: Seats away for the whole absence grace (the ``absent`` event), until they are back.
        self.absent: set[int] = set()
        #: The clocks of a timed game, as the server told them (:mod:`.clocks`).
        self.clocks = Clocks()
        self.clocks.from_state((snapshot or {}).get("clock"))
        for seat, presence in enumerate((snapshot or {}).get("presence") or []):
            if presence == "absent":
                self.absent.add(seat)
        self.notes: list[Text] = []  # the center's explanation of the last trick
        self.events_seen = 0
        self.moves_made = 0  # moves the daemon accepted from us
        self.transcript: list[str] = []  # every line logged, as plain text
        self.join_hint = ""  # how a person joins, shown while seats are free
        self.opponents: list[str] = []  # the levels to seat on opening (``--bot``)
        self.level = ""  # the level chosen last with ``b``
        self.back_to = ""  # where Enter goes once the game is over ("the lobby"), if not out
        self.results: deque[ResultScreen] = deque()  # the one shown first, then those waiting
        self._keys: tuple[bool, ...] = ()  # what the footer's keys were drawn for

    # -- layout

    def compose(self) -> ComposeResult:
        """Title; the table (:meth:`compose_table`), the status line, the hand, the moves and
        the typed text; the event log on the right; the keys at the bottom."""
        yield Static(id="title")
        with Horizontal(id="main"):
            with Vertical(id="play-area"):
                yield from self.compose_table()
                yield Static(id="legend")
                yield Static(id="status")
                yield Static(Text("Your hand", "bold"), id="hand-label")
                yield ChoiceBar(id="hand")
                yield ChoiceBar(id="moves", gap=3)
                yield Static(id="typed")
            log = RichLog(id="log", wrap=True, markup=False, min_width=20)
            log.can_focus = False
            yield log
        yield Footer()

    def compose_table(self) -> ComposeResult:
        """The table: a 3x3 grid of seats around the trick (drawn by :meth:`draw_table`)."""
        yield SeatTable(id="table")

    def on_mount(self) -> None:
        """Start following the game's events, seat the opponents asked for, draw the table."""
        self.run_worker(self.consume(), name="events", exclusive=True)
        # A timed game's clocks tick down between events (nothing is drawn untimed).
        self.set_interval(0.2, self.tick)
        if self.opponents:
            self.run_worker(self.add_opponents(self.opponents), group="opponents")
        if self.seating.seat is None or not self.SHOWS_HAND:
            self.query_one("#hand-label", Static).display = False
            self.query_one("#hand", ChoiceBar).display = False
        self.redraw()

    def tick(self) -> None:
        """Draw the table again while a clock runs, so that it counts down."""
        if self.clocks.timed and self.clocks.running and self.over is None:
            with contextlib.suppress(NoMatches):
                self.draw_table()

    @property
    def log_widget(self) -> RichLog:
        """The event log."""
        return self.query_one("#log", RichLog)

    def label(self, seat: int) -> str:
        """``you`` for our seat, else the seat's name (``seat <n>`` while it is free)."""
        if seat == self.seating.seat:
            return "you"
        players = self.seating.players
        name = players[seat] if 0 <= seat < len(players) else None
        return str(name) if name not in (None, "-") else f"seat {seat}"

    def sentence(self, text: str) -> str:
        """``text`` as a sentence, a player's name at its start kept as the player wrote it
        (:func:`.phrases.sentence`)."""
        return sentence(
            text, [str(name) for name in self.seating.players if name not in (None, "-")]
        )

    def note(self, text: Text | str) -> None:
        """Add a line to the log (and to :attr:`transcript`, its plain text); a plain
        ``str`` is written as a sentence (:meth:`sentence`: ``You dealt``, ``bob dealt``)."""
        line = text if isinstance(text, Text) else Text(self.sentence(text))
        self.transcript.append(line.plain)
        self.log_widget.write(line)

    # -- events

    def push_event(self, event: Event, order: int) -> None:
        """Queue an event of this game (called by the connection's reader, in order)."""
        self.queue.put_nowait((event, order))

    async def consume(self) -> None:
        """Apply the queued events one by one, pausing ``delay`` seconds after each event a
        person watches (:meth:`paced`)."""
        while True:
            event, order = await self.queue.get()
            try:
                await self.handle(event, order)
            except (NoMatches, ConnectionClosed):  # the application is closing
                return
            self.events_seen += 1
            paced = self.delay and self.paced(event.kind)
            # Drawn once the events read so far are applied: a trick's four events, one draw.
            if paced or self.queue.empty():
                await self.before_drawing()
                self.redraw()
            if paced:
                await asyncio.sleep(self.delay)

    def paced(self, kind: str) -> bool:
        """Whether a spectator's watch pauses after an event ``kind`` (:attr:`PACED`)."""
        return kind in self.PACED

    async def handle(self, event: Event, order: int) -> None:
        """One event: the view follows it (unless a snapshot read later holds it already), the
        log explains it, and at our turn the legal moves are fetched."""
        data = event.data
        kind = event.kind
        before = self.view
        if order > self.snapshot_order:
            self.view = self.reduce(self.view, kind, data)
        if kind == "joined":
            seat = int(data["seat"])
            while len(self.seating.players) <= seat:
                self.seating.players.append(None)
            self.seating.players[seat] = data.get("name")
            self.note(f"{self.label(seat)} joined (seat {seat})")
        elif kind == "left":
            seat = int(data["seat"])
            self.seating.players[seat] = None
            self.note(f"seat {seat} left: the seat is free again")
        elif kind == "disconnected":
            self.disconnected.add(int(data["seat"]))
            self.note(f"{self.label(int(data['seat']))} disconnected (the seat is kept)")
        elif kind == "resumed":
            self.disconnected.discard(int(data["seat"]))
            self.absent.discard(int(data["seat"]))
            self.refresh_bindings()
            self.note(f"{self.label(int(data['seat']))} is back")
        elif kind == "absent":
            seat = int(data["seat"])
            self.absent.add(seat)
            self.refresh_bindings()
            claim = " You may claim the game (Ctrl+K)." if self.can_claim() else ""
            self.note(f"{self.label(seat)} has been away for the whole absence grace.{claim}")
        elif kind == "to-move":
            self.status = "playing"
            self.clocks.to_move(data)
            seats = [int(s) for s in data.get("seats") or []]
            if self.seating.seat in seats and self.seating.seat is not None:
                await self.load_turn()
        elif kind == "game-over":
            self.game_over(data)
        else:
            self.status = "playing"
            self.explain(kind, data, before)

    def game_over(self, data: dict[str, Any]) -> None:
        """The game has ended: say who won (and how the clocks or an absence ended it, if they
        did), or that nobody did (a game abandoned, aborted or ended by the server's operator:
        PROTOCOL.md section 4), forget the seat's token."""
        self.over = data
        self.my_turn = False
        self.clocks.stop()
        self.refresh_bindings()
        no_result = game_over_without_result(data)
        if no_result is not None:
            # No winners and no scores to give.
            line = Text(no_result)
        else:
            winners = [int(s) for s in data.get("winners") or []]
            scores = data.get("scores") or []
            names = " and ".join(self.label(s) for s in winners)
            verb = "win" if winners == [self.seating.seat] or len(winners) > 1 else "wins"
            line = Text(f"Game over: {names} {verb}", "bold")
            resigned = data.get("resigned")
            if data.get("timeout") is not None:
                line.append(f" ({self.label(int(data['timeout']))} ran out of time)")
            elif data.get("claimed") and resigned is not None:
                line.append(f" (claimed: {self.label(int(resigned))} was away)")
            elif resigned is not None:
                line.append(f" ({self.label(int(resigned))} resigned)")
            each = (f"{self.label(seat)} {score}" for seat, score in enumerate(scores))
            line.append(". Scores: " + ", ".join(each))
        self.note(line)
        self.forget_token()
        body = Group(line, Text(self.score_explanation()))
        self.show_result(ResultScreen("Game over", body, self.auto_close))

    def show_result(self, result: ResultScreen) -> None:
        """Show ``result`` once those shown before it are closed (a match's last round, then
        the match), so that they are read in the order they happened."""
        self.results.append(result)
        if len(self.results) == 1:
            self.app.push_screen(result, self._result_closed)

    def _result_closed(self, _: None) -> None:
        self.results.popleft()
        if self.results:
            self.app.push_screen(self.results[0], self._result_closed)

    @property
    def auto_close(self) -> float | None:
        """A spectator's results close by themselves (the watch goes on); a player's wait."""
        return None if self.seating.seat is not None else max(3 * self.delay, 1.0)

    # -- our turn

    async def refresh_view(self) -> None:
        """Take the seat's view from ``state`` (events read before its answer are in it)."""
        state, order = await self.connection.ask("state", self.seating.game)
        self.view = state.get("view")
        self.snapshot_order = order
        self.clocks.from_state(state.get("clock"))
        if state.get("players"):
            self.seating.players = list(state["players"])

    async def play(self, word: str) -> None:
        """Send a move; show the daemon's reason if it refuses it."""
        try:
            answer = await self.connection.request("play", self.seating.game, word)
        except ConnectionClosed:
            return  # the application says so as it closes
        except ServerError as error:
            self.refusal = f"Refused {word}: {error.message}"
            self.note(Text(self.refusal, "bold red"))
            self.redraw()
            return
        played = str(answer.get("move", word))
        self.refusal = ""
        self.buffer = ""
        self.my_turn = False
        self.moves_made += 1
        self.note(self.played_text(played))
        self.after_play(played)
        self.redraw()

    # -- actions

    def action_move(self, step: int) -> None:
        """Move the selection left or right."""
        count = self.selectable()
        if self.my_turn and count:
            self.selected = (self.selected + step) % count
            self.redraw()

    def action_count(self, step: int) -> None:
        """More or fewer cards from the same clump (Hipparchus); nothing elsewhere."""

    def action_mark(self) -> None:
        """Mark a card to pass (planets); nothing elsewhere."""

    def action_clear(self) -> None:
        """Forget the typed text (and marks)."""
        self.buffer = ""
        self.refusal = ""
        self.redraw()

    def action_erase(self) -> None:
        """Erase the last typed character."""
        self.buffer = self.buffer[:-1]
        self.redraw()

    def action_submit(self) -> None:
        """Play the typed move, or the selected one."""
        if self.over is not None:
            self.action_leave()
            return
        if not self.my_turn:
            return
        word = self.word_for(self.buffer.strip()) if self.buffer.strip() else self.selected_word()
        self.buffer = ""
        if word:
            self.run_worker(self.play(word), group="moves")
        self.redraw()

    def on_key(self, event: events.Key) -> None:
        """Letters, digits, ``@`` and ``,`` are typed (a number or a move's notation) once the
        game has started (before, a letter is a key: ``b``)."""
        if (
            event.character
            and event.character in TYPED
            and self.seating.seat is not None
            and not self.waiting
        ):
            self.buffer += event.character
            event.stop()
            self.redraw()

    def on_choice_bar_clicked(self, message: ChoiceBar.Clicked) -> None:
        """A click on the hand or the moves."""
        if not self.my_turn:
            return
        if message.bar.id == "moves":
            self.click_move(message.index)
        else:
            self.click_hand(message.index)
        self.redraw()

    def click_move(self, index: int) -> None:
        """A click on a move: select it; a click on the selected one plays it."""
        if index == self.selected:
            self.action_submit()
        else:
            self.selected = index

    def click_hand(self, index: int) -> None:
        """A click on a card or clump (each game decides)."""

    # -- drawing

    def redraw(self) -> None:
        """Draw everything from the view and the choice (nothing once the screen is gone)."""
        with contextlib.suppress(NoMatches):  # the application is closing: no widgets
            self._redraw()

    def _redraw(self) -> None:
        keys = self.keys_state()
        if keys != self._keys:  # the footer shows only the keys that work now
            self._keys = keys
            self.refresh_bindings()
        self.query_one("#title", Static).update(self.title_text())
        self.draw_table()
        legend = self.legend()
        self.query_one("#legend", Static).update(legend)
        # A class, not ``display``: the app's CSS also hides the legend in a short terminal.
        self.query_one("#legend", Static).set_class(not legend.plain, "empty")
        self.query_one("#status", Static).update(self.status_text())
        if self.seating.seat is not None and self.SHOWS_HAND:
            self.query_one("#hand", ChoiceBar).show(self.hand_items(), self.hand_cursor())
        self.query_one("#moves", ChoiceBar).show(self.move_items(), self.move_cursor())
        typed = Text()
        if self.buffer:
            typed.append("typed: ", "dim")
            typed.append(self.buffer, "bold")
            typed.append("  (Enter sends, Esc clears)", "dim")
        elif self.refusal:
            typed.append(self.refusal, "bold red")
        self.query_one("#typed", Static).update(typed)

    def draw_table(self) -> None:
        """Each seat's panel in its place around the table, the trick in the middle
        (:meth:`seat_panel`, :meth:`center`; :class:`~.table.SeatTable`)."""
        to_move = [seat for seat in self.to_move() if self.is_to_move(seat)]
        self.query_one("#table", SeatTable).show(
            len(self.seating.players) or 2,
            self.seating.seat or 0,
            self.seat_panel,
            self.center(),
            to_move,
        )

    @abc.abstractmethod
    def to_move(self) -> list[int]:
        """The seats that must move now."""

    def is_to_move(self, seat: int) -> bool:
        """True when ``seat`` must move now."""
        return self.over is None and seat in self.to_move()

    def status_text(self) -> Text:
        """Whose move it is: ``Your turn: ...`` or ``waiting for bob...``."""
        if self.over is not None:
            where = f"goes back to {self.back_to}" if self.back_to else "or Ctrl+Q leaves"
            return Text(f"Game over. Enter {where}.", "bold")
        if self.view is None:
            free = [s for s, name in enumerate(self.seating.players) if name in (None, "-")]
            waiting = ", ".join(f"seat {s}" for s in free) or "the start"
            text = Text(f"Waiting for players to join ({waiting})...", "italic")
            if self.waiting and self.levels:
                text.append("\nPress ", "dim")
                text.append("b", "bold")
                text.append(" to add a computer opponent.", "dim")
            if self.join_hint:
                text.append(f"\nA person joins with: {self.join_hint}", "dim")
            return text
        if self.my_turn:
            return self.turn_prompt()
        seats = [s for s in self.to_move() if s != self.seating.seat]
        if not seats:
            return Text("")
        names = ", ".join(self.label(s) for s in seats)
        return Text(f"waiting for {names}...", "italic yellow")

    # -- what each game provides

    @abc.abstractmethod
    def reduce(self, view: dict[str, Any] | None, kind: str, data: dict[str, Any]) -> Any:
        """The view after an event (:mod:`.follow`)."""

    @abc.abstractmethod
    def explain(self, kind: str, data: dict[str, Any], before: dict[str, Any] | None) -> None:
        """Log the game's own event, explained."""

    @abc.abstractmethod
    async def load_turn(self) -> None:
        """Our turn: take the view and the legal moves."""

    async def before_drawing(self) -> None:
        """Events were applied and the screen is about to be drawn: a screen that cannot follow
        the view from the events takes it from ``state`` here."""

    def after_play(self, move: str) -> None:
        """Our move was accepted as ``move`` (canonical)."""

    def show_move(self, move: str) -> Text:
        """A move word as drawn."""
        return Text(move)

    def played_text(self, move: str) -> Text:
        """The log's line for our accepted ``move`` (before :meth:`after_play`)."""
        return Text.assemble(("You played ", "bold"), self.show_move(move))

    @abc.abstractmethod
    def title_text(self) -> Text:
        """The top line."""

    @abc.abstractmethod
    def seat_panel(self, seat: int) -> RenderableType:
        """A seat's place at the table."""

    @abc.abstractmethod
    def center(self) -> RenderableType:
        """The middle of the table: the trick."""

    def hand_items(self) -> list[ChoiceBar.Item]:
        """Our hand, as clickable items."""
        return []

    def hand_cursor(self) -> int | None:
        """The hand item to draw reversed."""
        return None

    def move_cursor(self) -> int | None:
        """The move item to draw reversed: the selection, at our turn."""
        return self.selected if self.my_turn else None

    def move_items(self) -> list[ChoiceBar.Item]:
        """The legal moves (or the choice in progress), as clickable items."""
        return []

    def selectable(self) -> int:
        """How many items the arrows move over."""
        return 0

    def selected_word(self) -> str:
        """The move word of the selection ('' when there is none)."""
        return ""

    def word_for(self, typed: str) -> str:
        """The move a typed text means: a number picks from the list; anything else is sent
        as written, so that the daemon says why if it is not legal."""
        return typed

    def turn_prompt(self) -> Text:
        """What to do now."""
        return Text("Your turn", "bold green")

    def legend(self) -> Text:
        """What the signs of the cards mean, shown under the table (none by default)."""
        return Text("")

    def score_explanation(self) -> str:
        """How the game's scores read."""
        return ""


def seat_header(screen: GameScreen, seat: int, *, numbered: bool = True) -> Text:
    """A seat panel's first line: the name, ``(seat n)`` (unless not ``numbered``), and
    markers (:func:`.table.seat_line`)."""
    line = seat_line(
        screen.label(seat),
        seat,
        disconnected=seat in screen.disconnected,
        to_move=screen.is_to_move(seat),
        symbols=screen.look.symbols,
        numbered=numbered,
    )
    if seat in screen.absent:
        line.append(" absent", "bold red")
    return line.append_text(screen.clocks.text(seat))
