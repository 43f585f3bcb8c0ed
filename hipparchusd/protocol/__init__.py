"""The protocol core, sans I/O: line splitting (:mod:`.framing`), request parsing
(:mod:`.requests`), a command's argument grammar (:mod:`.arguments`), response and event
formatting (:mod:`.formatting`).

Nothing here knows sockets or trio; the server feeds bytes in and writes bytes out.
"""

from .errors import ECHO_LIMIT, ErrorCode, ProtocolError, shown
from .formatting import Mode, failure, flatten, game_event, lines, server_event, success, words
from .framing import LineError, LineSplitter
from .requests import Request, parse_request

__all__ = [
    "ECHO_LIMIT",
    "ErrorCode",
    "LineError",
    "LineSplitter",
    "Mode",
    "ProtocolError",
    "Request",
    "failure",
    "flatten",
    "game_event",
    "lines",
    "parse_request",
    "server_event",
    "shown",
    "success",
    "words",
]
