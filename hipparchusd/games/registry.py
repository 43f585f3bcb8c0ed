"""The game kinds the daemon serves, one :class:`GameKind` each (as python-chess keeps its
variants in one ``VARIANTS`` list with ``find_variant``).

A game's folder defines its kind (``hipparchusd/games/<kind>/kind.py``, a
:class:`~hipparchusd.games.base.GameKind`); this module lists them
in :data:`KINDS`. Adding a game is one line here. :func:`register` adds a kind at run time (tests
use it for a game that lives under ``tests/``).
"""

from __future__ import annotations

import re

from .base import GameKind
from .hipparchus.kind import HIPPARCHUS
from .planets.kind import PLANETS

#: The games this daemon is built with, in the order ``kinds`` lists them.
BUILT_IN: tuple[GameKind, ...] = (HIPPARCHUS, PLANETS)

#: Every kind served, by name: the built-in ones, then those :func:`register` added.
KINDS: dict[str, GameKind] = {}


def register(kind: GameKind) -> None:
    """Serve ``kind`` from now on (in :data:`KINDS`, after the built-in kinds).

    Raises:
        ValueError: a kind of that name is already served, or the name is not a word of
            lower-case letters, digits and ``-``.
    """
    if re.fullmatch(r"[a-z][a-z0-9-]{0,31}", kind.name) is None:
        raise ValueError(f"bad game kind name {kind.name!r}")
    if kind.name in KINDS:
        raise ValueError(f"a game kind named {kind.name!r} is already served")
    KINDS[kind.name] = kind


def unregister(name: str) -> None:
    """Stop serving the kind ``name`` (for tests that registered one); no error if absent."""
    KINDS.pop(name, None)


def find_kind(name: str) -> GameKind:
    """The kind named ``name``.

    Raises:
        KeyError: no such kind is served.
    """
    return KINDS[name]


for _kind in BUILT_IN:
    register(_kind)
