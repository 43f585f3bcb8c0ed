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
    INTERNAL = "internal"


class ProtocolError(Exception):
    """A request refused with ``code``; ``message`` is for people (one line, and it names
    nothing the requester may not know). ``request_id`` is the request's id, if it had one."""

    def __init__(self, code: ErrorCode, message: str, request_id: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.request_id = request_id
