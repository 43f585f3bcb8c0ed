"""Parsing one request line (PROTOCOL.md section 2), sans I/O.

    request = [id SP] command *(SP argument)
    id      = 1*9DIGIT
    command = 1*(%x61-7A / "_")

Words are separated by runs of spaces and tabs. Blank lines and ``#`` comments are no request.
"""

from __future__ import annotations

import re

import attrs

from .errors import ErrorCode, ProtocolError, shown

_WORDS = re.compile(r"[^ \t]+")
#: The characters of a command word (``1*(%x61-7A / "_")``).
_COMMAND_CHARACTERS = "abcdefghijklmnopqrstuvwxyz_"
#: The longest id (digits) a request may carry.
MAX_ID_DIGITS = 9


@attrs.define(slots=True)
class Request:
    """A parsed request: its ``id`` exactly as written (``None`` without one), the command word
    and the argument words. Treat it as immutable; it is not frozen because one is made per
    request, and a frozen class's ``__init__`` costs a ``object.__setattr__`` call per field."""

    id: str | None
    command: str
    args: tuple[str, ...]


def parse_request(line: str) -> Request | None:
    """Parse a decoded line (without its LF). Returns ``None`` for a line that is ignored: empty,
    blank, or a ``#`` comment.

    Raises:
        ProtocolError: ``syntax`` for a bad id, a missing command or a word that cannot be a
            command (lower-case letters and ``_`` only). Whether the command exists is for the
            caller to decide (``unknown-command``).
    """
    # In a line of printable ASCII the only separator there can be is the space, which
    # str.split() splits runs of as _WORDS does (and faster): most requests are such lines.
    words = line.split() if line.isascii() and line.isprintable() else _WORDS.findall(line)
    if not words or words[0][0] == "#":  # (a word is never empty)
        return None
    request_id: str | None = None
    if words[0].isascii() and words[0].isdigit():
        request_id = words.pop(0)
        if len(request_id) > MAX_ID_DIGITS:
            raise ProtocolError(
                ErrorCode.SYNTAX, f"a request id has at most {MAX_ID_DIGITS} digits"
            )
        if not words:
            raise ProtocolError(ErrorCode.SYNTAX, "a command is missing after the id", request_id)
    command = words[0]
    # Stripping the command characters leaves nothing only of a command word; a regular
    # expression's fullmatch says the same at twice the cost, on every request.
    if command.strip(_COMMAND_CHARACTERS):
        raise ProtocolError(
            ErrorCode.SYNTAX,
            f"{shown(command)} is not a command (commands are lower-case words)",
            request_id,
        )
    return Request(request_id, command, tuple(words[1:]))
