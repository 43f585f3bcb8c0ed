"""What the server sends, read: responses, events and the ``key=value`` text forms of
PROTOCOL.md sections 4 and 6."""

from __future__ import annotations

import json as jsonlib
from dataclasses import dataclass, field
from typing import Any

from .errors import ProtocolViolation

# --- text forms (PROTOCOL.md section 6) -----------------------------------------------------


def parse_fields(words: list[str] | str) -> dict[str, str]:
    """``key=value`` words (a list, or one line to split on blanks) -> ``{key: value}``.

    Values stay text; use :func:`split_list` / :func:`split_lists` for list values and compare
    with ``"-"`` for null. Raises :class:`ProtocolViolation` for a word without ``=``.
    """
    if isinstance(words, str):
        words = words.split()
    fields: dict[str, str] = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or not key:
            raise ProtocolViolation(f"expected key=value, got {word!r}")
        fields[key] = value
    return fields


def split_list(value: str) -> list[str]:
    """A flattened list of scalars (``1,0``) -> ``["1", "0"]``; ``-`` (empty or null) -> ``[]``."""
    return [] if value == "-" else value.split(",")


def split_lists(value: str) -> list[list[str]]:
    """A flattened list of lists (``0,2,1/3,0,0``) -> ``[["0","2","1"], ["3","0","0"]]``."""
    return [] if value == "-" else [split_list(inner) for inner in value.split("/")]


@dataclass
class Response:
    """A successful answer (``=[id] ...``).

    ``lines`` are the payload lines in text mode (possibly none); ``json`` is the payload
    object in JSON mode (``None`` in text mode).
    """

    request_id: int | None
    lines: list[str] = field(default_factory=list)
    json: dict[str, Any] | None = None

    def words(self) -> list[str]:
        """Every blank-separated word of the text payload (e.g. ``legal``'s moves)."""
        return [word for line in self.lines for word in line.split()]

    def fields(self) -> dict[str, str]:
        """The text payload's ``key=value`` words, all lines together (section 6)."""
        return parse_fields(self.words())


@dataclass
class Event:
    """A pushed event (``* ...`` line, PROTOCOL.md section 4).

    ``game`` is the game id, or ``"server"`` for a server event (then ``seq`` is ``None``).
    ``data``: in text mode the event's ``key=value`` fields as strings (flattened keys such as
    ``trick.winner``); in JSON mode the event's JSON ``data`` object.
    """

    game: str
    seq: int | None
    kind: str
    data: dict[str, Any]


def parse_event(line: str, json_mode: bool) -> Event:
    """One ``*`` line -> :class:`Event`. Raises :class:`ProtocolViolation` if malformed.

    A text line is accepted in JSON mode too: the greeting is always text.
    """
    body = line[1:].strip()
    try:
        if json_mode and body.startswith("{"):
            obj = jsonlib.loads(body)
            seq = obj.get("seq")
            return Event(
                str(obj["game"]),
                None if seq is None else int(seq),
                obj["kind"],
                dict(obj.get("data") or {}),
            )
        words = body.split()
        if words[0] == "server":
            return Event("server", None, words[1], parse_fields(words[2:]))
        return Event(words[0], int(words[1]), words[2], parse_fields(words[3:]))
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise ProtocolViolation(f"malformed event line {line!r}: {exc}") from None
