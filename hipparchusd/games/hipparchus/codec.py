"""Hipparchus's codec: the cattrs hooks of its notation on a strict converter
(:func:`hipparchusd.codec.make_converter`), its wire names, its envelopes and schema version.

Wire forms (docs/rules.md, "Serialization"): a suit is its letter (``"S"``), a hand its letters
(``"SSME"``, ``"-"`` when empty), a play its canonical notation (``"2E@5"``), a play's public
form (:class:`PlayedCards`, in views and events: RULINGS H13) its count and suit (``"2E"``), a
tuple a JSON array (per-suit counts are ``[Sun, Moon, Earth]``), every attrs class a JSON object
of its fields.
:func:`unstructure` output is plain JSON data (dicts, lists, str, int, bool, None).

Input is validated, never coerced: the structure hooks accept exactly the JSON types the wire
forms use (``"3"`` is not an int, ``1`` is not a bool, every field must be present and no other),
and the ``load_*`` functions then check that the value is one the rules can reach
(:mod:`hipparchusd.games.hipparchus.validation`). Every failure is an :class:`InvalidState`
(a ``ValueError``) whose message names the field.

Stored and sent documents are envelopes ``{"version": N, "kind": K, "data": D}``
(:mod:`hipparchusd.codec`), of kind ``hipparchus-match`` (a full state) or ``hipparchus-record``
(a record), version :data:`SCHEMA_VERSION`; :data:`MIGRATIONS` brings older ones up to date.
"""

from __future__ import annotations

from typing import Any, TypeVar

from ...codec import (
    Codec,
    InvalidState,
    Migration,
    UnsupportedVersion,
    make_converter,
    open_envelope,
)
from ...codec import envelope as _envelope
from .model import HAND_SIZE, Hand, Play, PlayedCards, Suit
from .notation import (
    NotationError,
    format_cards,
    format_hand,
    format_play,
    parse_cards,
    parse_hand,
    parse_play_text,
)
from .record import MatchRecord, replay
from .rules import GameOver, IllegalPlay, MatchState, RoundState
from .validation import (
    validate_deal,
    validate_match,
    validate_payload,
    validate_round,
    validate_view,
)
from .views import (
    HandDealt,
    MatchOver,
    NoFollow,
    Played,
    RoundOver,
    RoundStarted,
    TrickWon,
    Turn,
    View,
)

__all__ = [
    "MIGRATIONS",
    "PAYLOAD_KINDS",
    "RECORD_KIND",
    "SCHEMA_VERSION",
    "STATE_KIND",
    "InvalidState",
    "UnsupportedVersion",
    "converter",
    "dump_payload",
    "dump_record",
    "dump_state",
    "envelope",
    "load_payload",
    "load_record",
    "load_round",
    "load_state",
    "load_view",
    "open_envelope",
    "structure",
    "unstructure",
]

T = TypeVar("T")

#: Version of the serialized forms inside Hipparchus's envelopes.
SCHEMA_VERSION = 1

#: Dict-level migrations: ``MIGRATIONS[(kind, n)]`` turns the envelope of a version ``n``
#: document of ``kind`` into version ``n + 1``. Empty while there is only version 1.
MIGRATIONS: dict[tuple[str, int], Migration] = {}

#: The converter with Hipparchus's notation hooks.
converter = make_converter()


# Game values in their notations.


def _structure_suit(value: Any, _: type) -> Suit:
    if value not in ("S", "M", "E") or type(value) is not str:
        raise ValueError(f'unknown suit {value!r} (expected "S", "M" or "E")')
    return Suit.from_letter(value)


def _structure_hand(value: Any, _: type) -> Hand:
    if type(value) is not str:
        raise TypeError(f"a hand is a string of suit letters, not {type(value).__name__}")
    if len(value) > HAND_SIZE:
        raise ValueError(f"a hand has at most {HAND_SIZE} suit letters, not {len(value)}")
    try:
        hand = parse_hand(value)
    except NotationError as error:
        raise ValueError(str(error)) from None
    if value != format_hand(hand):
        raise ValueError(f"hand {value!r} is not canonical (write {format_hand(hand)!r})")
    return hand


def _structure_play(value: Any, _: type) -> Play:
    if type(value) is not str:
        raise TypeError(f'a play is notation like "2E@5", not {type(value).__name__}')
    try:
        count, suit, position = parse_play_text(value)
    except NotationError as error:
        raise ValueError(str(error)) from None
    play = Play(count, suit, position)
    if format_play(play) != value:
        raise ValueError(f"play {value!r} is not canonical (write {format_play(play)!r})")
    return play


def _structure_cards(value: Any, _: type) -> PlayedCards:
    if type(value) is not str:
        raise TypeError(f'played cards are notation like "2E", not {type(value).__name__}')
    try:
        cards = parse_cards(value)
    except NotationError as error:
        raise ValueError(str(error)) from None
    if format_cards(cards) != value:
        raise ValueError(
            f"played cards {value!r} are not canonical (write {format_cards(cards)!r})"
        )
    return cards


converter.register_unstructure_hook(Suit, lambda suit: suit.letter)
converter.register_structure_hook(Suit, _structure_suit)
converter.register_unstructure_hook(Hand, format_hand)
converter.register_structure_hook(Hand, _structure_hand)
converter.register_unstructure_hook(Play, format_play)
converter.register_structure_hook(Play, _structure_play)
converter.register_unstructure_hook(PlayedCards, format_cards)
converter.register_structure_hook(PlayedCards, _structure_cards)


