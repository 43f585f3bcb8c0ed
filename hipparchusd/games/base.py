"""The small interface between the daemon and a game's rules.

Every game the daemon serves (Hipparchus now, planets later) implements :class:`Game`. The daemon
knows seats, whose move it is (one seat or several at once, for games with simultaneous moves),
move text, views and events, and nothing else of the rules. All of it is pure and synchronous.

Hidden information is decided here, in the core, not at print time: every :class:`Event` names
its audience, and a view for a seat is built from what that seat may know (RULINGS H13).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Protocol

import attrs

#: Audience of an event meant for everyone following the game: seats and spectators.
EVERYONE = None


@attrs.frozen(slots=True)
class Event:
    """Something that happened in a game.

    ``audience`` is ``None`` (everyone following the game: seats and spectators) or one seat
    number (that seat alone: its own cards). ``payload`` is an attrs value the game defines; its
    ``kind`` class attribute names it on the wire (e.g. ``"played"``).
    """

    audience: int | None
    payload: Any


class GameError(Exception):
    """A move or request the game refuses; the game is unchanged.

    ``code`` is the protocol's error token; the message is for people and names nothing the
    requesting seat may not know.
    """

    code: ClassVar[str] = "illegal-move"


class IllegalMove(GameError):
    """Not a legal move for this seat in this position (or not parseable as one)."""

    code = "illegal-move"


class NotYourTurn(GameError):
    """The seat is not among those that must move now."""

    code = "not-your-turn"


class GameFinished(GameError):
    """The game is over; no more moves."""

    code = "game-over"


@attrs.frozen(slots=True)
class Outcome:
    """How a finished game ended: ``winners`` (one seat, or several sharing a win), and
    ``resigned``, the seat that resigned, if the game ended that way."""

    winners: tuple[int, ...]
    resigned: int | None = None


class Game(Protocol):
    """A game in progress, as the daemon drives it. Implementations are mutable holders of an
    immutable rules state: a refused call raises :class:`GameError` and changes nothing.
    """

    #: The name clients use in ``new <kind>``.
    kind: ClassVar[str]

    @property
    def seat_count(self) -> int:
        """Seats at the table, numbered from 0."""
        ...

    @property
    def fixed_deal(self) -> bool:
        """True when the deals were fixed at creation (a seed or an explicit deal)."""
        ...

    def start(self) -> list[Event]:
        """Events announcing the game's first position (the first deal, the first turn). Called
        once, when every seat is taken."""
        ...

    def seats_to_move(self) -> frozenset[int]:
        """The seats that must move now: empty when the game is over, several when a game has
        simultaneous moves."""
        ...

    def legal_moves(self, seat: int) -> Sequence[Any]:
        """The legal moves of ``seat`` now (empty when it need not move)."""
        ...

    def parse_move(self, seat: int, text: str) -> Any:
        """The move ``seat`` means by ``text``, in the game's notation.

        Raises:
            IllegalMove: ``text`` is not a move, naming what and where.
        """
        ...

    def format_move(self, move: Any) -> str:
        """The canonical notation of ``move``."""
        ...

    def describe_move(self, move: Any) -> dict[str, Any]:
        """A JSON-ready description of ``move`` for GUIs (e.g. which cards it takes)."""
        ...

    def play(self, seat: int, move: Any) -> list[Event]:
        """Make ``seat``'s move; return the events it caused, in order.

        Raises:
            NotYourTurn: ``seat`` must not move now.
            IllegalMove: ``move`` is not legal for ``seat``.
            GameFinished: the game is over.
        """
        ...

    def resign(self, seat: int) -> list[Event]:
        """``seat`` resigns: the game ends, the others win.

        Raises:
            GameFinished: the game is over.
        """
        ...

    def view(self, seat: int | None) -> Any:
        """What ``seat`` (or a spectator, for ``None``) may see now, as an attrs value that holds
        no hidden information."""
        ...

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        ...

    def record(self) -> Any:
        """Everything needed to replay the game exactly (every deal and move), as an attrs
        value. It reveals every card: serve it only once the game is over."""
        ...

    def fork(self) -> Game:
        """An independent copy of the game as it stands: moves played or resignations made on
        the copy leave this game unchanged, and the reverse. The daemon plays a move on a fork
        and keeps it only once the move is stored, so that a move that cannot be stored changes
        nothing."""
        ...
