"""The client's errors: one :class:`ServerError` subclass per error code of PROTOCOL.md
(section 3), and the errors of the connection itself."""

from __future__ import annotations


class ClientError(Exception):
    """Base of every error this module raises."""


class ConnectionClosed(ClientError):
    """The server closed the connection (or it dropped) before the expected line arrived."""


class ProtocolViolation(ClientError):
    """The server sent a line this client cannot read as PROTOCOL.md describes it."""


class ServerError(ClientError):
    """A request was refused: the server answered ``?[id] <code> <message>``.

    ``code`` is one of PROTOCOL.md's error codes (section 3), for programs to decide on;
    ``message`` is for people. Each code has its own subclass (:data:`ERRORS`); a code this
    module does not know raises ``ServerError`` itself.
    """

    code = ""

    def __init__(
        self, message: str, code: str | None = None, request_id: int | None = None
    ) -> None:
        if code is not None:
            self.code = code
        super().__init__(f"{self.code}: {message}")
        self.message = message
        self.request_id = request_id


class BadSyntax(ServerError):
    """``syntax``: bad id, missing or extra arguments, bad option, invalid UTF-8."""

    code = "syntax"


class UnknownCommand(ServerError):
    """``unknown-command``: no such command."""

    code = "unknown-command"


class UnknownKind(ServerError):
    """``unknown-kind``: ``new`` names a game kind the server does not serve."""

    code = "unknown-kind"


class BadOption(ServerError):
    """``bad-option``: an option of ``new`` (or ``join``'s ``name=``) is unknown or bad."""

    code = "bad-option"


class UnknownGame(ServerError):
    """``unknown-game``: no such game id."""

    code = "unknown-game"


class NotSeated(ServerError):
    """``not-seated``: the command needs a seat in that game and this connection holds none."""

    code = "not-seated"


class AlreadySeated(ServerError):
    """``already-seated``: this connection already holds a seat in that game."""

    code = "already-seated"


class SeatTaken(ServerError):
    """``seat-taken``: the seat asked for is taken (or no seat is free)."""

    code = "seat-taken"


class NotYourTurn(ServerError):
    """``not-your-turn``: the seat must not move now."""

    code = "not-your-turn"


class IllegalMove(ServerError):
    """``illegal-move``: not a legal move for this seat now."""

    code = "illegal-move"


class GameOver(ServerError):
    """``game-over``: the game has ended; no more moves."""

    code = "game-over"


class GameNotOver(ServerError):
    """``game-not-over``: ``record`` before the game has ended."""

    code = "game-not-over"


class NotStarted(ServerError):
    """``not-started``: the game still waits for players."""

    code = "not-started"


class NotFollowing(ServerError):
    """``not-following``: ``unwatch``/``leave`` for a game this connection does not follow."""

    code = "not-following"


class BadToken(ServerError):
    """``bad-token``: ``resume`` with a token that matches no seat."""

    code = "bad-token"


class LineTooLong(ServerError):
    """``line-too-long``: the request line exceeded the server's limit and was discarded."""

    code = "line-too-long"


class LimitReached(ServerError):
    """``limit``: a server limit (games, connections) was reached."""

    code = "limit"


class ShuttingDown(ServerError):
    """``shutting-down``: the server is stopping and accepts no new games or moves."""

    code = "shutting-down"


class InternalServerError(ServerError):
    """``internal``: a bug in the server; the request changed nothing."""

    code = "internal"


ERRORS: dict[str, type[ServerError]] = {
    cls.code: cls
    for cls in (
        BadSyntax,
        UnknownCommand,
        UnknownKind,
        BadOption,
        UnknownGame,
        NotSeated,
        AlreadySeated,
        SeatTaken,
        NotYourTurn,
        IllegalMove,
        GameOver,
        GameNotOver,
        NotStarted,
        NotFollowing,
        BadToken,
        LineTooLong,
        LimitReached,
        ShuttingDown,
        InternalServerError,
    )
}
"""Error code -> the exception class raised for it (PROTOCOL.md section 3, "Error codes")."""


def server_error(code: str, message: str, request_id: int | None = None) -> ServerError:
    """The exception for a ``?`` answer with ``code`` (``ServerError`` for an unknown code)."""
    cls = ERRORS.get(code)
    if cls is None:
        return ServerError(message, code, request_id)
    return cls(message, request_id=request_id)
