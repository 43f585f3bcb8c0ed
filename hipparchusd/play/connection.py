"""The terminal client's connection: the protocol (PROTOCOL.md) in JSON mode over asyncio.

The full-screen application runs on asyncio (Textual), and must show events the moment they
arrive while the player thinks, so it cannot use the blocking :class:`hipparchusd.client.Client`:
here one task reads every line, hands events to a callback at once, and resolves each request's
answer in order. The line formats, the error classes and the ``legal`` parser are the blocking
client's (:mod:`hipparchusd.client`), so both read the protocol alike.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import deque
from collections.abc import Callable
from typing import Any

from ..client import (
    ConnectionClosed,
    Event,
    Legal,
    ProtocolViolation,
    Response,
    parse_event,
    parse_legal,
    server_error,
)

#: The longest line this client reads (a JSON ``record`` is one line): 16 MiB.
LINE_LIMIT = 1 << 24


class Connection:
    """One connection in JSON mode. Open it with :meth:`open`; then :meth:`request` sends a
    request and waits for its answer, while every event goes to ``on_event`` as soon as its
    line is read (in the reader task, in order). ``on_closed`` is called once when the
    connection ends, with the reason.

    Errors: a refused request raises the :class:`hipparchusd.client.ServerError` subclass of
    its code; a request on a closed connection raises
    :class:`hipparchusd.client.ConnectionClosed`.
    """

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        greeting: dict[str, Any],
        on_event: Callable[[Event], None],
        on_closed: Callable[[str], None],
    ) -> None:
        self._reader = reader
        self._writer = writer
        self.greeting = greeting
        self.on_event = on_event
        self.on_closed = on_closed
        self._next_id = 1
        self._waiting: deque[tuple[int, asyncio.Future[tuple[dict[str, Any], int]]]] = deque()
        #: Lines read so far: an event's or answer's place in the stream (see :meth:`ask`).
        self.lines_read = 0
        self.closed = False
        self._task: asyncio.Task[None] | None = None

    @classmethod
    async def open(
        cls,
        host: str,
        port: int,
        on_event: Callable[[Event], None],
        on_closed: Callable[[str], None],
    ) -> Connection:
        """Connect, read the greeting and switch to JSON mode.

        Raises:
            OSError: the server cannot be reached.
            ProtocolViolation: it does not greet as PROTOCOL.md says.
        """
        reader, writer = await asyncio.open_connection(host, port, limit=LINE_LIMIT)
        try:
            hello = (await reader.readline()).decode("utf-8", "replace").rstrip("\r\n")
            if not hello.startswith("*"):
                raise ProtocolViolation(f"expected the greeting, got {hello!r}")
            greeting = parse_event(hello, json_mode=False)
            if greeting.game != "server" or greeting.kind != "hello":
                raise ProtocolViolation(f"expected '* server hello', got {hello!r}")
        except BaseException:
            writer.close()
            raise
        connection = cls(reader, writer, greeting.data, on_event, on_closed)
        connection._task = asyncio.create_task(connection._read_loop())
        await connection.request("format", "json")
        return connection

    async def request(self, command: str, *args: str) -> dict[str, Any]:
        """Send ``command args...`` and return the JSON payload of its answer (see :meth:`ask`
        for the errors)."""
        payload, _ = await self.ask(command, *args)
        return payload

    async def ask(self, command: str, *args: str) -> tuple[dict[str, Any], int]:
        """Send ``command args...``; return the JSON payload of its answer and the answer's
        place in the stream (:attr:`lines_read` when its first line was read): an event read
        before it (a smaller place) is already part of a ``state`` it answers.

        Raises:
            ValueError: an argument that is not one protocol word (nothing is sent).
            ServerError: the request was refused (its subclass for the code).
            ConnectionClosed: the connection ended first.
        """
        for word in (command, *args):
            if not word or any(c in word for c in " \t\r\n"):
                raise ValueError(f"not a single protocol word: {word!r}")
        if self.closed:
            raise ConnectionClosed("the connection is closed")
        request_id = self._next_id
        self._next_id += 1
        future: asyncio.Future[tuple[dict[str, Any], int]] = (
            asyncio.get_running_loop().create_future()
        )
        self._waiting.append((request_id, future))
        self._writer.write((" ".join((str(request_id), command, *args)) + "\n").encode())
        try:
            await self._writer.drain()
        except OSError as error:
            raise ConnectionClosed(f"the connection dropped: {error}") from None
        return await future

    async def legal(self, game: str) -> Legal:
        """``legal <game>``: a list of move words, or a :class:`hipparchusd.client.Pick`."""
        payload = await self.request("legal", game)
        return parse_legal(Response(None, [], payload))

    async def legal_described(self, game: str) -> list[dict[str, Any]]:
        """``legal <game>``'s JSON moves with the game's fields (``[]`` for a pick)."""
        payload = await self.request("legal", game)
        return [dict(move) for move in payload.get("moves") or []]

    async def close(self) -> None:
        """Close the connection (the server treats it as ``leave`` for every game)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        self._finish("closed by the client")
        self._writer.close()
        with contextlib.suppress(OSError, RuntimeError):
            await self._writer.wait_closed()

    def _finish(self, reason: str) -> None:
        if self.closed:
            return
        self.closed = True
        while self._waiting:
            _, future = self._waiting.popleft()
            if not future.done():
                future.set_exception(ConnectionClosed(reason))
        self.on_closed(reason)

    async def _line(self) -> str:
        raw = await self._reader.readline()
        self.lines_read += 1
        if not raw.endswith(b"\n"):
            raise ConnectionClosed("the server closed the connection")
        return raw.decode("utf-8").rstrip("\r\n")

    async def _read_loop(self) -> None:
        reason = "the server closed the connection"
        try:
            while True:
                line = await self._line()
                if line.startswith("*"):
                    self.on_event(parse_event(line, json_mode=True))
                elif line.startswith(("=", "?")):
                    await self._answer(line)
                elif line.strip():
                    raise ProtocolViolation(f"unexpected line {line!r}")
        except ConnectionClosed as error:
            reason = str(error)
        except (OSError, ValueError) as error:  # ProtocolViolation, bad UTF-8, too long
            reason = f"the connection failed: {error}"
        self._finish(reason)

    async def _answer(self, first: str) -> None:
        order = self.lines_read
        head, _, payload = first.partition(" ")
        lines = [payload] if payload else []
        while (line := await self._line()) != "":
            lines.append(line)
        if not self._waiting:
            raise ProtocolViolation(f"an answer nobody asked for: {first!r}")
        _, future = self._waiting.popleft()
        text = " ".join(lines)
        if head.startswith("?"):
            try:
                obj = json.loads(text)
                error = server_error(str(obj["code"]), str(obj.get("message", "")))
            except (ValueError, KeyError, TypeError):
                code, _, message = text.partition(" ")
                error = server_error(code, message)
            if not future.done():
                future.set_exception(error)
            return
        try:
            obj = json.loads(text) if text else {}
        except ValueError:
            obj = {"lines": lines}
        if not future.done():
            future.set_result((obj if isinstance(obj, dict) else {"value": obj}, order))
