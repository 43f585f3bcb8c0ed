"""A seat's panel fitted to its box (hipparchusd/play/table.py, ``Panel``): each line in the
fullest form that fits the width, never wrapped past the box; the lines of lowest rank kept
when the box has fewer rows; a name cut in its middle (its end tells seats apart), keeping its
markers; a box of one row drawn with ``single``."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from hipparchusd.play.table import Line, Panel, header_line

NAME = "bot-ismcts-2"


def drawn(panel: Panel, width: int, height: int | None) -> list[str]:
    """The rows ``panel`` draws in a box ``width`` cells wide and ``height`` rows high, each
    stripped (no height: as many rows as it needs)."""
    console = Console(width=width, file=open("/dev/null", "w"))  # noqa: SIM115
    options = console.options.update(width=width, height=height)
    lines = console.render_lines(panel, options, pad=False)
    return ["".join(segment.text for segment in line).rstrip() for line in lines]


def panel(single: bool = False) -> Panel:
    """A planets-like panel: the name, the cards held and points, the total, the card."""
    header = header_line(Text(f"{NAME} (seat 2) ◀"), Text(f"{NAME} ◀"), NAME, Text(" dealer"))
    held = Line((Text("11 cards, 7 pts"), Text("11c 7 pts"), Text("7 pts")), rank=3)
    total = Line((Text("total 126"), Text("tot 126"), Text("126")), rank=1)
    card = Line((Text("plays ♂5"), Text("♂5")), rank=2)
    one = Line((Text(f"{NAME} ◀  tot 126"),), head=len(NAME))
    return Panel([header, held, total, card], one if single else None)


def test_a_large_box_draws_every_line_in_full() -> None:
    assert drawn(panel(), 40, 6)[:4] == [
        f"{NAME} (seat 2) ◀ dealer",
        "11 cards, 7 pts",
        "total 126",
        "plays ♂5",
    ]
    assert drawn(panel(), 40, None) == drawn(panel(), 40, 4)


def test_a_narrow_box_takes_the_shorter_forms_and_never_wraps_a_number_away() -> None:
    # 7 cells, the inside of a side box at 80 columns: "total 126" would wrap "126" below.
    rows = drawn(panel(), 7, 8)
    assert rows[:5] == ["bot-ism", "cts-2 ◀", "7 pts", "tot 126", "♂5"]  # the name wrapped
    assert all(len(row) <= 7 for row in rows)


def test_a_short_box_keeps_the_lines_of_lowest_rank_in_their_order() -> None:
    assert drawn(panel(), 21, 3) == [f"{NAME} ◀ dealer", "total 126", "plays ♂5"]
    assert drawn(panel(), 21, 2) == [f"{NAME} ◀ dealer", "total 126"]
    assert drawn(panel(), 21, 1) == [f"{NAME} ◀ dealer"]
    assert drawn(panel(), 18, 2) == [f"{NAME} ◀", "total 126"]  # no room for " dealer"


def test_a_name_too_long_is_cut_in_its_middle_keeping_its_end_and_markers() -> None:
    rows = drawn(panel(), 9, 2)
    assert rows == ["bot…s-2 ◀", "total 126"]


def test_a_box_of_one_row_draws_the_single_line() -> None:
    assert drawn(panel(single=True), 18, 1) == ["bot…s-2 ◀  tot 126"]
    assert drawn(panel(single=True), 40, 1) == [f"{NAME} ◀  tot 126"]
