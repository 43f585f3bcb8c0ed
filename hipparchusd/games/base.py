"""The small interface between the daemon and a game's rules.

Every game the daemon serves lives in one folder, ``hipparchusd/games/<kind>/``, and reaches the
daemon through two things only:

- a :class:`Game` subclass, generic over its move, view and record types, so that
  ``mypy --strict`` checks each game against its own types;
- a :class:`~hipparchusd.games.registry.GameKind` entry in the registry
  (:mod:`hipparchusd.games.registry`): its name, its ``new`` options, how to create and restore a
  game, its codec, its engine adapter (an :class:`~hipparchusd.engine.position.AdapterRef`,
  loaded only where a search runs; a kind without one is not played by the engine), and where
  its part of the web page is (:class:`PageParts`: a folder the daemon serves as files, e.g.
  ``page/``; a kind without one plays on the page's generic table).

The daemon itself sees a game as a :class:`ServedGame`: seats, whose move it is (one seat, or
several at once for a simultaneous move), move *words*, JSON views and events, and nothing else of
the rules. All of it is pure and synchronous.

The contract every game keeps:

- **A move is one word** on the wire (no spaces): ``2E@5`` in Hipparchus, a card or a pass of
  several cards joined by ``,`` in planets. :meth:`Game.parse_move` reads one word and
  :meth:`Game.format_move` writes the canonical one; the two round-trip.
- **Legal moves** are either a list of move words (:class:`MoveList`) or, where listing every
  combination would be absurd, a choice of ``count`` distinct items (:class:`Pick`): the move is
  the chosen items joined by ``,``. A program that knows no game can pick a random legal move
  from either (PROTOCOL.md, "legal").
- **Hidden information** is decided here, in the core, not at print time: every :class:`Event`
  names its audience, and a view for a seat is built from what that seat may know (for
  Hipparchus, docs/rules.md on RULINGS H13).
- A refused call raises :class:`GameError` and changes nothing.
"""

from __future__ import annotations

import abc
import re
from collections.abc import Callable, Mapping, Sequence
from importlib.resources.abc import Traversable
from typing import ClassVar, Generic, Protocol, Self, TypeAlias, TypeVar

import attrs

from ..clocks.control import Absence, Timeout
from ..codec import Codec, Payload
from ..engine.position import AdapterRef
from ..jsondata import JSON

# The options are part of the interface a game declares itself through: handed on from here.
from .options import BadOption as BadOption
from .options import Option as Option
from .options import integer_option as integer_option

#: Audience of an event meant for everyone following the game: seats and spectators.
EVERYONE = None


@attrs.frozen(slots=True)
class Event:
    """Something that happened in a game.

    ``audience`` is ``None`` (everyone following the game: seats and spectators) or one seat
    number (that seat alone: its own cards, its own pass). ``payload`` is an attrs value the
    game defines.
    """

    audience: int | None
    payload: Payload


class GameError(Exception):
    """A move or request the game refuses; the game is unchanged.

    ``code`` is the protocol's error token; the message is for people, says why, and names
    nothing the requesting seat may not know.
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
    """How a finished game ended.

    ``winners``: the seats that won, in seat order (one seat, or several sharing a win).
    ``scores``: the final result per seat, in the game's own measure (Hipparchus: round wins;
    planets: total points). ``resigned``: the seat that resigned, if the game ended that way.
    ``abandoned``: the game did not end by its rules but was ended by the server, adjourned
    and resumed by nobody within the expiry (RULINGS H14): no winners, no scores
    (:meth:`abandonment`). ``operator``: ended by the server's operator (``hipparchusd admin
    end``): no winners, no scores (:meth:`operator_end`). ``aborted``: ended by the server
    because a seat never made its first decision in time (RULINGS T5): no winners, no scores
    (:meth:`abortion`). ``timeout``: the seat whose time ran out, when that ended the game as
    its resignation (T2; ``resigned`` names it too). ``claimed``: the resignation was claimed
    by another seat over a seat absent past the absence grace (T4; ``resigned`` names the
    absent seat).
    """

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    resigned: int | None = None
    abandoned: bool = False
    operator: bool = False
    aborted: bool = False
    timeout: int | None = None
    claimed: bool = False

    @classmethod
    def abandonment(cls) -> Outcome:
        """The outcome of a game ended as abandoned (RULINGS H14): nobody won."""
        return cls((), (), None, abandoned=True)

    @classmethod
    def operator_end(cls) -> Outcome:
        """The outcome of a game the server's operator ended: nobody won."""
        return cls((), (), None, operator=True)

    @classmethod
    def abortion(cls) -> Outcome:
        """The outcome of a game aborted (RULINGS T5): nobody won, no result."""
        return cls((), (), None, aborted=True)


