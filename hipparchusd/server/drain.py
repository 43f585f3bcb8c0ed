"""Draining (issue 26): moving everyone off a daemon before an upgrade without ending their
games. ``hipparchusd admin drain``, or SIGTERM with ``--drain-on-stop``, puts the server in
maintenance (new games refused; games in progress go on), adjourns at once every game in
progress that nobody follows (with a durable store: it stays in the state directory, and a
seat's ``resume`` on the next daemon brings it back), then waits until every game in progress
has ended or adjourned, or ``--drain-timeout`` has passed, and shuts down as on SIGTERM (the
``shutdown`` notice, the grace period). A game still in progress at the timeout is kept in the
state directory all the same, as at any shutdown.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Final

import trio

from ..lobby import Lobby
from ..wording import counted

log = logging.getLogger("hipparchusd.server")

#: What ``new`` is refused with while draining (unless the operator's maintenance message
#: was set before).
DRAIN_MESSAGE: Final = "the server is draining for a restart: no new games; games in progress go on"
#: Seconds between two looks at the games in progress (and two adjournments of the games
#: nobody follows any more).
POLL_INTERVAL: Final = 0.5


async def drain(
    lobby: Lobby,
    timeout: float,
    adjourn: Callable[[], Awaitable[None]] | None,
    shutdown: Callable[[], None],
) -> None:
    """Drain the server of ``lobby`` (see the module) for at most ``timeout`` seconds, calling
    ``adjourn`` (with a durable store: adjourn the games nobody follows now) between two looks,
    then begin the shutdown with ``shutdown``; returns once it has begun."""
    if lobby.maintenance is None:
        lobby.set_maintenance(DRAIN_MESSAGE)
    log.info(
        "draining: %s in progress; stopping once they have ended or adjourned, or in %g s",
        counted(lobby.in_progress(), "game"),
        timeout,
        extra={"event": "drain-started"},
    )
    with trio.move_on_after(timeout):
        while lobby.in_progress():
            if adjourn is not None:
                await adjourn()
            await trio.sleep(POLL_INTERVAL)
    left = lobby.in_progress()
    if left:
        log.warning(
            "drain timeout (%g s): %s still in progress, kept in the store; shutting down",
            timeout,
            counted(left, "game"),
            extra={"event": "drain-timeout"},
        )
    else:
        log.info("drained: no game in progress; shutting down", extra={"event": "drained"})
    shutdown()
