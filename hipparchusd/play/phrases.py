"""What every game's explanations share: the shape of a followed view, how a seat is named,
and the few words that agree with that name.

A *view* is a game's view as the protocol sends it in JSON (``state``, ``watch``, ``resume``:
each game's appendix, "The view"). Each game's terminal parts (``games/<kind>/tui/``) keep it
up to date from the events that follow, so that a spectator paced by ``--delay`` shows each
event as it comes, never a later position asked for with ``state``. ``label(seat)`` is how the
screen names a seat: ``you`` for its own, else the seat's name (``bob``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
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


#: The characters a seat's name may hold (PROTOCOL.md, ``join``'s ``name=``).
NAME_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")


def sentence(text: str, names: Iterable[str] = ()) -> str:
    """``text`` as a sentence: its first letter in upper case (``you take it`` -> ``You take
    it``), unless it starts with one of the players' ``names``, which is written as the player
    chose it (``bot-ismcts takes it``, never ``Bot-ismcts``); the rest as written."""
    for name in names:
        if text.startswith(name) and text[len(name) : len(name) + 1] not in NAME_CHARACTERS:
            return text
    return text[:1].upper() + text[1:]


def game_over_without_result(data: dict[str, Any]) -> str | None:
    """The line that ends a game which gave no result, from its ``game-over`` data
    (PROTOCOL.md section 4): abandoned (``abandoned``), ended by the server's operator
    (``operator``) or aborted (``aborted``, section 10); ``None`` for a game with winners,
    whose line names them."""
    if data.get("abandoned"):
        return "Game over: abandoned, nobody won"
    if data.get("operator"):
        return "Game over: ended by the server's operator, nobody won"
    if data.get("aborted"):
        return "Game over: aborted, no result (a first decision did not come in time)"
    return None
