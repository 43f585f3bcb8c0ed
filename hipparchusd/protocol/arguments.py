"""A command's arguments (PROTOCOL.md sections 2 and 5), sans I/O: its usage line, which is
its grammar, and the splitting of a request's words by it.

A usage line names the command, then its arguments in order, as the command table of
PROTOCOL.md section 5 writes them::

    usage    = command *(SP argument) *(SP option)
    argument = "<" name ">"                   ; required, e.g. <game>
             / "[" "<" name ">" "]"           ; optional, e.g. [<seat>]
             / "[" word *("|" word) "]"       ; optional, one of the words, e.g. [text|json]
    option   = "[" key "=" value "]"          ; e.g. [name=<name>] or [play=false]
             / "[key=value ...]"              ; any options (last; the game kind checks them)

A request's words are then split as the usage says (:meth:`Syntax.split`): for a command
with options, a word ``key=value`` is an option and any other word an argument; for one
without, every word is an argument (``play g1 x=y`` plays the move ``x=y``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import attrs

from .errors import ErrorCode, ProtocolError, shown

#: One part of a usage line: a bracketed optional part (spaces allowed inside), or a word.
_PART = re.compile(r"\[[^\]]*\]|[^ \[]+")
_REQUIRED = re.compile(r"<[a-z_]+>")
_OPTIONAL = re.compile(r"\[(<[a-z_]+>|[a-z0-9_]+(\|[a-z0-9_]+)*)\]")
_OPTION = re.compile(r"\[[a-z_]+=(<[a-z_]+>|[a-z0-9_]+)\]")
#: The option part of a command whose options are the game kind's, not the command's.
ANY_OPTIONS = "[key=value ...]"


@attrs.frozen
class Syntax:
    """A command's grammar, read from its ``usage`` line (see the module's grammar).

    ``name`` is the command word; a request gives between ``min_args`` and ``max_args``
    arguments; ``options`` says whether ``key=value`` words are options (which keys the
    command knows is its handler's to check); ``hint``, where not empty, follows the usage
    in the message refusing a request with too many arguments, for a mistake the usage line
    alone does not explain (``play g1 pick 3 ...``: a move is one word). Make one with
    :meth:`of`.
    """

    usage: str
    name: str
    min_args: int
    max_args: int
    options: bool
    hint: str = ""

    @classmethod
    def of(cls, usage: str, hint: str = "") -> Syntax:
        """The syntax that ``usage`` writes, with ``hint`` for too many arguments.

        Raises:
            ValueError: ``usage`` does not follow the grammar, e.g. a required argument after
                an optional one, an argument after an option, or an unknown form of part.
        """
        name, *parts = _PART.findall(usage)
        if " ".join([name, *parts]) != usage or name.strip("abcdefghijklmnopqrstuvwxyz_"):
            raise ValueError(f"{usage!r}: not a command word and parts one space apart")
        required = optional = options = 0
        for part in parts:
            if part == ANY_OPTIONS or _OPTION.fullmatch(part):
                if part == ANY_OPTIONS and parts[-1] != part:
                    raise ValueError(f"{usage!r}: {ANY_OPTIONS} comes last")
                options += 1
            elif options:
                raise ValueError(f"{usage!r}: argument {part} after an option")
            elif _REQUIRED.fullmatch(part):
                if optional:
                    raise ValueError(f"{usage!r}: required {part} after an optional argument")
                required += 1
            elif _OPTIONAL.fullmatch(part):
                optional += 1
            else:
                raise ValueError(f"{usage!r}: {part!r} is no argument or option")
        return cls(usage, name, required, required + optional, options > 0, hint)

    def split(self, words: Sequence[str]) -> tuple[list[str], dict[str, str]]:
        """A request's argument ``words`` as (arguments, options by key). Which option keys
        the command knows its handler checks, after its arguments (so that an unknown game
        is named before a misspelt option).

        Raises:
            ProtocolError: ``syntax`` for too few or too many arguments, or a word ``=value``
                with no key; ``bad-option`` for an option with no value or given twice.
        """
        if self.options:
            args, options = split_options(words)
        else:
            # Every word is an argument (most requests, ``legal`` and ``play`` among them).
            args, options = list(words), {}
        if not self.min_args <= len(args) <= self.max_args:
            if len(args) < self.min_args:
                message = f"too few arguments; usage: {self.usage}"
            else:
                message = f"too many arguments; usage: {self.usage}"
                if self.hint:
                    message += f"; {self.hint}"
            raise ProtocolError(ErrorCode.SYNTAX, message)
        return args, options


def split_options(words: Sequence[str]) -> tuple[list[str], dict[str, str]]:
    """The arguments and the ``key=value`` options among ``words``, for a command that takes
    options.

    Raises:
        ProtocolError: ``syntax`` for a word with no key, ``bad-option`` for an option with
            no value or given twice.
    """
    args: list[str] = []
    options: dict[str, str] = {}
    for word in words:
        key, equals, value = word.partition("=")
        if equals:
            if not key:
                raise ProtocolError(ErrorCode.SYNTAX, f"{shown(word)} is not key=value")
            if not value:
                # PROTOCOL.md's error table: an option without a value is a bad
                # option, as the games' own check says (GameKind.check_options).
                raise ProtocolError(ErrorCode.BAD_OPTION, f"option {shown(key)} has no value")
            if key in options:
                raise ProtocolError(ErrorCode.BAD_OPTION, f"option {shown(key)} given twice")
            options[key] = value
        else:
            args.append(word)
    return args, options
