"""Strict cattrs converters and the versioned envelope, for every game (no game imported here).

Each game builds its own converter with :func:`make_converter` and registers the hooks of its
notation on it (a suit is its letter, a hand its letters...), then wraps it in a :class:`Codec`
with its wire names (event kinds), its schema version and its migrations. The daemon, the lobby
and the store use codecs through :class:`~hipparchusd.games.base.Game` and the registry only.

Input is validated, never coerced: the structure hooks accept exactly the JSON types the wire
forms use (``"3"`` is not an int, ``1`` is not a bool, every field of an attrs class must be
present and no other; a tuple is an array of exactly its length). Every failure is an
:class:`InvalidState` (a ``ValueError``) whose message names the field.

Stored and sent documents are envelopes ``{"version": N, "kind": K, "data": D}``, where ``K``
names what ``D`` is (e.g. ``hipparchus-record``) and ``N`` is the schema version of that kind.
A document of an older version is brought up to date by the migrations registered for
``(K, N)`` (version N to N+1) before it is structured; a newer one is refused.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, Protocol, TypeVar, get_args, get_origin

import attrs
import cattrs
from cattrs.errors import (
    ForbiddenExtraKeysError,
    IterableValidationError,
    IterableValidationNote,
)
from cattrs.fns import identity
from cattrs.gen import make_dict_structure_fn

from hipparchusd.wording import counted

from .jsondata import JSON


class Payload(Protocol):
    """What an event carries: an attrs value whose class names it on the wire (``kind``, e.g.
    ``"played"``). Wire names are unique within a game; the game's codec knows them all."""

    kind: ClassVar[str]


T = TypeVar("T")

#: A dict-level migration: the envelope of version N of a kind to the envelope of version N+1.
Migration = Callable[[dict[str, Any]], dict[str, Any]]


class InvalidState(ValueError):
    """Input that is not a state, view, event or record the rules could reach.

    ``field`` is the dotted path of the offending part (``""`` for the whole value); the
    message starts with it.
    """

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}" if field else reason)
        self.field = field
        self.reason = reason

    def within(self, prefix: str) -> InvalidState:
        """The same error with ``prefix`` put before its field (``prefix.field``)."""
        field = f"{prefix}.{self.field}" if self.field and prefix else self.field or prefix
        return type(self)(field, self.reason)


class UnsupportedVersion(InvalidState):
    """A document of a schema version this program cannot read (newer, or with no migration)."""


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


def _is_tuple(type_: Any) -> bool:
    return type_ is tuple or get_origin(type_) is tuple


def make_converter() -> cattrs.Converter:
    """A new strict converter: exact JSON types for ``int``, ``bool`` and ``str``; tuples as
    JSON arrays (of exactly the declared length for fixed tuples); attrs classes as objects
    with every field present and no other. A game registers its notation's hooks on it."""
    converter = cattrs.Converter(forbid_extra_keys=True)
    converter.register_structure_hook(int, _structure_int)
    converter.register_structure_hook(bool, _structure_bool)
    converter.register_structure_hook(str, _structure_str)

    def tuple_structure_factory(type_: Any) -> Callable[[Any, Any], tuple[Any, ...]]:
        args = get_args(type_)
        if not args:
            raise TypeError("bare tuple fields are not supported")
        homogeneous = len(args) == 2 and args[1] is Ellipsis

        def structure_tuple(value: Any, _: Any) -> tuple[Any, ...]:
            if not isinstance(value, list | tuple):
                raise TypeError(f"expected an array, not {type(value).__name__}")
            if not homogeneous and len(value) != len(args):
                raise ValueError(
                    f"expected an array of {counted(len(args), 'item')}, not {len(value)}"
                )
            items: list[Any] = []
            errors: list[Exception] = []
            for index, item in enumerate(value):
                item_type = args[0] if homogeneous else args[index]
                try:
                    items.append(converter.structure(item, item_type))
                except Exception as error:
                    # The note gives transform_error the index for the path ($.won[0]).
                    note = IterableValidationNote(f"@ index {index}", index, item_type)
                    error.__notes__ = [*getattr(error, "__notes__", []), note]
                    errors.append(error)
            if errors:
                raise IterableValidationError(f"While structuring {type_!r}", errors, type_)
            return tuple(items)

        return structure_tuple

    def tuple_unstructure_factory(type_: Any) -> Callable[[Any], list[Any]]:
        # Events carry tuples of ints on every move: where every element is unstructured as
        # itself, the hook is a plain ``list`` copy.
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
                        raise ValueError(f"expected {counted(size, 'item')}, not {len(value)}")
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

    def attrs_structure_factory(cls: type[Any]) -> Callable[[Any, Any], Any]:
        # Every field must be present: defaults are for Python callers, not the wire.
        base = make_dict_structure_fn(cls, converter, _cattrs_forbid_extra_keys=True)
        names = [field.name for field in attrs.fields(cls) if field.init]

        def structure(value: Any, type_: Any) -> Any:
            if not isinstance(value, Mapping):
                raise TypeError(
                    f"expected an object for {cls.__name__}, not {type(value).__name__}"
                )
            missing = [name for name in names if name not in value]
            if missing:
                raise ValueError(f"{cls.__name__} without {', '.join(missing)}")
            return base(value, type_)

        return structure

    converter.register_structure_hook_factory(_is_tuple, tuple_structure_factory)
    converter.register_unstructure_hook_factory(_is_tuple, tuple_unstructure_factory)
    converter.register_structure_hook_factory(attrs.has, attrs_structure_factory)
    return converter


