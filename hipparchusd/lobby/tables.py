"""A connection as the lobby sees it (:class:`Session`) and a game with its seats, tokens and
followers (:class:`Table`). Tokens are kept only as SHA-256 digests (:func:`token_digest`)."""

from __future__ import annotations

import hashlib

import attrs

from ..addresses import host_of
from ..games.base import GameKind, ServedGame
from ..protocol import Mode


@attrs.define(eq=False)
class Session:
    """One connection as the lobby sees it: its output ``mode``, the seat it holds in each game
    (game id to seat), the games it watches and the games it created (which count against
    its games limits while they wait for players). ``address`` is the host part of ``peer``,
    which the per-address limits count by."""

    id: int
    peer: str
    mode: Mode = Mode.TEXT
    seats: dict[str, int] = attrs.field(factory=dict)
    watching: set[str] = attrs.field(factory=set)
    created: set[str] = attrs.field(factory=set)
    address: str = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        self.address = host_of(self.peer)


@attrs.define(eq=False)
class Table:
    """A game and everything around it: its seats' names, holders and token digests, its
    spectators and its public event count ``seq``. ``unattended_since`` is the sweep time
    (:meth:`Lobby.drop_abandoned` before the start, :meth:`Lobby.adjourn_unfollowed` after)
    since which nobody has followed the game; ``None`` until a sweep finds it unfollowed, and
    again whenever a follower leaves."""

    id: str
    kind: GameKind
    game: ServedGame
    options: dict[str, str]
    created_at: float
    names: list[str | None]
    holders: list[Session | None]
    token_hashes: list[bytes | None]
    spectators: dict[Session, None] = attrs.field(factory=dict)
    seq: int = 0
    started: bool = False
    finished: bool = False
    unattended_since: float | None = None

    @property
    def status(self) -> str:
        """``waiting``, ``playing`` or ``over``."""
        if self.finished:
            return "over"
        return "playing" if self.started else "waiting"

    def followers(self) -> tuple[Session, ...]:
        """Seat holders, in seat order, then spectators, in the order they came."""
        held = [s for s in self.holders if s is not None]
        held += self.spectators
        return tuple(held)


def token_digest(token: str) -> bytes:
    """The SHA-256 digest under which a seat's token is kept."""
    return hashlib.sha256(token.encode()).digest()