@attrs.frozen(slots=True)
class ToMove:
    """The generic event every game sends, through the lobby, after each change: ``seats`` must
    move now (one seat, or several at once for a simultaneous move), in seat order."""

    kind: ClassVar[str] = "to-move"
    seats: tuple[int, ...]


@attrs.frozen(slots=True)
class GameOver:
    """The generic event that ends every game: its :class:`Outcome`'s ``winners`` (one or
    several), ``scores`` per seat (the game's final result) and the seat that ``resigned``;
    ``abandoned`` for a game the server ended as abandoned (no winners, no scores: on the wire
    ``game-over winners=- scores=- resigned=- abandoned=true``), ``operator`` likewise for a
    game the server's operator ended (``operator=true``), ``aborted`` for an aborted game
    (T5), ``timeout`` for the seat whose time ran out (T2) and ``claimed`` for a claimed
    resignation (T4). Each of these five is left out of the event when not set, so that every
    other game's event reads as it always has."""

    kind: ClassVar[str] = "game-over"
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    resigned: int | None
    abandoned: bool = False
    operator: bool = False
    aborted: bool = False
    timeout: int | None = None
    claimed: bool = False

    @classmethod
    def of(cls, outcome: Outcome) -> GameOver:
        """The event for ``outcome``."""
        return cls(
            outcome.winners,
            outcome.scores,
            outcome.resigned,
            outcome.abandoned,
            outcome.operator,
            outcome.aborted,
            outcome.timeout,
            outcome.claimed,
        )


def progress(game: ServedGame) -> Event:
    """The generic event that says where ``game`` stands: :class:`GameOver` once it has ended,
    else :class:`ToMove` with the seats that must move."""
    outcome = game.outcome
    if outcome is not None:
        return Event(EVERYONE, GameOver.of(outcome))
    seats = game.seats_to_move()
    event = _TO_MOVE.get(seats)
    if event is None:
        event = _TO_MOVE[seats] = Event(EVERYONE, ToMove(tuple(sorted(seats))))
    return event


#: The ``to-move`` event of each set of seats, made once (events are immutable): every move
#: publishes one, and a game has few such sets (one per seat, mostly).
_TO_MOVE: dict[frozenset[int], Event] = {}


@attrs.frozen(slots=True)
class MoveList:
    """Legal moves given one by one: each of ``moves`` is a legal move word (canonical), and
    ``described`` holds a JSON description of each, in the same order (empty unless asked for:
    it is made only for JSON-mode connections)."""

    moves: tuple[str, ...]
    described: tuple[dict[str, JSON], ...] = ()


@attrs.frozen(slots=True)
class Pick:
    """A legal move made by choosing ``count`` distinct words of ``items`` and joining them
    with ``,`` (every such choice is legal, in any order). ``to`` gives, when the choice has
    targets, the seat that the i-th chosen item goes to (``len(to) == count``); ``None`` when
    it has none. Example: planets' pass of 3 cards to three different seats.

    On the wire it is ``pick <count> <item>... [to=<seat>,...]`` (PROTOCOL.md, "Moves"), which
    a program tells from a list of moves by its first word: so an item never holds ``,``,
    ``=`` or a blank, and no game has a move word ``pick``."""

    count: int
    items: tuple[str, ...]
    to: tuple[int, ...] | None = None


#: What ``legal`` answers: a list of moves, or a choice.
Legal: TypeAlias = MoveList | Pick

MoveT = TypeVar("MoveT")
ViewT = TypeVar("ViewT")
RecordT = TypeVar("RecordT")


