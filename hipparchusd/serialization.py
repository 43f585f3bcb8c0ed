"""One cattrs converter for every state, view, event and record, and the versioned envelope
that wraps what is stored or sent.

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

Stored and sent documents are envelopes ``{"version": N, "kind": K, "data": D}``. A document of
an older schema version is brought up to date by the dict-level functions in
:data:`MIGRATIONS` (version N to N+1) before it is structured; a newer one is refused.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar, get_args, get_origin

import attrs
import cattrs
from cattrs.errors import (
    ForbiddenExtraKeysError,
    IterableValidationError,
    IterableValidationNote,
)
from cattrs.fns import identity
from cattrs.gen import make_dict_structure_fn

from .games.hipparchus.game import MatchRecord, replay
from .games.hipparchus.model import HAND_SIZE, Hand, Play, PlayedCards, Suit
from .games.hipparchus.notation import (
    NotationError,
    format_cards,
    format_hand,
    format_play,
    parse_cards,
    parse_play_text,
)
from .games.hipparchus.rules import GameOver, IllegalPlay, MatchState, RoundState
from .games.hipparchus.validation import (
    InvalidState,
    validate_deal,
    validate_match,
    validate_payload,
    validate_round,
    validate_view,
)
from .games.hipparchus.views import (
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
    "migrate",
    "open_envelope",
    "structure",
    "unstructure",
]

#: Version of the serialized forms inside :func:`envelope`.
SCHEMA_VERSION = 1

#: Dict-level migrations: ``MIGRATIONS[n]`` turns the envelope of a version ``n`` document into
#: the envelope of version ``n + 1`` (it may rename kinds and reshape ``data``; :func:`migrate`
#: sets the new version). Empty while there is only version 1.
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}

T = TypeVar("T")


class UnsupportedVersion(InvalidState):
    """A document of a schema version this program cannot read (newer, or with no migration)."""


converter = cattrs.Converter(forbid_extra_keys=True)


# Strict primitives: cattrs would otherwise call int("3") and bool("no").


def _structure_int(value: Any, _: type) -> int:
    if type(value) is not int:
        raise TypeError(f"expected an integer, not {type(value).__name__} {value!r}")
    return value


def _structure_bool(value: Any, _: type) -> bool:
    if type(value) is not bool:
        raise TypeError(f"expected true or false, not {type(value).__name__} {value!r}")
    return value


def _structure_str(value: Any, _: type) -> str:
    if type(value) is not str:
        raise TypeError(f"expected a string, not {type(value).__name__} {value!r}")
    return value


converter.register_structure_hook(int, _structure_int)
converter.register_structure_hook(bool, _structure_bool)
converter.register_structure_hook(str, _structure_str)


# Game values in their notations.


def _structure_suit(value: Any, _: type) -> Suit:
    if value not in ("S", "M", "E") or type(value) is not str:
        raise ValueError(f'unknown suit {value!r} (expected "S", "M" or "E")')
    return Suit.from_letter(value)


def _structure_hand(value: Any, _: type) -> Hand:
    if type(value) is not str:
        raise TypeError(f"a hand is a string of suit letters, not {type(value).__name__}")
    if value == "-":
        return Hand(())
    if not value or len(value) > HAND_SIZE:
        raise ValueError(f'a hand has 1 to {HAND_SIZE} suit letters (or is "-"): {value!r}')
    bad = next((i for i, ch in enumerate(value) if ch not in "SME"), None)
    if bad is not None:
        raise ValueError(f"{value[bad]!r} at character {bad + 1} of hand {value!r} is not a suit")
    return Hand.from_cards(Suit.from_letter(ch) for ch in value)


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


# Tuples are JSON arrays both ways, of exactly the declared length.


def _is_tuple(type_: Any) -> bool:
    return type_ is tuple or get_origin(type_) is tuple


def _tuple_structure_factory(type_: Any) -> Callable[[Any, Any], tuple[Any, ...]]:
    args = get_args(type_)
    if not args:
        raise TypeError("bare tuple fields are not supported")
    homogeneous = len(args) == 2 and args[1] is Ellipsis

    def structure_tuple(value: Any, _: Any) -> tuple[Any, ...]:
        if not isinstance(value, list | tuple):
            raise TypeError(f"expected an array, not {type(value).__name__}")
        if not homogeneous and len(value) != len(args):
            raise ValueError(f"expected an array of {len(args)} items, not {len(value)}")
        items: list[Any] = []
        errors: list[Exception] = []
        for index, item in enumerate(value):
            item_type = args[0] if homogeneous else args[index]
            try:
                items.append(converter.structure(item, item_type))
            except Exception as error:
                # The note gives transform_error the index for the error's path ($.won[0]).
                note = IterableValidationNote(f"@ index {index}", index, item_type)
                error.__notes__ = [*getattr(error, "__notes__", []), note]
                errors.append(error)
        if errors:
            raise IterableValidationError(f"While structuring {type_!r}", errors, type_)
        return tuple(items)

    return structure_tuple


def _tuple_unstructure_factory(type_: Any) -> Callable[[Any], list[Any]]:
    # Events carry tuples of ints (per-suit counts, round wins) on every move: where every
    # element is unstructured as itself, the hook is a plain ``list`` copy.
    args = get_args(type_)
    if len(args) == 2 and args[1] is Ellipsis:
        element = converter.get_unstructure_hook(args[0])
        if element is identity:
            return list
        return lambda value: [element(item) for item in value]
    if args:
        hooks = [converter.get_unstructure_hook(arg) for arg in args]
        size = len(hooks)
        if all(hook is identity for hook in hooks):

            def unstructure_fixed(value: Any) -> list[Any]:
                if len(value) != size:
                    raise ValueError(f"expected {size} items, not {len(value)}")
                return list(value)

            return unstructure_fixed
        if size == 2:
            first, second = hooks

            def unstructure_pair(value: Any) -> list[Any]:
                a, b = value
                return [first(a), second(b)]

            return unstructure_pair
        return lambda value: [hook(item) for hook, item in zip(hooks, value, strict=True)]
    return lambda value: [converter.unstructure(item) for item in value]


converter.register_structure_hook_factory(_is_tuple, _tuple_structure_factory)
converter.register_unstructure_hook_factory(_is_tuple, _tuple_unstructure_factory)


# attrs classes: every field must be present (defaults are for Python callers, not the wire).


def _attrs_structure_factory(cls: type[Any]) -> Callable[[Any, Any], Any]:
    base = make_dict_structure_fn(cls, converter, _cattrs_forbid_extra_keys=True)
    names = [field.name for field in attrs.fields(cls) if field.init]

    def structure(value: Any, type_: Any) -> Any:
        if not isinstance(value, Mapping):
            raise TypeError(f"expected an object for {cls.__name__}, not {type(value).__name__}")
        missing = [name for name in names if name not in value]
        if missing:
            raise ValueError(f"{cls.__name__} without {', '.join(missing)}")
        return base(value, type_)

    return structure


converter.register_structure_hook_factory(attrs.has, _attrs_structure_factory)


def _describe(error: BaseException, type_: Any) -> str:
    if isinstance(error, KeyError):
        return "required field missing"
    if isinstance(error, ForbiddenExtraKeysError):
        return f"unknown fields {', '.join(sorted(error.extra_fields))}"
    return str(error)


def unstructure(value: Any) -> Any:
    """``value`` (any state, view, event payload or record) as JSON-ready data."""
    return converter.unstructure(value)


def structure(data: Any, cls: type[T], path: str = "$") -> T:
    """``data`` (from :func:`unstructure`, perhaps through JSON) as a ``cls``, checking JSON
    types strictly; no rules-level checks (the ``load_*`` functions add those).

    Raises:
        InvalidState: naming the first offending field, e.g. ``$.round.leader``.
    """
    try:
        return converter.structure(data, cls)
    except Exception as error:  # cattrs raises ExceptionGroups of the hooks' errors
        messages = cattrs.transform_error(error, path=path, format_exception=_describe)
        first = messages[0] if messages else str(error)
        message, _, where = first.rpartition(" @ ")
        raise InvalidState(where or path, message or first) from None


def envelope(kind: str, data: Any) -> dict[str, Any]:
    """Wrap unstructured ``data`` as ``{"version": SCHEMA_VERSION, "kind": kind, "data": data}``."""
    return {"version": SCHEMA_VERSION, "kind": kind, "data": data}


def migrate(
    document: Any,
    *,
    migrations: Mapping[int, Callable[[dict[str, Any]], dict[str, Any]]] = MIGRATIONS,
    current: int = SCHEMA_VERSION,
) -> dict[str, Any]:
    """Bring an envelope up to schema version ``current`` with ``migrations`` (N -> N+1).

    Raises:
        InvalidState: not an envelope (an object with an integer ``version``, a string
            ``kind`` and ``data``, nothing else).
        UnsupportedVersion: a version newer than ``current``, or older with a migration missing.
    """
    if not isinstance(document, dict):
        raise InvalidState("$", f"expected an envelope object, not {type(document).__name__}")
    extra = set(document) - {"version", "kind", "data"}
    if extra:
        raise InvalidState("$", f"unknown envelope fields {', '.join(sorted(map(str, extra)))}")
    for key in ("version", "kind", "data"):
        if key not in document:
            raise InvalidState(f"$.{key}", "required field missing")
    version = document["version"]
    if type(version) is not int or version < 1:
        raise InvalidState("$.version", f"expected a positive integer, not {version!r}")
    if type(document["kind"]) is not str:
        raise InvalidState("$.kind", "expected a string")
    if version > current:
        raise UnsupportedVersion(
            "$.version",
            f"schema version {version} is newer than this program reads ({current}); "
            "upgrade hipparchusd",
        )
    while version < current:
        step = migrations.get(version)
        if step is None:
            raise UnsupportedVersion("$.version", f"no migration from schema version {version}")
        document = dict(step(dict(document)))
        version += 1
        document["version"] = version
    result: dict[str, Any] = document
    return result


def open_envelope(document: Any, kind: str) -> Any:
    """The ``data`` of an envelope of ``kind``, migrated to :data:`SCHEMA_VERSION`.

    Raises:
        InvalidState: not an envelope, or of another kind.
        UnsupportedVersion: see :func:`migrate`.
    """
    document = migrate(document)
    if document["kind"] != kind:
        raise InvalidState("$.kind", f"expected {kind!r}, not {document['kind']!r}")
    return document["data"]


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
    data = open_envelope(document, STATE_KIND)
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
    data = open_envelope(document, RECORD_KIND)
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


#: Every event payload class by its wire ``kind``.
PAYLOAD_KINDS: dict[str, type[Any]] = {
    cls.kind: cls
    for cls in (RoundStarted, HandDealt, Turn, Played, TrickWon, NoFollow, RoundOver, MatchOver)
}


def dump_payload(payload: Any) -> dict[str, Any]:
    """An event payload as a JSON object with its ``kind`` first, e.g.
    ``{"kind": "played", "seat": 0, "play": "2E", "hand_size": 12}``."""
    return {"kind": type(payload).kind, **converter.unstructure(payload)}


def load_payload(data: Any) -> Any:
    """The event payload in ``data`` from :func:`dump_payload` (strict JSON types).

    Raises:
        InvalidState: an unknown ``kind`` or a bad field.
    """
    if not isinstance(data, dict):
        raise InvalidState("$", f"expected an object, not {type(data).__name__}")
    kind = data.get("kind")
    cls = PAYLOAD_KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise InvalidState("$.kind", f"unknown event kind {kind!r}")
    fields = {key: value for key, value in data.items() if key != "kind"}
    payload = structure(fields, cls)
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
