"""The codec of planets: cattrs hooks for its notation on a strict converter
(:func:`hipparchusd.codec.make_converter`), its event wire names, its record envelope
(``planets-record``) and schema version.

Wire forms (protocol/games/planets.md): a card is its two-letter notation (``"JS"``); a hand or
any set of cards a JSON array of cards (``["E1", "E5", "J3"]``); the shooting choice and the
phase their words (``"self"``, ``"pass"``); every attrs class a JSON object of its fields.

Input is validated, never coerced: a card must be canonical (upper case), hands sorted without
duplicates where the rules keep them sorted, and a loaded record must replay through the rules
(:func:`load_record`). Every failure is an :class:`~hipparchusd.codec.InvalidState`.
"""

from __future__ import annotations

from typing import Any

from ...codec import Codec, InvalidState, Migration, make_converter
from .model import CARDS, Card
from .notation import format_card
from .record import PlanetsRecord, replay
from .totals import lowest
from .views import PAYLOADS, View

#: Version of the serialized forms inside planets' envelopes.
SCHEMA_VERSION = 1
#: Envelope kind of a game record.
RECORD_KIND = "planets-record"
#: Dict-level migrations ``(kind, n) -> step`` (none while there is only version 1).
MIGRATIONS: dict[tuple[str, int], Migration] = {}

_BY_NAME: dict[str, Card] = {card.name: card for card in CARDS}

#: The converter with planets' notation hooks.
converter = make_converter()


def _structure_card(value: Any, _: type) -> Card:
    if type(value) is not str:
        raise TypeError(f'a card is notation like "JS", not {type(value).__name__}')
    card = _BY_NAME.get(value)
    if card is None:
        raise ValueError(f"{value[:20]!r} is not a card in canonical notation (e.g. V1, JS)")
    return card


converter.register_unstructure_hook(Card, format_card)
converter.register_structure_hook(Card, _structure_card)

#: Planets' codec, as its kind and game hold it.
CODEC = Codec(
    converter,
    payloads=PAYLOADS,
    record_kind=RECORD_KIND,
    version=SCHEMA_VERSION,
    migrations=MIGRATIONS,
)


def dump_record(record: PlanetsRecord) -> dict[str, object]:
    """The envelope (kind ``planets-record``) of a record. It reveals every card."""
    return CODEC.dump_record(CODEC.unstructure(record))


def structure_record(data: Any, path: str = "$") -> PlanetsRecord:
    """A record from its JSON data (no envelope), checked: strict JSON types, then every deal,
    pass, play and choice replayed through the rules, and the recorded totals and winners
    compared with the replay's (RULINGS P9, P16).

    Raises:
        InvalidState: naming the offending field, or the move the rules refuse.
    """
    record = CODEC.structure(data, PlanetsRecord, path)
    try:
        state = replay(record)
    except ValueError as error:
        raise InvalidState(f"{path}.hands", f"does not replay: {error}") from None
    if record.totals != state.totals:
        raise InvalidState(f"{path}.totals", f"the hands give totals {list(state.totals)}")
    if record.resigned is None:
        winners = state.winners
    elif 0 <= record.resigned < record.players and state.winners is None:
        winners = lowest(state.totals, excluding=record.resigned)
    else:
        raise InvalidState(f"{path}.resigned", "no such seat, or the game had ended")
    if record.winners != winners:
        raise InvalidState(f"{path}.winners", f"the hands give winners {winners}")
    return record


def load_record(document: Any) -> PlanetsRecord:
    """The record in an envelope from :func:`dump_record` (maybe older, from disk), checked as
    :func:`structure_record` does.

    Raises:
        InvalidState: not such an envelope, or a record the rules refuse.
    """
    return structure_record(CODEC.open_record(document), "$.data")


def load_view(data: Any) -> View:
    """A view from its JSON data, as a client would read it (strict JSON types).

    Raises:
        InvalidState: naming the offending field.
    """
    return CODEC.structure(data, View)


def load_payload(data: Any) -> Any:
    """An event payload from ``{"kind": ..., fields...}`` (strict JSON types).

    Raises:
        InvalidState: an unknown ``kind`` or a bad field.
    """
    return CODEC.load_payload(data)
