"""Parsing one request line (hipparchusd.protocol.requests, PROTOCOL.md section 2)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hipparchusd.protocol import ErrorCode, ProtocolError, Request, parse_request


def test_parse_request_with_and_without_id() -> None:
    assert parse_request("play g1 2E@5") == Request(None, "play", ("g1", "2E@5"))
    assert parse_request("12 \t play  g1\t2E@5 ") == Request("12", "play", ("g1", "2E@5"))
    assert parse_request("007 name") == Request("007", "name", ())


@pytest.mark.parametrize("line", ["", "   ", "\t \t", "# a comment", "  #x y"])
def test_blank_lines_and_comments_are_no_request(line: str) -> None:
    assert parse_request(line) is None


@pytest.mark.parametrize(
    ("line", "request_id"),
    [("1234567890 name", None), ("12", "12"), ("3 PLAY g1", "3"), ("!!", None), ("é", None)],
)
def test_bad_requests_are_syntax_errors(line: str, request_id: str | None) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_request(line)
    assert caught.value.code is ErrorCode.SYNTAX
    assert caught.value.request_id == request_id


_WORD = st.text(
    alphabet=st.characters(blacklist_characters=" \t\n\r", blacklist_categories=("Cs",)),
    min_size=1,
    max_size=12,
)
_SPACE = st.text(alphabet=" \t", min_size=1, max_size=3)


@settings(max_examples=60, deadline=None)
@given(
    st.one_of(st.none(), st.integers(min_value=0, max_value=999_999_999).map(str)),
    st.from_regex(r"[a-z_]{1,12}", fullmatch=True),
    st.lists(_WORD, max_size=5),
    st.data(),
)
def test_any_spacing_of_the_same_words_is_the_same_request(
    request_id: str | None, command: str, args: list[str], data: st.DataObject
) -> None:
    words = ([request_id] if request_id is not None else []) + [command, *args]
    gaps = [data.draw(_SPACE) for _ in range(len(words) + 1)]
    line = gaps[0] + "".join(w + g for w, g in zip(words, gaps[1:], strict=True))
    assert parse_request(line) == Request(request_id, command, tuple(args))
    assert parse_request(" ".join(words)) == Request(request_id, command, tuple(args))


def test_an_id_keeps_its_leading_zeros_and_a_long_command_word_is_cut_in_the_error() -> None:
    assert parse_request("000000001 version") == Request("000000001", "version", ())
    with pytest.raises(ProtocolError) as caught:
        parse_request("7 " + "X" * 5000)
    assert caught.value.request_id == "7"
    assert len(caught.value.message) < 120 and "..." in caught.value.message


def test_arguments_are_kept_exactly_as_written() -> None:
    # The lobby, not the parser, decides what an argument means (case, key=value, Unicode).
    request = parse_request("join g1 name=Zoë =x a==b")
    assert request == Request(None, "join", ("g1", "name=Zoë", "=x", "a==b"))
