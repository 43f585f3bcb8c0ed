"""A blocking client for the hipparchusd protocol (protocol/PROTOCOL.md), standard library only.

This one file is the reusable client: the terminal client (:mod:`hipparchusd.play`) and the
Python example bot (clients/python/) both use it, and a bot author may copy it anywhere as
``hipparchus_client.py``: it imports nothing from the rest of the package.

Shape of a session::

    with Client.connect("127.0.0.1", 7460) as client:       # reads the greeting
        game = client.new_game("planets", players=4)
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

import json as jsonlib
import random
import socket
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, BinaryIO, Self

DEFAULT_PORT = 7460
"""The daemon's default TCP port (PROTOCOL.md, introduction)."""


# --- errors ---------------------------------------------------------------------------------


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


# --- text forms (PROTOCOL.md section 6) -----------------------------------------------------


def parse_fields(words: list[str] | str) -> dict[str, str]:
    """``key=value`` words (a list, or one line to split on blanks) -> ``{key: value}``.

    Values stay text; use :func:`split_list` / :func:`split_lists` for list values and compare
    with ``"-"`` for null. Raises :class:`ProtocolViolation` for a word without ``=``.
    """
    if isinstance(words, str):
        words = words.split()
    fields: dict[str, str] = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or not key:
            raise ProtocolViolation(f"expected key=value, got {word!r}")
        fields[key] = value
    return fields


def split_list(value: str) -> list[str]:
    """A flattened list of scalars (``1,0``) -> ``["1", "0"]``; ``-`` (empty or null) -> ``[]``."""
    return [] if value == "-" else value.split(",")


def split_lists(value: str) -> list[list[str]]:
    """A flattened list of lists (``0,2,1/3,0,0``) -> ``[["0","2","1"], ["3","0","0"]]``."""
    return [] if value == "-" else [split_list(inner) for inner in value.split("/")]


# --- messages -------------------------------------------------------------------------------


@dataclass
class Response:
    """A successful answer (``=[id] ...``).

    ``lines`` are the payload lines in text mode (possibly none); ``json`` is the payload
    object in JSON mode (``None`` in text mode).
    """

    request_id: int | None
    lines: list[str] = field(default_factory=list)
    json: dict[str, Any] | None = None

    def words(self) -> list[str]:
        """Every blank-separated word of the text payload (e.g. ``legal``'s moves)."""
        return [word for line in self.lines for word in line.split()]

    def fields(self) -> dict[str, str]:
        """The text payload's ``key=value`` words, all lines together (section 6)."""
        return parse_fields(self.words())


@dataclass
class Event:
    """A pushed event (``* ...`` line, PROTOCOL.md section 4).

    ``game`` is the game id, or ``"server"`` for a server event (then ``seq`` is ``None``).
    ``data``: in text mode the event's ``key=value`` fields as strings (flattened keys such as
    ``trick.winner``); in JSON mode the event's JSON ``data`` object.
    """

    game: str
    seq: int | None
    kind: str
    data: dict[str, Any]


def parse_event(line: str, json_mode: bool) -> Event:
    """One ``*`` line -> :class:`Event`. Raises :class:`ProtocolViolation` if malformed.

    A text line is accepted in JSON mode too: the greeting is always text.
    """
    body = line[1:].strip()
    try:
        if json_mode and body.startswith("{"):
            obj = jsonlib.loads(body)
            seq = obj.get("seq")
            return Event(
                str(obj["game"]),
                None if seq is None else int(seq),
                obj["kind"],
                dict(obj.get("data") or {}),
            )
        words = body.split()
        if words[0] == "server":
            return Event("server", None, words[1], parse_fields(words[2:]))
        return Event(words[0], int(words[1]), words[2], parse_fields(words[3:]))
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise ProtocolViolation(f"malformed event line {line!r}: {exc}") from None


# --- legal moves, for any game (PROTOCOL.md, "legal") --------------------------------------


@dataclass(frozen=True)
class Pick:
    """A ``legal`` answer that describes a choice instead of listing moves: the move is
    ``count`` distinct words of ``items`` joined by ``,`` (any such choice is legal; planets'
    pass). ``to``, when not ``None``, gives the seat the i-th chosen item goes to."""

    count: int
    items: tuple[str, ...]
    to: tuple[int, ...] | None = None

    def move(self, chosen: list[str] | tuple[str, ...]) -> str:
        """The move word for the ``chosen`` items (in the order they are meant for ``to``).

        Raises ``ValueError`` unless ``chosen`` holds exactly ``count`` distinct items of
        ``items``.
        """
        if len(chosen) != self.count or len(set(chosen)) != self.count:
            raise ValueError(f"choose {self.count} distinct items, not {list(chosen)!r}")
        unknown = [item for item in chosen if item not in self.items]
        if unknown:
            raise ValueError(f"not among the items: {unknown!r}")
        return ",".join(chosen)


#: What ``legal`` answers: the list of legal move words (empty when the seat need not move),
#: or a :class:`Pick`.
Legal = list[str] | Pick


