"""The table of a game screen: a 3x3 grid with each seat's panel in its place around the trick
in the middle, the viewer at the bottom and the next seat on the left (RULINGS P15), whatever
the number of seats; and the first line every seat panel shares."""

from __future__ import annotations

from collections.abc import Callable, Collection

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Grid
from textual.widgets import Static

#: Where each seat sits, by its place clockwise from the viewer (0 = the viewer, at the
#: bottom; left = the next seat, RULINGS P15), for each table size.
PLACES = {
    2: ("b", "t"),
    3: ("b", "l", "r"),
    4: ("b", "l", "t", "r"),
    5: ("b", "l", "tl", "tr", "r"),
    6: ("b", "l", "tl", "t", "tr", "r"),
}
CELLS = ("tl", "t", "tr", "l", "c", "r", "bl", "b", "br")


def seat_cells(players: int, me: int) -> dict[str, int]:
    """The seat in each cell used (``"b"``: the viewer's seat ``me``) at a table of
    ``players`` seats (a size with no layout of its own is drawn as two seats)."""
    places = dict(zip(range(players), PLACES.get(players, PLACES[2]), strict=False))
    return {
        places[(seat - me) % players]: seat
        for seat in range(players)
        if (seat - me) % players in places
    }


class SeatTable(Grid):
    """The grid of :data:`CELLS`; :meth:`show` draws it."""

    def compose(self) -> ComposeResult:
        """Nine cells, empty."""
        for cell in CELLS:
            yield Static(id=f"cell-{cell}", classes="cell")

    def show(
        self,
        players: int,
        me: int,
        panel: Callable[[int], RenderableType],
        center: RenderableType,
        to_move: Collection[int],
    ) -> None:
        """Each seat's ``panel(seat)`` in its place (:func:`seat_cells`), framed heavier for
        the seats ``to_move``, and ``center`` (the trick) in the middle."""
        by_cell = seat_cells(players, me)
        for cell in CELLS:
            widget = self.query_one(f"#cell-{cell}", Static)
            if cell == "c":
                widget.update(center)
                widget.set_class(True, "center")
            elif cell in by_cell:
                seat = by_cell[cell]
                widget.update(panel(seat))
                widget.set_class(True, "seat")
                widget.set_class(seat in to_move, "to-move")
            else:
                widget.update("")
                widget.set_class(False, "seat")


def seat_line(name: str, seat: int, *, disconnected: bool, to_move: bool, symbols: bool) -> Text:
    """A seat panel's first line: the ``name``, ``(seat n)``, and its markers."""
    text = Text(name, "bold")
    text.append(f" (seat {seat})", "dim")
    if disconnected:
        text.append(" disconnected", "red")
    if to_move:
        text.append(" ◀" if symbols else " <", "bold yellow")
    return text
