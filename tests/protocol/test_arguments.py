"""A command's grammar read from its usage line, and a request's words split by it
(hipparchusd.protocol.arguments, PROTOCOL.md sections 2 and 5)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hipparchusd.protocol import ErrorCode, ProtocolError
from hipparchusd.protocol.arguments import Syntax, split_options


@pytest.mark.parametrize(
    ("usage", "name", "least", "most", "options"),
    [
        # The arguments column of PROTOCOL.md's command tables (sections 5 and 9).
        ("protocol_version", "protocol_version", 0, 0, False),
        ("known_command <command>", "known_command", 1, 1, False),
        ("help [<command>]", "help", 0, 1, False),
        ("format [text|json]", "format", 0, 1, False),
        ("new <kind> [key=value ...]", "new", 1, 1, True),
        ("join <game> [<seat>] [name=<name>]", "join", 1, 2, True),
        ("play <game> <move>", "play", 2, 2, False),
        ("genmove <game> [<budget>] [play=false]", "genmove", 1, 2, True),
        ("analyze <game> [<budget>] [interval=<ms>] [seat=<n>]", "analyze", 1, 2, True),
    ],
)
def test_the_usage_line_gives_the_name_and_the_counts(
    usage: str, name: str, least: int, most: int, options: bool
) -> None:
    syntax = Syntax.of(usage)
    assert (syntax.usage, syntax.name, syntax.min_args, syntax.max_args, syntax.options) == (
        usage,
        name,
        least,
        most,
        options,
    )


@pytest.mark.parametrize(
    "usage",
    [
        "",
        "Play <game>",  # not a command word
        "play  <game>",  # two spaces
        "play [<seat>] <game>",  # required after optional
        "join <game> [name=<name>] [<seat>]",  # argument after an option
        "new [key=value ...] [seed=<n>]",  # the open options come last
        "play <game> move",  # a bare word is no part
        "play <Game>",
        "play [<game>",
    ],
)
def test_a_usage_line_off_the_grammar_is_refused(usage: str) -> None:
    with pytest.raises(ValueError):
        Syntax.of(usage)


def test_split_by_a_command_with_options() -> None:
    syntax = Syntax.of("join <game> [<seat>] [name=<name>]")
    assert syntax.split(("g1", "name=ann", "1")) == (["g1", "1"], {"name": "ann"})
    assert syntax.split(("g1",)) == (["g1"], {})


def test_split_by_a_command_without_options_keeps_every_word_an_argument() -> None:
    # A move word may hold "=": it is an argument, not an option.
    assert Syntax.of("play <game> <move>").split(("g1", "a=b")) == (["g1", "a=b"], {})


@pytest.mark.parametrize(
    ("words", "code", "message"),
    [
        ((), ErrorCode.SYNTAX, "too few arguments; usage: join <game> [<seat>] [name=<name>]"),
        (
            ("g1", "0", "1"),
            ErrorCode.SYNTAX,
            "too many arguments; usage: join <game> [<seat>] [name=<name>]",
        ),
        (("g1", "=x"), ErrorCode.SYNTAX, "'=x' is not key=value"),
        (("g1", "name="), ErrorCode.BAD_OPTION, "option 'name' has no value"),
        (("g1", "name=a", "name=b"), ErrorCode.BAD_OPTION, "option 'name' given twice"),
    ],
)
def test_bad_words_are_refused_with_why(
    words: tuple[str, ...], code: ErrorCode, message: str
) -> None:
    with pytest.raises(ProtocolError) as caught:
        Syntax.of("join <game> [<seat>] [name=<name>]").split(words)
    assert (caught.value.code, caught.value.message) == (code, message)


def test_too_many_arguments_add_the_commands_hint_after_its_usage() -> None:
    # A newcomer pastes `legal`'s `pick 3 E1 E5 VS` after `play g1`: the usage line alone
    # does not say that a move is one word; too few arguments need no hint.
    syntax = Syntax.of("play <game> <move>", hint="a move is one word")
    with pytest.raises(ProtocolError) as caught:
        syntax.split(("g1", "pick", "3", "E1"))
    assert caught.value.message == (
        "too many arguments; usage: play <game> <move>; a move is one word"
    )
    with pytest.raises(ProtocolError) as caught:
        syntax.split(("g1",))
    assert caught.value.message == "too few arguments; usage: play <game> <move>"


def test_an_options_echo_is_cut() -> None:
    # No error repeats a client's long word whole (issue 16).
    with pytest.raises(ProtocolError) as caught:
        split_options(["=" + "9" * 4000])
    assert len(caught.value.message) < 80


PROTOCOL_MD = Path(__file__).resolve().parents[2] / "protocol" / "PROTOCOL.md"


def test_protocol_md_names_the_codes_the_parser_gives_an_option_without_key_or_value() -> None:
    """Section 5 (``new``) and the error table say which code an option with no value
    (``seed=``) and a word with no key (``=3``) get; the parser gives exactly those (issue 24
    item 8: section 5 once said ``syntax`` for the first, the table and the server
    ``bad-option``)."""
    text = PROTOCOL_MD.read_text()
    section = text[text.index("## 5. Commands") : text.index("## 6.")]
    no_value = re.search(r"no value \(a word `key=`\) is `\? ([a-z-]+)`", section)
    no_key = re.search(r"a word `=value`, with no key, is\s+`\? ([a-z-]+)`", section)
    assert no_value is not None and no_key is not None, "the sentence moved: update this test"
    table = re.search(r"^\| `([a-z-]+)` \| an option of `new`[^|]*no value", text, re.M)
    assert table is not None
    for words, documented in (
        (["seed="], no_value.group(1)),
        (["=3"], no_key.group(1)),
        (["seed="], table.group(1)),
    ):
        with pytest.raises(ProtocolError) as caught:
            split_options(words)
        assert caught.value.code == documented, words
