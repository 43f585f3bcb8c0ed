"""The daemon's command handling, pure and synchronous (PROTOCOL.md sections 4, 5 and 7): the
:class:`Lobby` and its command table (:mod:`.core`, with its parts :mod:`.connections`,
:mod:`.seating`, :mod:`.playing`, :mod:`.engine`, :mod:`.housekeeping` and :mod:`.operator`
over :mod:`.base`),
what its calls return (:mod:`.results`), what it sends (:mod:`.messages`), and its connections
and games (:mod:`.tables`). It knows no sockets, no trio and no store: what it asks of a store
are values (:mod:`hipparchusd.records`)."""

from .core import COMMANDS, Command, Lobby, Target
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
    "Command",
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
    "Target",
    "token_digest",
]
