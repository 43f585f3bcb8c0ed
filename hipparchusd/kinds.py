"""The game kinds the daemon serves, and how ``new <kind> key=value ...`` makes a game of each.

The daemon drives games only through :class:`hipparchusd.games.base.Game`; a kind adds what
the interface leaves to each game: its creation options and when its state is worth a new
snapshot in the store. Adding a game is adding a :class:`GameKind` to :data:`KINDS`.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Mapping, Sequence
from itertools import repeat
from typing import Any

import attrs

from .games.base import Event, Game
from .games.hipparchus import Deal, HipparchusGame, MatchRecord
from .games.hipparchus.model import Suit
from .games.hipparchus.notation import NotationError, parse_hand
from .games.hipparchus.views import RoundStarted
from .serialization import converter


class BadOption(ValueError):
    """A ``new`` option that is unknown or has a bad value; the message names it."""


@attrs.frozen
class GameKind:
    """One game the daemon serves.

    ``name`` is the word in ``new <kind>``; ``options`` maps each option key to a one-line
    usage; ``create`` builds a game from the option values given (raising :class:`BadOption`);
    ``starts_round`` tells from a move's events whether a new deal began, which is when the
    daemon stores a fresh snapshot; ``restore`` rebuilds a started game from its creation
    options and a stored snapshot (an unstructured ``Game.record()``), raising ``ValueError``
    when it cannot.
    """

    name: str
    options: Mapping[str, str]
    create: Callable[[Mapping[str, str]], Game]
    starts_round: Callable[[Sequence[Event]], bool]
    restore: Callable[[Mapping[str, str], Any], Game]


_INTEGER = re.compile(r"-?[0-9]{1,19}")


def _create_hipparchus(options: Mapping[str, str]) -> Game:
    """A Hipparchus match from ``leader=0|1|random``, ``seed=<int>`` and
    ``deal=<hand0>/<hand1>/<face-down>`` (PROTOCOL.md section 5; RULINGS H12, H13).

    Raises:
        BadOption: an unknown key or a bad value.
    """
    for key in options:
        if key not in _HIPPARCHUS_OPTIONS:
            raise BadOption(f"unknown option {key!r} for hipparchus (known: leader, seed, deal)")
    leader: int | None = None
    if "leader" in options:
        text = options["leader"]
        if text not in ("0", "1", "random"):
            raise BadOption(f"leader must be 0, 1 or random, not {text!r}")
        leader = None if text == "random" else int(text)
    seed: int | None = None
    if "seed" in options:
        if _INTEGER.fullmatch(options["seed"]) is None:
            raise BadOption(f"seed must be an integer, not {options['seed']!r}")
        seed = int(options["seed"])
    deals: tuple[Deal, ...] = ()
    if "deal" in options:
        deals = (_parse_deal(options["deal"]),)
    try:
        return HipparchusGame(first_leader=leader, seed=seed, deals=deals)
    except ValueError as error:
        raise BadOption(f"bad deal: {error}") from None


def _parse_deal(text: str) -> Deal:
    parts = text.split("/")
    if len(parts) != 3:
        raise BadOption("deal must be <hand0>/<hand1>/<face-down>, e.g. SSSSSMMMMMEEEE/...")
    try:
        hand0, hand1 = parse_hand(parts[0]), parse_hand(parts[1])
        face_down = tuple(Suit.from_letter(c) for c in parts[2]) if parts[2] != "-" else ()
    except (NotationError, ValueError) as error:
        raise BadOption(f"bad deal: {error}") from None
    return Deal((hand0, hand1), face_down)


def _restore_hipparchus(options: Mapping[str, str], snapshot: Any) -> Game:
    """The Hipparchus match a snapshot records, with its deals, plays and ``fixed_deal`` as
    recorded; later rounds are dealt from the ``seed`` option, if any.

    Raises:
        ValueError: the snapshot is not a valid record, or the engine cannot restore games.
    """
    restore = getattr(HipparchusGame, "restore", None)
    if restore is None:  # the engine's HipparchusGame.restore is on its way to main
        raise ValueError("this version of the rules engine cannot restore a match")
    try:
        record = converter.structure(snapshot, MatchRecord)
    except Exception as error:  # cattrs raises several kinds (class validation groups)
        raise ValueError(f"not a match record: {error}") from None
    seed = int(options["seed"]) if _INTEGER.fullmatch(options.get("seed", "")) else None
    game: Game = restore(record, seed=seed)
    return game


_PAYLOAD = operator.attrgetter("payload")


def _hipparchus_starts_round(events: Sequence[Event]) -> bool:
    # Asked after every move: any(isinstance(event.payload, RoundStarted)), scanned by map()
    # rather than by a generator resumed for every event.
    return any(map(isinstance, map(_PAYLOAD, events), repeat(RoundStarted)))


_HIPPARCHUS_OPTIONS = {
    "leader": "leader=0|1|random  who leads the first round (default random)",
    "seed": "seed=<integer>  deal every round reproducibly from this seed",
    "deal": "deal=<hand0>/<hand1>/<face-down>  the first round's deal, in hand notation",
}

HIPPARCHUS = GameKind(
    name=HipparchusGame.kind,
    options=_HIPPARCHUS_OPTIONS,
    create=_create_hipparchus,
    starts_round=_hipparchus_starts_round,
    restore=_restore_hipparchus,
)

#: Every kind served, by name, in the order ``kinds`` lists them.
KINDS: Mapping[str, GameKind] = {HIPPARCHUS.name: HIPPARCHUS}
