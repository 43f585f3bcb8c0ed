"""Choosing the state directory: --state-dir, systemd's $STATE_DIRECTORY, the user's data
directory, and ``none`` for a store that keeps nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from hipparchusd.store.base import MemoryStore
from hipparchusd.store.sqlite import SqliteStore
from hipparchusd.store.startup import DB_NAME
from hipparchusd.store.statedir import default_state_dir, open_store, resolve_state_dir


def test_systemd_state_directory_comes_first() -> None:
    env = {"STATE_DIRECTORY": "/var/lib/hipparchusd:/var/lib/other", "XDG_DATA_HOME": "/x"}
    assert default_state_dir(env) == Path("/var/lib/hipparchusd")
    assert resolve_state_dir(None, env) == Path("/var/lib/hipparchusd")


def test_otherwise_the_users_data_directory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", "/home/ann/.data")
    assert default_state_dir({}) == Path("/home/ann/.data/hipparchusd")
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", "/home/ann")
    assert default_state_dir({}) == Path("/home/ann/.local/share/hipparchusd")


def test_explicit_values() -> None:
    assert resolve_state_dir("none", {}) is None
    assert resolve_state_dir("./none", {}) == Path("none")
    assert resolve_state_dir("/srv/games", {"STATE_DIRECTORY": "/x"}) == Path("/srv/games")
    assert resolve_state_dir("~/games", {}) == Path.home() / "games"


async def test_open_store_picks_the_backend(tmp_path: Path) -> None:
    async with open_store(None) as memory:
        assert isinstance(memory, MemoryStore)
    async with open_store(tmp_path / "state", retention_days=3) as disk:
        assert isinstance(disk, SqliteStore)
        assert disk.retention_days == 3
        assert (tmp_path / "state" / DB_NAME).is_file()
