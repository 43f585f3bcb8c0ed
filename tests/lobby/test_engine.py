"""The engine's seats in the lobby (hipparchusd.lobby.engine; PROTOCOL.md section 9): the name
an engine seat takes by default, and the levels ``kinds`` offers for each kind."""

from __future__ import annotations

import json

from tinygame.kind import HIGHCARD

from hipparchusd.engine.types import LADDER
from hipparchusd.games.registry import KINDS
from hipparchusd.lobby import Lobby
from hipparchusd.protocol import ErrorCode

from .driver import Driver


def joined_names(d: Driver, who: str, line: str) -> list[str]:
    """The names of the ``joined`` events ``who`` hears when ``line`` is carried out."""
    result = d.ok(who, line)
    return [str(data["name"]) for _, kind, data in d.events_heard(who, result) if kind == "joined"]


def test_engine_seats_of_one_level_get_distinct_default_names() -> None:
    # A table of three engine seats of one level and one of another: each default name says
    # the level, and a second seat of the same level is numbered (issue 25, point 13).
    d = Driver()
    d.ok("ann", "new planets players=4 seed=1")
    d.ok("ann", "watch g1")
    names = [
        *joined_names(d, "ann", "bot g1 level=heuristic"),
        *joined_names(d, "ann", "bot g1 level=heuristic"),
        *joined_names(d, "ann", "bot g1 level=random"),
        *joined_names(d, "ann", "bot g1 level=heuristic"),
    ]
    assert names == ["bot-heuristic", "bot-heuristic-2", "bot-random", "bot-heuristic-3"]
    assert [seat.name for seat in d.lobby.tables["g1"].seats] == names


def test_a_default_name_skips_the_names_players_chose() -> None:
    d = Driver()
    d.ok("ann", "new planets players=3 seed=1")
    d.ok("ann", "join g1 name=bot-ismcts")
    # A budget is no part of the name: the level's name is.
    assert joined_names(d, "ann", "bot g1 level=ismcts:200") == ["bot-ismcts-2"]
    assert joined_names(d, "ann", "bot g1 name=bot-ismcts") == ["bot-ismcts"]


def test_an_empty_name_is_refused_not_replaced() -> None:
    d = Driver()
    d.ok("ann", "new hipparchus seed=1")
    d.fail("ann", "bot g1 name=", ErrorCode.BAD_OPTION)
    assert [seat.name for seat in d.lobby.tables["g1"].seats] == [None, None]


def test_kinds_lists_the_levels_bot_accepts_for_each_kind() -> None:
    # The engine's ladder for the kinds it plays, weakest first; none for a kind it does not
    # play (high card, a test game), so that a client offers no computer opponent there.
    lobby = Lobby(kinds={**KINDS, HIGHCARD.name: HIGHCARD})
    d = Driver(lobby)
    text = d.answer("ann", d.ok("ann", "kinds")).decode().splitlines()
    assert text[0].startswith("= hipparchus seats=2 levels=random,heuristic,sampler,ismcts  -- ")
    assert text[1].startswith("planets seats=3-6 levels=random,heuristic,sampler,ismcts  -- ")
    assert text[2] == f"highcard seats=3 levels=-  -- {HIGHCARD.summary}"
    d.ok("ann", "format json")
    about = json.loads(d.answer("ann", d.ok("ann", "kinds"))[2:])["about"]
    assert {kind: about[kind]["levels"] for kind in about} == {
        "hipparchus": list(LADDER),
        "planets": list(LADDER),
        "highcard": [],
    }
    # Each level listed is one that ``bot`` seats.
    d.ok("ann", "new planets players=6 seed=1")
    for level in about["planets"]["levels"]:
        d.ok("ann", f"bot g1 level={level}")
