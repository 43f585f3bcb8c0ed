"""Splitting a byte stream into request lines, sans I/O (PROTOCOL.md section 1).

:class:`LineSplitter` is fed whatever bytes arrive and hands back complete lines, decoded, or a
:class:`LineError` for a line that is too long or not UTF-8, in the manner of h11: it never
reads or writes a socket, so it is tested by feeding it bytes.
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from ..wording import counted
from .errors import ErrorCode


@attrs.frozen(slots=True)
class LineError:
    """A line that cannot be a request: ``code`` is ``line-too-long`` or ``syntax``."""

    code: ErrorCode
    message: str


class LineSplitter:
    """Turns received bytes into lines.

    A line ends at LF; one CR before the LF is dropped. A line longer than ``max_line_bytes``
    bytes, counting its LF, is discarded up to its LF and reported once, as a
    :class:`LineError` (``line-too-long``), when that LF arrives; memory stays bounded by
    ``max_line_bytes`` whatever the peer sends. A line that is not valid UTF-8 is reported as a
    ``syntax`` :class:`LineError`.

    Raises:
        ValueError: ``max_line_bytes`` < 2 (a line needs room for at least one byte and its LF).
    """

    def __init__(self, max_line_bytes: int = 4096) -> None:
        if max_line_bytes < 2:
            raise ValueError(f"max_line_bytes must be at least 2, not {max_line_bytes}")
        self.max_line_bytes = max_line_bytes
        self._buffer = bytearray()
        self._scanned = 0  # bytes of _buffer known to hold no LF
        self._discarding = False  # inside an overlong line, waiting for its LF

    def feed(self, data: bytes) -> Iterator[str | LineError]:
        """Add ``data`` and yield every line (or line error) it completes, in order."""
        buffer = self._buffer
        if not buffer and not self._discarding:
            # Most often ``data`` is one whole request line: decoded straight from it.
            end = data.find(b"\n")
            if 0 <= end == len(data) - 1 and end < self.max_line_bytes:
                yield _decode(data, 0, end)
                return
        buffer += data
        start = 0
        while True:
            end = buffer.find(b"\n", max(start, self._scanned))
            if end < 0:
                break
            self._scanned = 0
            if self._discarding or end + 1 - start > self.max_line_bytes:
                self._discarding = False
                start = end + 1
                yield LineError(
                    ErrorCode.LINE_TOO_LONG,
                    f"request lines are limited to {counted(self.max_line_bytes, 'byte')}",
                )
                continue
            line = _decode(buffer, start, end)
            start = end + 1
            yield line
        del buffer[:start]
        if len(buffer) >= self.max_line_bytes:
            # Even with its LF still to come this line is too long: drop what we have.
            self._discarding = True
            buffer.clear()
        self._scanned = len(buffer)

    @property
    def partial(self) -> bool:
        """Whether bytes of a line whose LF has not come yet are held (or being discarded)."""
        return bool(self._buffer) or self._discarding

    def close(self) -> Iterator[str | LineError]:
        """End of stream: yield the last line if it lacked its LF (an overlong one is reported)."""
        buffer = self._buffer
        if self._discarding:
            self._discarding = False
            yield LineError(
                ErrorCode.LINE_TOO_LONG,
                f"request lines are limited to {counted(self.max_line_bytes, 'byte')}",
            )
        elif buffer:
            yield _decode(buffer, 0, len(buffer))
        buffer.clear()
        self._scanned = 0


def _decode(buffer: bytes | bytearray, start: int, end: int) -> str | LineError:
    """``buffer[start:end]`` decoded, without one CR at its end, or a ``syntax`` error."""
    # A module function, not a static method: it is called for every line, and a global
    # lookup is cheaper than a method lookup through the instance.
    if end > start and buffer[end - 1] == 0x0D:
        end -= 1
    try:
        return buffer[start:end].decode("utf-8")
    except UnicodeDecodeError as error:
        return LineError(ErrorCode.SYNTAX, f"the line is not valid UTF-8 (byte {error.start + 1})")