class ServedGame(Protocol):
    """A game as the daemon drives it, whatever its kind: words and JSON in and out. Every
    :class:`Game` is one. Implementations are mutable holders of an immutable rules state."""

    @property
    def kind(self) -> str:
        """The game kind's name (``new <kind>``)."""
        ...

    @property
    def seat_count(self) -> int:
        """Seats at the table, numbered from 0."""
        ...

    @property
    def fixed_deal(self) -> bool:
        """True when the deals were fixed at creation (a seed or an explicit deal)."""
        ...

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        ...

    def start(self) -> list[Event]:
        """Events announcing the game's first position. Called once, when every seat is
        taken."""
        ...

    def seats_to_move(self) -> frozenset[int]:
        """The seats that must move now: empty when the game is over, several for a
        simultaneous move."""
        ...

    def legal(self, seat: int, *, describe: bool = False) -> Legal:
        """``seat``'s legal moves now (an empty :class:`MoveList` when it need not move);
        ``describe`` adds JSON descriptions to a :class:`MoveList`."""
        ...

    def play_word(self, seat: int, word: str) -> tuple[str, list[Event]]:
        """Make ``seat``'s move written ``word``; return its canonical word and the events.

        Raises:
            NotYourTurn, IllegalMove, GameFinished: see :meth:`Game.play`.
        """
        ...

    def resign(self, seat: int) -> list[Event]:
        """``seat`` resigns (see :meth:`Game.resign`)."""
        ...

    def view_data(self, seat: int | None) -> JSON:
        """:meth:`Game.view` for ``seat`` (``None``: a spectator) as JSON data."""
        ...

    def record_data(self) -> JSON:
        """:meth:`Game.record` as JSON data. It reveals every card: serve it only once the
        game is over."""
        ...

    def event_data(self, payload: Payload) -> dict[str, JSON]:
        """An event payload of this game as a JSON object (without its ``kind``)."""
        ...

    def turn_refusal(self, seat: int) -> str:
        """Why ``seat``, which is not among the seats to move, may not move now."""
        ...

    def decisions_left(self, seat: int) -> int | None:
        """How many decisions ``seat`` still makes in the hand or round (see
        :meth:`Game.decisions_left`)."""
        ...

    def fork(self) -> Self:
        """An independent copy of the game as it stands (see :meth:`Game.fork`)."""
        ...


