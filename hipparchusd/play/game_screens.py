"""The game screens: one per game kind (:class:`HipparchusScreen`, :class:`PlanetsScreen`)
over the shared :class:`GameScreen`: the table with the seats around it, the trick in the
middle, the hand, the legal moves, whose move it is, and a log of every event explained.

Events are queued by the connection's reader the moment they arrive and applied by a worker
(:meth:`GameScreen.consume`), paced by ``delay`` seconds for a spectator; the player chooses
meanwhile. A seat's view is taken from ``state`` at each of its turns (the position then
waits for it) and followed from the events in between (:mod:`.follow`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any, ClassVar

import attrs
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Footer, RichLog, Static

from ..client import ConnectionClosed, Event, Pick, ServerError, can_move
from .connection import Connection
from .follow import (
    HIPPARCHUS_SUITS,
    PLANETS_SUITS,
    SUIT_LETTERS,
    follow_hipparchus,
    follow_planets,
    hipparchus_round_lines,
    hipparchus_trick_reason,
    planets_hand_over_lines,
    planets_trick_reason,
    plural,
    sort_cards,
    without_play,
)
from .rules_text import SUMMARIES
from .widgets import (
    ChoiceBar,
    ConfirmScreen,
    Look,
    ResultScreen,
    RulesScreen,
    clump_letter,
    clumps,
    hand_text,
    play_labels,
)

#: Events after which a spectator's watch pauses ``delay`` seconds (the others are instant).
PACED = frozenset({"played", "trick", "no-follow", "passed", "round-over", "hand-over"})

#: Where each seat sits, by its place clockwise from the viewer (0 = the viewer, at the
#: bottom; left = the next seat, RULINGS P15), for each table size.
PLACES = {
    2: ("b", "t"),
    3: ("b", "l", "r"),
    4: ("b", "l", "t", "r"),
    5: ("b", "l", "tl", "tr", "r"),
    6: ("b", "l", "tl", "t", "tr", "r"),
}
#: A pass's name (protocol/games/planets.md) in words, after "pass 3 cards".
PASS_WORDS = {
    "left": "to the left",
    "right": "to the right",
    "across": "across",
    "split": "split between the others",
    "left2": "two seats left",
    "right2": "two seats right",
}
CELLS = ("tl", "t", "tr", "l", "c", "r", "bl", "b", "br")
TYPED = frozenset("0123456789@,abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


@attrs.define
class Seating:
    """Who the screen is for: the ``game`` and its ``kind``, our ``seat`` (``None`` for a
    spectator) and its ``token``, the ``players``' names by seat (``None`` or ``-`` when free)."""

    game: str
    kind: str
    seat: int | None
    token: str | None
    players: list[Any]


