"""The admin channel's messages (issue 26), sans I/O: one JSON object per line each way over
the daemon's admin Unix socket, a request then its answer.

    request  = {"command": "end", "args": ["g3", "reported cheating"]}
    success  = {"ok": true, "data": {...}, "text": ["line", ...]}
    failure  = {"ok": false, "code": "unknown-game", "message": "no game 'g9'"}

``data`` is for programs (``hipparchusd admin --json``), ``text`` for people; ``code`` is a
protocol error code (PROTOCOL.md section 3) or one of the channel's own (``unknown-command``,
``unknown-connection``, ``draining``). A line holds at most :data:`MAX_LINE` bytes.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Final

import attrs

from ..jsondata import JSON, JSONObject

#: The longest line either side sends, LF included (an answer to ``show`` is one line).
MAX_LINE: Final = 1 << 24
#: The longest request line the daemon reads.
MAX_REQUEST: Final = 65536


class WireError(ValueError):
    """A line that is not a message of the channel; the message says why."""


def request_line(command: str, args: Sequence[str]) -> bytes:
    """The request line for ``command`` with ``args``."""
    return json.dumps({"command": command, "args": list(args)}).encode() + b"\n"


def read_request(line: bytes) -> tuple[str, list[str]]:
    """The command and arguments of a request ``line``.

    Raises:
        WireError: not a JSON object with a string ``command`` and a list of strings
            ``args``.
    """
    try:
        message = json.loads(line)
    except (ValueError, UnicodeDecodeError) as error:
        raise WireError(f"not a JSON line ({error})") from None
    if not isinstance(message, dict):
        raise WireError("a request is a JSON object")
    command, args = message.get("command"), message.get("args", [])
    if not isinstance(command, str) or not command:
        raise WireError('a request names its "command"')
    if not isinstance(args, list) or not all(isinstance(arg, str) for arg in args):
        raise WireError('"args" is a list of strings')
    return command, args


def success_line(data: JSONObject, text: Sequence[str]) -> bytes:
    """The answer line of a command that did what it was asked."""
    answer: JSONObject = {"ok": True, "data": data, "text": list(text)}
    return json.dumps(answer, separators=(",", ":")).encode() + b"\n"


def failure_line(code: str, message: str) -> bytes:
    """The answer line of a command refused with ``code``, saying why in ``message``."""
    answer: JSONObject = {"ok": False, "code": code, "message": message}
    return json.dumps(answer, separators=(",", ":")).encode() + b"\n"


@attrs.frozen
class Answer:
    """An answer as the client reads it: ``ok``, then ``data`` and ``text``, or ``code`` and
    ``message``."""

    ok: bool
    data: JSON = None
    text: tuple[str, ...] = ()
    code: str = ""
    message: str = ""


def read_answer(line: bytes) -> Answer:
    """The answer a ``line`` from the daemon carries.

    Raises:
        WireError: not an answer of the channel.
    """
    try:
        message = json.loads(line)
    except (ValueError, UnicodeDecodeError) as error:
        raise WireError(f"the daemon's answer is not a JSON line ({error})") from None
    if not isinstance(message, dict) or not isinstance(message.get("ok"), bool):
        raise WireError("the daemon's answer is not an answer of the admin channel")
    if message["ok"]:
        text = message.get("text", [])
        lines = tuple(str(line) for line in text) if isinstance(text, list) else ()
        return Answer(True, data=message.get("data"), text=lines)
    return Answer(False, code=str(message.get("code", "")), message=str(message.get("message")))
