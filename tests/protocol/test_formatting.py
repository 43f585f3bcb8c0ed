"""Writing responses and events in text and JSON, and the flattening of JSON into text
(hipparchusd.protocol.formatting, PROTOCOL.md sections 3, 4 and 6)."""

from __future__ import annotations

import json
import random
from typing import Any

from hipparchusd.protocol import (
    ErrorCode,
    Mode,
    failure,
    flatten,
    game_event,
    lines,
    server_event,
    success,
    words,
)


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


def test_json_lines_read_back_as_the_data_and_text_lines_are_its_flattening() -> None:
    """Round trips on random payloads: a JSON-mode line is one line that parses back to the
    data; the text-mode line is the header and the section-6 flattening of the same data."""
    rng = random.Random(11)
    for _ in range(500):
        data = {f"f{n}": _random_json(rng, 0) for n in range(rng.randrange(0, 4))}
        seq = rng.randrange(1, 10_000)
        raw = game_event(Mode.JSON, "g7", seq, "played", data)
        assert raw.endswith(b"\n") and raw.count(b"\n") == 1 and raw.startswith(b"* ")
        assert json.loads(raw[2:]) == {"game": "g7", "seq": seq, "kind": "played", "data": data}
        text = game_event(Mode.TEXT, "g7", seq, "played", data)
        fields = " ".join(f"{k}={v}" for k, v in flatten(data))
        assert text == f"* g7 {seq} played{' ' if fields else ''}{fields}\n".encode()
        response = success("9", Mode.JSON, data, lines(data))
        assert response.startswith(b"=9 ") and response.endswith(b"\n\n")
        assert json.loads(response[3:]) == data
        # Text: "=9", then the payload lines (the first after a space), then the empty line.
        payload = lines(data)
        expected = "=9" + (" " + "\n".join(payload) if payload else "") + "\n\n"
        assert success("9", Mode.TEXT, data, payload) == expected.encode()


def test_non_ascii_text_is_sent_as_utf8_in_both_modes() -> None:
    data = {"name": "Zoë"}
    assert game_event(Mode.TEXT, "g1", 1, "joined", data) == "* g1 1 joined name=Zoë\n".encode()
    assert "Zoë".encode() in game_event(Mode.JSON, "g1", 1, "joined", data)
