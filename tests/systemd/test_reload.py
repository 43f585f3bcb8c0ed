"""SIGHUP's reload, in process: what changes at once, what waits for a restart, and a bad file."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
import trio

from hipparchusd.config_file import ConfigError
from hipparchusd.server import Server, serve
from hipparchusd.server.run import reload_settings
from hipparchusd.settings import Settings
from hipparchusd.store.base import MemoryStore


async def test_reload_applies_limits_and_keeps_the_address(
    caplog: pytest.LogCaptureFixture,
) -> None:
    start = Settings(port=0, max_games=10, idle_timeout=60.0)
    async with trio.open_nursery() as nursery:
        server: Server = await nursery.start(serve, start, MemoryStore())
        new = Settings(port=1, host="::", max_games=3, idle_timeout=30.0, log_level="warning")
        with caplog.at_level(logging.INFO, logger="hipparchusd"):
            reload_settings(server, lambda: new)
        assert server.settings == Settings(
            port=0, max_games=3, idle_timeout=30.0, log_level="warning"
        )
        assert server.lobby.max_games == 3
        assert logging.getLogger().level == logging.WARNING
        text = caplog.text
        assert "reload: max-games: 10 -> 3" in text
        assert "reload: port: 0 -> 1 needs a restart; still 0" in text
        assert "reload: host: 127.0.0.1 -> :: needs a restart; still 127.0.0.1" in text
        server.shutdown()
    logging.getLogger().setLevel(logging.WARNING)


async def test_a_bad_file_changes_nothing(caplog: pytest.LogCaptureFixture) -> None:
    start = Settings(port=0, max_games=10)

    def load() -> Settings:
        raise ConfigError(Path("/etc/hipparchusd/config.toml"), "max-games", "expected an integer")

    async with trio.open_nursery() as nursery:
        server: Server = await nursery.start(serve, start, MemoryStore())
        reload_settings(server, load)
        assert server.settings == start
        assert (
            "reload failed, settings unchanged: /etc/hipparchusd/config.toml: key 'max-games': "
            "expected an integer" in caplog.text
        )
        server.shutdown()


async def test_nothing_changed(caplog: pytest.LogCaptureFixture) -> None:
    start = Settings(port=0)
    async with trio.open_nursery() as nursery:
        server: Server = await nursery.start(serve, start, MemoryStore())
        with caplog.at_level(logging.INFO, logger="hipparchusd"):
            reload_settings(server, lambda: Settings(port=0))
        assert "reload: nothing changed" in caplog.text
        server.shutdown()
