"""Seats kept for resuming: each seat's token in the user's data directory, readable by the
user alone (issue 17: restarting the client after a dropped connection offers the seat back).

The file is ``seats.json`` in ``platformdirs.user_data_dir("hipparchus-play")`` (e.g.
``~/.local/share/hipparchus-play/seats.json`` on Linux): a JSON list of :class:`SavedSeat`
objects. It is written through a temporary file created with mode 0600 and renamed over the old
one, in a directory of mode 0700, so that no other user can read a token (a token is the
seat: whoever has it may play for it).
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

import attrs
import platformdirs

FILE_NAME = "seats.json"


def default_directory() -> Path:
    """The user's data directory for this program (platformdirs)."""
    return Path(platformdirs.user_data_dir("hipparchus-play", appauthor=False))


@attrs.frozen
class SavedSeat:
    """A seat this user holds: where (``host``, ``port``), which ``game`` of which ``kind``,
    the ``seat`` number, the ``name`` it plays under and its secret ``token``."""

    host: str
    port: int
    game: str
    kind: str
    seat: int
    name: str
    token: str

    def describe(self) -> str:
        """``seat 1 of g3 (planets) on 127.0.0.1:7460``."""
        return f"seat {self.seat} of {self.game} ({self.kind}) on {self.host}:{self.port}"


class SeatStore:
    """The saved seats of one directory (default :func:`default_directory`)."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory if directory is not None else default_directory()
        self.path = self.directory / FILE_NAME

    def load(self) -> list[SavedSeat]:
        """Every saved seat, oldest first; ``[]`` when there is no file or it cannot be read
        (a damaged file is not fatal: the seats in it are lost, not the game)."""
        try:
            raw: Any = json.loads(self.path.read_text(encoding="utf-8"))
            return [SavedSeat(**{k: item[k] for k in _FIELDS}) for item in raw]
        except (OSError, ValueError, TypeError, KeyError):
            return []

    def for_server(self, host: str, port: int) -> list[SavedSeat]:
        """The saved seats on ``host``:``port``, newest first."""
        return [s for s in reversed(self.load()) if (s.host, s.port) == (host, port)]

    def save(self, seat: SavedSeat) -> None:
        """Keep ``seat`` (replacing any seat of the same game and server)."""
        kept = [
            s for s in self.load() if (s.host, s.port, s.game) != (seat.host, seat.port, seat.game)
        ]
        self._write([*kept, seat])

    def forget(self, token: str) -> None:
        """Drop the seat with ``token`` (its game is over, or the seat was freed)."""
        seats = self.load()
        kept = [s for s in seats if s.token != token]
        if len(kept) != len(seats):
            self._write(kept)

    def _write(self, seats: list[SavedSeat]) -> None:
        self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        temporary = self.path.with_suffix(".tmp")
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            json.dump([attrs.asdict(s) for s in seats], file, indent=1)
        os.replace(temporary, self.path)


_FIELDS = tuple(field.name for field in attrs.fields(SavedSeat))
