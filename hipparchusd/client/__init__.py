"""A blocking client for the hipparchusd protocol (protocol/PROTOCOL.md), standard library only.

This package is the reusable client: the terminal client (:mod:`hipparchusd.play`) and the
Python example bot (clients/python/) both use it, and a bot author may copy its folder anywhere
as ``hipparchus_client/``: its modules import only each other and the standard library. Every
name is offered here; by job they live in :mod:`~hipparchusd.client.connection` (the
connection and its framing), :mod:`~hipparchusd.client.messages` (responses, events, text
forms), :mod:`~hipparchusd.client.contract` (the contract every game keeps: legal moves, seat
lists) and :mod:`~hipparchusd.client.errors` (one exception per error code).

Shape of a session::

    with Client.connect("127.0.0.1", 7460) as client:       # reads the greeting
        game = client.new_game(kind, players=4)             # a kind that `kinds` lists
        seat = int(client.request("join", game, "name=alice").fields()["seat"])
        for event in client.events():                        # events pushed by the server
            if event.kind == "to-move" and seat in int_list(event.data["seats"]):
                legal = client.legal(game)                   # a list of moves, or a Pick
                if can_move(legal):
                    client.request("play", game, random_move(legal, rng))
            elif event.kind == "game-over":
                break

Every game speaks the same contract (PROTOCOL.md): ``to-move`` names the seats that must move
(several at once for a simultaneous move such as planets' pass), ``legal`` lists their moves or
describes a choice (:class:`Pick`), ``play`` makes one, ``game-over`` ends the game. A program
that knows no game's rules can play any of them at random with :func:`random_move`.

Every request carries a numeric id (PROTOCOL.md section 2) and the answer is matched to it.
Events (lines starting with ``*``) that arrive while a request waits for its answer are kept, in
order, and handed out by :meth:`Client.events` / :meth:`Client.next_event` later.

Modes (PROTOCOL.md section 3): in text mode (the default) a response's payload is its lines and
an event's ``data`` is its ``key=value`` fields as strings; ``Client.connect(..., json=True)``
sends ``format json`` first, after which a response's payload is one JSON object
(:attr:`Response.json`) and an event's ``data`` is its JSON ``data`` object.

Errors: a ``?`` answer raises the :class:`ServerError` subclass for its code (``IllegalMove``
for ``illegal-move``, ...; see :data:`ERRORS`), with ``.code`` and ``.message``. A closed
connection raises :class:`ConnectionClosed`; a line that breaks the protocol raises
:class:`ProtocolViolation`.
"""

from __future__ import annotations

from .connection import DEFAULT_PORT, Client
from .contract import Legal, Pick, can_move, int_list, parse_legal, random_move
from .errors import (
    ERRORS,
    AlreadySeated,
    BadOption,
    BadSyntax,
    BadToken,
    ClientError,
    ConnectionClosed,
    GameNotOver,
    GameOver,
    IllegalMove,
    InternalServerError,
    LimitReached,
    LineTooLong,
    NotFollowing,
    NotSeated,
    NotStarted,
    NotYourTurn,
    ProtocolViolation,
    SeatTaken,
    ServerError,
    ShuttingDown,
    UnknownCommand,
    UnknownGame,
    UnknownKind,
    server_error,
)
from .messages import Event, Response, parse_event, parse_fields, split_list, split_lists

__all__ = [
    "DEFAULT_PORT",
    "ERRORS",
    "AlreadySeated",
    "BadOption",
    "BadSyntax",
    "BadToken",
    "Client",
    "ClientError",
    "ConnectionClosed",
    "Event",
    "GameNotOver",
    "GameOver",
    "IllegalMove",
    "InternalServerError",
    "Legal",
    "LimitReached",
    "LineTooLong",
    "NotFollowing",
    "NotSeated",
    "NotStarted",
    "NotYourTurn",
    "Pick",
    "ProtocolViolation",
    "Response",
    "SeatTaken",
    "ServerError",
    "ShuttingDown",
    "UnknownCommand",
    "UnknownGame",
    "UnknownKind",
    "can_move",
    "int_list",
    "parse_event",
    "parse_fields",
    "parse_legal",
    "random_move",
    "server_error",
    "split_list",
    "split_lists",
]
