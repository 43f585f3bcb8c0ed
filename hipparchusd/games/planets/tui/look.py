"""How planets looks at a terminal (docs/planets.md): each card in its suit's colour."""

from __future__ import annotations

import attrs
from rich.text import Text

from ....play.widgets import Look

STYLES = {
    "E": "bold green",
    "J": "bold magenta",
    "M": "bold red",
    "N": "bold dodger_blue1",
    "S": "bold yellow",
    "V": "bold cyan",
}


@attrs.frozen
class PlanetsLook(Look):
    """Planets cards as their notation (``VS``, ``J4``), coloured by suit."""

    def card(self, card: str) -> Text:
        """One card (``VS``) coloured by its suit."""
        return Text(card, STYLES.get(card[:1], ""))

    def card_list(self, cards: list[str]) -> Text:
        """Cards separated by blanks; ``-`` for none."""
        if not cards:
            return Text("-")
        return Text(" ").join(self.card(card) for card in cards)
