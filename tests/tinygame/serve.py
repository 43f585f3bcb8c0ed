"""``python -m tinygame.serve [hipparchusd options]``, with tests/ on the path: the daemon,
serving high card beside the built-in kinds. For the tests that need the game served by a
daemon in a process of its own (the page in a browser: tests/tinygame/test_page.py); nothing in
hipparchusd/ knows the game, which reaches the daemon through the registry alone."""

from __future__ import annotations

import sys

from hipparchusd.cli import main
from hipparchusd.games.registry import register

from .kind import HIGHCARD

if __name__ == "__main__":
    register(HIGHCARD)
    sys.exit(main())
