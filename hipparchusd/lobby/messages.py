"""What the lobby sends: its own events (the games define the rest), each event as sent
(:class:`EventMessage`), and the answer to a request (:class:`Response`); PROTOCOL.md sections 3
and 4."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

import attrs

from ..codec import Payload, make_converter
from ..games.base import GameOver, ToMove
from ..jsondata import JSON, JSONObject
from ..protocol import Mode, ProtocolError
from ..protocol import formatting as fmt

# Looked up once: every response asks (an enum member's lookup through its class is slow).
_JSON_MODE = Mode.JSON

#: The converter of the lobby's own events (the games' events go through their codecs).
converter = make_converter()

#: The protocol version this package implements.
PROTOCOL_VERSION = 1
SERVER_NAME = "hipparchusd"


# Events of the lobby itself (the games define the rest). ``kind`` names each on the wire.


@attrs.frozen(slots=True)
class Joined:
    """``name`` took ``seat``."""

    kind: ClassVar[str] = "joined"
    seat: int
    name: str


@attrs.frozen(slots=True)
class Left:
    """The seat's connection left before the game started: the seat is free again."""

    kind: ClassVar[str] = "left"
    seat: int


@attrs.frozen(slots=True)
class Disconnected:
    """The seat's connection dropped or left; the seat stays reserved for its token."""

    kind: ClassVar[str] = "disconnected"
    seat: int


@attrs.frozen(slots=True)
class Resumed:
    """A connection resumed the seat with its token."""

    kind: ClassVar[str] = "resumed"
    seat: int


@attrs.frozen(slots=True)
class Absent:
    """The seat's connection has been away for the whole absence grace (RULINGS T4): another
    seat may ``claim`` the game, or the engine plays for it when it must move, until its holder
    resumes it."""

    kind: ClassVar[str] = "absent"
    seat: int


@attrs.frozen(slots=True)
class TimedToMove:
    """``to-move`` in a timed game: the ``seats`` that must move, and the milliseconds each of
    them has ``left`` for its decision as the event is sent (in the order of ``seats``; their
    lag allowance not counted). An untimed game's ``to-move`` has no ``left_ms``."""

    kind: ClassVar[str] = "to-move"
    seats: tuple[int, ...]
    left_ms: tuple[int, ...]


@attrs.frozen(slots=True)
class Hello:
    """The greeting, a server event."""

    kind: ClassVar[str] = "hello"
    name: str
    version: str
    protocol: int


@attrs.frozen(slots=True)
class Shutdown:
    """The server is stopping; connections close after ``grace`` seconds."""

    kind: ClassVar[str] = "shutdown"
    grace: float | int


def _game_over_data(event: GameOver) -> JSONObject:
    """``game-over``'s data: ``abandoned``, ``operator`` (a game the server's operator
    ended), ``aborted``, ``timeout`` and ``claimed`` only for a game that ended so, so that
    every other game's event reads as it always has (PROTOCOL.md section 4)."""
    data: JSONObject = {
        "winners": list(event.winners),
        "scores": list(event.scores),
        "resigned": event.resigned,
    }
    if event.abandoned:
        data["abandoned"] = True
    if event.operator:
        data["operator"] = True
    if event.aborted:
        data["aborted"] = True
    if event.timeout is not None:
        data["timeout"] = event.timeout
    if event.claimed:
        data["claimed"] = True
    return data


_to_move_hook = converter.get_unstructure_hook(ToMove)
#: The data of each ``to-move`` event, made once: every move publishes one, and the events
#: share few values (:func:`~hipparchusd.games.base.progress` reuses them). The dicts are
#: shared between messages, which never change their data. Keyed by ``seats``, the event's
#: only field (a tuple of ints hashes without the Python-level ``__hash__`` of the event).
_to_move_data: dict[tuple[int, ...], JSONObject] = {}


def _to_move(event: ToMove) -> JSONObject:
    data = _to_move_data.get(event.seats)
    if data is None:
        data = _to_move_data[event.seats] = _to_move_hook(event)
    return data


#: The unstructure function of each event class the lobby itself publishes in games, looked up
#: once (every move publishes ``to-move``). Each takes an event of its key's class, which no
#: type of a mapping can say: hence ``Any`` for the argument.
LOBBY_EVENTS: dict[type[Payload], Callable[[Any], JSONObject]] = {
    **{
        cls: converter.get_unstructure_hook(cls)
        for cls in (Joined, Left, Disconnected, Resumed, Absent, TimedToMove)
    },
    ToMove: _to_move,
    GameOver: _game_over_data,
}


class EventMessage:
    """One event as sent: ``game`` (``None`` for a server event), ``seq``, ``kind`` and the JSON
    ``data``. Its bytes are made once per output mode, however many connections get it."""

    __slots__ = ("_encoded", "data", "game", "kind", "seq")

    def __init__(self, game: str | None, seq: int, kind: str, data: Mapping[str, JSON]) -> None:
        self.game = game
        self.seq = seq
        self.kind = kind
        self.data = data
        self._encoded: dict[Mode, bytes] = {}

    @classmethod
    def of(cls, game: str | None, seq: int, payload: Payload) -> EventMessage:
        """The message for an attrs event ``payload`` with a ``kind`` class attribute."""
        data: JSONObject = converter.unstructure(payload)
        return cls(game, seq, type(payload).kind, data)

    def encode(self, mode: Mode) -> bytes:
        """The event's line in ``mode``."""
        encoded = self._encoded.get(mode)
        if encoded is None:
            if self.game is None:
                encoded = fmt.server_event(mode, self.kind, self.data)
            else:
                encoded = fmt.game_event(mode, self.game, self.seq, self.kind, self.data)
            self._encoded[mode] = encoded
        return encoded


@attrs.define(slots=True)
class Response:
    """The answer to one request: a success with its JSON ``data`` and text ``text`` lines, or
    an ``error``. ``data`` may be a function that makes it, called only for a JSON-mode
    connection; it must then be encoded before the game can change (no store call between).
    Treat it as immutable; it is not frozen because one is made per request, and a frozen
    class's ``__init__`` costs an ``object.__setattr__`` call per field."""

    request_id: str | None
    data: Mapping[str, JSON] | Callable[[], Mapping[str, JSON]] = attrs.field(factory=dict)
    text: Sequence[str] = ()
    error: ProtocolError | None = None

    @classmethod
    def failed(cls, error: ProtocolError) -> Response:
        """The failure response for ``error`` (echoing its request id)."""
        return cls(error.request_id, error=error)

    def encode(self, mode: Mode) -> bytes:
        """The response's bytes in ``mode``, closing empty line included."""
        if self.error is not None:
            return fmt.failure(self.request_id, mode, self.error.code, self.error.message)
        data = self.data
        if callable(data):
            # Made for a JSON-mode connection only: the text form is in ``text``.
            data = data() if mode is _JSON_MODE else {}
        return fmt.success(self.request_id, mode, data, self.text)
