"""Whole matches over TCP: two seats play random legal moves while a spectator watches. The
results must be the rules engine's, and no stream may carry a hidden card (RULINGS H13)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import trio

from hipparchusd.games.hipparchus import MatchRecord, replay
from hipparchusd.games.hipparchus.codec import converter
from hipparchusd.games.hipparchus.notation import format_cards, format_play

from .client import Client, event_fields
from .helpers import DEAL, replay_rounds

Connect = Callable[..., Awaitable[Client]]
_HAND_TOKEN = re.compile(r"^[SME]{2,}$")


async def _turn_of(client: Client, game: str) -> int | None:
    """Read ``client``'s events up to the next ``turn`` (its seat) or ``match-over`` (None)."""
    while True:
        line = await client.next_event()
        if line.startswith("* {"):
            event = json.loads(line[2:])
            kind, data = event["kind"], event["data"]
        else:
            _, _, kind, fields = event_fields(line)
            data = {"seat": int(fields.get("seat", "-1"))}
        if kind == "turn":
            return int(data["seat"])
        if kind == "match-over":
            return None


async def play_random_match(
    seats: tuple[Client, Client], game: str, rng: random.Random
) -> list[list[str]]:
    """Play ``game`` to its end with random moves from ``legal``; return every ``legal``
    answer, in order (as lists of canonical moves)."""
    legal_lists: list[list[str]] = []
    mover: int | None = await _turn_of(seats[0], game)
    while mover is not None:
        client = seats[mover]
        reply = await client.ok(f"legal {game}")
        if reply.lines and reply.lines[0].startswith("{"):
            moves = [m["move"] for m in reply.json()["moves"]]
        else:
            moves = reply.text.split()
        legal_lists.append(moves)
        await client.ok(f"play {game} {rng.choice(moves)}")
        # Seat 0's stream has every public event in order: follow the turns there.
        mover = await _turn_of(seats[0], game)
    return legal_lists


async def test_random_matches_agree_with_the_rules(connect: Connect) -> None:
    rng = random.Random(2024)
    for match in range(3):
        a, b, w = await connect(), await connect(), await connect()
        await b.ok("format json")
        options = f"leader={match % 2}" + (f" deal={DEAL}" if match == 0 else f" seed={match}")
        game = (await a.ok(f"new hipparchus {options}")).fields()["game"]
        await w.ok(f"watch {game}")
        await a.ok(f"join {game} 0")
        await b.ok(f"join {game} 1")
        legal_lists = await play_random_match((a, b), game, rng)
        await w.events_until(["match-over"])
        record_data = (await b.ok(f"record {game}")).json()["record"]
        record = converter.structure(record_data, MatchRecord)
        final = replay(record)
        assert final.winner is not None and max(final.round_wins) == 2
        # The spectator saw every round's result and the winner as the rules compute them.
        round_overs = [event_fields(e)[3] for e in w.events if " round-over " in e]
        rounds = replay_rounds(record)
        assert len(round_overs) == len(rounds) == len(record.rounds)
        for fields, truth in zip(round_overs, rounds, strict=True):
            end = truth.end
            result = end.round.result
            assert result is not None
            assert fields["result.totals"] == ",".join(map(str, result.totals))
            assert fields["result.scores"] == "/".join(",".join(map(str, s)) for s in result.scores)
            assert fields["result.winner"] == str(result.winner)
            assert fields["round_wins"] == ",".join(map(str, end.round_wins))
        (match_over,) = [event_fields(e)[3] for e in w.events if " match-over " in e]
        assert match_over["winner"] == str(final.winner) and match_over["resigned"] == "-"
        # Every legal list the server gave is the rules' list in that position.
        expected_legal = [
            [format_play(p) for p in s.round.legal_plays()]
            for truth in rounds
            for s in truth.states[:-1]
        ]
        assert legal_lists == expected_legal
        # The spectator saw every play, in order, as count and suit (RULINGS H13).
        seen_plays = [event_fields(e)[3]["play"] for e in w.events if " played " in e]
        assert seen_plays == [format_cards(p) for r in record.rounds for p in r.plays]
        for client in (a, b, w):
            await client.aclose()


