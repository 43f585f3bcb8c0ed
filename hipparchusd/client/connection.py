"""One blocking connection to the daemon (:class:`Client`): the greeting, request ids and
the framing of answers (PROTOCOL.md sections 1 to 3), events kept while a request waits, text
and JSON modes."""

from __future__ import annotations

import json as jsonlib
import socket
from collections import deque
from collections.abc import Iterator
from types import TracebackType
from typing import Any, BinaryIO, Self

from .contract import Legal, parse_legal
from .errors import ConnectionClosed, ProtocolViolation, ServerError, server_error
from .messages import Event, Response, parse_event

DEFAULT_PORT = 7460
"""The daemon's default TCP port (PROTOCOL.md, introduction)."""


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