class GameScreen(Screen[None]):
    """What every game screen shares. Subclasses render their game (``reduce``, ``title``,
    ``seat_panel``, ``center``, ``describe``...) and choose moves (``load_turn``,
    ``hand_items``, ``move_items``, ``submit_selected``...).

    ``on_finished(message, code)`` is called when the player leaves; ``forget_token`` when
    the seat's token is of no more use (the game is over, or the seat was freed).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "choose", show=False),
        Binding("right", "move(1)", "choose", show=False),
        Binding("up", "count(1)", "more", show=False),
        Binding("down", "count(-1)", "fewer", show=False),
        Binding("enter", "submit", "play"),
        Binding("space", "mark", "mark", show=False),
        Binding("escape", "clear", "clear", show=False),
        Binding("backspace", "erase", "erase", show=False),
        Binding("question_mark", "rules", "rules"),
        Binding("ctrl+r", "resign", "resign"),
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
    ) -> None:
        super().__init__()
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
        self.notes: list[Text] = []  # the center's explanation of the last trick
        self.events_seen = 0
        self.moves_made = 0  # moves the daemon accepted from us
        self.transcript: list[str] = []  # every line logged, as plain text
        self.join_hint = ""  # how a bot would join, shown while seats are free

    # -- layout

    def compose(self) -> ComposeResult:
        """Title; the table (a 3x3 grid of seats around the trick), the status line, the hand,
        the moves and the typed text; the event log on the right; the keys at the bottom."""
        yield Static(id="title")
        with Horizontal(id="main"):
            with Vertical(id="play-area"):
                with Grid(id="table"):
                    for cell in CELLS:
                        yield Static(id=f"cell-{cell}", classes="cell")
                yield Static(id="status")
                yield Static(Text("Your hand", "bold"), id="hand-label")
                yield ChoiceBar(id="hand")
                yield ChoiceBar(id="moves", gap=3)
                yield Static(id="typed")
            log = RichLog(id="log", wrap=True, markup=False, min_width=20)
            log.can_focus = False
            yield log
        yield Footer()

    def on_mount(self) -> None:
        """Start following the game's events and draw the table."""
        self.run_worker(self.consume(), name="events", exclusive=True)
        if self.seating.seat is None:
            self.query_one("#hand-label", Static).display = False
        self.redraw()

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

    def note(self, text: Text | str) -> None:
        """Add a line to the log (and to :attr:`transcript`, its plain text)."""
        line = text if isinstance(text, Text) else Text(text)
        self.transcript.append(line.plain)
        self.log_widget.write(line)

    # -- events

    def push_event(self, event: Event, order: int) -> None:
        """Queue an event of this game (called by the connection's reader, in order)."""
        self.queue.put_nowait((event, order))

    async def consume(self) -> None:
        """Apply the queued events one by one, pausing ``delay`` seconds after each event a
        person watches (:data:`PACED`)."""
        while True:
            event, order = await self.queue.get()
            try:
                await self.handle(event, order)
            except (NoMatches, ConnectionClosed):  # the application is closing
                return
            self.events_seen += 1
            paced = self.delay and event.kind in PACED
            # Drawn once the events read so far are applied: a trick's four events, one draw.
            if paced or self.queue.empty():
                self.redraw()
            if paced:
                await asyncio.sleep(self.delay)

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
            self.note(f"{self.label(int(data['seat']))} is back")
        elif kind == "to-move":
            self.status = "playing"
            seats = [int(s) for s in data.get("seats") or []]
            if self.seating.seat in seats and self.seating.seat is not None:
                await self.load_turn()
        elif kind == "game-over":
            self.game_over(data)
        else:
            self.status = "playing"
            self.explain(kind, data, before)

    def game_over(self, data: dict[str, Any]) -> None:
        """The game has ended: say who won, forget the seat's token."""
        self.over = data
        self.my_turn = False
        winners = [int(s) for s in data.get("winners") or []]
        scores = data.get("scores") or []
        names = " and ".join(self.label(s) for s in winners)
        verb = "win" if winners == [self.seating.seat] or len(winners) > 1 else "wins"
        line = Text(f"Game over: {names} {verb}", "bold")
        resigned = data.get("resigned")
        if resigned is not None:
            line.append(f" ({self.label(int(resigned))} resigned)")
        line.append(". Scores: " + ", ".join(f"{self.label(s)} {v}" for s, v in enumerate(scores)))
        self.note(line)
        self.forget_token()
        body = Group(line, Text(self.score_explanation()))
        self.app.push_screen(ResultScreen("Game over", body, self.auto_close))

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
        self.after_play(played)
        self.note(Text.assemble(("You played ", "bold"), self.show_move(played)))
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

    def action_rules(self) -> None:
        """Show the rules summary."""
        self.app.push_screen(RulesScreen(SUMMARIES[self.seating.kind]))

    def action_resign(self) -> None:
        """Resign, once confirmed."""
        if self.seating.seat is None or self.over is not None or self.status != "playing":
            return

        async def resign(yes: bool | None) -> None:
            if yes:
                try:
                    await self.connection.request("resign", self.seating.game)
                except ConnectionClosed:
                    return
                except ServerError as error:
                    self.note(Text(f"Resign refused: {error.message}", "red"))

        def answered(yes: bool | None) -> None:
            self.run_worker(resign(yes), group="moves")

        self.app.push_screen(ConfirmScreen("Resign the whole game?"), answered)

    def action_leave(self) -> None:
        """Leave: the message says truly what becomes of the seat."""
        game = self.seating.game
        if self.seating.seat is None:
            self.on_finished(f"Stopped watching {game}.", 0)
        elif self.over is not None:
            self.on_finished(f"Game {game} is over.", 0)
        elif self.status != "playing":
            # Before the start, leaving frees the seat (PROTOCOL.md, leave): no token to keep.
            self.forget_token()
            self.on_finished(f"You left {game} before it started: your seat is free again.", 130)
        else:
            self.on_finished(
                f"You left {game}; your seat stays reserved. "
                "Run hipparchus-play --resume to take it back.",
                130,
            )

    def on_key(self, event: events.Key) -> None:
        """Letters, digits, ``@`` and ``,`` are typed (a number or a move's notation)."""
        if event.character and event.character in TYPED and self.seating.seat is not None:
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
        self.query_one("#title", Static).update(self.title_text())
        players = len(self.seating.players) or 2
        places = dict(zip(range(players), PLACES.get(players, PLACES[2]), strict=False))
        me = self.seating.seat or 0
        by_cell = {places[(seat - me) % players]: seat for seat in range(players)}
        for cell in CELLS:
            widget = self.query_one(f"#cell-{cell}", Static)
            if cell == "c":
                widget.update(self.center())
                widget.set_class(True, "center")
            elif cell in by_cell:
                seat = by_cell[cell]
                widget.update(self.seat_panel(seat))
                widget.set_class(True, "seat")
                widget.set_class(self.is_to_move(seat), "to-move")
            else:
                widget.update("")
                widget.set_class(False, "seat")
        self.query_one("#status", Static).update(self.status_text())
        if self.seating.seat is not None:
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

    def to_move(self) -> list[int]:
        """The seats that must move now."""
        raise NotImplementedError

    def is_to_move(self, seat: int) -> bool:
        """True when ``seat`` must move now."""
        return self.over is None and seat in self.to_move()

    def status_text(self) -> Text:
        """Whose move it is: ``Your turn: ...`` or ``waiting for bob...``."""
        if self.over is not None:
            return Text("Game over. Enter or Ctrl+Q leaves.", "bold")
        if self.view is None:
            free = [s for s, name in enumerate(self.seating.players) if name in (None, "-")]
            waiting = ", ".join(f"seat {s}" for s in free) or "the start"
            text = Text(f"Waiting for players to join ({waiting})...", "italic")
            if self.join_hint:
                text.append(f"\nA bot joins with: {self.join_hint}", "dim")
            return text
        if self.my_turn:
            return self.turn_prompt()
        seats = [s for s in self.to_move() if s != self.seating.seat]
        if not seats:
            return Text("")
        names = ", ".join(self.label(s) for s in seats)
        return Text(f"waiting for {names}...", "italic yellow")

    # -- what each game provides

    def reduce(self, view: dict[str, Any] | None, kind: str, data: dict[str, Any]) -> Any:
        """The view after an event (:mod:`.follow`)."""
        raise NotImplementedError

    def explain(self, kind: str, data: dict[str, Any], before: dict[str, Any] | None) -> None:
        """Log the game's own event, explained."""
        raise NotImplementedError

    async def load_turn(self) -> None:
        """Our turn: take the view and the legal moves."""
        raise NotImplementedError

    def after_play(self, move: str) -> None:
        """Our move was accepted as ``move`` (canonical)."""

    def show_move(self, move: str) -> Text:
        """A move word as drawn."""
        return Text(move)

    def title_text(self) -> Text:
        """The top line."""
        raise NotImplementedError

    def seat_panel(self, seat: int) -> RenderableType:
        """A seat's place at the table."""
        raise NotImplementedError

    def center(self) -> RenderableType:
        """The middle of the table: the trick."""
        raise NotImplementedError

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

    def score_explanation(self) -> str:
        """How the game's scores read."""
        return ""


