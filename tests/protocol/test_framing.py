"""Splitting a byte stream into request lines (hipparchusd.protocol.framing, PROTOCOL.md
section 1): bytes in, lines or line errors out, with no socket."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hipparchusd.protocol import ErrorCode, LineError, LineSplitter


def feed_all(splitter: LineSplitter, *chunks: bytes) -> list[str | LineError]:
    out: list[str | LineError] = []
    for chunk in chunks:
        out.extend(splitter.feed(chunk))
    return out


def test_lines_split_on_lf_and_drop_one_cr() -> None:
    splitter = LineSplitter(64)
    assert feed_all(splitter, b"abc\r\nde", b"f\n\ng\r\r\n") == ["abc", "def", "", "g\r"]


def test_a_line_arriving_byte_by_byte() -> None:
    splitter = LineSplitter(64)
    chunks = [bytes([b]) for b in b"play g1 2E@5\n"]
    assert feed_all(splitter, *chunks) == ["play g1 2E@5"]


def test_the_limit_counts_the_lf() -> None:
    splitter = LineSplitter(8)
    assert feed_all(splitter, b"1234567\n") == ["1234567"]
    (error,) = feed_all(splitter, b"12345678\n")
    assert isinstance(error, LineError) and error.code is ErrorCode.LINE_TOO_LONG
    # CR counts too: 7 bytes, CR, LF is 9 bytes.
    (error,) = feed_all(splitter, b"1234567\r\n")
    assert isinstance(error, LineError) and error.code is ErrorCode.LINE_TOO_LONG


def test_an_overlong_line_is_discarded_up_to_its_lf_and_reported_once() -> None:
    splitter = LineSplitter(16)
    out = feed_all(splitter, b"x" * 10, b"y" * 100, b"z" * 5000, b"tail\nnext\n")
    assert len(out) == 2
    assert isinstance(out[0], LineError) and out[0].code is ErrorCode.LINE_TOO_LONG
    assert out[1] == "next"
    assert len(splitter._buffer) < 16  # memory stays bounded


def test_invalid_utf8_is_a_syntax_error_and_the_next_line_is_fine() -> None:
    splitter = LineSplitter(64)
    out = feed_all(splitter, b"name \xff\xfe\nversion\n")
    assert isinstance(out[0], LineError) and out[0].code is ErrorCode.SYNTAX
    assert out[1] == "version"
    assert feed_all(splitter, "état\n".encode()) == ["état"]


def test_close_yields_an_unterminated_last_line() -> None:
    splitter = LineSplitter(64)
    assert feed_all(splitter, b"version") == []
    assert list(splitter.close()) == ["version"]
    assert list(splitter.close()) == []


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.binary(max_size=40).map(lambda b: b.replace(b"\n", b"")), max_size=8),
    st.lists(st.integers(min_value=1, max_value=50), min_size=1, max_size=20),
)
def test_the_lines_do_not_depend_on_how_the_bytes_arrive(
    lines: list[bytes], cuts: list[int]
) -> None:
    """However the stream is cut into reads, the same lines (or errors) come out, in order."""
    stream = b"".join(line + b"\n" for line in lines)
    whole = list(LineSplitter(32).feed(stream))
    splitter = LineSplitter(32)
    pieces: list[str | LineError] = []
    start = 0
    for size in cuts * (len(stream) // max(1, sum(cuts)) + 1):
        if start >= len(stream):
            break
        pieces += splitter.feed(stream[start : start + size])
        start += size
    pieces += splitter.feed(stream[start:])
    assert pieces == whole
    assert len(whole) == len(lines)
    for line, out in zip(lines, whole, strict=True):
        if len(line) + 1 > 32:
            assert out == LineError(
                ErrorCode.LINE_TOO_LONG, "request lines are limited to 32 bytes"
            )
        elif isinstance(out, str):
            assert out.encode() == line.removesuffix(b"\r")
        else:
            assert out.code is ErrorCode.SYNTAX  # not UTF-8
            with pytest.raises(UnicodeDecodeError):
                line.decode()


def test_a_limit_below_two_bytes_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 2"):
        LineSplitter(1)
    assert list(LineSplitter(2).feed(b"a\nbb\n")) == [
        "a",
        LineError(ErrorCode.LINE_TOO_LONG, "request lines are limited to 2 bytes"),
    ]
