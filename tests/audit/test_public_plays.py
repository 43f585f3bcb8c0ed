"""Plays are public as count and suit only (RULINGS H13): a hand position (``2S@4``) would tell
the opponent and spectators which cards of the player's hand were of the suit played and that
the card before them was not. Positions reach only the player (its ``legal`` and ``play``
answers) and, once the match is over, everyone through its record."""

from __future__ import annotations

import json
import random
import re

import pytest
import trio
from daemon.client import Client, event_fields

from hipparchusd.games.hipparchus import MatchRecord
from hipparchusd.games.hipparchus.codec import converter
from hipparchusd.games.hipparchus.notation import format_cards, format_play

from .conftest import StartServer
from .streams import messages, position_leaks, public_plays

# What the daemon sent before the fix, taken from the old conformance transcripts.
OLD_LINES = [
    "* g1 5 played seat=0 play=1M@2 hand_size=13",
    "* g1 6 turn seat=1 lead=1M@2",
    "* g1 8 trick number=1 trick.leader=0 trick.lead=1M@2 trick.follow=3M@8 trick.winner=1 "
    "won=0,0,0/0,4,0",
    '* {"game": "g1", "seq": 11, "kind": "played", "data": {"seat": 1, "play": "2S@4", '
    '"hand_size": 12}}',
    '* {"game": "g1", "seq": 12, "kind": "trick", "data": {"number": 1, "trick": {"leader": 0, '
    '"lead": "1S@1", "follow": "2S@4", "winner": 1}, "won": [[0, 0, 0], [3, 0, 0]]}}',
    "=4 game=g1 kind=hipparchus view.leader=1 view.lead=- view.tricks.1.leader=0 "
    "view.tricks.1.lead=1S@1 view.tricks.1.follow=2S@4 view.tricks.1.winner=1",
    '= {"game": "g1", "seq": 10, "view": {"seat": 1, "lead": "1S@1", "tricks": []}}',
]
NEW_LINES = [re.sub(r"@[0-9]+", "", line) for line in OLD_LINES]  # as sent now


@pytest.mark.parametrize("viewer", [0, 1, None])
def test_the_stream_checker_flags_positions_in_events_and_views(viewer: int | None) -> None:
    for line in OLD_LINES:
        assert position_leaks(line, viewer), line
    for line in NEW_LINES:
        assert position_leaks(line, viewer) == [], line
        assert all(len(play) == 2 for play in public_plays(line)), line
    # played 1, turn 1, trick 2, JSON played 1, JSON trick 2, text view 2 (lead -), JSON view 1
    assert sum(len(public_plays(line)) for line in NEW_LINES) == 10


def test_the_stream_checker_lets_a_seat_see_its_own_moves_only() -> None:
    own = [
        "=3 1S@1 2S@1 1M@3",  # legal, text
        '=3 {"game": "g1", "moves": [{"move": "2S@4", "suit": "S", "count": 2, "position": 4, '
        '"clump": [4, 5]}]}',  # legal, JSON
        "=7 2S@4",  # play, text
        '= {"game": "g1", "move": "2S@4"}',  # play, JSON
        "?8 illegal-move position 99 is outside your hand of 12 cards (1S@99)",  # its own input
    ]
    for line in own:
        assert position_leaks(line, 0) == [], line
        assert position_leaks(line, None), line  # a spectator gets no such answer
    # A position in any other field of an answer is a leak, even to a seat.
    assert position_leaks('= {"game": "g1", "note": "seat 1 led 2S@4"}', 0) == [
        "note=seat 1 led 2S@4"
    ]


async def _random_match(server_port: int, seed: int) -> tuple[list[Client], list[Client], str]:
    """A seeded match of random legal moves: seat 0 in text, seat 1 in JSON, a text and a JSON
    spectator. Returns (seats, spectators, game id), the match over."""
    rng = random.Random(seed)
    seats = [await Client.connect(server_port), await Client.connect(server_port)]
    spectators = [await Client.connect(server_port), await Client.connect(server_port)]
    await seats[1].ok("format json")
    await spectators[1].ok("format json")
    game = (await spectators[0].ok(f"new hipparchus leader=0 seed={seed}")).fields()["game"]
    for spectator in spectators:
        await spectator.ok(f"watch {game}")
    for seat, client in enumerate(seats):
        await client.ok(f"join {game} {seat}")
    while True:
        _, _, kind, data = event_fields(await spectators[0].next_event())
        if kind == "match-over":
            return seats, spectators, game
        if kind != "turn":
            continue
        mover = int(data["seat"])
        reply = await seats[mover].ok(f"legal {game}")
        moves = [m["move"] for m in reply.json()["moves"]] if mover == 1 else reply.text.split()
        await seats[mover].ok(f"play {game} {rng.choice(moves)}")


@pytest.mark.parametrize("seed", [5, 17])
async def test_opponents_and_spectators_never_see_a_hand_position(
    start_server: StartServer, seed: int
) -> None:
    server = await start_server()
    with trio.fail_after(60):
        seats, spectators, game = await _random_match(server.ports[0], seed)
        for client in (*seats, *spectators):
            await client.ok("name")  # everything sent before this answer has arrived
        streams = {viewer: bytes(c.received) for viewer, c in ((0, seats[0]), (1, seats[1]))}
        record = (await seats[0].ok(f"record {game}")).text.split("\n")
        match = converter.structure(
            json.loads((await seats[1].ok(f"record {game}")).lines[0])["record"], MatchRecord
        )
    # The record, once the match is over, has every position (it replays the match exactly).
    plays = [p for r in match.rounds for p in r.plays]
    assert f"record.rounds.1.plays={','.join(format_play(p) for p in match.rounds[0].plays)}" in (
        record
    )
    for viewer, received in [*streams.items(), (None, bytes(spectators[0].received)),
                             (None, bytes(spectators[1].received))]:  # fmt: skip
        lines = list(messages(received))
        leaks = [(line, position_leaks(line, viewer)) for line in lines]
        assert [leak for leak in leaks if leak[1]] == [], viewer
        # Every play was shown, in order, as count and suit: the truth comes from the record.
        shown = [
            event_fields(line)[3]["play"]
            for line in lines
            if line.startswith("*") and event_fields(line)[2] == "played"
        ]
        assert shown == [format_cards(p) for p in plays], viewer
    for client in (*seats, *spectators):
        await client.aclose()