def seat_header(screen: GameScreen, seat: int) -> Text:
    """A seat panel's first line: the name, ``(seat n)``, and markers."""
    text = Text(screen.label(seat), "bold")
    text.append(f" (seat {seat})", "dim")
    if seat in screen.disconnected:
        text.append(" disconnected", "red")
    if screen.is_to_move(seat):
        text.append(" ◀" if screen.look.symbols else " <", "bold yellow")
    return text


class HipparchusScreen(GameScreen):
    """Hipparchus (docs/rules.md): the hand in its real order with clumps grouped, the legal
    plays, both won piles by suit, and why each trick went where it did."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.moves: list[dict[str, Any]] = []
        self.past_rounds: list[dict[str, Any]] = []

    def reduce(self, view: dict[str, Any] | None, kind: str, data: dict[str, Any]) -> Any:
        """:func:`.follow.follow_hipparchus`."""
        if view is None and kind == "round-started":
            view = {"seat": self.seating.seat}
        return follow_hipparchus(view, kind, data)

    def to_move(self) -> list[int]:
        """The one seat to play, if any."""
        seat = (self.view or {}).get("to_move")
        return [] if seat is None else [int(seat)]

    def explain(self, kind: str, data: dict[str, Any], before: dict[str, Any] | None) -> None:
        """Log Hipparchus's events: plays, tricks with their reason (H7), rounds (H10, H11)."""
        if kind == "round-started":
            leader = int(data["leader"])
            self.note(Text(f"— Round {data.get('round_number')} —", "bold"))
            self.note(f"{self.label(leader)} lead{'s' if leader != self.seating.seat else ''}")
            self.notes = []
        elif kind == "hand" and data.get("seat") == self.seating.seat:
            self.note(Text.assemble("Your hand: ", hand_text(str(data.get("hand")), self.look)))
        elif kind == "played" and data.get("seat") != self.seating.seat:
            self.note(
                Text.assemble(
                    f"{self.label(int(data['seat']))} played ",
                    self.look.played(str(data.get("play"))),
                    f" ({plural(int(data.get('hand_size') or 0), 'card')} left)",
                )
            )
        elif kind in ("trick", "no-follow"):
            trick = data.get("trick") or {}
            reason = hipparchus_trick_reason(trick, data.get("won") or [], self.label)
            head = f"Trick {data.get('number')}: "
            if trick.get("winner") is not None:
                head += f"{self.label(int(trick['winner']))} won it. "
            self.notes = [
                Text.assemble(
                    (f"Trick {data.get('number')}: ", "bold"),
                    self.label(int(trick["leader"])),
                    " led ",
                    self.look.played(str(trick.get("lead"))),
                    *(
                        (", followed by ", self.look.played(str(trick.get("follow"))))
                        if trick.get("follow")
                        else ()
                    ),
                ),
                Text(reason[0].upper() + reason[1:], "italic"),
            ]
            self.note(Text(head + reason[0].upper() + reason[1:]))
        elif kind == "round-over":
            self.round_over(data)
        elif kind == "match-over" and data.get("resigned") is not None:
            self.note(f"{self.label(int(data['resigned']))} resigned")

    def round_over(self, data: dict[str, Any]) -> None:
        """A round's end: both hands, the face-down cards, the scoring per suit (H10)."""
        self.past_rounds.append(data)
        lines = hipparchus_round_lines(data, self.label)
        for line in lines:
            self.note(line)
        table = Table(show_edge=False, box=None, padding=(0, 2))
        table.add_column("suit")
        for seat in (0, 1):
            table.add_column(f"{self.label(seat)} won", justify="right")
        for seat in (0, 1):
            table.add_column(f"{self.label(seat)} scores", justify="right")
        won = data.get("won") or [[0, 0, 0], [0, 0, 0]]
        scores = (data.get("result") or {}).get("scores") or [[0, 0, 0], [0, 0, 0]]
        for index, letter in enumerate(SUIT_LETTERS):
            table.add_row(
                Text.assemble(self.look.cards(letter), f" {HIPPARCHUS_SUITS[letter]}"),
                str(won[0][index]),
                str(won[1][index]),
                str(scores[0][index]),
                str(scores[1][index]),
            )
        revealed = data.get("revealed") or {}
        hands = revealed.get("hands") or ["-", "-"]
        parts: list[RenderableType] = [table, Text("")]
        parts += [Text(line) for line in lines]
        parts.append(Text(""))
        for seat in (0, 1):
            parts.append(
                Text.assemble(
                    f"{self.label(seat)} still held: ", hand_text(str(hands[seat]), self.look)
                )
            )
        face_down = "".join(str(card) for card in revealed.get("face_down") or [])
        parts.append(Text.assemble("Face down: ", self.look.cards(face_down)))
        wins = data.get("round_wins") or [0, 0]
        parts.append(Text(f"Round wins: {self.label(0)} {wins[0]}, {self.label(1)} {wins[1]}"))
        title = f"Round {data.get('round_number')} over"
        self.app.push_screen(ResultScreen(title, Group(*parts), self.auto_close))

    def score_explanation(self) -> str:
        """Hipparchus scores are round wins (two win the match, H12)."""
        return "Scores are round wins: the first to win two rounds wins the match (H12)."

    async def load_turn(self) -> None:
        """Our turn: the view from ``state`` and the plays from ``legal`` (with clumps)."""
        await self.refresh_view()
        self.moves = await self.connection.legal_described(self.seating.game)
        if not self.moves:
            return
        self.my_turn = True
        self.selected = min(self.selected, len(self.moves) - 1)

    def after_play(self, move: str) -> None:
        """Our hand loses the cards played (the position is in the answer only, H13)."""
        if self.view is not None and self.view.get("hand"):
            self.view["hand"] = without_play(str(self.view["hand"]), move)
        self.moves = []

    def show_move(self, move: str) -> Text:
        """``2E@5 ⊕⊕``."""
        return self.look.played(move)

    def title_text(self) -> Text:
        """Game, round, round wins, and whether the deal was fixed."""
        view = self.view or {}
        text = Text.assemble(("Hipparchus", "bold"), f"  game {self.seating.game}")
        if view:
            wins = view.get("round_wins") or [0, 0]
            text.append(f"  ·  round {view.get('round_number')}")
            text.append(
                f"  ·  round wins: {self.label(0)} {wins[0]} - {wins[1]} {self.label(1)}"
                " (two win the match)"
            )
            if view.get("fixed_deal"):
                text.append("  ·  fixed deal", "yellow")
        if self.seating.seat is None:
            text.append("  ·  watching", "italic")
        return text

    def seat_panel(self, seat: int) -> RenderableType:
        """Name, cards held, won cards by suit (public, H8)."""
        view = self.view or {}
        lines = [seat_header(self, seat)]
        if view:
            sizes = view.get("hand_sizes") or [0, 0]
            lines.append(Text(plural(int(sizes[seat]), "card") + " in hand"))
            won = (view.get("won") or [[0, 0, 0], [0, 0, 0]])[seat]
            line = Text("won ")
            for index, letter in enumerate(SUIT_LETTERS):
                line.append_text(self.look.cards(letter))
                line.append(f"{won[index]} ")
            lines.append(line)
        return Group(*lines)

    def center(self) -> RenderableType:
        """The trick in progress, or the last trick and why it was won."""
        view = self.view or {}
        if not view:
            return Text("")
        parts: list[RenderableType] = []
        lead = view.get("lead")
        tricks = view.get("tricks") or []
        if lead:
            parts.append(Text(f"Trick {len(tricks) + 1}", "bold"))
            parts.append(
                Text.assemble(self.label(int(view["leader"])), " led ", self.look.played(lead))
            )
            follower = 1 - int(view["leader"])
            parts.append(Text(f"{self.label(follower)} to follow", "italic"))
        elif view.get("result") is None:
            parts.append(Text(f"Trick {len(tricks) + 1}", "bold"))
            parts.append(Text(f"{self.label(int(view.get('leader') or 0))} to lead", "italic"))
        if self.notes:
            parts.append(Text(""))
            parts.extend(self.notes)
        return Group(*parts)

    def turn_prompt(self) -> Text:
        """What to do, with the lead to answer."""
        lead = (self.view or {}).get("lead")
        text = Text("Your turn: ", "bold green")
        if lead:
            text.append_text(Text.assemble("answer ", self.look.played(str(lead)), ". "))
        else:
            text.append("lead. ")
        text.append(
            "←/→ choose, ↑/↓ more or fewer, Enter plays; or type a play's label (b2: "
            "2 cards of clump b) or its notation (2E@5)",
            "dim",
        )
        return text

    def hand_items(self) -> list[ChoiceBar.Item]:
        """Each clump after its letter (``a`` for the leftmost, :func:`.widgets.clump_letter`:
        the legal plays' labels name it); the selected play's cards reversed, clumps with no
        legal play dimmed."""
        view = self.view or {}
        hand = str(view.get("hand") or "-")
        legal_starts = {int(move["position"]) for move in self.moves}
        chosen = self.moves[self.selected] if self.my_turn and self.moves else None
        items = []
        for index, (position, run) in enumerate(clumps(hand)):
            label = Text(f"{clump_letter(index)} ", "bold")
            cards = self.look.cards(run)
            if chosen is not None and int(chosen["position"]) == position:
                cards.stylize("reverse", 0, int(chosen["count"]))
            label.append_text(cards)
            style = "" if not self.my_turn or position in legal_starts else "dim"
            items.append(ChoiceBar.Item(label, style))
        return items

    def play_labels(self) -> list[str]:
        """Each legal play's label: its clump's letter in the hand shown, then its count
        (:func:`.widgets.play_labels`), e.g. ``c2``."""
        hand = str((self.view or {}).get("hand") or "-")
        plays = [(int(move["position"]), int(move["count"])) for move in self.moves]
        return play_labels(hand, plays)

    def move_items(self) -> list[ChoiceBar.Item]:
        """The legal plays, each labelled by the clump it takes from and its count."""
        if not self.my_turn:
            return []
        return [
            ChoiceBar.Item(
                Text.assemble((f"{label} ", "bold"), self.look.played(str(move["move"])))
            )
            for label, move in zip(self.play_labels(), self.moves, strict=True)
        ]

    def selectable(self) -> int:
        """The arrows go through the legal plays."""
        return len(self.moves)

    def selected_word(self) -> str:
        """The selected play."""
        return str(self.moves[self.selected]["move"]) if self.moves else ""

    def action_count(self, step: int) -> None:
        """Another count from the same clump (↑ more cards, ↓ fewer)."""
        if not self.my_turn or not self.moves:
            return
        current = self.moves[self.selected]
        same = [i for i, move in enumerate(self.moves) if move["position"] == current["position"]]
        at = same.index(self.selected)
        self.selected = same[(at + step) % len(same)]
        self.redraw()

    def click_hand(self, index: int) -> None:
        """A click on a clump selects its first legal play, then its next count."""
        groups = clumps(str((self.view or {}).get("hand") or "-"))
        if index >= len(groups):
            return
        position = groups[index][0]
        in_clump = [i for i, move in enumerate(self.moves) if int(move["position"]) == position]
        if not in_clump:
            count = len(groups[index][1])
            # Not legal: try it, so that the daemon says why (e.g. H5's follow rule).
            self.run_worker(self.play(f"{min(count, 3)}{groups[index][1][0]}@{position}"))
            return
        if self.selected in in_clump:
            self.selected = in_clump[(in_clump.index(self.selected) + 1) % len(in_clump)]
        else:
            self.selected = in_clump[0]

    def word_for(self, typed: str) -> str:
        """A play's label (``b2``) makes that play; a clump's letter alone makes its one
        legal play (or asks for the count); notation (``2E@5``, always starting with a digit)
        is sent as typed, so that the daemon says why if it is not legal."""
        if not typed[:1].isalpha():
            return typed
        label = typed.lower()
        labels = self.play_labels()
        if label in labels:
            return str(self.moves[labels.index(label)]["move"])
        hand = str((self.view or {}).get("hand") or "-")
        letters = [clump_letter(index) for index in range(len(clumps(hand)))]
        counts = [x for x in labels if x[0] == label[0]]
        if label[0] not in letters:
            named = f"{letters[0]} to {letters[-1]}" if letters else "none"
            self.refusal = f"no clump {label[0]}: your clumps are {named}"
        elif not counts:
            self.refusal = f"no legal play from clump {label[0]} now"
        elif len(label) == 1 and len(counts) == 1:
            return str(self.moves[labels.index(counts[0])]["move"])
        else:
            self.refusal = f"{label} is not a legal play: choose {' or '.join(counts)}"
        return ""


