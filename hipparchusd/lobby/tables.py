"""A connection as the lobby sees it (:class:`Session`) and a game with its seats, tokens,
followers and lifecycle (:class:`Table`, :class:`Seat`, :class:`Lifecycle`). Tokens are kept
only as SHA-256 digests (:func:`token_digest`)."""

from __future__ import annotations

import enum
import hashlib
from collections.abc import Mapping

import attrs

from ..addresses import host_of
from ..clocks import Clocks, TimeRules
from ..games.base import GameKind, Outcome, ServedGame
from ..jsondata import JSON, JSONObject
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


class Lifecycle(enum.Enum):
    """Where a game is in its life; :data:`TRANSITIONS` says where each can go next."""

    #: Created; seats are being taken. Dropped if nobody follows it for the abandon timeout.
    WAITING = "waiting"
    #: Every seat taken, the first deal made; moves are played.
    PLAYING = "playing"
    #: In the store only: nobody followed it for the adjourn timeout; ``resume`` brings it back.
    ADJOURNED = "adjourned"
    #: Ended (won, shared, resigned, or abandoned: adjourned past the expiry); kept for
    #: ``record`` and ``state``.
    OVER = "over"
    #: Forgotten before it started: nobody followed it.
    DROPPED = "dropped"


#: The lifecycle's transitions, all in one place: from each state, the states it may enter.
TRANSITIONS: Mapping[Lifecycle, frozenset[Lifecycle]] = {
    Lifecycle.WAITING: frozenset((Lifecycle.PLAYING, Lifecycle.DROPPED)),
    Lifecycle.PLAYING: frozenset((Lifecycle.ADJOURNED, Lifecycle.OVER)),
    Lifecycle.ADJOURNED: frozenset((Lifecycle.PLAYING, Lifecycle.OVER)),
    Lifecycle.OVER: frozenset(),
    Lifecycle.DROPPED: frozenset(),
}


@attrs.define(eq=False)
class Seat:
    """One seat of a table: the ``name`` it was taken under (``None`` while free), the
    connection that ``holder``s it now (``None`` while nobody does: free, or reserved for its
    token after a drop) and the SHA-256 ``token_digest`` of its token (``None`` while free)."""

    name: str | None = None
    holder: Session | None = None
    token_digest: bytes | None = None
    #: The engine's level word (``random``, ``ismcts:200ms``...) when the daemon's engine plays
    #: this seat (``bot``; its token is a secret nobody was given), else ``None``.
    bot: str | None = None
    #: True while the engine searches this seat's move (not stored: a restart searches again).
    thinking: bool = False
    #: When (the server's monotonic seconds) the seat's connection went away from the started
    #: game (a drop, ``leave``, or a restart: nobody holds it); ``None`` while it is held, and
    #: for the engine's seats (RULINGS T4).
    away_since: float | None = None
    #: True once the seat has been away for the whole absence grace and everyone was told
    #: (the ``absent`` event), until its holder resumes it.
    absent: bool = False
    #: The seat's decisions made since the game was loaded (not stored): an engine's search
    #: for the seat names the one it is for, so that a move found for a decision the server
    #: made meanwhile (T2, T4) is not played for the next one.
    turn: int = 0

    @property
    def taken(self) -> bool:
        """True once a name sits here (held or reserved for its token)."""
        return self.name is not None

    @property
    def presence(self) -> str:
        """What ``state`` says of the seat (RULINGS T4): ``here`` (a connection holds it),
        ``engine`` (the daemon's engine plays it), ``away`` (its connection went away) or
        ``absent`` (away for the whole absence grace)."""
        if self.bot is not None:
            return "engine"
        if self.holder is not None:
            return "here"
        return "absent" if self.absent else "away"


