"""The commands of protocol 1: usage, summary and argument counts (PROTOCOL.md section 5)."""

from __future__ import annotations

from collections.abc import Mapping

import attrs


@attrs.frozen
class CommandSpec:
    """A command's usage line, summary and argument counts; ``options`` says whether
    ``key=value`` words are options (else they are plain arguments)."""

    usage: str
    summary: str
    min_args: int = 0
    max_args: int = 0
    options: bool = False


COMMANDS: Mapping[str, CommandSpec] = {
    "protocol_version": CommandSpec("protocol_version", "the protocol version (1)"),
    "name": CommandSpec("name", "the server's name"),
    "version": CommandSpec("version", "the server's version"),
    "list_commands": CommandSpec("list_commands", "every command, one per line"),
    "known_command": CommandSpec("known_command <command>", "true if the command exists", 1, 1),
    "help": CommandSpec("help [<command>]", "usage of every command, or of one", 0, 1),
    "quit": CommandSpec("quit", "close the connection"),
    "format": CommandSpec("format [text|json]", "switch the output format", 0, 1),
    "kinds": CommandSpec("kinds", "the game kinds served, with their seats and summary"),
    "new": CommandSpec(
        "new <kind> [key=value ...]",
        "create a game; 'help new' lists each kind's options",
        1,
        1,
        options=True,
    ),
    "games": CommandSpec("games", "the games not finished, one per line"),
    "join": CommandSpec(
        "join <game> [<seat>] [name=<name>]", "take a seat; answers its secret token", 1, 2, True
    ),
    "resume": CommandSpec("resume <token>", "take back a seat with its token", 1, 1),
    "leave": CommandSpec("leave <game>", "stop following a game", 1, 1),
    "watch": CommandSpec("watch <game>", "follow a game as a spectator", 1, 1),
    "unwatch": CommandSpec("unwatch <game>", "stop watching a game", 1, 1),
    "state": CommandSpec("state <game>", "your view of a game", 1, 1),
    "legal": CommandSpec("legal <game>", "your legal moves now", 1, 1),
    "play": CommandSpec("play <game> <move>", "make a move: one word in the game's notation", 2, 2),
    "resign": CommandSpec("resign <game>", "resign the game", 1, 1),
    "record": CommandSpec("record <game>", "every deal and move of a finished game", 1, 1),
}
