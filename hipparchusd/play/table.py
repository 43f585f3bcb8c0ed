"""The table of a game screen: a 3x3 grid with each seat's panel in its place around the trick
in the middle, the viewer at the bottom and the next seat on the left (RULINGS P15), whatever
the number of seats; the first line every seat panel shares; and :class:`Panel`, a seat's
lines fitted to its box, however small the terminal (a side box at 80x24 is 7 cells wide)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

import attrs
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement
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


def seat_line(
    name: str,
    seat: int,
    *,
    disconnected: bool,
    to_move: bool,
    symbols: bool,
    numbered: bool = True,
) -> Text:
    """A seat panel's first line: the ``name``, ``(seat n)`` (unless not ``numbered``), and
    its markers."""
    text = Text(name, "bold")
    if numbered:
        text.append(f" (seat {seat})", "dim")
    if disconnected:
        text.append(" disconnected", "red")
    if to_move:
        text.append(" ◀" if symbols else " <", "bold yellow")
    return text


@attrs.frozen
class Line:
    """One line of a :class:`Panel`: its ``forms``, the fullest first (``total 26``, then
    ``tot 26``, then ``26``), and its ``rank`` among the panel's lines (0 is kept first when
    the box has fewer rows than the panel has lines). When no form fits the width, the last
    one is wrapped over several rows if it may ``wrap`` and the box has rows to spare, else
    cut with an ellipsis: in the middle of its first ``head`` cells when ``head`` is set (a
    name, whose end tells ``bot-ismcts-2`` from ``bot-ismcts-3``: ``bot…s-2``, keeping the
    markers after it), else at its end."""

    forms: tuple[Text, ...]
    rank: int = 0
    head: int = 0
    wrap: bool = False

    def fits(self, width: int) -> bool:
        """Whether some form is at most ``width`` cells wide."""
        return any(form.cell_len <= width for form in self.forms)

    def fitted(self, width: int) -> Text:
        """The fullest form at most ``width`` cells wide, or the last one cut to ``width``."""
        for form in self.forms:
            if form.cell_len <= width:
                return form.copy()
        last = self.forms[-1]
        if 0 < self.head <= len(last.plain):
            head, tail = last[: self.head], last[self.head :]
            room = max(width - tail.cell_len, 1)
            if head.cell_len > room:
                start = room // 2
                end = room - 1 - start
                head = Text.assemble(
                    head[:start], ("…", head.style), head[len(head) - end :] if end else ""
                )
            last = Text.assemble(head, tail)
        cut = last.copy()
        cut.truncate(width, overflow="ellipsis")
        return cut


def header_line(numbered: Text, bare: Text, name: str, extra: Text | None = None) -> Line:
    """A seat panel's first line, kept first (rank 0): ``numbered`` (``bob (seat 1) ◀``) and
    ``extra`` after it (`` dealer``), then ``bare`` (``bob ◀``, the same without the seat's
    number) with ``extra``, then ``bare`` alone, wrapped when the box has rows to spare, else
    its ``name`` cut in the middle (``bot…s-2 ◀``)."""
    extra = extra or Text("")
    forms = (Text.assemble(numbered, extra), Text.assemble(bare, extra), bare)
    return Line(forms, rank=0, head=len(name), wrap=True)


@attrs.frozen
class Panel:
    """A seat's panel drawn to fit its box (a rich renderable): each :class:`Line` in the
    fullest of its forms that fits the width, never wrapped, and when the box has fewer rows
    than there are lines, the lines of lowest rank, in their order. In a box large enough it
    draws each line's first form, one per row; in a box of one row, ``single`` if given."""

    lines: Sequence[Line]
    #: What a box of a single row shows instead of the first line alone (the name and the
    #: total: ``bob ◀ tot 26``), if anything.
    single: Line | None = None

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """The lines fitted to ``options``' width and height (no height: every line)."""
        width = max(options.max_width, 1)
        rows = options.height if options.height is not None else len(self.lines)
        if rows <= 1 < len(self.lines) and self.single is not None:
            yield self.single.fitted(width)
            return
        kept = sorted(range(len(self.lines)), key=lambda index: self.lines[index].rank)
        shown = sorted(kept[: max(rows, 1)])
        spare = rows - len(shown)
        drawn: dict[int, list[Text]] = {}
        for index in kept[: len(shown)]:
            line = self.lines[index]
            drawn[index] = [line.fitted(width)]
            if line.wrap and spare > 0 and not line.fits(width):
                wrapped = list(line.forms[-1].wrap(console, width))
                if len(wrapped) - 1 <= spare:
                    spare -= len(wrapped) - 1
                    drawn[index] = wrapped
        for index in shown:
            for text in drawn[index]:
                text.no_wrap = True
                text.end = "\n"
                yield text

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        """At least the widest last form's width (cut below it), at most the widest first's."""
        widest = max((line.forms[0].cell_len for line in self.lines), default=0)
        narrowest = max((line.forms[-1].cell_len for line in self.lines), default=0)
        return Measurement(min(narrowest, widest), widest).clamp(max_width=options.max_width)
