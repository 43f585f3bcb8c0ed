"""The daemon's command handling, pure and synchronous (PROTOCOL.md sections 4, 5 and 7): the
:class:`Lobby` (:mod:`.core`, with its parts :mod:`.seating`, :mod:`.playing` and
:mod:`.housekeeping` over :mod:`.base`), what its calls return (:mod:`.results`), what it sends
(:mod:`.messages`), its connections and games (:mod:`.tables`) and the command table
(:mod:`.commands`). It knows no sockets, no trio and no store: what it asks of a store are values
(:mod:`hipparchusd.records`)."""

from .commands import COMMANDS, CommandSpec
from .core import Lobby
from .messages import (
    PROTOCOL_VERSION,
    SERVER_NAME,
    Disconnected,
    EventMessage,
    Hello,
    Joined,
    Left,
    Response,
    Resumed,
    Shutdown,
)
from .results import Delivery, NeedsStoredGame, NeedsStoredToken, Result, StoreNeed
from .tables import Session, Table, token_digest

__all__ = [
    "COMMANDS",
    "PROTOCOL_VERSION",
    "SERVER_NAME",
    "CommandSpec",
    "Delivery",
    "Disconnected",
    "EventMessage",
    "Hello",
    "Joined",
    "Left",
    "Lobby",
    "NeedsStoredGame",
    "NeedsStoredToken",
    "Response",
    "Result",
    "Resumed",
    "Session",
    "Shutdown",
    "StoreNeed",
    "Table",
    "token_digest",
]
