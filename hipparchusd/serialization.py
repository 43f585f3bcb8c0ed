"""One cattrs converter for every state, view, event and record, and the versioned envelope
that wraps what is stored or sent.

Wire forms: a suit is its letter (``"S"``), a hand its letters (``"SSME"``), a play its notation
(``"2E@5"``). Everything else is the attrs classes' fields, as JSON objects.
"""

from __future__ import annotations

from typing import Any

import cattrs

from .games.hipparchus.model import Hand, Play, Suit
from .games.hipparchus.notation import format_hand, format_play, parse_hand, parse_play_text

#: Version of the serialized forms inside :func:`envelope`.
SCHEMA_VERSION = 1

converter = cattrs.Converter(forbid_extra_keys=True)


def _structure_suit(value: Any, _: type) -> Suit:
    if not isinstance(value, str):
        raise TypeError(f"a suit is a letter, not {type(value).__name__}")
    return Suit.from_letter(value)


def _structure_hand(value: Any, _: type) -> Hand:
    if not isinstance(value, str):
        raise TypeError(f"a hand is a string of suit letters, not {type(value).__name__}")
    return parse_hand(value)


def _structure_play(value: Any, _: type) -> Play:
    if not isinstance(value, str):
        raise TypeError(f"a play is notation like 2E@5, not {type(value).__name__}")
    count, suit, position = parse_play_text(value)
    return Play(count, suit, position)


converter.register_unstructure_hook(Suit, lambda suit: suit.letter)
converter.register_structure_hook(Suit, _structure_suit)
converter.register_unstructure_hook(Hand, format_hand)
converter.register_structure_hook(Hand, _structure_hand)
converter.register_unstructure_hook(Play, format_play)
converter.register_structure_hook(Play, _structure_play)


def envelope(kind: str, data: Any) -> dict[str, Any]:
    """Wrap unstructured ``data`` as ``{"version": SCHEMA_VERSION, "kind": kind, "data": data}``."""
    return {"version": SCHEMA_VERSION, "kind": kind, "data": data}
