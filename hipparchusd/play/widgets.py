"""The shared parts of every game screen: whether the terminal draws symbols, a clickable row of
choices, and the modal screens (rules, results, a yes/no question)."""

from __future__ import annotations

from typing import ClassVar

import attrs
from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Markdown, Static


@attrs.frozen
class Look:
    """How the terminal draws: with ``symbols`` (Unicode signs, e.g. a suit's) or in plain
    letters (``--ascii``, or a terminal that is not UTF-8). Each game's look
    (``games/<kind>/tui/look.py``) adds how its cards are drawn."""

    symbols: bool = True


class ChoiceBar(Widget):
    """A row of items that wraps to the width, each clickable; one may be ``selected``
    (drawn reversed). A click posts :class:`ChoiceBar.Clicked` with the item's index."""

    DEFAULT_CSS = """
    ChoiceBar { height: auto; }
    """

    @attrs.frozen
    class Item:
        """One item: its text, and the style added to all of it."""

        label: Text
        style: str = ""

    class Clicked(Message):
        """An item was clicked."""

        def __init__(self, bar: ChoiceBar, index: int) -> None:
            super().__init__()
            self.bar = bar
            self.index = index

    def __init__(self, *, id: str | None = None, gap: int = 2) -> None:
        super().__init__(id=id)
        self.items: list[ChoiceBar.Item] = []
        self.selected: int | None = None
        self.gap = gap
        self.empty = Text("")
        self._spots: list[tuple[int, int, int, int]] = []  # (line, first x, past x, index)

    def show(
        self, items: list[ChoiceBar.Item], selected: int | None = None, empty: Text | None = None
    ) -> None:
        """Show ``items`` with ``selected`` reversed (``empty`` when there is none)."""
        self.items = items
        self.selected = selected
        self.empty = empty or Text("")
        self.refresh(layout=True)

    def _lines(self, width: int) -> list[Text]:
        lines: list[Text] = [Text()]
        self._spots = []
        x = 0
        for index, item in enumerate(self.items):
            label = item.label.copy()
            if item.style:
                label.stylize(item.style)
            if index == self.selected:
                label.stylize("reverse")
            size = label.cell_len
            if x and x + self.gap + size > width:
                lines.append(Text())
                x = 0
            if x:
                lines[-1].append(" " * self.gap)
                x += self.gap
            self._spots.append((len(lines) - 1, x, x + size, index))
            lines[-1].append_text(label)
            x += size
        return lines

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        """As many lines as the items need at ``width`` (at least one)."""
        return max(1, len(self._lines(max(width, 1)))) if self.items else 1

    def render(self) -> RenderableType:
        """The items, wrapped between items (never inside one)."""
        if not self.items:
            return self.empty
        return Text("\n").join(self._lines(max(self.size.width, 1)))

    def on_click(self, event: events.Click) -> None:
        """Post :class:`Clicked` for the item under the pointer."""
        for line, first, past, index in self._spots:
            if event.y == line and first <= event.x < past:
                self.post_message(self.Clicked(self, index))
                return


class RulesScreen(ModalScreen[None]):
    """The rules summary of a game kind (``?``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "close"),
        Binding("question_mark", "dismiss", "close"),
        Binding("enter", "dismiss", "close"),
    ]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        """A scrollable Markdown panel."""
        with Vertical(id="dialog", classes="rules"):
            yield Markdown(self.text)
            yield Static("[dim]Esc, Enter or ? to close[/]")

    def on_click(self) -> None:
        """Any click closes it."""
        self.dismiss(None)


class ResultScreen(ModalScreen[None]):
    """A result to read (a round's or hand's end, the game's end): any key or click closes
    it; with ``close_after`` seconds it also closes by itself (a spectator's watch goes on)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "close"),
        Binding("enter", "dismiss", "close"),
        Binding("space", "dismiss", "close"),
    ]

    def __init__(self, title: str, body: RenderableType, close_after: float | None = None) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.close_after = close_after

    def compose(self) -> ComposeResult:
        """The title, the body, and how to go on."""
        with Vertical(id="dialog"):
            yield Static(Text(self.title_text, "bold"), id="dialog-title")
            yield Static(self.body)
            yield Static("[dim]Enter to go on[/]")

    def on_mount(self) -> None:
        """Close by itself after ``close_after`` seconds, if given."""
        if self.close_after is not None:
            self.set_timer(self.close_after, self._expire)

    def _expire(self) -> None:
        if self.is_current:
            self.dismiss(None)

    def on_click(self) -> None:
        """Any click closes it."""
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question: ``y`` (or Enter) answers yes, ``n`` or Escape no."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "yes"),
        Binding("enter", "answer(True)", "yes"),
        Binding("n", "answer(False)", "no"),
        Binding("escape", "answer(False)", "no"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        """The question and the keys."""
        with Vertical(id="dialog"):
            yield Static(Text(self.question, "bold"))
            yield Static("[dim]y / Enter: yes    n / Esc: no[/]")

    def action_answer(self, yes: bool) -> None:
        """Close with the answer."""
        self.dismiss(yes)
