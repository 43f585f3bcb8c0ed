"""How planets looks at a terminal (docs/planets.md): each card's suit as its planet's sign, in
the suit's colour, and its rank; as plain letters with ``--ascii``.

The notation writes a suit and a rank with the same letters (``S`` is Saturn or Sun, ``M``
Mars or Moon: ``SM`` is the Saturn Moon, ``MS`` the Mars Sun), so the two are never drawn
alike: the suit is its sign (``♄``), or its capital with ``--ascii``, and a face rank is a small
letter (``♄m``, ``Sm``; input takes either case, so what is shown can be typed).
"""

from __future__ import annotations

import attrs
from rich.text import Text

from ....play.widgets import Look
from .follow import PLANETS_SUITS, RANK_NAMES

#: Each suit's astronomical sign.
SYMBOLS = {"E": "⊕", "J": "♃", "M": "♂", "N": "♆", "S": "♄", "V": "♀"}
#: Each suit's colour: six that a terminal's palette keeps apart (fixed colours, not the
#: theme's, which may draw red and magenta alike).
STYLES = {
    "E": "bold green3",
    "J": "bold medium_orchid1",
    "M": "bold red1",
    "N": "bold dodger_blue1",
    "S": "bold gold1",
    "V": "bold dark_turquoise",
}


@attrs.frozen
class PlanetsLook(Look):
    """Planets cards as a suit sign (or capital) and a rank (``♄m``, ``V7``; ``Sm`` with
    ``--ascii``), coloured by suit."""

    def name(self, card: str) -> str:
        """A card (``SM``, in the notation) as drawn: ``♄m``, or ``Sm`` without symbols."""
        suit, rank = card[:1], card[1:]
        return (SYMBOLS.get(suit, suit) if self.symbols else suit) + rank.lower()

    def card(self, card: str) -> Text:
        """One card (``VS``) coloured by its suit."""
        return Text(self.name(card), STYLES.get(card[:1], ""))

    def card_list(self, cards: list[str]) -> Text:
        """Cards separated by blanks; ``-`` for none."""
        if not cards:
            return Text("-")
        return Text(" ").join(self.card(card) for card in cards)

    def legend(self) -> Text:
        """What the suits' signs (or capitals) and the face ranks' letters mean, in two lines:
        ``⊕ Earth  ♃ Jupiter ...``, then ``ranks 1 to 7, then m Moon, s Sun, g Galaxy`` (``?``
        says which letter types each suit)."""
        text = Text()
        for suit, planet in PLANETS_SUITS.items():
            text.append(SYMBOLS[suit] if self.symbols else suit, STYLES[suit])
            text.append(f" {planet}  ")
        faces = ", ".join(f"{rank.lower()} {name}" for rank, name in RANK_NAMES.items())
        text.append(f"\nranks 1 to 7, then {faces}")
        return text