def _describe(error: BaseException, type_: Any) -> str:
    if isinstance(error, KeyError):
        return "required field missing"
    if isinstance(error, ForbiddenExtraKeysError):
        return f"unknown fields {', '.join(sorted(error.extra_fields))}"
    return str(error)


def structure_with(converter: cattrs.Converter, data: Any, cls: type[T], path: str = "$") -> T:
    """``data`` (JSON data) as a ``cls`` through ``converter``, checking JSON types strictly.

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


#: Event names that the lobby and the generic contract use; no game may name an event so.
RESERVED_EVENT_NAMES = frozenset(
    ("hello", "shutdown", "joined", "left", "disconnected", "resumed", "to-move", "game-over")
)


# Envelopes.

#: Every registered migration, by (envelope kind, version it migrates from).
MIGRATIONS: dict[tuple[str, int], Migration] = {}


def envelope(kind: str, version: int, data: object) -> dict[str, object]:
    """Wrap JSON ``data`` as ``{"version": version, "kind": kind, "data": data}``."""
    return {"version": version, "kind": kind, "data": data}


def migrate(
    document: Any,
    current: int,
    *,
    migrations: Mapping[tuple[str, int], Migration] = MIGRATIONS,
) -> dict[str, Any]:
    """Bring an envelope up to schema version ``current`` of its kind, by the migrations
    registered for ``(kind, N)`` (N to N+1). A migration may rename the kind; the next step is
    looked up under the new name.

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
        step = migrations.get((document["kind"], version))
        if step is None:
            raise UnsupportedVersion(
                "$.version", f"no migration of {document['kind']} from schema version {version}"
            )
        document = dict(step(dict(document)))
        version += 1
        document["version"] = version
    result: dict[str, Any] = document
    return result


def open_envelope(document: Any, kind: str, current: int) -> Any:
    """The ``data`` of an envelope of ``kind``, migrated to version ``current``.

    Raises:
        InvalidState: not an envelope, or of another kind.
        UnsupportedVersion: see :func:`migrate`.
    """
    document = migrate(document, current)
    if document["kind"] != kind:
        raise InvalidState("$.kind", f"expected {kind!r}, not {document['kind']!r}")
    return document["data"]


class Codec:
    """One game's serialization: its converter, the classes of its event payloads (wire names
    unique within the game), its record class and envelope name, and its schema version.

    Args:
        converter: from :func:`make_converter`, with the game's hooks registered.
        payloads: every event payload class the game emits; their ``kind`` names must differ.
        record_kind: the envelope kind of the game's record (e.g. ``hipparchus-record``).
        version: the schema version of everything this codec writes.
        migrations: ``{(envelope kind, N): step}`` from version N to N+1, registered globally.

    Raises:
        ValueError: two payload classes share a wire name.
    """

    def __init__(
        self,
        converter: cattrs.Converter,
        *,
        payloads: Iterable[type[Payload]],
        record_kind: str,
        version: int = 1,
        migrations: Mapping[tuple[str, int], Migration] | None = None,
    ) -> None:
        self.converter = converter
        self.record_kind = record_kind
        self.version = version
        self.payloads: dict[str, type[Payload]] = {}
        for cls in payloads:
            if cls.kind in RESERVED_EVENT_NAMES:
                raise ValueError(f"event name {cls.kind!r} is the lobby's")
            if cls.kind in self.payloads:
                raise ValueError(f"two event classes named {cls.kind!r}")
            self.payloads[cls.kind] = cls
        MIGRATIONS.update(migrations or {})
        # The unstructure hook of each payload class met so far, looked up once per class:
        # every move publishes events.
        self._payload_hooks: dict[type, Callable[[Any], dict[str, JSON]]] = {}

    def unstructure(self, value: object) -> JSON:
        """``value`` (a state, view, payload or record of this game) as JSON data."""
        data: JSON = self.converter.unstructure(value)
        return data

    def structure(self, data: Any, cls: type[T], path: str = "$") -> T:
        """See :func:`structure_with`."""
        return structure_with(self.converter, data, cls, path)

    def payload_data(self, payload: Payload) -> dict[str, JSON]:
        """An event payload as a JSON object (without its ``kind``)."""
        cls = type(payload)
        hook = self._payload_hooks.get(cls)
        if hook is None:
            hook = self._payload_hooks[cls] = self.converter.get_unstructure_hook(cls)
        return hook(payload)

    def dump_payload(self, payload: Payload) -> dict[str, JSON]:
        """An event payload as a JSON object with its ``kind`` first, e.g.
        ``{"kind": "played", "seat": 0, ...}``."""
        return {"kind": type(payload).kind, **self.payload_data(payload)}

    def load_payload(self, data: Any) -> Payload:
        """The event payload in ``data`` from :meth:`dump_payload` (strict JSON types; no
        rules-level checks: a game's codec module may add them).

        Raises:
            InvalidState: an unknown ``kind`` or a bad field.
        """
        if not isinstance(data, dict):
            raise InvalidState("$", f"expected an object, not {type(data).__name__}")
        kind = data.get("kind")
        cls = self.payloads.get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise InvalidState("$.kind", f"unknown event kind {kind!r}")
        fields = {key: value for key, value in data.items() if key != "kind"}
        return self.structure(fields, cls)

    def dump_record(self, data: JSON) -> dict[str, object]:
        """A record's JSON data in this codec's envelope."""
        return envelope(self.record_kind, self.version, data)

    def open_record(self, document: Any) -> Any:
        """The record data in an envelope from :meth:`dump_record`, migrated.

        Raises:
            InvalidState: not such an envelope (``UnsupportedVersion`` for a newer schema).
        """
        return open_envelope(document, self.record_kind, self.version)
