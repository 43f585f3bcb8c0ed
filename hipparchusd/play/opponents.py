"""Computer opponents: the daemon's engine seated with ``bot <game> level=<level>``
(PROTOCOL.md section 9), at a level the daemon offers for the game's kind (``kinds`` lists
them, weakest first), never a list of this client's own.

:func:`check_levels` checks ``--bot`` against that list before anything is created;
:class:`LevelScreen` lets a player choose a level at a table waiting for players (``b``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option


def check_levels(wanted: Sequence[str], offered: Sequence[str] | None, kind: str) -> None:
    """Check the levels asked for (``--bot``: ``heuristic``, ``ismcts:200ms``) against those
    the server offers for ``kind``: each must name one of them; a budget after ``:`` is the
    server's to judge (it answers ``bad-option`` or ``limit``), as is every level when the
    server did not say which it offers (``offered`` is ``None``: an older server).

    Raises:
        ValueError: the server's engine plays no ``kind``, or a level it does not offer, saying
            which it does.
    """
    if offered is None:
        return
    if wanted and not offered:
        raise ValueError(f"this server has no computer opponent for {kind}")
    for level in wanted:
        name = level.partition(":")[0]
        if name not in offered:
            raise ValueError(
                f"--bot {level[:40]!r}: not a level this server offers for {kind} "
                f"(it offers {', '.join(offered)}, weakest first)"
            )


def seat_range(seats: str) -> tuple[int, int]:
    """The fewest and most seats of a kind, from ``kinds``' ``seats`` (``2`` or ``3-6``).

    Raises:
        ValueError: neither a number nor a range of numbers.
    """
    low, _, high = seats.partition("-")
    try:
        return int(low), int(high or low)
    except ValueError:
        raise ValueError(f"the server's seats {seats[:20]!r} are not a number or range") from None


class LevelScreen(ModalScreen[str | None]):
    """Choose the level of a computer opponent, among ``levels`` (the server's, weakest
    first), the cursor on ``chosen`` at first: Enter (or a click, or its number) seats it,
    Escape does not. Dismissed with the level word, or ``None``."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "cancel")]

    def __init__(self, levels: Sequence[str], chosen: str | None = None) -> None:
        super().__init__()
        self.levels = list(levels)
        self.chosen = chosen if chosen in self.levels else self.levels[-1]

    def compose(self) -> ComposeResult:
        """The question, the levels numbered, and the keys."""
        with Vertical(id="dialog"):
            yield Static(Text("Add a computer opponent: which level?", "bold"), id="dialog-title")
            yield OptionList(
                *(
                    Option(Text.assemble((f"{number} ", "dim"), level), id=level)
                    for number, level in enumerate(self.levels, start=1)
                ),
                id="levels",
            )
            yield Static("[dim]weakest first · Enter or its number seats it · Esc: no opponent[/]")

    def on_mount(self) -> None:
        """The cursor on the level chosen last (the strongest at first)."""
        options = self.query_one("#levels", OptionList)
        options.highlighted = self.levels.index(self.chosen)
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter or a click on a level."""
        self.dismiss(event.option.id)

    def on_key(self, event: events.Key) -> None:
        """A level's number chooses it."""
        character = event.character
        if character and character.isdigit() and 1 <= int(character) <= len(self.levels):
            event.stop()
            self.dismiss(self.levels[int(character) - 1])

    def action_cancel(self) -> None:
        """No opponent."""
        self.dismiss(None)