def unstructure(value: Any) -> Any:
    """``value`` (any state, view, event payload or record) as JSON-ready data."""
    return converter.unstructure(value)


def structure(data: Any, cls: type[T], path: str = "$") -> T:
    """``data`` (from :func:`unstructure`, perhaps through JSON) as a ``cls``, checking JSON
    types strictly; no rules-level checks (the ``load_*`` functions add those).

    Raises:
        InvalidState: naming the first offending field, e.g. ``$.round.leader``.
    """
    return CODEC.structure(data, cls, path)


def envelope(kind: str, data: Any) -> dict[str, Any]:
    """Wrap unstructured ``data`` as ``{"version": SCHEMA_VERSION, "kind": kind, "data": data}``."""
    return _envelope(kind, SCHEMA_VERSION, data)


#: Envelope kind of a match state (:func:`dump_state`).
STATE_KIND = "hipparchus-match"
#: Envelope kind of a match record (:func:`dump_record`).
RECORD_KIND = "hipparchus-record"


def dump_state(state: MatchState) -> dict[str, Any]:
    """The envelope (kind ``hipparchus-match``) of a full match state. It holds every card:
    store it, never send it to a seat (send views)."""
    return envelope(STATE_KIND, converter.unstructure(state))


def load_state(document: Any) -> MatchState:
    """The match state in an envelope from :func:`dump_state` (maybe older, from disk).

    Checks JSON types strictly, then that the rules can reach the state
    (:func:`~hipparchusd.games.hipparchus.validation.validate_match`: 30 cards, valid hands,
    seats, a legal lead, round wins...).

    Raises:
        InvalidState: naming the offending field (``UnsupportedVersion`` for a newer schema).
    """
    data = open_envelope(document, STATE_KIND, SCHEMA_VERSION)
    state = structure(data, MatchState, "$.data")
    try:
        validate_match(state)
    except InvalidState as error:
        raise error.within("$.data") from None
    return state


def load_round(data: Any) -> RoundState:
    """A round state from unstructured ``data`` (no envelope), checked like :func:`load_state`.

    Raises:
        InvalidState: naming the offending field.
    """
    state = structure(data, RoundState)
    try:
        validate_round(state, "")
    except InvalidState as error:
        raise error.within("$") from None
    return state


def dump_record(record: MatchRecord) -> dict[str, Any]:
    """The envelope (kind ``hipparchus-record``) of a match record. It reveals every card."""
    return envelope(RECORD_KIND, converter.unstructure(record))


def load_record(document: Any) -> MatchRecord:
    """The match record in an envelope from :func:`dump_record`, checked by validating every
    deal and replaying every play through the rules (:func:`replay`).

    Raises:
        InvalidState: naming the offending field, or the play the rules refuse.
    """
    data = open_envelope(document, RECORD_KIND, SCHEMA_VERSION)
    record = structure(data, MatchRecord, "$.data")
    for number, round_record in enumerate(record.rounds):
        try:
            validate_deal(round_record.deal, f"rounds[{number}].deal")
        except InvalidState as error:
            raise error.within("$.data") from None
    if not record.rounds:
        raise InvalidState("$.data.rounds", "a record has at least one round")
    try:
        final = replay(record)
    except (IllegalPlay, GameOver, ValueError) as error:
        raise InvalidState("$.data.rounds", f"does not replay: {error}") from None
    if record.resigned is None and record.winner != final.winner:
        raise InvalidState("$.data.winner", f"the plays give winner {final.winner}")
    if record.resigned is not None and (
        record.resigned not in (0, 1) or record.winner != 1 - record.resigned
    ):
        raise InvalidState("$.data.winner", "the seat that did not resign wins")
    return record


#: Every event payload class of Hipparchus, by its wire ``kind``.
PAYLOAD_KINDS: dict[str, type[Any]] = {
    cls.kind: cls
    for cls in (RoundStarted, HandDealt, Turn, Played, TrickWon, NoFollow, RoundOver, MatchOver)
}

#: Hipparchus's codec, as its :class:`~hipparchusd.games.base.GameKind` and game hold it.
CODEC = Codec(
    converter,
    payloads=PAYLOAD_KINDS.values(),
    record_kind=RECORD_KIND,
    version=SCHEMA_VERSION,
    migrations=MIGRATIONS,
)


def dump_payload(payload: Any) -> dict[str, Any]:
    """An event payload as a JSON object with its ``kind`` first, e.g.
    ``{"kind": "played", "seat": 0, "play": "2E", "hand_size": 12}``."""
    return CODEC.dump_payload(payload)


def load_payload(data: Any) -> Any:
    """The event payload in ``data`` from :func:`dump_payload` (strict JSON types, then the
    rules' checks).

    Raises:
        InvalidState: an unknown ``kind`` or a bad field.
    """
    payload = CODEC.load_payload(data)
    try:
        return validate_payload(payload)
    except InvalidState as error:
        raise error.within("$") from None


def load_view(data: Any) -> View:
    """A view from unstructured ``data`` (strict JSON types, then
    :func:`~hipparchusd.games.hipparchus.validation.validate_view`), as a client would read it.

    Raises:
        InvalidState: naming the offending field.
    """
    view = structure(data, View)
    try:
        validate_view(view)
    except InvalidState as error:
        raise error.within("$") from None
    return view
