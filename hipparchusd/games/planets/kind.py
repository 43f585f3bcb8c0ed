"""Planets as a kind the daemon serves: its ``new`` options, creation and restore
(protocol/games/planets.md, "Options"; docs/planets.md)."""

from __future__ import annotations

from collections.abc import Mapping
from importlib.resources import files

from ...clocks.control import Absence, Timeout
from ...codec import InvalidState
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
from .codec import CODEC, structure_record
from .dealing import check_deal
from .game import PlanetsGame
from .notation import parse_deal
from .views import HandStarted

OPTIONS = (
    Option("players", "3|4|5|6", "seats at the table", "4"),
    Option("galaxies", "all", "six players only: all six Galaxy cards in play, 10 cards each"),
    Option("dealer", "<seat>", "the first dealer", "the cut: each seat draws, the highest deals"),
    Option("seed", "<integer>", "deal every hand (and draw the cut) reproducibly from this seed"),
    Option(
        "deal",
        "<hand0>/<hand1>/...",
        "the first hand's deal, each hand its cards joined by ',' (e.g. V1,JS,M7,...)",
    ),
    Option("exact100", "reset", "a total of exactly 100 drops to 0"),
)


def create(options: Mapping[str, str]) -> PlanetsGame:
    """A game of planets from its ``new`` options: ``players=3|4|5|6``, ``galaxies=all``,
    ``dealer=<seat>``, ``seed=<integer>``, ``deal=<hand0>/<hand1>/...``, ``exact100=reset``.

    Raises:
        BadOption: an unknown key, an empty or bad value, an impossible deal.
    """
    PLANETS.check_options(options)
    players = 4
    if "players" in options:
        text = options["players"]
        if text not in ("3", "4", "5", "6"):
            raise BadOption(f"players must be 3, 4, 5 or 6, not {text[:20]!r}")
        players = int(text)
    galaxies = False
    if "galaxies" in options:
        if options["galaxies"] != "all":
            raise BadOption(f"galaxies must be all, not {options['galaxies'][:20]!r}")
        if players != 6:
            raise BadOption("galaxies=all is for six players only")
        galaxies = True
    exact100 = False
    if "exact100" in options:
        if options["exact100"] != "reset":
            raise BadOption(f"exact100 must be reset, not {options['exact100'][:20]!r}")
        exact100 = True
    dealer = integer_option(options, "dealer")
    if dealer is not None and not 0 <= dealer < players:
        raise BadOption(f"dealer must be a seat from 0 to {players - 1}, not {dealer}")
    seed = integer_option(options, "seed")
    deals: tuple[tuple[int, ...], ...] = ()
    if "deal" in options:
        try:
            hands = parse_deal(options["deal"])
            deals = (check_deal(hands, players, galaxies),)
        except ValueError as error:  # NotationError is one
            raise BadOption(f"bad deal: {error}") from None
    return PlanetsGame(
        players=players,
        galaxies=galaxies,
        exact100=exact100,
        dealer=dealer,
        seed=seed,
        deals=deals,
    )


def restore(options: Mapping[str, str], snapshot: JSON) -> PlanetsGame:
    """The game a snapshot (the JSON data of a :class:`~.record.PlanetsRecord`) records, with
    its deals, passes, plays, choices and ``fixed_deal`` as recorded; later hands are dealt
    from the ``seed`` option, if any.

    Raises:
        ValueError: the snapshot is not a valid record, or does not replay.
    """
    try:
        record = structure_record(snapshot)
        seed = integer_option(options, "seed")
    except (InvalidState, BadOption) as error:
        raise ValueError(f"not a planets record: {error}") from None
    return PlanetsGame.restore(record, seed=seed)


#: The registry's entry (:mod:`hipparchusd.games.registry`).
PLANETS = GameKind(
    name=PlanetsGame.kind,
    summary="3 to 6 players, Hearts-like: avoid Jupiter, Mars 7 and Neptune 7, or take them all",
    seats="3-6",
    options=OPTIONS,
    create=create,
    restore=restore,
    new_deal=deal_announced_by(HandStarted),
    codec=CODEC,
    engine=AdapterRef("hipparchusd.games.planets.engine"),
    page=PageParts("hipparchusd.games.planets"),
    tui="hipparchusd.games.planets.tui.screen:PlanetsScreen",
    rules=files(__package__) / "rules.md",
    # RULINGS T2 and T4: a seat out of time, or absent, is played for, and the game goes on.
    timeout=Timeout.AUTOPLAY,
    on_absence=Absence.ENGINE,
)
