"""What every game's explanations share: the shape of a followed view, how a seat is named,
and the few words that agree with that name.

A *view* is a game's view as the protocol sends it in JSON (``state``, ``watch``, ``resume``:
each game's appendix, "The view"). Each game's terminal parts (``games/<kind>/tui/``) keep it
up to date from the events that follow, so that a spectator paced by ``--delay`` shows each
event as it comes, never a later position asked for with ``state``. ``label(seat)`` is how the
screen names a seat: ``you`` for its own, else the seat's name (``bob``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..wording import counted

#: A game's view as JSON data, followed from events by a game's reducer.
View = dict[str, Any]
#: How a screen names a seat (``you``, ``bob``).
Label = Callable[[int], str]


def plural(count: int, word: str) -> str:
    """``1 card``, ``2 cards``: :func:`hipparchusd.wording.counted` (never ``1 cards``)."""
    return counted(count, word)


def verb_s(name: str) -> str:
    """The ending of a present-tense verb after ``name``: ``you take``, ``bob takes``."""
    return "" if name == "you" else "s"


def possessive(name: str) -> str:
    """``your`` for ``you``, else ``bob's``."""
    return "your" if name == "you" else f"{name}'s"


def sentence(text: str) -> str:
    """``text`` with its first letter in upper case and the rest as written (a player's name
    inside it keeps its case)."""
    return text[:1].upper() + text[1:]
