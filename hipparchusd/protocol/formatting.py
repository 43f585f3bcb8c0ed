"""Writing responses and events, in text and JSON (PROTOCOL.md sections 3, 4 and 6), sans I/O.

The JSON form of a payload is the source; the text form is its *flattening* (section 6):
nested objects give dotted keys, lists of scalars join with ``,``, lists of lists join their
inner lists with ``/``, lists of objects give numbered keys from 1, ``null`` and empty lists or
objects are ``-``, booleans are ``true``/``false``.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Iterable, Mapping, Sequence

from ..jsondata import JSON
from .errors import ErrorCode


class Mode(enum.StrEnum):
    """A connection's output format (``format text|json``)."""

    TEXT = "text"
    JSON = "json"


# Mode.JSON looked up once: every response and event asks for it, and an enum member's lookup
# through its class costs more than the rest of the test (Python 3.11 does not specialise it).
_JSON_MODE = Mode.JSON


def scalar_text(value: JSON) -> str:
    """The text form of one scalar: ``-`` for ``None``, ``true``/``false``, else ``str``."""
    if value is None:
        return "-"
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


_SCALARS = (str, int, float, type(None))


def _is_scalar(value: JSON) -> bool:
    return isinstance(value, _SCALARS)


def flatten(value: Mapping[str, JSON], prefix: str = "") -> list[tuple[str, str]]:
    """Flatten a JSON object into (key, value text) pairs, in key order (section 6).

    Example: ``{"trick": {"lead": "2E@5"}, "won": [[0, 2, 1], [3, 0, 0]]}`` gives
    ``[("trick.lead", "2E@5"), ("won", "0,2,1/3,0,0")]``.
    """
    pairs: list[tuple[str, str]] = []
    for key, item in value.items():
        _flatten_into(pairs, prefix + key, item)
    return pairs


def _scalars_text(values: list[JSON]) -> str | None:
    """``values`` joined with ``,`` if every one is a scalar, else ``None``."""
    texts = []
    for v in values:
        kind = type(v)
        if kind is int or kind is str:
            texts.append(str(v))
        elif _is_scalar(v):
            texts.append(scalar_text(v))
        else:
            return None
    return ",".join(texts)


def _flatten_into(pairs: list[tuple[str, str]], key: str, value: JSON) -> None:
    # Events are flattened on the hot path: the exact types the converter makes (str, int,
    # dict, list) are tested first, by identity, before the general checks.
    if type(value) is str:
        pairs.append((key, value))
    elif type(value) is int:
        pairs.append((key, str(value)))
    elif type(value) is dict and value:
        prefix = key + "."
        for name, item in value.items():
            _flatten_into(pairs, prefix + name, item)
    elif type(value) is list and value and (text := _list_text(value)) is not None:
        pairs.append((key, text))
    else:
        _flatten_rest(pairs, key, value)


def _list_text(value: list[JSON]) -> str | None:
    """A non-empty list as one value's text: scalars joined with ``,``, lists of scalars with
    their texts joined with ``/`` (``-`` for an empty one); ``None`` for any other list (its
    items get numbered keys)."""
    if type(value[0]) is list:
        # One pass, given up at the first item that is no list of scalars.
        texts = []
        for v in value:
            if type(v) is not list or (text := _scalars_text(v)) is None:
                return None
            texts.append(text or "-")
        return "/".join(texts)
    return _scalars_text(value)


def _flatten_rest(pairs: list[tuple[str, str]], key: str, value: JSON) -> None:
    """What :func:`_flatten_into` leaves: an empty object or list (``-``), a list that is not
    one value's text (:func:`_list_text`: its items get numbered keys), or a scalar other
    than a string or an integer."""
    if isinstance(value, dict | list):
        if not value:
            pairs.append((key, "-"))
        elif isinstance(value, dict):
            pairs.extend(flatten(value, key + "."))
        else:
            for number, item in enumerate(value, 1):
                _flatten_into(pairs, f"{key}.{number}", item)
    else:
        pairs.append((key, scalar_text(value)))


