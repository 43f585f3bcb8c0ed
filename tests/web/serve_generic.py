"""``python -m web.serve_generic [hipparchusd options]``, with tests/ on the path: the daemon,
serving every kind of the registry as if it had no page parts of its own, so that the page
plays each on its generic table (tests/web/test_generic_table.py)."""

from __future__ import annotations

import sys

import attrs

from hipparchusd.cli import main
from hipparchusd.games.registry import KINDS, register, unregister

if __name__ == "__main__":
    for kind in list(KINDS.values()):
        unregister(kind.name)
        register(attrs.evolve(kind, page=None))
    sys.exit(main())
