"""A small trio client for the daemon tests and the benchmark: it sends request lines and
splits what comes back into responses and events, keeping every byte received."""

from __future__ import annotations

import collections
import json
import re
from collections.abc import Sequence
from typing import Any

import attrs
import trio

_PAIR = re.compile(r"([^ =]+)=([^ ]*)")


@attrs.define
class Reply:
    """One response: ``ok``, the echoed ``id``, and its payload ``lines`` (the first line's
    text after ``=id `` or ``?id ``)."""

    ok: bool
    id: str
    lines: list[str]

    @property
    def code(self) -> str:
        """The error code of a failure (text or JSON mode)."""
        assert not self.ok, self.lines
        first = self.lines[0]
        if first.startswith("{"):
            code: str = json.loads(first)["code"]
            return code
        return first.split(" ", 1)[0]

    @property
    def text(self) -> str:
        """The payload lines joined with newlines."""
        return "\n".join(self.lines)

    def fields(self) -> dict[str, str]:
        """The payload's ``key=value`` words (all lines)."""
        return dict(_PAIR.findall(" ".join(self.lines)))

    def json(self) -> Any:
        """The JSON payload (JSON mode)."""
        return json.loads(self.lines[0])


def event_fields(line: str) -> tuple[str, int, str, dict[str, str]]:
    """Parse an event ``* g1 5 played seat=0 ...`` into (game, seq, kind, fields); a JSON event
    gives its ``data`` as the fields (values not flattened)."""
    if line.startswith("* {"):
        event = json.loads(line[2:])
        return event["game"], event.get("seq", 0), event["kind"], event["data"]
    parts = line.split(" ")
    assert parts[0] == "*", line
    if parts[1] == "server":
        return "server", 0, parts[2], dict(_PAIR.findall(" ".join(parts[3:])))
    return parts[1], int(parts[2]), parts[3], dict(_PAIR.findall(" ".join(parts[4:])))


class Client:
    """A protocol connection. ``events`` collects every event line as it arrives, ``unread``
    those not yet returned by :meth:`next_event`; ``received`` holds every byte."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.buffer = bytearray()
        self.events: list[str] = []
        self.unread: collections.deque[str] = collections.deque()
        self.received = bytearray()
        self.closed = False

    @classmethod
    async def connect(cls, port: int, host: str = "127.0.0.1", greet: bool = True) -> Client:
        """Connect and (by default) read the greeting."""
        client = cls(await trio.open_tcp_stream(host, port))
        if greet:
            hello = await client.read_line()
            assert hello.startswith("* server hello "), hello
        return client

    async def aclose(self) -> None:
        """Close the connection."""
        await self.stream.aclose()

    async def read_line(self) -> str:
        """The next line (without LF); raises EOFError at end of stream."""
        while True:
            end = self.buffer.find(b"\n")
            if end >= 0:
                line = bytes(self.buffer[:end])
                del self.buffer[: end + 1]
                return line.decode()
            data = await self.stream.receive_some(65536)
            if not data:
                self.closed = True
                raise EOFError
            self.received += data
            self.buffer += data

    async def send(self, data: str | bytes) -> None:
        """Send raw text or bytes as they are."""
        await self.stream.send_all(data.encode() if isinstance(data, str) else data)

    async def read_reply(self) -> Reply:
        """Read up to the next response, collecting the events before it."""
        while True:
            line = await self.read_line()
            if line.startswith("*"):
                self.events.append(line)
                self.unread.append(line)
                continue
            assert line[:1] in ("=", "?"), f"unexpected line {line!r}"
            head, _, rest = line.partition(" ")
            lines = [rest] if rest else []
            while True:
                more = await self.read_line()
                if more == "":
                    break
                lines.append(more)
            return Reply(head[0] == "=", head[1:], lines)

    async def request(self, line: str) -> Reply:
        """Send one request line and read its response."""
        await self.send(line + "\n")
        return await self.read_reply()

    async def ok(self, line: str) -> Reply:
        """Like :meth:`request`, asserting success."""
        reply = await self.request(line)
        assert reply.ok, (line, reply)
        return reply

    async def fail(self, line: str, code: str) -> Reply:
        """Like :meth:`request`, asserting failure with ``code``."""
        reply = await self.request(line)
        assert not reply.ok and reply.code == code, (line, code, reply)
        return reply

    async def next_event(self, timeout: float = 5.0) -> str:
        """The next event line not yet returned (waiting up to ``timeout`` seconds); events
        read while waiting for a response come first."""
        if self.unread:
            return self.unread.popleft()
        with trio.fail_after(timeout):
            line = await self.read_line()
        assert line.startswith("*"), line
        self.events.append(line)
        return line

    async def events_until(self, kinds: Sequence[str], timeout: float = 5.0) -> list[str]:
        """Read events until one of ``kinds`` (inclusive); return those read."""
        seen = []
        while True:
            line = await self.next_event(timeout)
            seen.append(line)
            if event_fields(line)[2] in kinds:
                return seen
