"""Hipparchus as a kind the daemon serves: its ``new`` options, creation and restore
(protocol/games/hipparchus.md, "Options"; docs/rules.md on RULINGS H12 and H13)."""

from __future__ import annotations

from collections.abc import Mapping
from importlib.resources import files

from ...engine.position import AdapterRef
from ...jsondata import JSON
from ..base import (
    BadOption,
    GameKind,
    Option,
    PageParts,
    deal_announced_by,
    integer_option,
)
from .codec import CODEC, InvalidState
from .game import HipparchusGame
from .model import Deal
from .notation import NotationError, parse_deal
from .record import MatchRecord
from .views import RoundStarted

OPTIONS = (
    Option("leader", "0|1|random", "who leads the first round", "random"),
    Option("seed", "<integer>", "deal every round reproducibly from this seed"),
    Option(
        "deal",
        "<hand0>/<hand1>/<face-down>",
        "the first round's deal in hand notation, e.g. SSSSSMMMMMEEEE/SSSSSMMMMEEEEE/ME",
    ),
)


def create(options: Mapping[str, str]) -> HipparchusGame:
    """A Hipparchus match from ``leader=0|1|random``, ``seed=<int>`` and
    ``deal=<hand0>/<hand1>/<face-down>``.

    Raises:
        BadOption: an unknown key, an empty or bad value, an impossible deal.
    """
    HIPPARCHUS.check_options(options)
    leader: int | None = None
    if "leader" in options:
        text = options["leader"]
        if text not in ("0", "1", "random"):
            raise BadOption(f"leader must be 0, 1 or random, not {text[:20]!r}")
        leader = None if text == "random" else int(text)
    seed = integer_option(options, "seed")
    deals: tuple[Deal, ...] = ()
    if "deal" in options:
        try:
            deals = (parse_deal(options["deal"]),)
        except NotationError as error:
            raise BadOption(f"bad deal: {error}") from None
    return HipparchusGame(first_leader=leader, seed=seed, deals=deals)


def restore(options: Mapping[str, str], snapshot: JSON) -> HipparchusGame:
    """The Hipparchus match a snapshot (the JSON data of a :class:`MatchRecord`) records, with
    its deals, plays and ``fixed_deal`` as recorded; later rounds are dealt from the ``seed``
    option, if any.

    Raises:
        ValueError: the snapshot is not a valid record, or does not replay.
    """
    try:
        record = CODEC.structure(snapshot, MatchRecord)
        seed = integer_option(options, "seed")
    except (InvalidState, BadOption) as error:
        raise ValueError(f"not a match record: {error}") from None
    return HipparchusGame.restore(record, seed=seed)


#: The registry's entry (:mod:`hipparchusd.games.registry`).
HIPPARCHUS = GameKind(
    name=HipparchusGame.kind,
    summary="two players, Sun, Moon and Earth clumps; the first to win two rounds wins",
    seats="2",
    options=OPTIONS,
    create=create,
    restore=restore,
    new_deal=deal_announced_by(RoundStarted),
    codec=CODEC,
    engine=AdapterRef("hipparchusd.games.hipparchus.engine"),
    page=PageParts("hipparchusd.games.hipparchus"),
    tui="hipparchusd.games.hipparchus.tui.screen:HipparchusScreen",
    rules=files(__package__) / "rules.md",
)
