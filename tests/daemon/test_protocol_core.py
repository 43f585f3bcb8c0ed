"""The sans-I/O protocol core: line splitting, request parsing, flattening, formatting."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from hipparchusd.protocol import (
    ErrorCode,
    LineError,
    LineSplitter,
    Mode,
    ProtocolError,
    Request,
    failure,
    flatten,
    game_event,
    lines,
    parse_request,
    server_event,
    success,
    words,
)


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


def test_flatten_follows_section_6() -> None:
    data = {
        "trick": {"leader": 0, "lead": "2E@5", "follow": None, "winner": None},
        "won": [[0, 2, 1], [3, 0, 0]],
        "round_wins": [1, 0],
        "tricks": [{"lead": "2E@5", "winner": 1}, {"lead": "1S@1", "winner": 0}],
        "empty": [],
        "nothing": {},
        "by_tie_break": False,
        "fixed": True,
    }
    assert flatten(data) == [
        ("trick.leader", "0"),
        ("trick.lead", "2E@5"),
        ("trick.follow", "-"),
        ("trick.winner", "-"),
        ("won", "0,2,1/3,0,0"),
        ("round_wins", "1,0"),
        ("tricks.1.lead", "2E@5"),
        ("tricks.1.winner", "1"),
        ("tricks.2.lead", "1S@1"),
        ("tricks.2.winner", "0"),
        ("empty", "-"),
        ("nothing", "-"),
        ("by_tie_break", "false"),
        ("fixed", "true"),
    ]
    assert words({"seat": 0, "names": ["a", None]}) == "seat=0 names=a,-"
    assert lines({"a": 1, "b": {"c": 2}}) == ["a=1", "b.c=2"]


def _reference_flatten(value: Any, key: str, pairs: list[tuple[str, str]]) -> None:
    """Section 6 as written, with no shortcuts: what :func:`flatten` must agree with."""

    def scalar(v: Any) -> bool:
        return v is None or isinstance(v, str | int | float)

    def text(v: Any) -> str:
        return "-" if v is None else "true" if v is True else "false" if v is False else str(v)

    if isinstance(value, dict):
        if not value:
            pairs.append((key, "-"))
        for name, item in value.items():
            _reference_flatten(item, f"{key}.{name}" if key else name, pairs)
    elif isinstance(value, list):
        if not value:
            pairs.append((key, "-"))
        elif all(scalar(v) for v in value):
            pairs.append((key, ",".join(map(text, value))))
        elif all(isinstance(v, list) and all(scalar(x) for x in v) for v in value):
            pairs.append((key, "/".join(",".join(map(text, v)) or "-" for v in value)))
        else:
            for number, item in enumerate(value, 1):
                _reference_flatten(item, f"{key}.{number}", pairs)
    else:
        pairs.append((key, text(value)))


def _random_json(rng: random.Random, depth: int) -> Any:
    choice = rng.randrange(9 if depth < 3 else 6)
    if choice < 6:
        return [None, True, False, rng.randrange(-5, 50), "2E@5", 1.5][choice]
    if choice < 8:
        return [_random_json(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {f"k{n}": _random_json(rng, depth + 1) for n in range(rng.randrange(4))}


def test_flatten_agrees_with_section_6_on_random_values() -> None:
    # flatten and words take shortcuts for the common shapes of events; they must give exactly
    # what the plain reading of section 6 gives, for every shape.
    rng = random.Random(6)
    for _ in range(3000):
        data = {f"f{n}": _random_json(rng, 0) for n in range(rng.randrange(1, 5))}
        expected: list[tuple[str, str]] = []
        _reference_flatten(data, "", expected)
        assert flatten(data) == expected, data
        assert words(data) == " ".join(f"{k}={v}" for k, v in expected), data


def test_success_responses() -> None:
    assert success(None, Mode.TEXT, {}, []) == b"=\n\n"
    assert success("5", Mode.TEXT, {"x": 1}, ["a", "b"]) == b"=5 a\nb\n\n"
    assert success("5", Mode.JSON, {}, []) == b"=5 {}\n\n"
    raw = success(None, Mode.JSON, {"game": "g1"}, ["game=g1"])
    assert raw.endswith(b"\n\n") and raw.count(b"\n") == 2
    assert json.loads(raw[2:]) == {"game": "g1"}


def test_failure_responses_stay_on_one_line() -> None:
    text = failure("7", Mode.TEXT, ErrorCode.SYNTAX, "bad\nthing")
    assert text == b"?7 syntax bad thing\n\n"
    raw = failure(None, Mode.JSON, ErrorCode.UNKNOWN_GAME, "no game 'g9'")
    assert raw.startswith(b"? ") and raw.endswith(b"\n\n")
    assert json.loads(raw[2:]) == {"code": "unknown-game", "message": "no game 'g9'"}


def test_events() -> None:
    data = {"seat": 0, "lead": None}
    assert game_event(Mode.TEXT, "g1", 4, "turn", data) == b"* g1 4 turn seat=0 lead=-\n"
    assert json.loads(game_event(Mode.JSON, "g1", 4, "turn", data)[2:]) == {
        "game": "g1",
        "seq": 4,
        "kind": "turn",
        "data": data,
    }
    hello = {"name": "hipparchusd", "version": "0.1.0", "protocol": 1}
    assert (
        server_event(Mode.TEXT, "hello", hello)
        == b"* server hello name=hipparchusd version=0.1.0 protocol=1\n"
    )
    assert json.loads(server_event(Mode.JSON, "shutdown", {"grace": 5})[2:]) == {
        "game": "server",
        "kind": "shutdown",
        "data": {"grace": 5},
    }