@attrs.define(eq=False)
class Table:
    """A game and everything around it: its :class:`Seat` records, its spectators, its
    public event count ``seq`` and its :class:`Lifecycle` state. ``unattended_since`` is the
    sweep time (:meth:`Lobby.drop_abandoned` before the start, :meth:`Lobby.adjourn_unfollowed`
    after) since which nobody has followed the game; ``None`` until a sweep finds it
    unfollowed, and again whenever a follower leaves. ``abandoned``: the game is over because
    nobody resumed it within the adjourn expiry (RULINGS H14), not by its rules (its game
    then has no outcome of its own)."""

    id: str
    kind: GameKind
    game: ServedGame
    options: dict[str, str]
    created_at: float
    seats: list[Seat]
    spectators: dict[Session, None] = attrs.field(factory=dict)
    seq: int = 0
    lifecycle: Lifecycle = Lifecycle.WAITING
    unattended_since: float | None = None
    abandoned: bool = False
    #: The game's time options (RULINGS T1-T5): untimed, with the default absence grace,
    #: unless ``new`` gave ``clock=`` or another time option.
    rules: TimeRules = attrs.field(factory=TimeRules)
    #: The clocks of a timed game once it has started (``None`` untimed, or before the start).
    clocks: Clocks | None = None
    #: The moves made so far (the plies of the timing record).
    plies: int = 0
    #: The timing record's decisions so far: one JSON object for each decision the clocks
    #: timed or the server made (:meth:`~hipparchusd.lobby.timing.Timing._timing_record`).
    decisions: list[JSONObject] = attrs.field(factory=list)
    #: How the server ended the game when not by its rules or not as they would (its clocks
    #: or an absence: an abort, a flag, a claim; or the server's operator: ``hipparchusd admin
    #: end``): the outcome to report, in place of the game's own.
    ended: Outcome | None = None
    #: The session id and peer address of the connection that created the game, which its
    #: engine-only limits count against and whose turn its engine seats' searches take
    #: (issue 24 item 6); ``None`` for a game restored after a restart (not stored).
    creator: int | None = None
    creator_address: str | None = None
    #: True once every seat was taken and the game began (playing or over). Kept with
    #: ``lifecycle`` by :meth:`enter` (the only way it changes) rather than derived on each
    #: read: every request on a game asks, several times.
    started: bool = attrs.field(init=False)
    #: True once the game has ended (``lifecycle`` is ``over``); kept as ``started`` is.
    finished: bool = attrs.field(init=False)
    #: The seats the daemon's engine plays, known once the game starts: every seat is taken
    #: then, and no seat is freed or taken again after (``resume`` changes only its holder),
    #: so that a move in a game without any need not look for a search to start.
    bot_seats: frozenset[int] = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        self._entered()

    @classmethod
    def new(
        cls,
        game_id: str,
        kind: GameKind,
        game: ServedGame,
        options: Mapping[str, str],
        created_at: float,
        rules: TimeRules | None = None,
    ) -> Table:
        """A table for ``game``, waiting for players, every seat free, with the time options
        ``rules`` (untimed by default)."""
        seats = [Seat() for _ in range(game.seat_count)]
        table = cls(game_id, kind, game, dict(options), created_at, seats)
        if rules is not None:
            table.rules = rules
        return table

    def enter(self, state: Lifecycle) -> None:
        """Move to ``state``.

        Raises:
            ValueError: :data:`TRANSITIONS` has no such step (a bug in the caller).
        """
        if state not in TRANSITIONS[self.lifecycle]:
            raise ValueError(
                f"game {self.id} cannot go from {self.lifecycle.value} to {state.value}"
            )
        self.lifecycle = state
        self._entered()

    def _entered(self) -> None:
        """Bring what follows from ``lifecycle`` up to date with it."""
        self.started = self.lifecycle is not Lifecycle.WAITING
        self.finished = self.lifecycle is Lifecycle.OVER
        self.bot_seats = (
            frozenset(n for n, seat in enumerate(self.seats) if seat.bot is not None)
            if self.started
            else frozenset()
        )

    @property
    def engine_only(self) -> bool:
        """Whether the daemon's engine plays every seat (``bot``): nobody holds a token."""
        return all(seat.bot is not None for seat in self.seats)

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (``None`` while it goes on): the game's own outcome, or
        :meth:`Outcome.abandonment` for a game ended as abandoned, :attr:`ended` for one the
        server ended otherwise."""
        if self.abandoned:
            return Outcome.abandonment()
        if self.ended is not None:
            return self.ended
        return self.game.outcome

    @property
    def status(self) -> str:
        """``waiting``, ``playing`` or ``over``, as ``games`` and ``state`` say."""
        return self.lifecycle.value

    def presence(self) -> list[JSON]:
        """Each seat's :attr:`Seat.presence`, ``None`` for a free seat."""
        return [seat.presence if seat.taken else None for seat in self.seats]

    @property
    def names(self) -> list[str | None]:
        """Each seat's name, ``None`` for a free seat (``players`` in answers)."""
        return [seat.name for seat in self.seats]

    def followers(self) -> tuple[Session, ...]:
        """Seat holders, in seat order, then spectators, in the order they came."""
        held = [seat.holder for seat in self.seats if seat.holder is not None]
        held += self.spectators
        return tuple(held)


def token_digest(token: str) -> bytes:
    """The SHA-256 digest under which a seat's token is kept."""
    return hashlib.sha256(token.encode()).digest()