def words(value: Mapping[str, JSON]) -> str:
    """``value`` flattened into ``key=value`` words on one line."""
    parts: list[str] = []
    _words_into(parts, "", value)
    return " ".join(parts)


def _words_into(parts: list[str], prefix: str, value: Mapping[str, JSON]) -> None:
    # Every event goes through here: its strings, integers, nulls and nested objects (most
    # fields) are written at once, the rest flattened as usual, in key order either way.
    for key, item in value.items():
        kind = type(item)
        if kind is str or kind is int:
            parts.append(f"{prefix}{key}={item}")
        elif item is None:
            parts.append(f"{prefix}{key}=-")
        elif type(item) is dict and item:
            _words_into(parts, f"{prefix}{key}.", item)
        elif type(item) is list and item and (text := _list_text(item)) is not None:
            parts.append(f"{prefix}{key}={text}")
        else:
            pairs: list[tuple[str, str]] = []
            _flatten_into(pairs, prefix + key, item)
            parts += [f"{k}={v}" for k, v in pairs]


def lines(value: Mapping[str, JSON]) -> list[str]:
    """``value`` flattened into one ``key=value`` per line."""
    return [f"{k}={v}" for k, v in flatten(value)]


# One encoder for every message: json.dumps with options would build a new one per call.
# Payloads are trees (made by the converter or the lobby, never holding themselves), so the
# check for circular references, a dictionary of every container per call, is left out: a
# cycle would still fail, as a RecursionError instead of a ValueError.
_json = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode


def success(
    request_id: str | None, mode: Mode, data: Mapping[str, JSON], text: Sequence[str]
) -> bytes:
    """A success response: ``=[id]``, the payload, and the closing empty line.

    ``data`` is the JSON payload; ``text`` the text payload's lines (none for an empty payload).
    """
    head = "=" + (request_id or "")
    if mode is _JSON_MODE:
        return f"{head} {_json(data)}\n\n".encode()
    if not text:
        return f"{head}\n\n".encode()
    payload = "\n".join(text)
    return f"{head} {payload}\n\n".encode()


def one_line(message: str) -> str:
    """``message`` with line breaks replaced, so that it cannot break the framing."""
    return " ".join(message.splitlines()) or "-"


def failure(request_id: str | None, mode: Mode, code: ErrorCode, message: str) -> bytes:
    """A failure response: ``?[id] code message`` (or the JSON object) and the empty line."""
    head = "?" + (request_id or "")
    message = one_line(message)
    if mode is _JSON_MODE:
        return f"{head} {_json({'code': str(code), 'message': message})}\n\n".encode()
    return f"{head} {code} {message}\n\n".encode()


def game_event(mode: Mode, game: str, seq: int, kind: str, data: Mapping[str, JSON]) -> bytes:
    """An event of ``game``: ``* g1 7 played seat=0 ...`` or ``* {"game": ...}``."""
    if mode is _JSON_MODE:
        obj = {"game": game, "seq": seq, "kind": kind, "data": data}
        return f"* {_json(obj)}\n".encode()
    return _event_line(f"* {game} {seq} {kind}", data)


def server_event(mode: Mode, kind: str, data: Mapping[str, JSON]) -> bytes:
    """A server event: ``* server hello ...`` or ``* {"game": "server", ...}`` (no ``seq``)."""
    if mode is _JSON_MODE:
        return f"* {_json({'game': 'server', 'kind': kind, 'data': data})}\n".encode()
    return _event_line(f"* server {kind}", data)


def _event_line(head: str, data: Mapping[str, JSON]) -> bytes:
    """An event's text line: ``head``, then ``data``'s ``key=value`` words."""
    # The head is the line's first word: one join makes the line, with no copy of the fields.
    parts = [head]
    _words_into(parts, "", data)
    return (" ".join(parts) + "\n").encode()


def join_lines(items: Iterable[str]) -> list[str]:
    """``items`` as a list of payload lines, dropping empty ones (a text payload line is never
    empty: an empty line ends the response)."""
    return [item for item in items if item]