def parse_legal(response: Response) -> Legal:
    """A ``legal`` answer, text or JSON, as a list of move words or a :class:`Pick`.

    Text: ``= 1S@1 1M@2 ...`` or ``= pick <n> <item> ... [to=<seat>,...]``. JSON:
    ``{"moves": [{"move": ...}, ...]}`` or ``{"pick": n, "of": [...], "to": [...] | null}``.
    Raises :class:`ProtocolViolation` for an answer that is neither.
    """
    if response.json is not None:
        obj = response.json
        try:
            if "pick" in obj:
                targets = obj.get("to")
                return Pick(
                    int(obj["pick"]),
                    tuple(str(item) for item in obj["of"]),
                    None if targets is None else tuple(int(seat) for seat in targets),
                )
            return [str(move["move"]) for move in obj["moves"]]
        except (KeyError, TypeError, ValueError) as exc:
            raise ProtocolViolation(f"bad legal answer {obj!r}: {exc}") from None
    words = response.words()
    if not words or words[0] != "pick":
        return words
    try:
        count = int(words[1])
        items = words[2:]
        to: tuple[int, ...] | None = None
        if items and items[-1].startswith("to="):
            to = tuple(int(seat) for seat in split_list(items.pop()[3:]))
        return Pick(count, tuple(items), to)
    except (IndexError, ValueError) as exc:
        raise ProtocolViolation(f"bad pick answer {response.lines!r}: {exc}") from None


def can_move(legal: Legal) -> bool:
    """True when ``legal`` offers a move (a non-empty list, or a pick with enough items)."""
    if isinstance(legal, Pick):
        return 0 < legal.count <= len(legal.items)
    return bool(legal)


def random_move(legal: Legal, rng: random.Random) -> str:
    """A uniformly random legal move word from ``legal`` (for a pick: ``count`` distinct items
    in random order). Raises ``ValueError`` when there is none (see :func:`can_move`)."""
    if not can_move(legal):
        raise ValueError("no legal move")
    if isinstance(legal, Pick):
        return legal.move(rng.sample(legal.items, legal.count))
    return rng.choice(legal)


def int_list(value: Any) -> list[int]:
    """A list of integers from an event field: a JSON list, or a text list (``0,2``; ``-`` is
    empty). Seats in ``to-move`` and ``game-over``, scores..."""
    if isinstance(value, list):
        return [int(x) for x in value]
    if value is None:
        return []
    return [int(x) for x in split_list(str(value))]


# --- the connection -------------------------------------------------------------------------


