"""What a lobby call did, for the server to carry out: store calls first, then the response,
then the events to their recipients (:class:`Result`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from ..store.base import GameStore
from .messages import EventMessage, Response
from .tables import Session


@attrs.define(slots=True)
class StoreCall:
    """A call to make on the :class:`~hipparchusd.store.base.GameStore`: ``method`` with
    ``args``. The server awaits it before sending anything of the same result. Treat it as
    immutable (not frozen: one or more are made per move, see :class:`Delivery`)."""

    method: str
    args: tuple[Any, ...]

    async def apply(self, store: GameStore) -> None:
        """Await the call on ``store``."""
        await getattr(store, self.method)(*self.args)


@attrs.define(slots=True)
class Delivery:
    """``message`` for each of ``sessions``. Treat it as immutable; it is not frozen because
    several are made per request, and a frozen class's ``__init__`` costs an
    ``object.__setattr__`` call per field."""

    sessions: tuple[Session, ...]
    message: EventMessage


@attrs.define
class Result:
    """What a call did: the ``response`` (``None`` when there is no request), the store calls
    to complete first, the events to deliver after the response, the games it touched (the
    server keeps each game's results in order), and whether to close the connection.

    ``pending`` is the change still to make (see :meth:`commit`); the first of ``store_calls``
    records it, the others (a snapshot, a finished game's record) follow it. A result with
    nothing pending made its change at once, as one that cannot be refused (a seat left, a
    connection gone, an abandoned game dropped): its store calls all follow the change.
    """

    response: Response | None = None
    store_calls: list[StoreCall] = attrs.field(factory=list)
    deliveries: list[Delivery] = attrs.field(factory=list)
    games: tuple[str, ...] = ()
    close: bool = False
    pending: Callable[[], None] | None = None

    def commit(self) -> None:
        """Make the pending change (a prepared result, :meth:`Lobby.prepare`): the lobby and
        the game change and :attr:`deliveries` get the events. Call it once the first store
        call succeeded; never call it when that call failed, and nothing changes. A second
        call, or a result with nothing pending, does nothing."""
        pending, self.pending = self.pending, None
        if pending is not None:
            pending()
