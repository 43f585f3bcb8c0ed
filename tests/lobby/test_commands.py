"""The command table (hipparchusd.lobby.core.COMMANDS): it is PROTOCOL.md's, each entry's
target says which game a request waits for, and a new command is one entry."""

from __future__ import annotations

import pathlib
import re

from hipparchusd.lobby import COMMANDS, Command, Lobby, Result, Session, Target
from hipparchusd.protocol import ErrorCode, Request, parse_request

from .driver import Driver

PROTOCOL_MD = pathlib.Path(__file__).parents[2] / "protocol" / "PROTOCOL.md"


def _documented_usages() -> list[str]:
    """Each command's usage as PROTOCOL.md's command tables (sections 5 and 9) write it: the
    command, then its arguments column."""
    sections = re.split(r"^## ", PROTOCOL_MD.read_text(), flags=re.M)
    commands = [s for s in sections if s.startswith(("5. Commands", "9. The engine"))]
    usages = []
    for section in commands:
        # A table row: | `command` | arguments | text payload | JSON payload |
        for name, arguments in re.findall(
            r"^\| `([a-z_]+)` \| ((?:[^|\\]|\\\|)*)\|", section, re.M
        ):
            arguments = arguments.strip().strip("`").replace("\\|", "|")
            usages.append(f"{name} {arguments}".strip())
    return usages


def test_the_table_is_the_one_protocol_md_documents_in_its_order() -> None:
    documented = _documented_usages()
    assert [command.usage for command in COMMANDS.values()] == documented
    assert all(name == command.name for name, command in COMMANDS.items())


def _games_of(lobby: Lobby, session: Session, line: str) -> tuple[str, ...]:
    request = parse_request(line)
    assert request is not None
    return lobby.games_of(session, request)


def test_a_request_waits_for_the_game_its_command_acts_on() -> None:
    d = Driver()
    d.ok("ann", "new hipparchus seed=1")
    token = d.ok("ann", "join g1").response.data["token"]  # type: ignore[union-attr,index]
    lobby, ann = d.lobby, d["ann"]
    waits_for_g1 = {"join", "leave", "watch", "unwatch", "state", "legal", "play", "resign"}
    waits_for_g1 |= {"record", "bot", "claim", "time_left", "end"}
    for name, command in COMMANDS.items():
        expected = ("g1",) if name in waits_for_g1 else ()
        assert _games_of(lobby, ann, f"{name} g1 x") == expected, name
        assert (command.target is Target.GAME) == (name in waits_for_g1), name
    # resume waits for the game of the seat its token names; none for an unknown token.
    assert _games_of(lobby, ann, f"resume {token}") == ("g1",)
    assert _games_of(lobby, ann, "resume 00") == ()
    # No game to wait for: an unknown game, a command without arguments, an unknown command.
    assert _games_of(lobby, ann, "play g9 x") == ()
    assert _games_of(lobby, ann, "state") == ()
    assert _games_of(lobby, ann, "frobnicate g1") == ()


def _echo(
    lobby: Lobby, session: Session, request: Request, args: list[str], options: dict[str, str]
) -> Result:
    lobby._only_options(options, "upper")
    word = args[0].upper() if options.get("upper") == "true" else args[0]
    return lobby._ok(request, {"word": word}, [word])


def test_a_new_command_is_one_entry() -> None:
    echo = Command.of("echo <word> [upper=true]", "the word back", _echo, Target.NOTHING)
    d = Driver(Lobby(commands={**COMMANDS, "echo": echo}))
    assert d.ok("ann", "list_commands").response.text[-1] == "echo"  # type: ignore[union-attr]
    assert d.ok("ann", "help echo").response.text == [  # type: ignore[union-attr]
        "echo <word> [upper=true]  -- the word back"
    ]
    assert d.ok("ann", "known_command echo").response.text == ["true"]  # type: ignore[union-attr]
    assert d.ok("ann", "echo hi").response.text == ["hi"]  # type: ignore[union-attr]
    assert d.ok("ann", "echo hi upper=true").response.text == ["HI"]  # type: ignore[union-attr]
    refused = d.fail("ann", "echo", ErrorCode.SYNTAX).response
    assert refused is not None and refused.error is not None
    assert refused.error.message == "too few arguments; usage: echo <word> [upper=true]"
    d.fail("ann", "echo hi loud=yes", ErrorCode.BAD_OPTION)
    # The table served by default is unchanged.
    assert "echo" not in Driver().lobby.commands


def test_an_unknown_options_key_is_echoed_cut_by_every_command() -> None:
    # No error repeats a client's long word whole (issue 16), whichever command refuses it.
    d = Driver()
    d.ok("ann", "new hipparchus seed=1")
    key = "k" * 4000
    for line in ("join g1", "bot g1", "genmove g1", "analyze g1"):
        refused = d.fail("ann", f"{line} {key}=1", ErrorCode.BAD_OPTION).response
        assert refused is not None and refused.error is not None
        assert refused.error.message.startswith("unknown option 'kkk"), line
        assert len(refused.error.message) < 100, line


def test_an_unknown_new_option_names_every_option_new_takes() -> None:
    """``new``'s refusal of a key lists the kind's options and the time options alike: each is
    one ``new`` takes (``help new`` lists both), and a list without ``clock`` misleads."""
    d = Driver()
    refused = d.fail("ann", "new planets seats=4", ErrorCode.BAD_OPTION).response
    assert refused is not None and refused.error is not None
    assert refused.error.message == (
        "unknown option 'seats' for planets (known: players, galaxies, dealer, seed, deal,"
        " exact100, clock, timeout, absence, first_move)"
    )
    d.ok("ann", "new planets players=3 clock=5m+3s")  # and the time options still work