class Client:
    """One connection to a hipparchusd server. Not thread-safe: use it from one thread.

    Build it with :meth:`connect` (or wrap an open socket). After construction
    :attr:`greeting` holds the ``* server hello`` fields (``name``, ``version``, ``protocol``).
    """

    def __init__(self, sock: socket.socket, *, json: bool = False) -> None:
        self.sock = sock
        self._reader: BinaryIO = sock.makefile("rb")
        self._next_id = 1
        self._pending: deque[Event] = deque()
        self.json_mode = False
        hello = self._read_line()
        if not hello.startswith("*"):
            raise ProtocolViolation(f"expected the greeting, got {hello!r}")
        greeting = parse_event(hello, json_mode=False)
        if greeting.game != "server" or greeting.kind != "hello":
            raise ProtocolViolation(f"expected '* server hello', got {hello!r}")
        self.greeting: dict[str, str] = dict(greeting.data)
        if json:
            self.set_format("json")

    @classmethod
    def connect(
        cls,
        host: str = "127.0.0.1",
        port: int = DEFAULT_PORT,
        *,
        json: bool = False,
        timeout: float | None = None,
    ) -> Self:
        """Open a TCP connection, read the greeting and (with ``json``) switch to JSON mode.

        ``timeout`` (seconds) bounds every later read; ``None`` waits forever.
        Raises ``OSError`` if the server cannot be reached, :class:`ClientError` subclasses if it
        does not greet as the protocol says.
        """
        sock = socket.create_connection((host, port), timeout=timeout)
        try:
            return cls(sock, json=json)
        except BaseException:
            sock.close()
            raise

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection (the server treats it as ``leave`` for every game followed)."""
        self._reader.close()
        self.sock.close()

    # -- low level

    def _read_line(self) -> str:
        raw = self._reader.readline()
        if not raw:
            raise ConnectionClosed("the server closed the connection")
        if not raw.endswith(b"\n"):
            raise ConnectionClosed("the connection closed in the middle of a line")
        try:
            return raw.decode("utf-8").rstrip("\r\n")
        except UnicodeDecodeError as exc:
            raise ProtocolViolation(f"a line that is not UTF-8: {exc}") from None

    def send(self, command: str, *args: str) -> int:
        """Send ``<id> command args...`` without waiting; return the id used.

        Raises ``ValueError`` for an argument that is empty or holds a blank or a line break
        (it could not be one word), before anything is sent.
        """
        for word in (command, *args):
            if not word or any(c in word for c in " \t\r\n"):
                raise ValueError(f"not a single protocol word: {word!r}")
        request_id = self._next_id
        self._next_id += 1
        line = " ".join((str(request_id), command, *args)) + "\n"
        self.sock.sendall(line.encode("utf-8"))
        return request_id

    def read_response(self, request_id: int) -> Response:
        """Read up to the answer to ``request_id``, keeping the events met on the way.

        Raises the :class:`ServerError` subclass of a ``?`` answer, :class:`ProtocolViolation`
        for an answer with another id.
        """
        while True:
            line = self._read_line()
            if line.startswith("*"):
                self._pending.append(parse_event(line, self.json_mode))
            elif line.startswith(("=", "?")):
                return self._finish_response(line, request_id)
            elif line.strip():
                raise ProtocolViolation(f"unexpected line {line!r}")

    def _finish_response(self, first: str, request_id: int) -> Response:
        head, _, payload = first.partition(" ")
        id_text = head[1:]
        got_id = int(id_text) if id_text.isdigit() else None
        lines = [payload] if payload else []
        while (line := self._read_line()) != "":
            lines.append(line)
        # An answer without an id is the server's answer to a line whose id it could not read
        # (e.g. `line-too-long`); answers come in request order, so it is still ours.
        if got_id is not None and got_id != request_id:
            raise ProtocolViolation(f"answer for id {got_id}, expected {request_id}: {first!r}")
        if head.startswith("?"):
            raise self._failure(" ".join(lines), got_id)
        if not self.json_mode:
            return Response(got_id, lines)
        try:
            obj = jsonlib.loads(" ".join(lines)) if lines else {}
        except ValueError as exc:
            raise ProtocolViolation(f"bad JSON payload {first!r}: {exc}") from None
        if not isinstance(obj, dict):
            raise ProtocolViolation(f"JSON payload is not an object: {first!r}")
        return Response(got_id, lines, obj)

    def _failure(self, payload: str, request_id: int | None) -> ServerError:
        if payload.startswith("{"):
            try:
                obj = jsonlib.loads(payload)
                return server_error(str(obj["code"]), str(obj.get("message", "")), request_id)
            except (ValueError, KeyError, TypeError):
                raise ProtocolViolation(f"bad JSON failure {payload!r}") from None
        code, _, message = payload.partition(" ")
        return server_error(code, message, request_id)

    # -- requests

    def request(self, command: str, *args: str) -> Response:
        """Send a request and return its answer (events that come first are kept).

        Raises the :class:`ServerError` subclass for a refusal (the request changed nothing),
        :class:`ConnectionClosed`, :class:`ProtocolViolation`.
        """
        return self.read_response(self.send(command, *args))

    def request_json(self, command: str, *args: str) -> dict[str, Any]:
        """:meth:`request` in JSON mode, returning the payload object.

        Raises ``RuntimeError`` in text mode (call :meth:`set_format` first).
        """
        if not self.json_mode:
            raise RuntimeError("request_json needs JSON mode: set_format('json') first")
        response = self.request(command, *args)
        assert response.json is not None
        return response.json

    def new_game(self, kind: str, **options: object) -> str:
        """``new <kind> key=value...``; return the new game's id (text or JSON mode).

        Raises :class:`UnknownKind`, :class:`BadOption` and the other refusals of ``new``.
        """
        words = [f"{key}={value}" for key, value in options.items()]
        response = self.request("new", kind, *words)
        if response.json is not None:
            return str(response.json["game"])
        return response.fields()["game"]

    def legal(self, game: str) -> Legal:
        """``legal <game>`` read by :func:`parse_legal`: this seat's legal moves now."""
        return parse_legal(self.request("legal", game))

    def set_format(self, mode: str) -> None:
        """Switch the connection to ``"text"`` or ``"json"`` (the ``format`` command)."""
        if mode not in ("text", "json"):
            raise ValueError(f"format is text or json, not {mode!r}")
        request_id = self.send("format", mode)
        # The answer to `format` already comes in the new mode.
        self.json_mode = mode == "json"
        self.read_response(request_id)

    # -- events

    def next_event(self) -> Event:
        """The next event: a kept one first, else the next ``*`` line read from the server.

        Raises :class:`ConnectionClosed` when the server closes the connection,
        :class:`ProtocolViolation` for a response line with no request waiting for it.
        """
        if self._pending:
            return self._pending.popleft()
        line = self._read_line()
        while not line.strip():
            line = self._read_line()
        if not line.startswith("*"):
            raise ProtocolViolation(f"expected an event, got {line!r}")
        return parse_event(line, self.json_mode)

    def has_pending_events(self) -> bool:
        """True when events read during earlier requests are waiting to be handed out."""
        return bool(self._pending)

    def events(self) -> Iterator[Event]:
        """Yield events for as long as the connection is open (ends quietly when it closes)."""
        while True:
            try:
                yield self.next_event()
            except ConnectionClosed:
                return
