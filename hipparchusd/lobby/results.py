"""What a lobby call did, for the server to carry out: store commands first, then the
response, then the events to their recipients (:class:`Result`); or what the answer needs
from the store first (:data:`StoreNeed`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

import attrs

from ..engine.types import Analysis
from ..jsondata import JSON
from ..records import StoreCommand, StoredGame
from .messages import EventMessage, Response
from .tables import Session


@attrs.frozen
class NeedsStoredGame:
    """The answer needs the finished game ``game_id``, which only the store holds (finished
    before a restart, or forgotten by the lobby since): the shell asks the store for it
    (``GameStore.load_finished``) and, if the store has it, answers with ``answer(game)``
    instead of the result that carries this."""

    game_id: str
    answer: Callable[[StoredGame], Result]


@attrs.frozen
class NeedsStoredToken:
    """The answer needs the game with a seat whose token digest is ``token_hash``, which only
    the store holds (an adjourned game): the shell asks the store for it
    (``GameStore.find_by_token``), loads it into the lobby again (``Lobby.bring_back``, and
    stores what the restore decided), then answers with ``retry()``, the request prepared
    anew, instead of the result that carries this."""

    token_hash: bytes
    retry: Callable[[], Result]


@attrs.frozen
class NeedsSearch:
    """The answer needs an engine search (``genmove``): the shell runs it off the lobby's
    thread (:class:`hipparchusd.server.engines.Engines`) for ``seat`` of ``game_id``, whose
    view ``view`` (of game kind ``kind``) is all the engine sees, at ``level`` (a level word,
    :meth:`hipparchusd.engine.types.Level.parse`), then answers with ``answer(analysis,
    now)`` (``now`` the server's monotonic seconds then), prepared in the game's order,
    instead of the result that carries this. The shell answers ``limit`` when too many
    searches run."""

    game_id: str
    seat: int
    kind: str
    view: JSON
    level: str
    answer: Callable[[Analysis, float], Result]


#: What a result may ask the shell to fetch from the store (or the engine) before it is
#: answered.
StoreNeed: TypeAlias = NeedsStoredGame | NeedsStoredToken | NeedsSearch


# What a result asks of the engine besides (:attr:`Result.engine`): searches the shell starts
# and stops, none of them awaited by the request.


@attrs.frozen
class BotTurn:
    """The engine's seat ``seat`` of ``game_id`` must move: search its ``view`` (all it sees,
    of game kind ``kind``) at ``level`` (a level word), then play the move found through
    :meth:`hipparchusd.lobby.Lobby.bot_play` in the game's order, naming ``turn``, the seat's
    decision it is for (:attr:`hipparchusd.lobby.tables.Seat.turn`). ``address`` is the peer
    address of the game's creator (``""`` if not known), whose turn the search takes among
    everyone's searches.

    In a timed game (RULINGS T1), ``level``'s budget is already within the seat's share of its
    clock for the decision (:func:`hipparchusd.clocks.decision_budget`), and ``until`` is when
    that share ends (the server's monotonic seconds): a search that waited for a worker must
    end before it, or not be made; ``None`` untimed."""

    game_id: str
    seat: int
    kind: str
    view: JSON
    level: str
    turn: int = 0
    until: float | None = None
    address: str = ""


@attrs.frozen
class AnalysisStream:
    """Stream ``info`` events to ``session`` (``analyze``): search ``seat``'s ``view`` of
    ``game_id`` at ``level``, each report every ``interval_ms`` made into events by
    :meth:`hipparchusd.lobby.Lobby.analysis_messages`, until the budget is spent, the client
    sends another request, leaves, or the game ends."""

    session: Session
    game_id: str
    seat: int
    kind: str
    view: JSON
    level: str
    interval_ms: int


@attrs.frozen
class StopSearches:
    """Stop every search on ``game_id`` (it ended, or left memory)."""

    game_id: str


#: A search the result starts or stops.
EngineJob: TypeAlias = BotTurn | AnalysisStream | StopSearches


@attrs.define(slots=True)
class Delivery:
    """``message`` for each of ``sessions``. Treat it as immutable; it is not frozen because
    several are made per request, and a frozen class's ``__init__`` costs an
    ``object.__setattr__`` call per field."""

    sessions: tuple[Session, ...]
    message: EventMessage


@attrs.define
class Result:
    """What a call did: the ``response`` (``None`` when there is no request), the store
    commands to complete first (:mod:`hipparchusd.records`), the events to deliver after the
    response, the games it touched (the server keeps each game's results in order), and
    whether to close the connection.

    ``pending`` is the change still to make (see :meth:`commit`); the first of ``store_calls``
    records it, the others (a snapshot, a finished game's record) follow it. A result with
    nothing pending made its change at once, as one that cannot be refused (a seat left, a
    connection gone, an abandoned game dropped): its store calls all follow the change.

    ``engine`` lists the searches the shell starts or stops once the result is carried out
    (:data:`EngineJob`): the lobby never waits for the engine.

    ``needs``, when set, asks the shell for a game only the store holds (or for a search): the
    shell fetches it and takes the result the need gives back in this one's place
    (:data:`StoreNeed`); when the store has no such game, this result (a refusal) stands.
    """

    response: Response | None = None
    store_calls: list[StoreCommand] = attrs.field(factory=list)
    deliveries: list[Delivery] = attrs.field(factory=list)
    games: tuple[str, ...] = ()
    close: bool = False
    pending: Callable[[], None] | None = None
    needs: StoreNeed | None = None
    #: Searches to start or stop once the result is carried out (filled by the commit too).
    engine: list[EngineJob] = attrs.field(factory=list)

    def commit(self) -> None:
        """Make the pending change (a prepared result, :meth:`Lobby.prepare`): the lobby and
        the game change and :attr:`deliveries` get the events. Call it once the first store
        call succeeded; never call it when that call failed, and nothing changes. A second
        call, or a result with nothing pending, does nothing."""
        pending, self.pending = self.pending, None
        if pending is not None:
            pending()
