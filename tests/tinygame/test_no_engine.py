"""A kind without an engine (high card: ``GameKind.engine`` is ``None``) through a live daemon:
``genmove`` answers as for any failed search (``internal``, nothing changed), an engine seat
makes no move, and the server's log says why, naming the kind, at error level (issue 22)."""

from __future__ import annotations

import logging

import pytest
import trio
from daemon.client import Client, event_fields

from hipparchusd.server import Server, serve
from hipparchusd.settings import Settings
from hipparchusd.store.base import MemoryStore

from .test_live import highcard  # noqa: F401  (the fixture that serves high card)

NO_ENGINE = "the game kind 'highcard' has no engine"

#: Generous: the daemon answers a failed search at once, a loaded machine may take a while.
LOG_SECONDS = 30


@pytest.mark.usefixtures("highcard")
async def test_a_kind_without_an_engine_says_so(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR)
    async with trio.open_nursery() as nursery:
        settings = Settings(port=0, grace_period=0.1)
        server: Server = await nursery.start(serve, settings, MemoryStore())
        port = server.ports[0]
        player = await Client.connect(port)
        game = (await player.ok("new highcard seed=3")).fields()["game"]
        await player.ok(f"join {game} 0 name=p0")
        await player.ok(f"bot {game} 1 level=heuristic")
        await player.ok(f"bot {game} 2")
        events = await player.events_until(["to-move"])
        assert event_fields(events[-1])[2:] == ("to-move", {"seats": "0,1,2"})

        failed = await player.fail(f"genmove {game} 100", "internal")
        assert failed.lines == [
            "internal the engine failed (see the server log); nothing was changed"
        ]
        with trio.fail_after(LOG_SECONDS):
            while caplog.text.count("no engine move for seat") < 2:
                await trio.sleep(0.01)
        errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
        assert f"game {game}: genmove failed: {NO_ENGINE}" in errors
        for seat in (1, 2):
            assert f"game {game}: no engine move for seat {seat}: {NO_ENGINE}" in errors
        # Nothing was played: no seat picked (a request's answer comes after every event
        # queued before it).
        await player.ok("kinds")
        assert [event_fields(e)[2] for e in player.events].count("picked") == 0
        server.shutdown()