def _values(obj: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """(key path, scalar text) for every scalar inside a JSON value."""
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield from _values(value, f"{path}.{key}" if path else key)
    elif isinstance(obj, list):
        for item in obj:
            yield from _values(item, path)
    elif isinstance(obj, str):
        yield path, obj


def _items(line: str) -> Iterator[tuple[str, str]]:
    """(key, value token) for every field of a received line, text or JSON, responses and
    events alike; list values are split into their elements."""
    body = line.lstrip("*=?0123456789 ")
    if body.startswith("{"):
        yield from _values(json.loads(body))
        return
    for word in body.split(" "):
        key, equals, value = word.partition("=")
        if not equals:
            continue  # the game id, seq, kind, or a bare payload word such as a move
        for token in re.split(r"[,/]", value):
            yield key, token


def check_no_hidden_cards(
    stream: bytes, record: MatchRecord, viewer: int | None
) -> tuple[int, int]:
    """Assert that ``stream`` (everything ``viewer`` received; ``None`` is a spectator) shows
    no hidden card of a round before its ``round-over``: no hand but the viewer's own (as it
    was at some point of that round), and no revealed or face-down cards.
    Returns (lines checked, own-hand fields seen) so the caller can see the check had work."""
    rounds = replay_rounds(record)
    round_index = 0
    checked = own_seen = 0
    for line in stream.decode().split("\n"):
        if not line:
            continue
        if round_index >= len(rounds):
            break
        own = set() if viewer is None else rounds[round_index].hands(viewer)
        is_round_over = " round-over " in line or '"kind": "round-over"' in line
        if is_round_over:
            round_index += 1
            continue
        checked += 1
        for key, token in _items(line):
            leaf = key.rsplit(".", 1)[-1]
            if leaf in ("revealed", "face_down") or ".revealed." in f".{key}.":
                assert token == "-" or token == "", (line, key)
            if leaf == "hand" and token != "-":
                assert viewer is not None and token in own, (viewer, line)
                own_seen += 1
            elif _HAND_TOKEN.match(token):
                assert token in own, (viewer, line)
    assert round_index == len(rounds), "every round-over was seen"
    return checked, own_seen


async def test_no_stream_carries_a_hidden_card(connect: Connect) -> None:
    rng = random.Random(99)
    a, b, w, wj = await connect(), await connect(), await connect(), await connect()
    await b.ok("format json")
    await wj.ok("format json")
    game = (await a.ok(f"new hipparchus leader=1 deal={DEAL}")).fields()["game"]
    await w.ok(f"watch {game}")
    await wj.ok(f"watch {game}")
    await a.ok(f"join {game} 0")
    await b.ok(f"join {game} 1")

    async def poke(client: Client) -> None:
        # Ask for views and errors along the way: they must hide cards too.
        await client.ok(f"state {game}")
        await client.request(f"play {game} 1S@99")  # never legal

    legal: list[list[str]] = []
    mover: int | None = await _turn_of(a, game)
    while mover is not None:
        for client in (a, b, w, wj):
            await poke(client)
        client = (a, b)[mover]
        moves = (
            [m["move"] for m in (await b.ok(f"legal {game}")).json()["moves"]]
            if mover
            else ((await a.ok(f"legal {game}")).text.split())
        )
        legal.append(moves)
        await client.ok(f"play {game} {rng.choice(moves)}")
        mover = await _turn_of(a, game)
    for client in (w, wj):
        await client.events_until(["match-over"])
    record_data = (await b.ok(f"record {game}")).json()["record"]
    record = converter.structure(record_data, MatchRecord)
    with trio.move_on_after(0.2):
        while True:
            await a.next_event()
    for viewer, client in ((0, a), (1, b), (None, w), (None, wj)):
        checked, own_seen = check_no_hidden_cards(bytes(client.received), record, viewer)
        assert checked > 50
        if viewer is not None:
            assert own_seen >= 2  # hand events and state views were checked
