"""The game kinds the daemon serves, and how ``new <kind> key=value ...`` makes a game of each.

The daemon drives games only through :class:`hipparchusd.games.base.Game`; a kind adds what
the interface leaves to each game: its creation options and when its state is worth a new
snapshot in the store. Adding a game is adding a :class:`GameKind` to :data:`KINDS`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

import attrs

from .games.base import Event, Game
from .games.hipparchus import Deal, HipparchusGame
from .games.hipparchus.model import Suit
from .games.hipparchus.notation import NotationError, parse_hand
from .games.hipparchus.views import RoundStarted


class BadOption(ValueError):
    """A ``new`` option that is unknown or has a bad value; the message names it."""


@attrs.frozen
class GameKind:
    """One game the daemon serves.

    ``name`` is the word in ``new <kind>``; ``options`` maps each option key to a one-line
    usage; ``create`` builds a game from the option values given (raising :class:`BadOption`);
    ``starts_round`` tells from a move's events whether a new deal began, which is when the
    daemon stores a fresh snapshot.
    """

    name: str
    options: Mapping[str, str]
    create: Callable[[Mapping[str, str]], Game]
    starts_round: Callable[[Sequence[Event]], bool]


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


def _hipparchus_starts_round(events: Sequence[Event]) -> bool:
    return any(isinstance(event.payload, RoundStarted) for event in events)


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
)

#: Every kind served, by name, in the order ``kinds`` lists them.
KINDS: Mapping[str, GameKind] = {HIPPARCHUS.name: HIPPARCHUS}
