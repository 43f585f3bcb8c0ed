"""The screen for a game that has none of its own: :class:`GenericScreen` plays any kind the
daemon serves through the protocol's generic contract alone (PROTOCOL.md: ``to-move``,
``legal`` as a list of moves or a ``pick``, ``play``, ``game-over``), as
clients/python/bot.py does, knowing nothing of the game's rules.

It shows the seats and whose move it is, the seat's view as the daemon sends it (a tree of its
JSON, taken from ``state`` after events, before the screen is drawn, since it cannot follow a
view it does not understand), the legal moves to choose from or a pick's items to mark, every
event in the log with its fields, and the result.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from rich.tree import Tree
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from ..client import ConnectionClosed, Event, Pick, ServerError, can_move
from .game_screen import GameScreen, seat_header
from .phrases import plural
from .widgets import ChoiceBar

#: Fields of a game's events that hold a seat number, shown as the seat's name as well: the
#: generic events' ``seat`` (PROTOCOL.md), and the names games give the seats their events
#: are about.
SEAT_FIELDS = frozenset({"seat", "winner", "leader", "dealer", "shooter", "resigned"})

#: The generic events (PROTOCOL.md), which the shared screen explains itself.
GENERIC_EVENTS = frozenset({"joined", "left", "disconnected", "resumed", "to-move", "game-over"})


def json_text(value: Any) -> str:
    """A JSON scalar, or a list of scalars, in one short line: ``true``, ``null``, ``3, 7, 5``
    (``[]`` for an empty list)."""
    if isinstance(value, list):
        return ", ".join(json_text(item) for item in value) if value else "[]"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _is_scalar(value: Any) -> bool:
    return not isinstance(value, dict | list)


def json_tree(label: str, value: Any) -> Tree:
    """``value`` (JSON data) as a tree under ``label``: an object's keys as branches, a list's
    items numbered from 0, and a scalar or a list of scalars on its key's line
    (``wins: 0, 1, 0``)."""
    tree = Tree(Text(label, "bold"), guide_style="dim")
    _grow(tree, value)
    return tree


def _grow(tree: Tree, value: Any) -> None:
    items: list[tuple[str, Any]]
    if isinstance(value, dict):
        items = [(str(key), item) for key, item in value.items()]
    elif isinstance(value, list):
        items = [(f"[{index}]", item) for index, item in enumerate(value)]
    else:
        tree.add(json_text(value))
        return
    for key, item in items:
        if _is_scalar(item) or (isinstance(item, list) and all(map(_is_scalar, item))):
            tree.add(Text.assemble((key, "cyan"), f": {json_text(item)}"))
        else:
            _grow(tree.add(Text(key, "cyan")), item)


class GenericScreen(GameScreen):
    """Any game through the generic contract: a list of legal moves (numbered; arrows and
    Enter, a number, or the move typed) or a pick (Space or a click marks an item, Enter plays
    the items marked; a pick of one plays the item chosen)."""

    KEYS = (
        "Arrows choose, Enter plays; or type the move (or its number in the list). When the "
        "game asks you to pick several items, Space or a click marks one, and Enter plays "
        "those marked. Ctrl+R resigns, Ctrl+K claims the game over an absent opponent, Ctrl+Q "
        "leaves."
    )
    SHOWS_HAND = False
    DEFAULT_CSS = """
    #generic-table { height: 1fr; }
    #seats { height: auto; margin: 0 0 1 0; }
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.moves: list[str] = []  # the legal moves listed, at our turn
        self.pick: Pick | None = None  # or the pick to make
        self.marked: list[str] = []  # the pick's items marked, in order
        self.waiting_for: list[int] = []  # the seats of the last to-move
        self.stale = False  # events came that the view shown does not hold

    # -- following the game

    def paced(self, kind: str) -> bool:
        """Every event of the game's own is one a person watches."""
        return kind not in GENERIC_EVENTS

    async def handle(self, event: Event, order: int) -> None:
        """As every screen does, and keep whose move it is from ``to-move``."""
        if event.kind == "to-move":
            self.waiting_for = [int(seat) for seat in event.data.get("seats") or []]
        elif event.kind == "game-over":
            self.waiting_for = []
        await super().handle(event, order)

    def reduce(self, view: dict[str, Any] | None, kind: str, data: dict[str, Any]) -> Any:
        """The view unchanged: this screen cannot follow it (:meth:`before_drawing` asks again)."""
        return view

    def to_move(self) -> list[int]:
        """The seats of the last ``to-move``."""
        return self.waiting_for

    def explain(self, kind: str, data: dict[str, Any], before: dict[str, Any] | None) -> None:
        """Log a game event as its name and fields (a seat's field with its name too)."""
        self.stale = True
        line = Text(kind, "bold")
        for key, value in data.items():
            shown = json_text(value) if _is_scalar(value) or isinstance(value, list) else "..."
            if key in SEAT_FIELDS and isinstance(value, int) and not isinstance(value, bool):
                shown = f"{value} ({self.label(value)})"
            line.append(f"  {key}=", "dim")
            line.append(shown)
        self.note(line)

    async def before_drawing(self) -> None:
        """Take the view from ``state`` when events came since it was taken."""
        if not self.stale:
            return
        try:
            await self.refresh_view()
        except (ConnectionClosed, ServerError):
            return  # the application is closing, or the game is gone: the last view stays
        self.stale = False

    async def load_turn(self) -> None:
        """Our turn: the view, and ``legal``'s moves or pick. A move of ours accepted
        meanwhile makes both out of date, and the ``to-move`` it led to may already have been
        read: they are asked for again, as the game stands after it."""
        made = self.moves_made
        await self.refresh_view()
        self.stale = False
        legal = await self.connection.legal(self.seating.game)
        if self.moves_made != made:
            await self.load_turn()
            return
        if not can_move(legal):
            return
        self.pick = legal if isinstance(legal, Pick) else None
        self.moves = [] if isinstance(legal, Pick) else list(legal)
        # Another seat's move made at once sends a to-move again: the marks made stay.
        items = self.pick.items if self.pick is not None else ()
        self.marked = [item for item in self.marked if item in items]
        self.my_turn = True
        self.selected = min(self.selected, max(self.selectable() - 1, 0))

    def after_play(self, move: str) -> None:
        """Our move was made: nothing to choose until our next turn."""
        self.moves, self.pick, self.marked = [], None, []

    # -- drawing

    def compose_table(self) -> ComposeResult:
        """The seats, then the view's tree, scrolling when it is long."""
        with VerticalScroll(id="generic-table"):
            yield Static(id="seats")
            yield Static(id="view")

    def draw_table(self) -> None:
        """The seats in a row, the view below."""
        seats = Table.grid(padding=(0, 3))
        players = len(self.seating.players)
        for _ in range(players):
            seats.add_column()
        seats.add_row(*(self.seat_panel(seat) for seat in range(players)))
        self.query_one("#seats", Static).update(seats)
        self.query_one("#view", Static).update(self.center())

    def title_text(self) -> Text:
        """The kind, the game, and whether we watch."""
        text = Text.assemble((self.seating.kind, "bold"), f"  game {self.seating.game}")
        text.append(f"  ·  {plural(len(self.seating.players), 'seat')}")
        if self.seating.seat is None:
            text.append("  ·  watching", "italic")
        return text

    def seat_panel(self, seat: int) -> RenderableType:
        """The seat's name, number and markers (to move, disconnected)."""
        return seat_header(self, seat)

    def center(self) -> RenderableType:
        """The view as the daemon sent it, as a tree."""
        if self.view is None:
            return Text("")
        title = "Your view" if self.seating.seat is not None else "The spectators' view"
        return Group(json_tree(title, self.view))

    def turn_prompt(self) -> Text:
        """What to do: choose a move, or pick items (and where they go)."""
        if self.pick is not None:
            count = self.pick.count
            text = Text(f"Your move: choose {plural(count, 'item')}", "bold green")
            if self.pick.to is not None:
                text.append(" for " + ", ".join(self.label(seat) for seat in self.pick.to))
            text.append(": ", "bold green")
            if count == 1:
                text.append("←/→ choose, Enter plays; or type it", "dim")
            else:
                text.append(
                    f"←/→ and Space or a click mark ({len(self.marked)} of {count}), Enter plays",
                    "dim",
                )
            return text
        text = Text("Your move: ", "bold green")
        text.append("←/→ choose, Enter plays; or type the move or its number", "dim")
        return text

    def move_items(self) -> list[ChoiceBar.Item]:
        """The legal moves numbered, or the pick's items (marked ones with ``+``, then the
        seat each goes to) and ``[ Play ]`` once enough are marked."""
        if not self.my_turn:
            return []
        if self.pick is None:
            return [
                ChoiceBar.Item(Text.assemble((f"{n} ", "dim"), (word, "bold")))
                for n, word in enumerate(self.moves, start=1)
            ]
        items = []
        to = list(self.pick.to or [])
        for item in self.pick.items:
            label = Text(item, "bold")
            if item in self.marked:
                at = self.marked.index(item)
                target = f" → {self.label(to[at])}" if at < len(to) else ""
                label = Text.assemble(("+", "bold green"), label, target)
                label.stylize("underline")
            items.append(ChoiceBar.Item(label))
        if self.pick.count > 1 and len(self.marked) == self.pick.count:
            items.append(ChoiceBar.Item(Text("[ Play ]", "bold green")))
        return items

    def selectable(self) -> int:
        """The arrows go through the moves, or the pick's items."""
        return len(self.pick.items) if self.pick is not None else len(self.moves)

    def action_mark(self) -> None:
        """Mark (or unmark) the pick's item under the cursor."""
        if self.my_turn and self.pick is not None and self.pick.items:
            self.mark(self.pick.items[self.selected % len(self.pick.items)])
            self.redraw()

    def mark(self, item: str) -> None:
        """Mark or unmark ``item`` (never more than the pick's count)."""
        assert self.pick is not None
        if item in self.marked:
            self.marked.remove(item)
        elif len(self.marked) < self.pick.count:
            self.marked.append(item)
        else:
            self.refusal = f"already {plural(self.pick.count, 'item')} marked: unmark one first"

    def action_clear(self) -> None:
        """Forget the typed text and the marks."""
        self.marked = []
        super().action_clear()

    def selected_word(self) -> str:
        """The move selected; for a pick, the items marked (or, for a pick of one, the item
        selected)."""
        if self.pick is None:
            return self.moves[self.selected] if self.moves else ""
        if len(self.marked) == self.pick.count:
            return self.pick.move(self.marked)
        if self.pick.count == 1 and not self.marked:
            return self.pick.items[self.selected % len(self.pick.items)]
        self.refusal = (
            f"mark {plural(self.pick.count, 'item')} to play ({len(self.marked)} marked so far)"
        )
        return ""

    def word_for(self, typed: str) -> str:
        """A legal move as typed; a number that is not a move picks from the list; anything
        else goes to the daemon as typed, so that it says why it is not legal."""
        if self.pick is None and typed not in self.moves and typed.isdigit():
            number = int(typed)
            if 1 <= number <= len(self.moves):
                return self.moves[number - 1]
            self.refusal = f"no move {number}: choose 1 to {len(self.moves)}"
            return ""
        return typed

    def click_move(self, index: int) -> None:
        """A pick's item: a click marks or unmarks it (a pick of one: selects, then plays);
        ``[ Play ]`` plays. A listed move: select, then play."""
        if self.pick is None or self.pick.count == 1:
            super().click_move(index)
        elif index < len(self.pick.items):
            self.selected = index
            self.mark(self.pick.items[index])
        else:
            self.action_submit()
