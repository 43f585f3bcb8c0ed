"""Fixtures for the store tests."""

from pathlib import Path

import pytest


@pytest.fixture
def state_dir(tmp_path: Path) -> Path:
    """A fresh state directory path (not yet created)."""
    return tmp_path / "state"
