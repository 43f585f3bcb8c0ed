"""Fixtures of the client tests: the example bots of every language (languages.py)."""

from __future__ import annotations

import pytest
from languages import Bots


@pytest.fixture(scope="session")
def bots(tmp_path_factory: pytest.TempPathFactory) -> Bots:
    """Every language's bot command; the compiled ones are built once per session, on first
    use, each into its own temporary directory."""
    return Bots(lambda language: tmp_path_factory.mktemp(f"build-{language}"))
