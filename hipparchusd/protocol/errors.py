"""The protocol's fixed error codes (PROTOCOL.md section 3) and the exception that carries one."""

from __future__ import annotations

import enum


class ErrorCode(enum.StrEnum):
    """Every error token a failure response may carry (PROTOCOL.md, "Error codes")."""

    SYNTAX = "syntax"
    UNKNOWN_COMMAND = "unknown-command"
    UNKNOWN_KIND = "unknown-kind"
    BAD_OPTION = "bad-option"
    UNKNOWN_GAME = "unknown-game"
    NOT_SEATED = "not-seated"
    ALREADY_SEATED = "already-seated"
    SEAT_TAKEN = "seat-taken"
    NOT_YOUR_TURN = "not-your-turn"
    ILLEGAL_MOVE = "illegal-move"
    GAME_OVER = "game-over"
    GAME_NOT_OVER = "game-not-over"
    NOT_STARTED = "not-started"
    NOT_FOLLOWING = "not-following"
    BAD_TOKEN = "bad-token"
    LINE_TOO_LONG = "line-too-long"
    LIMIT = "limit"
    SHUTTING_DOWN = "shutting-down"
    MAINTENANCE = "maintenance"
    INTERNAL = "internal"


class ProtocolError(Exception):
    """A request refused with ``code``; ``message`` is for people (one line, and it names
    nothing the requester may not know). ``request_id`` is the request's id, if it had one.
    ``private`` marks a message that may name the requester's own hidden cards (a game's
    illegal-move explanation): it goes to the requester only and is never logged, not even
    at debug level (RULINGS H13). ``limit`` names the server limit a ``limit`` refusal met
    (the option's name, e.g. ``max-games``), for the operator's figures; never sent."""

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        request_id: str | None = None,
        *,
        private: bool = False,
        limit: str | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.request_id = request_id
        self.private = private
        self.limit = limit


#: The most characters of a client's word that an error message repeats.
ECHO_LIMIT = 40


def shown(word: str, limit: int = ECHO_LIMIT) -> str:
    """``word`` quoted for an error message and cut to ``limit`` characters (``...`` marks a
    cut), so that no error repeats a client's 4,000-digit value whole (issue 16)."""
    return repr(word) if len(word) <= limit else repr(word[:limit]) + "..."
