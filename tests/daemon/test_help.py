"""``help new`` and ``kinds`` are built from the kinds served (their options, seats and
summary), not written for one game: a kind the lobby is given shows up in both, in text and
JSON mode."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from hipparchusd.games.base import Event, GameKind, Option, ServedGame
from hipparchusd.games.registry import KINDS
from hipparchusd.jsondata import JSON
from hipparchusd.lobby import COMMANDS, Lobby, Session
from hipparchusd.protocol import Mode, parse_request


def _unused_create(options: Mapping[str, str]) -> ServedGame:
    raise AssertionError("help and kinds create no game")


def _unused_restore(options: Mapping[str, str], snapshot: JSON) -> ServedGame:
    raise AssertionError("help and kinds restore no game")


def _no_deal(events: Sequence[Event]) -> bool:
    return False


#: A kind that exists only here: its options must appear in ``help new`` as written.
DICE = GameKind(
    name="dice",
    summary="three players roll; the highest wins",
    seats="3",
    options=(
        Option("rolls", "1|2|3", "rolls per player", "1"),
        Option("seed", "<integer>", "roll reproducibly"),
    ),
    create=_unused_create,
    restore=_unused_restore,
    new_deal=_no_deal,
    codec=KINDS["hipparchus"].codec,
)


def answer(lobby: Lobby, session: Session, line: str) -> bytes:
    request = parse_request(line)
    assert request is not None
    result = lobby.handle(session, request)
    assert result.response is not None and result.response.error is None, result.response
    return result.response.encode(session.mode)


def text_lines(lobby: Lobby, session: Session, line: str) -> list[str]:
    encoded = answer(lobby, session, line).decode()
    assert encoded.startswith("= ") and encoded.endswith("\n\n")
    return encoded[2:-2].split("\n")


def json_payload(lobby: Lobby, session: Session, line: str) -> dict[str, object]:
    session.mode = Mode.JSON
    encoded = answer(lobby, session, line).decode()
    assert encoded.startswith("= ") and encoded.endswith("\n\n")
    payload = json.loads(encoded[2:-2])
    assert isinstance(payload, dict)
    return payload


def lobby_of(*kinds: GameKind) -> tuple[Lobby, Session]:
    lobby = Lobby(kinds={kind.name: kind for kind in kinds})
    return lobby, lobby.connect("test")


def time_lines(kind: str, timeout: str, absence: str) -> list[str]:
    """The time options every kind takes after its own (PROTOCOL.md, "Clocks"; RULINGS T1-T5),
    with the kind's defaults for a flag (T2) and what an absence allows (T4)."""
    return [
        f"{kind}: clock=<bank>[+<increment>][,<cap>/move]|<cap>/move  a time control, e.g. "
        "5m+3s, 30s/move or 3d/move (units s, m, h, d) (default untimed)",
        f"{kind}: timeout=resign|autoplay  a seat out of time resigns, or the server plays for it "
        f"and the game goes on (default {timeout})",
        f"{kind}: absence=<duration>|off  how long a seat may stay away before {absence} "
        "(default 1m timed, 5m untimed, off by days/move)",
        f"{kind}: first_move=<duration>|off  a timed game whose seat does not make its first "
        "decision this soon is aborted (default 30s, or the first decision's time if less)",
    ]


def test_help_new_lists_every_option_of_every_kind() -> None:
    lobby, session = lobby_of(KINDS["hipparchus"], KINDS["planets"], DICE)
    lines = text_lines(lobby, session, "help new")
    assert lines[:4] == [
        "new <kind> [key=value ...]  -- create a game; 'help new' lists each kind's options",
        # Hipparchus's options (protocol/games/hipparchus.md; RULINGS H12 for the leader).
        "hipparchus: leader=0|1|random  who leads the first round (default random)",
        "hipparchus: seed=<integer>  deal every round reproducibly from this seed",
        "hipparchus: deal=<hand0>/<hand1>/<face-down>  the first round's deal in hand notation,"
        " e.g. SSSSSMMMMMEEEE/SSSSSMMMMEEEEE/ME",
    ]
    # A Hipparchus flag is a resignation, an absent opponent may be claimed (T2, T4).
    assert lines[4:8] == time_lines("hipparchus", "resign", "its opponent may claim the game")
    # A planets seat out of time or absent is played for (T2, T4).
    planets = [line for line in lines if line.startswith("planets: ")]
    assert planets[-4:] == time_lines("planets", "autoplay", "the engine plays for it")
    assert lines[-6:] == [
        "dice: rolls=1|2|3  rolls per player (default 1)",
        "dice: seed=<integer>  roll reproducibly",
        *time_lines("dice", "resign", "its opponent may claim the game"),
    ]


def test_help_new_in_json_gives_each_option_as_fields() -> None:
    lobby, session = lobby_of(DICE)
    payload = json_payload(lobby, session, "help new")
    options = payload["options"]["dice"]  # type: ignore[index]
    assert payload == {
        "help": {
            "new": "new <kind> [key=value ...]  -- create a game; 'help new' lists each kind's"
            " options"
        },
        "options": {"dice": options},
    }
    assert options[:2] == [
        {"key": "rolls", "values": "1|2|3", "summary": "rolls per player", "default": "1"},
        {"key": "seed", "values": "<integer>", "summary": "roll reproducibly", "default": None},
    ]
    # Then the time options every kind takes, each with its default in words.
    assert [(o["key"], o["default"]) for o in options[2:]] == [
        ("clock", "untimed"),
        ("timeout", "resign"),
        ("absence", "1m timed, 5m untimed, off by days/move"),
        ("first_move", "30s, or the first decision's time if less"),
    ]


def test_help_of_every_command_names_no_game() -> None:
    # The lobby serves every kind alike: its own help text names none of them, and gives no
    # game's move as an example (a game's notation is in its appendix).
    lobby, session = lobby_of(DICE)
    text = "\n".join(text_lines(lobby, session, "help")).lower()
    assert "hipparchus" not in text and "2e@5" not in text
    assert len(text.split("\n")) == len(COMMANDS)
    for name in COMMANDS:
        if name != "new":
            assert text_lines(lobby, session, f"help {name}") == [
                f"{COMMANDS[name].usage}  -- {COMMANDS[name].summary}"
            ]


def test_kinds_gives_seats_and_summary_after_the_name() -> None:
    lobby, session = lobby_of(KINDS["hipparchus"], DICE)
    lines = text_lines(lobby, session, "kinds")
    # The first word of each line is the kind's name, as when ``kinds`` answered names only.
    assert [line.split()[0] for line in lines] == ["hipparchus", "dice"]
    # The engine plays no dice: no level to offer.
    assert lines[1] == "dice seats=3 levels=-  -- three players roll; the highest wins"
    # Two seats (docs/rules.md); the engine's levels, PROTOCOL.md section 9.
    assert lines[0].startswith("hipparchus seats=2 levels=random,heuristic,sampler,ismcts  -- ")
    assert json_payload(lobby, session, "kinds") == {
        "kinds": ["hipparchus", "dice"],
        "about": {
            "hipparchus": {
                "seats": "2",
                "summary": KINDS["hipparchus"].summary,
                "levels": ["random", "heuristic", "sampler", "ismcts"],
            },
            "dice": {"seats": "3", "summary": "three players roll; the highest wins", "levels": []},
        },
    }
