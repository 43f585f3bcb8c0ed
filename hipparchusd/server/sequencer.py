"""The order of the requests on each game (:class:`Sequencer`): a request waits for the
earlier ones on the same games, from their checking to their events, so it is checked against
their outcome, and every follower sees a game's events in ``seq`` order even while a store call
is in flight."""

from __future__ import annotations

from collections.abc import Sequence

import trio


class Ticket:
    """A request's place in the order of one or more games (:class:`Sequencer`). Most tickets
    are released with nobody waiting for them, so the :class:`trio.Event` a waiter needs is
    made only when one comes."""

    __slots__ = ("_done", "_event")

    def __init__(self) -> None:
        self._done = False
        self._event: trio.Event | None = None

    async def wait(self) -> None:
        """Wait until the ticket is released (at once, with no checkpoint, if it is)."""
        if not self._done:
            if self._event is None:
                self._event = trio.Event()
            await self._event.wait()

    def set(self) -> None:
        """Release the ticket: wake whoever waits for it."""
        self._done = True
        if self._event is not None:
            self._event.set()


class Sequencer:
    """Carries out the requests on one game one at a time, in the order they came.

    A request takes a :meth:`ticket` for the games it acts on before the lobby prepares it,
    waits for the previous tickets of each of those games, and releases its own once its
    result is carried out (stored, committed, queued). Tickets taken with no checkpoint in
    between keep their order. A request on games with no ticket out is prepared at once, and
    takes its ticket only if its result awaits the store: nothing else ran in between.
    """

    def __init__(self) -> None:
        self._tails: dict[str, Ticket] = {}

    def ticket(self, games: Sequence[str]) -> tuple[list[Ticket], Ticket | None]:
        """(tickets to wait for, ticket to release when done); ``None`` when no game is
        touched."""
        if not games:
            return [], None
        done = Ticket()
        tails = self._tails
        waits = [tail for g in games if (tail := tails.get(g)) is not None]
        for g in games:
            tails[g] = done
        return waits, done

    def busy(self, game: str) -> bool:
        """Whether a request on ``game`` is still waiting or being carried out."""
        return game in self._tails

    def idle(self, games: Sequence[str]) -> bool:
        """Whether no request on any of ``games`` is still waiting or being carried out."""
        return self._tails.keys().isdisjoint(games)

    def release(self, games: Sequence[str], done: Ticket | None) -> None:
        """Mark the ticket ``done`` carried out."""
        if done is None:
            return
        done.set()
        tails = self._tails
        for g in games:
            if tails.get(g) is done:
                del tails[g]