class PlanetsScreen(GameScreen):
    """Planets (docs/planets.md): the hand sorted, the pass (mark cards, then Enter), the
    legal cards, the shooting choice, points per seat, and why each trick went where it did."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.cards: list[str] = []  # legal cards during play
        self.pick: Pick | None = None
        self.choices: list[str] = []  # self / others
        self.marked: list[str] = []  # cards chosen to pass, in order
        self.cursor = 0

    def reduce(self, view: dict[str, Any] | None, kind: str, data: dict[str, Any]) -> Any:
        """:func:`.follow.follow_planets`."""
        if view is None and kind == "hand-started":
            view = {"seat": self.seating.seat}
        return follow_planets(view, kind, data)

    @property
    def players(self) -> int:
        """Seats at the table."""
        return len(self.seating.players)

    def to_move(self) -> list[int]:
        """The seats that must move (several during the pass)."""
        return [int(s) for s in (self.view or {}).get("to_move") or []]

    def explain(self, kind: str, data: dict[str, Any], before: dict[str, Any] | None) -> None:
        """Log planets's events: passes, plays, tricks with their reason, hands' ends."""
        seat = data.get("seat")  # may be absent: only some events have one
        if kind == "hand-started":
            self.note(Text(f"— Hand {data.get('hand_number')} —", "bold"))
            count = int(data.get("pass_count") or 0)
            passing = (
                f"pass {plural(count, 'card')} {data.get('pass_name')}" if count else "no pass"
            )
            self.note(f"{self.label(int(data['dealer']))} dealt; {passing}")
            self.notes = []
        elif kind == "hand" and seat == self.seating.seat:
            self.note(Text.assemble("Your hand: ", self.look.card_list(data.get("hand") or [])))
        elif kind == "passed":
            self.note(f"{self.label(int(data['seat']))} passed")
        elif kind == "received" and seat == self.seating.seat:
            cards = [str(card) for card in data.get("cards") or []]
            froms = [int(s) for s in data.get("from_seats") or []]
            parts: list[Text | str] = ["You received "]
            for index, card in enumerate(cards):
                if index:
                    parts.append(", ")
                parts += [self.look.card(card), f" from {self.label(froms[index])}"]
            self.note(Text.assemble(*parts))
        elif kind == "played" and seat != self.seating.seat:
            self.note(
                Text.assemble(
                    f"{self.label(int(data['seat']))} played ", self.look.card(data["card"])
                )
            )
        elif kind == "trick":
            reason = planets_trick_reason(data, self.players, self.label)
            cards = [str(card) for card in data.get("cards") or []]
            self.notes = [
                Text.assemble(
                    (f"Trick {data.get('number')}: ", "bold"),
                    self.look.card_list(cards),
                ),
                Text(reason[0].upper() + reason[1:], "italic"),
            ]
            self.note(Text(f"Trick {data.get('number')}: " + reason))
            if data.get("jupiter_broken") and not (before or {}).get("jupiter_broken"):
                self.note("Jupiter is broken: it may be led from now on (P11)")
        elif kind == "shoot-pending":
            self.note(f"{self.label(int(data['seat']))} took every point card and must choose (P8)")
        elif kind == "hand-over":
            self.hand_over(data)

    def hand_over(self, data: dict[str, Any]) -> None:
        """A hand's end: points taken, the shooting choice, the totals."""
        lines = planets_hand_over_lines(data, self.label)
        for line in lines:
            self.note(line)
        table = Table(show_edge=False, box=None, padding=(0, 2))
        for column in ("seat", "took", "added", "total"):
            table.add_column(column, justify="left" if column == "seat" else "right")
        points = data.get("points") or []
        added = data.get("added") or []
        totals = data.get("totals") or []
        for seat in range(len(points)):
            table.add_row(
                self.label(seat), str(points[seat]), f"{added[seat]:+d}", str(totals[seat])
            )
        parts: list[RenderableType] = [table]
        if data.get("shooter") is not None:
            parts += [Text(""), Text(lines[-1])]
        parts.append(Text("Points are bad: after a total passes 100, the lowest wins (P9).", "dim"))
        title = f"Hand {data.get('hand_number')} over"
        self.app.push_screen(ResultScreen(title, Group(*parts), self.auto_close))

    def score_explanation(self) -> str:
        """Planets scores are totals; the lowest wins."""
        return "Scores are the totals: the lowest wins, ties share (P9)."

    async def load_turn(self) -> None:
        """Our turn: the view, and the legal cards, the pass to choose or the shooting
        choice."""
        await self.refresh_view()
        legal = await self.connection.legal(self.seating.game)
        if not can_move(legal):  # e.g. a to-move sent before our pass was made
            return
        self.pick = legal if isinstance(legal, Pick) else None
        words = [] if isinstance(legal, Pick) else list(legal)
        self.choices = [w for w in words if w in ("self", "others")]
        self.cards = [w for w in words if w not in ("self", "others")]
        if self.pick is None and not words:
            return
        if self.pick is not None:
            self.marked = [card for card in self.marked if card in self.pick.items]
            self.cursor = min(self.cursor, max(len(self.pick.items) - 1, 0))
        self.my_turn = True
        self.selected = min(self.selected, max(self.selectable() - 1, 0))

    def after_play(self, move: str) -> None:
        """A pass is kept as ours until every seat has passed (``received`` moves it)."""
        if self.pick is not None and self.view is not None:
            self.view["my_pass"] = move.split(",")
        self.pick = None
        self.marked = []
        self.cards = []
        self.choices = []

    def show_move(self, move: str) -> Text:
        """A card in its suit's colour; a pass's cards; a choice as it is."""
        if move in ("self", "others"):
            return Text(move, "bold")
        return self.look.card_list(move.split(","))

    def title_text(self) -> Text:
        """Game, hand, pass, totals, fixed deal."""
        view = self.view or {}
        text = Text.assemble(("Planets", "bold"), f"  game {self.seating.game}")
        if view:
            text.append(f"  ·  hand {view.get('hand_number')}")
            count = int(view.get("pass_count") or 0)
            if count:
                where = PASS_WORDS.get(str(view.get("pass_name")), str(view.get("pass_name")))
                text.append(f"  ·  pass {plural(count, 'card')} {where}")
            else:
                text.append("  ·  no pass this hand")
            if view.get("jupiter_broken"):
                text.append("  ·  Jupiter broken", "bold")
            if view.get("fixed_deal"):
                text.append("  ·  fixed deal", "yellow")
        if self.seating.seat is None:
            text.append("  ·  watching", "italic")
        return text

    def seat_panel(self, seat: int) -> RenderableType:
        """Name, dealer, cards held, passed, points this hand and total, the card played."""
        view = self.view or {}
        header = seat_header(self, seat)
        if view and view.get("dealer") == seat:
            header.append(" dealer", "dim")
        lines = [header]
        if view:
            sizes = view.get("hand_sizes") or []
            held = plural(int(sizes[seat]), "card") if seat < len(sizes) else ""
            taken = (view.get("points_taken") or [0] * self.players)[seat]
            total = (view.get("totals") or [0] * self.players)[seat]
            lines.append(Text(f"{held}, {plural(int(taken), 'pt')}"))
            lines.append(Text(f"total {total}", "bold"))
            card = self.trick_card(seat)
            if view.get("phase") == "pass":
                passed = seat in (view.get("passed") or [])
                lines.append(Text("passed ✓" if passed else "choosing...", "italic"))
            elif card:
                lines.append(Text.assemble("plays ", self.look.card(card)))
        return Group(*lines)

    def trick_card(self, seat: int) -> str | None:
        """The card ``seat`` played to the trick in progress, if any."""
        trick = (self.view or {}).get("trick") or {}
        cards = trick.get("cards") or []
        if not cards:
            return None
        index = (seat - int(trick["leader"])) % self.players
        return str(cards[index]) if index < len(cards) else None

    def center(self) -> RenderableType:
        """The trick in progress (led suit, who is to play) and the last trick's reason."""
        view = self.view or {}
        if not view:
            return Text("")
        parts: list[RenderableType] = []
        trick = view.get("trick") or {}
        tricks = view.get("tricks") or []
        if view.get("phase") == "pass":
            parts.append(Text("Passing", "bold"))
            done = len(view.get("passed") or [])
            parts.append(Text(f"{done} of {self.players} have passed"))
            if view.get("my_pass"):
                parts.append(Text.assemble("you pass ", self.look.card_list(list(view["my_pass"]))))
        elif trick.get("cards"):
            led = str(trick["cards"][0])
            parts.append(Text(f"Trick {len(tricks) + 1}", "bold"))
            parts.append(
                Text.assemble(
                    f"{self.label(int(trick['leader']))} led ",
                    self.look.card(led),
                    f": follow {PLANETS_SUITS[led[0]]} if you can",
                )
            )
        elif view.get("phase") == "play":
            parts.append(Text(f"Trick {len(tricks) + 1}", "bold"))
            if not tricks:
                parts.append(Text("V1 leads the first trick", "italic"))
        if view.get("received") and not tricks and view.get("phase") == "play":
            # What the pass brought stays in sight until the first trick is done.
            parts.append(Text.assemble("you received ", self.look.card_list(view["received"])))
        if view.get("shoot_pending") is not None:
            parts.append(Text(f"{self.label(int(view['shoot_pending']))} shot the moon", "bold"))
        if self.notes:
            parts.append(Text(""))
            parts.extend(self.notes)
        return Group(*parts)

    def turn_prompt(self) -> Text:
        """What to do: pass, play or choose."""
        if self.pick is not None:
            count = self.pick.count
            targets = self.targets_text()
            text = Text(f"Pass {plural(count, 'card')} {targets}: ", "bold green")
            text.append(
                f"Space or click marks ({len(self.marked)} of {count}), Enter passes", "dim"
            )
            return text
        if self.choices:
            return Text.assemble(
                ("You took every point card! ", "bold green"),
                ("choose: self (23 off your total) or others (23 to each opponent)", "dim"),
            )
        text = Text("Your turn: play a card. ", "bold green")
        text.append("←/→ choose, Enter plays; or type the card (V7) or its number", "dim")
        return text

    def targets_text(self) -> str:
        """Where the pass goes: ``to bob`` or ``1st to bob, 2nd to carol, ...``."""
        if self.pick is None or self.pick.to is None:
            return ""
        targets = list(self.pick.to)
        if len(set(targets)) == 1:
            return f"to {self.label(targets[0])}"
        return "; ".join(
            f"{_ordinal(i + 1)} to {self.label(seat)}" for i, seat in enumerate(targets)
        )

    def hand_items(self) -> list[ChoiceBar.Item]:
        """The hand, sorted; legal cards bright, the others dim; marked cards underlined."""
        hand = sort_cards([str(card) for card in (self.view or {}).get("hand") or []])
        items = []
        for card in hand:
            label = self.look.card(card)
            if card in self.marked:
                label = Text.assemble(("+", "bold green"), label)
                label.stylize("underline")
            style = ""
            if self.my_turn and self.pick is None and self.cards and card not in self.cards:
                style = "dim"
            items.append(ChoiceBar.Item(label, style))
        return items

    def hand_list(self) -> list[str]:
        """Our hand, sorted."""
        return sort_cards([str(card) for card in (self.view or {}).get("hand") or []])

    def hand_cursor(self) -> int | None:
        """The card under the cursor (the pass) or the selected legal card (the play)."""
        if not self.my_turn:
            return None
        hand = self.hand_list()
        if self.pick is not None:
            return self.cursor if hand else None
        if self.cards and self.selected < len(self.cards):
            card = self.cards[self.selected]
            return hand.index(card) if card in hand else None
        return None

    def move_cursor(self) -> int | None:
        """During the pass the arrows move over the hand, not this row: ``[ Pass ]`` is
        reversed once enough cards are marked (Enter passes them), nothing before."""
        if self.my_turn and self.pick is not None:
            return len(self.marked) if len(self.marked) == self.pick.count else None
        return super().move_cursor()

    def move_items(self) -> list[ChoiceBar.Item]:
        """The legal cards numbered, the pass as marked with its targets, or the choice."""
        if not self.my_turn:
            return []
        if self.pick is not None:
            items = []
            to = list(self.pick.to or [])
            for index, card in enumerate(self.marked):
                target = f" → {self.label(to[index])}" if index < len(to) else ""
                items.append(ChoiceBar.Item(Text.assemble(self.look.card(card), target)))
            if len(self.marked) == self.pick.count:
                items.append(ChoiceBar.Item(Text("[ Pass ]", "bold green")))
            return items
        if self.choices:
            return [
                ChoiceBar.Item(Text(f"{n} {word}", "bold"))
                for n, word in enumerate(self.choices, start=1)
            ]
        return [
            ChoiceBar.Item(Text.assemble((f"{n} ", "dim"), self.look.card(card)))
            for n, card in enumerate(self.cards, start=1)
        ]

    def selectable(self) -> int:
        """The arrows go through the hand (pass), the choice, or the legal cards."""
        if self.pick is not None:
            return len(self.pick.items)
        return len(self.choices) or len(self.cards)

    def action_move(self, step: int) -> None:
        """During the pass the cursor goes over the whole hand."""
        if self.my_turn and self.pick is not None and self.pick.items:
            self.cursor = (self.cursor + step) % len(self.hand_list() or [0])
            self.redraw()
            return
        super().action_move(step)

    def action_mark(self) -> None:
        """Mark (or unmark) the card under the cursor to pass."""
        if self.my_turn and self.pick is not None:
            hand = self.hand_list()
            if hand:
                self.mark(hand[self.cursor % len(hand)])
                self.redraw()

    def mark(self, card: str) -> None:
        """Mark or unmark ``card`` (never more than the pass's count)."""
        assert self.pick is not None
        if card in self.marked:
            self.marked.remove(card)
        elif len(self.marked) < self.pick.count:
            self.marked.append(card)
        else:
            self.refusal = f"already {plural(self.pick.count, 'card')} marked: unmark one first"

    def action_clear(self) -> None:
        """Forget the typed text and the marks."""
        self.marked = []
        super().action_clear()

    def selected_word(self) -> str:
        """The pass (once enough are marked), the choice, or the selected card."""
        if self.pick is not None:
            if len(self.marked) != self.pick.count:
                self.refusal = (
                    f"mark {plural(self.pick.count, 'card')} to pass "
                    f"({len(self.marked)} marked so far)"
                )
                return ""
            return ",".join(self.marked)
        if self.choices:
            return self.choices[self.selected % len(self.choices)]
        return self.cards[self.selected] if self.cards else ""

    def word_for(self, typed: str) -> str:
        """A number picks from the list; during the pass a card name marks it; anything else
        goes to the daemon as typed."""
        options = self.choices or self.cards
        if typed.isdigit() and self.pick is None:
            number = int(typed)
            if 1 <= number <= len(options):
                return options[number - 1]
            self.refusal = f"no number {number}: choose 1 to {len(options)}"
            return ""
        if self.pick is not None and "," not in typed and typed.upper() in self.hand_list():
            self.mark(typed.upper())
            return ""
        return typed

    def click_hand(self, index: int) -> None:
        """A click marks a card (the pass), or selects it, then plays it (the play). A card
        that is not legal is sent anyway, so that the daemon says why."""
        hand = self.hand_list()
        if index >= len(hand):
            return
        card = hand[index]
        if self.pick is not None:
            self.cursor = index
            self.mark(card)
        elif card in self.cards:
            if self.cards.index(card) == self.selected:
                self.action_submit()
            else:
                self.selected = self.cards.index(card)
        elif not self.choices:
            self.run_worker(self.play(card), group="moves")

    def click_move(self, index: int) -> None:
        """The pass's ``[ Pass ]`` item passes; a marked card unmarks."""
        if self.pick is not None:
            if index < len(self.marked):
                self.marked.pop(index)
            else:
                self.action_submit()
            return
        super().click_move(index)


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


SCREENS: dict[str, type[GameScreen]] = {
    "hipparchus": HipparchusScreen,
    "planets": PlanetsScreen,
}
"""The screen of each game kind."""
