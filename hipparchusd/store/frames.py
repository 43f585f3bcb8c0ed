"""The frames the SQLite store and its writer process exchange over their socket: a 4-byte
big-endian length, then a pickle (:func:`encode`, :class:`FrameReader`). Used on both sides;
standard library only, so that the writer process starts quickly."""

from __future__ import annotations

import pickle
import struct
from typing import Any

_LENGTH = struct.Struct(">I")


def encode(message: Any) -> bytes:
    """``message`` as one frame: 4-byte big-endian length, then its pickle."""
    body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return _LENGTH.pack(len(body)) + body


class FrameReader:
    """Splits the bytes received into messages (:func:`encode`'s inverse); ``feed`` bytes in
    whatever pieces they come."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[Any]:
        """The messages completed by ``data``, in order (possibly none)."""
        buffer = self._buffer
        buffer += data
        messages = []
        start = 0
        while len(buffer) - start >= 4:
            (length,) = _LENGTH.unpack_from(buffer, start)
            end = start + 4 + length
            if end > len(buffer):
                break
            messages.append(pickle.loads(buffer[start + 4 : end]))
            start = end
        del buffer[:start]
        return messages

    @property
    def partial(self) -> bool:
        """Whether part of a frame is waiting for the rest."""
        return bool(self._buffer)