class Game(abc.ABC, Generic[MoveT, ViewT, RecordT]):
    """A game in progress: the base of every game's class.

    A subclass gives the typed rules (the abstract methods) and two class attributes: ``kind``,
    its name, and ``codec``, the :class:`~hipparchusd.codec.Codec` that turns its views, events
    and records into JSON. This class then provides the daemon's word-and-JSON side
    (:class:`ServedGame`). Every method that refuses raises :class:`GameError` and changes
    nothing.
    """

    #: The name clients use in ``new <kind>``.
    kind: ClassVar[str]
    #: The game's cattrs codec (its hooks, wire names, schema version).
    codec: ClassVar[Codec]

    # The rules, typed.

    @property
    @abc.abstractmethod
    def seat_count(self) -> int:
        """Seats at the table, numbered from 0."""

    @property
    @abc.abstractmethod
    def fixed_deal(self) -> bool:
        """True when the deals were fixed at creation (a seed or an explicit deal)."""

    @property
    @abc.abstractmethod
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""

    @abc.abstractmethod
    def start(self) -> list[Event]:
        """Events announcing the game's first position (the first deal, the first turn). Called
        once, when every seat is taken."""

    @abc.abstractmethod
    def seats_to_move(self) -> frozenset[int]:
        """The seats that must move now: empty when the game is over, several when a game has
        simultaneous moves."""

    @abc.abstractmethod
    def legal_moves(self, seat: int) -> Sequence[MoveT] | Pick:
        """The legal moves of ``seat`` now, listed, or described as a :class:`Pick`; an empty
        sequence when it need not move."""

    @abc.abstractmethod
    def parse_move(self, seat: int, word: str) -> MoveT:
        """The move ``seat`` means by ``word``, in the game's notation.

        Raises:
            IllegalMove: ``word`` is not a move, saying what and where.
        """

    @abc.abstractmethod
    def format_move(self, move: MoveT) -> str:
        """The canonical notation of ``move``: one word."""

    @abc.abstractmethod
    def describe_move(self, seat: int, move: MoveT) -> dict[str, JSON]:
        """A JSON-ready description of ``seat``'s ``move`` for GUIs (e.g. which cards it takes);
        it includes ``"move"``, the canonical word."""

    @abc.abstractmethod
    def play(self, seat: int, move: MoveT) -> list[Event]:
        """Make ``seat``'s move; return the events it caused, in order.

        Raises:
            NotYourTurn: ``seat`` must not move now.
            IllegalMove: ``move`` is not legal for ``seat``; the message says why.
            GameFinished: the game is over.
        """

    @abc.abstractmethod
    def resign(self, seat: int) -> list[Event]:
        """``seat`` resigns: the game ends at once. With two seats the other wins; with more,
        the resigning seat is ranked last and the game's own rule picks the winners (planets:
        RULINGS P16, docs/planets.md).

        Raises:
            GameFinished: the game is over.
            IllegalMove: no such seat.
        """

    @abc.abstractmethod
    def view(self, seat: int | None) -> ViewT:
        """What ``seat`` (or a spectator, for ``None``) may see now, as an attrs value that holds
        no hidden information."""

    @abc.abstractmethod
    def record(self) -> RecordT:
        """Everything needed to replay the game exactly (every deal and move), as an attrs
        value. It reveals every card: serve it only once the game is over."""

    @abc.abstractmethod
    def fork(self) -> Self:
        """An independent copy of the game as it stands: moves played or resignations made on
        the copy leave this game unchanged, and the reverse. The daemon plays a move on a fork
        and keeps it only once the move is stored, so that a move that cannot be stored changes
        nothing."""

    def turn_refusal(self, seat: int) -> str:
        """Why ``seat``, which is not among :meth:`seats_to_move`, may not move now: the
        message of the :class:`NotYourTurn` that :meth:`play` raises. A game whose seats can
        be out of turn for a reason of their own (planets: a seat that has passed) says so."""
        return "it is not your turn"

    def decisions_left(self, seat: int) -> int | None:
        """How many decisions ``seat`` still makes in the current hand or round, the one due
        now included, at most (an estimate that may be high, never low): what the engine's
        seats share their clock's bank over (RULINGS T1; :func:`hipparchusd.clocks.
        decision_budget`). ``None`` (the default) when the game cannot say."""
        return None

    # The daemon's side, the same for every game.

    def legal(self, seat: int, *, describe: bool = False) -> Legal:
        """:meth:`legal_moves` in words (see :class:`ServedGame`)."""
        moves = self.legal_moves(seat)
        if isinstance(moves, Pick):
            return moves
        format_move = self.format_move
        words = tuple(map(format_move, moves))
        if not describe:
            return MoveList(words)
        return MoveList(words, tuple(self.describe_move(seat, move) for move in moves))

    def play_word(self, seat: int, word: str) -> tuple[str, list[Event]]:
        """Parse ``word`` as ``seat``'s move and play it; answer the canonical word and the
        events.

        Raises:
            IllegalMove, NotYourTurn, GameFinished: see :meth:`play` and :meth:`parse_move`.
        """
        move = self.parse_move(seat, word)
        return self.format_move(move), self.play(seat, move)

    def view_data(self, seat: int | None) -> JSON:
        """:meth:`view` as JSON data."""
        return self.codec.unstructure(self.view(seat))

    def record_data(self) -> JSON:
        """:meth:`record` as JSON data (no envelope: :meth:`Codec.dump_record` adds one)."""
        return self.codec.unstructure(self.record())

    def event_data(self, payload: Payload) -> dict[str, JSON]:
        """An event payload of this game as a JSON object (:meth:`Codec.payload_data`)."""
        return self.codec.payload_data(payload)


# A game kind: what the registry holds of each game.


@attrs.frozen
class PageParts:
    """Where a game kind's part of the web page is: the folder ``folder`` of the package
    ``package`` (read as package data with :mod:`importlib.resources`; the daemon serves its
    files and never imports them). ``module`` is its table module, a JavaScript module whose
    default export extends the page's ``Table`` (``hipparchusd/web/static/table.js``);
    ``styles`` are its style sheets, applied with the table. The daemon serves the folder at
    ``games/<kind>/`` beside the page (so the page's shared modules are ``../../<name>.js``
    from there) and names the module and the styles in ``pages.json``
    (:mod:`hipparchusd.web.site`)."""

    package: str
    folder: str = "page"
    module: str = "table.js"
    styles: tuple[str, ...] = ("style.css",)


