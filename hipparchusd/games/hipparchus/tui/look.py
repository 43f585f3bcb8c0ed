"""How Hipparchus looks at a terminal (docs/rules.md): each suit's sign and colour, a hand in
its real order with its clumps (RULINGS H1, H2), and the letters that label the clumps."""

from __future__ import annotations

import attrs
from rich.text import Text

from ....play.widgets import Look

SYMBOLS = {"S": "☉", "M": "☽", "E": "⊕"}
STYLES = {"S": "bold yellow", "M": "bold cyan", "E": "bold green"}


@attrs.frozen
class HipparchusLook(Look):
    """Hipparchus cards drawn as suit signs (``☉ ☽ ⊕``) or, without ``symbols``, as their
    letters (``S M E``), each in its suit's colour."""

    def suit(self, letter: str) -> str:
        """One card of suit ``letter`` as drawn."""
        return SYMBOLS[letter] if self.symbols else letter

    def cards(self, letters: str) -> Text:
        """A run of cards (``"SSM"``), each coloured by suit."""
        text = Text()
        for letter in letters:
            text.append(self.suit(letter), STYLES.get(letter, ""))
        return text

    def played(self, notation: str) -> Text:
        """A play (``2E@5``) or its public form (``2E``), then its cards."""
        text = Text(notation)
        cards = notation.split("@")[0]
        if len(cards) >= 2 and cards[:-1].isdigit() and cards[-1].upper() in "SME":
            text.append(" ")
            text.append_text(self.cards(cards[-1].upper() * int(cards[:-1])))
        return text


def clumps(hand: str) -> list[tuple[int, str]]:
    """A hand (``"SSMEEE"``) as its clumps (RULINGS H2: maximal runs of one suit),
    ``(position of the first card, 1-based; the cards)``, in hand order (H1)."""
    groups: list[tuple[int, str]] = []
    for index, letter in enumerate(hand if hand != "-" else "", start=1):
        if groups and groups[-1][1][-1] == letter:
            position, run = groups[-1]
            groups[-1] = (position, run + letter)
        else:
            groups.append((index, letter))
    return groups


#: The letters that name a hand's clumps, left to right (a hand of 14 has at most 14 clumps).
CLUMP_LETTERS = "abcdefghijklmn"


def clump_letter(index: int) -> str:
    """The letter of the ``index``-th clump (from 0) of the hand as shown: ``a``, ``b``...

    Raises:
        ValueError: ``index`` is not 0 to 13 (a hand holds at most 14 cards, RULINGS H1).
    """
    if not 0 <= index < len(CLUMP_LETTERS):
        raise ValueError(f"no clump {index}: a hand has at most {len(CLUMP_LETTERS)} clumps")
    return CLUMP_LETTERS[index]


def play_labels(hand: str, plays: list[tuple[int, int]]) -> list[str]:
    """The label of each play ``(position of its clump's first card, count)`` of ``hand``:
    the letter of its clump as the hand is shown, then the count (``c2``: two cards of clump
    ``c``). A label says which clump above it a play takes from, so it never depends on the
    order or the number of the legal plays listed.

    Raises:
        ValueError: a position that does not start a clump of ``hand``.
    """
    letters = {position: clump_letter(index) for index, (position, _) in enumerate(clumps(hand))}
    labels = []
    for position, count in plays:
        if position not in letters:
            raise ValueError(f"no clump starts at position {position} of {hand}")
        labels.append(f"{letters[position]}{count}")
    return labels


def hand_text(hand: str, look: HipparchusLook) -> Text:
    """A hand in its real order, each clump after the position of its first card (the
    position a play names): ``1 ☉☉  3 ☽  4 ⊕⊕⊕``; ``(empty)`` for no cards."""
    groups = clumps(hand or "-")
    if not groups:
        return Text("(empty)")
    text = Text()
    for index, (position, run) in enumerate(groups):
        if index:
            text.append("  ")
        text.append(f"{position} ", "dim")
        text.append_text(look.cards(run))
    return text
