"""Conformance transcripts (protocol/conformance/*.tst): parsing, replaying against a live
daemon, and recording. The format is described in protocol/conformance/README.md.

To (re)write a transcript's expectations from its requests, against a fresh in-process daemon:

    .venv/bin/python tests/daemon/conformance.py record protocol/conformance/game.tst

It keeps comments and requests and replaces every expected line by what the daemon sent: read
the diff before committing, since a transcript is only as right as its review.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import attrs
import trio

_STEP = re.compile(r"^([a-z][a-z0-9]*)([>!<])(?: (.*))?$")
_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
_TOKEN = re.compile(r"\b[0-9a-f]{32}\b")


@attrs.define
class Send:
    """``conn> request``: send the request; ``response`` is the expected response (its lines,
    the closing empty line implied), or ``None`` for a line the server ignores."""

    conn: str
    request: str
    response: list[str] | None
    line_number: int


@attrs.define
class Expect:
    """``conn< line``: the next line ``conn`` receives is ``line`` (an event)."""

    conn: str
    line: str
    line_number: int


@attrs.define
class Close:
    """``conn!``: drop the connection without a word (as a crash or a network failure would)."""

    conn: str
    line_number: int


Step = Send | Expect | Close


def _ignored(request: str) -> bool:
    stripped = request.strip(" \t")
    return not stripped or stripped.startswith("#")


def parse(text: str) -> list[Step | str]:
    """The steps of a transcript; comment and blank lines are kept as strings (for recording).

    Raises:
        ValueError: a line that is neither a step, a response line after a request, a comment
            nor blank (naming its line number).
    """
    steps: list[Step | str] = []
    current: Send | None = None
    for number, line in enumerate(text.splitlines(), 1):
        match = _STEP.match(line)
        if match:
            conn, kind, rest = match.group(1), match.group(2), match.group(3) or ""
            if kind == ">":
                current = Send(conn, rest, None if _ignored(rest) else [], number)
                steps.append(current)
            elif kind == "<":
                current = None
                steps.append(Expect(conn, rest, number))
            else:
                current = None
                steps.append(Close(conn, number))
        elif not line.strip() or line.startswith("#"):
            current = None
            steps.append(line)
        elif current is not None and current.response is not None:
            current.response.append(line)
        else:
            raise ValueError(f"line {number}: expected 'name> request', 'name< line' or a comment")
    return steps


class Mismatch(AssertionError):
    """A received line differs from the transcript."""


class Session:
    """The connections of one transcript replay and the placeholders bound so far."""

    def __init__(self, port: int, timeout: float) -> None:
        self.port = port
        self.timeout = timeout
        self.streams: dict[str, trio.SocketStream] = {}
        self.buffers: dict[str, bytearray] = {}
        self.bound: dict[str, str] = {}

    async def stream(self, conn: str) -> trio.SocketStream:
        if conn not in self.streams:
            self.streams[conn] = await trio.open_tcp_stream("127.0.0.1", self.port)
            self.buffers[conn] = bytearray()
            hello = await self.read_line(conn)
            if not hello.startswith("* server hello "):
                raise Mismatch(f"{conn}: expected the greeting, got {hello!r}")
        return self.streams[conn]

    async def read_line(self, conn: str, timeout: float | None = None) -> str:
        buffer = self.buffers[conn]
        with trio.fail_after(self.timeout if timeout is None else timeout):
            while (end := buffer.find(b"\n")) < 0:
                data = await self.streams[conn].receive_some(65536)
                if not data:
                    raise Mismatch(f"{conn}: the server closed the connection")
                buffer += data
        line = bytes(buffer[:end]).decode()
        del buffer[: end + 1]
        return line

    async def pending(self, conn: str, wait: float = 0.05) -> list[str]:
        """Lines that arrive on ``conn`` within ``wait`` seconds."""
        lines = []
        while True:
            try:
                lines.append(await self.read_line(conn, wait))
            except trio.TooSlowError:
                return lines
            except Mismatch:
                return lines

    def substitute(self, text: str) -> str:
        return _PLACEHOLDER.sub(lambda m: self.bound.get(m.group(1), m.group(0)), text)

    def match(self, expected: str, got: str, where: str) -> None:
        pattern = ""
        names: list[str] = []
        last = 0
        for m in _PLACEHOLDER.finditer(expected):
            pattern += re.escape(expected[last : m.start()])
            name = m.group(1)
            if name in self.bound:
                pattern += re.escape(self.bound[name])
            elif name in names:
                pattern += f"(?P={name})"
            else:
                pattern += f'(?P<{name}>[^ "]+)'
                names.append(name)
            last = m.end()
        pattern += re.escape(expected[last:])
        found = re.fullmatch(pattern, got)
        if found is None:
            raise Mismatch(f"{where}: expected {expected!r}, got {got!r}")
        self.bound.update(found.groupdict())

    async def aclose(self) -> None:
        for stream in self.streams.values():
            await stream.aclose()


async def _read_response(session: Session, conn: str) -> list[str]:
    first = await session.read_line(conn)
    lines = [first]
    if first[:1] not in ("=", "?"):
        return lines  # not a response: the caller's comparison fails on it
    while (line := await session.read_line(conn)) != "":
        lines.append(line)
    return lines


async def replay(port: int, steps: list[Step | str], *, timeout: float = 5.0) -> None:
    """Replay ``steps`` against the daemon on ``port``; raise :class:`Mismatch` at the first
    difference, or if any connection received a line the transcript does not expect."""
    session = Session(port, timeout)
    try:
        for step in steps:
            if isinstance(step, str):
                continue
            where = f"line {step.line_number}"
            if isinstance(step, Close):
                await (await session.stream(step.conn)).aclose()
                del session.streams[step.conn]
                continue
            if isinstance(step, Expect):
                await session.stream(step.conn)
                session.match(step.line, await session.read_line(step.conn), where)
                continue
            stream = await session.stream(step.conn)
            await stream.send_all((session.substitute(step.request) + "\n").encode())
            if step.response is None:
                continue
            got = await _read_response(session, step.conn)
            if len(got) != len(step.response):
                raise Mismatch(f"{where}: expected {step.response!r}, got {got!r}")
            for expected, line in zip(step.response, got, strict=True):
                session.match(expected, line, where)
        for conn in list(session.streams):
            extra = await session.pending(conn)
            if extra:
                raise Mismatch(f"{conn} received lines the transcript does not expect: {extra}")
    finally:
        await session.aclose()


async def record(port: int, steps: list[Step | str]) -> str:
    """Run the requests and comments of ``steps`` and write the transcript of what the daemon
    sent: each response under its request, then the events each connection received, as
    ``conn<`` lines. 32-hex-digit tokens become ``{token1}``, ``{token2}``... placeholders."""
    session = Session(port, 5.0)
    out: list[str] = []
    tokens: dict[str, str] = {}

    def name_tokens(line: str) -> str:
        def repl(m: re.Match[str]) -> str:
            if m.group(0) not in tokens:
                tokens[m.group(0)] = f"token{len(tokens) + 1}"
                session.bound[tokens[m.group(0)]] = m.group(0)
            return "{" + tokens[m.group(0)] + "}"

        return _TOKEN.sub(repl, line)

    try:
        for step in steps:
            if isinstance(step, str):
                out.append(step)
                continue
            if isinstance(step, Expect):
                continue
            if isinstance(step, Close):
                out.append(f"{step.conn}!")
                await (await session.stream(step.conn)).aclose()
                del session.streams[step.conn]
                for conn in sorted(session.streams):
                    out.extend(f"{conn}< {name_tokens(x)}" for x in await session.pending(conn))
                continue
            stream = await session.stream(step.conn)
            out.append(f"{step.conn}> {step.request}")
            await stream.send_all((session.substitute(step.request) + "\n").encode())
            if step.response is not None:
                out.extend(name_tokens(x) for x in await _read_response(session, step.conn))
            for conn in [step.conn, *sorted(c for c in session.streams if c != step.conn)]:
                out.extend(f"{conn}< {name_tokens(x)}" for x in await session.pending(conn))
    finally:
        await session.aclose()
    while out and not out[-1].strip():
        out.pop()
    return "\n".join(out) + "\n"


def transcripts(directory: Path) -> Iterator[Path]:
    """The ``*.tst`` files of ``directory``, sorted."""
    return iter(sorted(directory.glob("*.tst")))


async def _record_file(path: Path) -> None:
    from hipparchusd.server import serve
    from hipparchusd.settings import Settings
    from hipparchusd.store.base import MemoryStore

    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, Settings(port=0, grace_period=0), MemoryStore())
        text = await record(server.ports[0], parse(path.read_text()))
        path.write_text(text)
        server.shutdown()


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] != "record":
        sys.exit("usage: conformance.py record FILE.tst ...")
    for name in sys.argv[2:]:
        trio.run(_record_file, Path(name))