@attrs.frozen
class GameKind:
    """One game the daemon serves.

    ``name`` is the word in ``new <kind>``; ``summary`` says in a line what the game is;
    ``seats`` the seat counts it can be played with (for ``help``); ``options`` its ``new``
    options. ``create`` builds a game from the option values given (raising
    :class:`BadOption`). ``restore`` rebuilds a started game from its creation options and a
    stored snapshot (the JSON data of ``Game.record()``), raising ``ValueError`` when it cannot.
    ``new_deal`` tells from a move's events whether new cards were dealt, which is when the
    daemon stores a fresh snapshot (so that a restart does not replay a whole match).
    ``engine`` names the module of the game's engine adapter (``hipparchusd.engine.position``),
    imported only where a search runs; ``None`` for a game the engine does not play (``bot``,
    ``genmove`` and ``analyze`` then fail with an error naming the kind).
    ``page`` says where the kind's web page parts are (:class:`PageParts`); a kind without
    them (``None``) is played on the page's generic table.

    What the terminal client needs of the game, which the daemon neither imports nor reads:

    - ``tui``: where the game's terminal screen is, as ``module:Class`` (the notation of an
      entry point), e.g. ``hipparchusd.games.hipparchus.tui.screen:HipparchusScreen``; the
      terminal client (:mod:`hipparchusd.play`) imports it when it opens a game of the kind.
      ``None``: the client plays the game with its generic screen, through ``to-move``,
      ``legal``, ``play`` and ``game-over`` alone.
    - ``rules``: the game's rules for players (Markdown), a file shipped in the game's folder
      (:func:`importlib.resources.files`), read by :meth:`rules_text`; ``None`` when the game
      has none.

    What the game's clocks do (RULINGS T2, T4; the options of every timed game are the
    lobby's, :mod:`hipparchusd.clocks.control`): ``timeout``, what a seat's running out of
    time does unless ``timeout=`` says otherwise (a resignation by default), and
    ``on_absence``, what a seat's absence past the absence grace allows (a claim by the other
    seats by default, or the engine playing for it).

    Raises:
        ValueError: a ``tui`` that is not written ``module:Class``.
    """

    name: str
    summary: str
    seats: str
    options: Sequence[Option]
    create: Callable[[Mapping[str, str]], ServedGame]
    restore: Callable[[Mapping[str, str], JSON], ServedGame]
    new_deal: Callable[[Sequence[Event]], bool]
    codec: Codec
    engine: AdapterRef | None = None
    page: PageParts | None = None
    tui: str | None = attrs.field(default=None, kw_only=True)
    rules: Traversable | None = attrs.field(default=None, kw_only=True)
    timeout: Timeout = attrs.field(default=Timeout.RESIGN, kw_only=True)
    on_absence: Absence = attrs.field(default=Absence.CLAIM, kw_only=True)

    @tui.validator
    def _check_tui(self, _: object, tui: str | None) -> None:
        if tui is not None and _OBJECT_REFERENCE.fullmatch(tui) is None:
            raise ValueError(f"{self.name}: tui must be written module:Class, not {tui!r}")

    def rules_text(self) -> str | None:
        """The game's rules for players (Markdown), or ``None`` when it ships none.

        Raises:
            OSError: the file named by ``rules`` cannot be read (a broken install).
        """
        return None if self.rules is None else self.rules.read_text(encoding="utf-8")

    def option_usage(self) -> list[str]:
        """One line per option, for ``help new``."""
        return [option.usage for option in self.options]

    def check_options(self, options: Mapping[str, str], also: Sequence[str] = ()) -> None:
        """Refuse unknown option keys and empty values; ``also`` are keys the caller takes
        besides the kind's own (the lobby's time options), known too.

        Raises:
            BadOption: naming the key (cut to 40 characters) and the known ones.
        """
        known = [option.key for option in self.options] + list(also)
        for key, value in options.items():
            if key not in known:
                raise BadOption(
                    f"unknown option {key[:40]!r} for {self.name} (known: {', '.join(known)})"
                )
            if not value:
                raise BadOption(f"option {key} has no value")


#: ``module.path:Name``: an entry point's object reference (the packaging specification's
#: "Entry points" notation), without extras.
_OBJECT_REFERENCE = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")


def deal_announced_by(payload: type[Payload]) -> Callable[[Sequence[Event]], bool]:
    """A :attr:`GameKind.new_deal` for a game whose every deal is announced by one event class
    (Hipparchus: ``round-started``; planets: ``hand-started``)."""

    def new_deal(events: Sequence[Event]) -> bool:
        return any(type(event.payload) is payload for event in events)

    return new_deal
