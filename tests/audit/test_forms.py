"""Protocol conformance of the forms (PROTOCOL.md sections 3-6): every command's JSON payload
has the keys the command table gives, every event kind the fields the event table gives, the
text form of each event is the flattening of its JSON form, and seq numbers have no gap."""

from __future__ import annotations

import itertools
import json
import random

import trio
from daemon.client import Client, event_fields

from hipparchusd.protocol.formatting import flatten

from .conftest import StartServer

EVENT_FIELDS = {
    "joined": {"seat", "name"},
    "left": {"seat"},
    "disconnected": {"seat"},
    "resumed": {"seat"},
    "round-started": {"round_number", "leader", "round_wins"},
    "hand": {"round_number", "seat", "hand"},
    "turn": {"seat", "lead"},
    "played": {"seat", "play", "hand_size"},
    "trick": {"number", "trick.leader", "trick.lead", "trick.follow", "trick.winner", "won"},
    "no-follow": {"number", "trick.leader", "trick.lead", "trick.follow", "trick.winner"}
    | {"set_aside"},
    "round-over": {"round_number", "result.scores", "result.totals", "result.winner"}
    | {"result.by_tie_break", "won", "round_wins", "revealed.hands", "revealed.face_down"},
    "match-over": {"winner", "round_wins", "resigned"},
    # The generic events every game sends (protocol/PROTOCOL.md, section 4).
    "to-move": {"seats"},
    "game-over": {"winners", "scores", "resigned"},
}
STATE_KEYS = {"game", "kind", "seq", "status", "players", "view"}
#: A started game's state also says each seat's presence (PROTOCOL.md section 10).
STARTED_STATE_KEYS = STATE_KEYS | {"presence"}
VIEW_KEYS = {"seat", "hand", "hand_sizes", "won", "set_aside", "leader", "lead", "tricks"} | {
    "to_move",
    "round_number",
    "round_wins",
    "result",
    "revealed",
    "winner",
    "resigned",
    "fixed_deal",
}


def _json(reply_lines: list[str]) -> dict[str, object]:
    assert len(reply_lines) == 1, reply_lines
    value = json.loads(reply_lines[0])
    assert isinstance(value, dict)
    return value


async def test_command_payloads_in_json_and_text(start_server: StartServer) -> None:
    server = await start_server()
    a, b, t = [await Client.connect(server.ports[0]) for _ in range(3)]
    assert (await a.ok("format json")).lines == ['{"format": "json"}']
    await b.ok("format json")

    async def keys(line: str) -> set[str]:
        return set(_json((await a.ok(line)).lines))

    assert _json((await a.ok("protocol_version")).lines) == {"protocol_version": 1}
    assert await keys("name") == {"name"} and await keys("version") == {"version"}
    assert await keys("list_commands") == {"commands"}
    assert _json((await a.ok("known_command play")).lines) == {"known": True}
    assert _json((await a.ok("known_command fly")).lines) == {"known": False}
    help_all = _json((await a.ok("help")).lines)["help"]
    assert isinstance(help_all, dict)
    listed = _json((await a.ok("list_commands")).lines)["commands"]
    assert sorted(help_all) == sorted(listed)  # type: ignore[arg-type]
    assert _json((await a.ok("kinds")).lines)["kinds"] == ["hipparchus", "planets"]
    assert _json((await a.ok("games")).lines) == {"games": []}
    game = _json((await a.ok("new hipparchus leader=0 seed=5")).lines)["game"]
    (summary,) = _json((await a.ok("games")).lines)["games"]  # type: ignore[misc]
    assert summary == {
        "game": game,
        "kind": "hipparchus",
        "status": "waiting",
        "players": [None, None],
        "fixed_deal": True,
    }
    assert (await t.ok("games")).lines == [
        f"game={game} kind=hipparchus status=waiting players=-,- fixed_deal=true"
    ]
    state = _json((await a.ok(f"state {game}")).lines)
    assert set(state) == STATE_KEYS and state["view"] is None
    assert (await t.ok(f"state {game}")).fields()["view"] == "-"
    joined = _json((await a.ok(f"join {game} name=ann")).lines)
    assert set(joined) == {"game", "seat", "token"} and joined["seat"] == 0
    await b.ok(f"join {game}")
    watch = _json((await b.ok(f"state {game}")).lines)
    assert set(watch) == STARTED_STATE_KEYS and set(watch["view"]) == VIEW_KEYS  # type: ignore[arg-type]
    legal = _json((await a.ok(f"legal {game}")).lines)
    assert set(legal) == {"game", "moves"}
    moves = legal["moves"]
    assert isinstance(moves, list) and moves
    for move in moves:
        assert set(move) == {"move", "suit", "count", "position", "clump"}, move
        assert move["move"] == f"{move['count']}{move['suit']}@{move['position']}"
        assert move["clump"][0] == move["position"]
    assert _json((await b.ok(f"legal {game}")).lines) == {"game": game, "moves": []}
    played = _json((await a.ok(f"play {game} {moves[0]['move']}")).lines)
    assert played == {"game": game, "move": moves[0]["move"]}
    assert set(_json((await a.ok(f"resume {joined['token']}")).lines)) == STARTED_STATE_KEYS
    assert (await t.ok(f"watch {game}")).fields()["view.seat"] == "-"
    assert (await t.ok(f"unwatch {game}")).lines == []
    assert _json((await b.ok(f"resign {game}")).lines) == {}
    record = _json((await t.ok("format json")).lines)
    assert record == {"format": "json"}
    record = _json((await t.ok(f"record {game}")).lines)
    assert set(record) == {"game", "kind", "options", "players", "record"}
    assert record["options"] == {"leader": "0", "seed": "5"}
    assert _json((await a.ok(f"leave {game}")).lines) == {}
    assert (await a.ok("format text")).lines == ["text"]
    assert (await a.ok("format")).lines == ["text"]
    assert (await a.ok("known_command play")).lines == ["true"]
    assert _json((await t.ok("quit")).lines) == {}


async def test_event_fields_text_equals_json_and_seq_has_no_gap(
    start_server: StartServer,
) -> None:
    server = await start_server()
    port = server.ports[0]
    a, b, wt, wj = [await Client.connect(port) for _ in range(4)]
    await wj.ok("format json")
    await b.ok("format json")
    game = (await wt.ok("new hipparchus leader=1")).fields()["game"]
    await wt.ok(f"watch {game}")
    await wj.ok(f"watch {game}")
    await a.ok(f"join {game}")
    await a.ok(f"leave {game}")  # left
    await a.ok(f"join {game} 0")
    token = json.loads((await b.ok(f"join {game} 1")).lines[0])["token"]
    rng = random.Random(7)
    seats = [a, b]
    dropped = False
    with trio.fail_after(30):
        while True:
            state = (await wt.ok(f"state {game}")).fields()
            if state["status"] == "over":
                break
            mover = int(state["view.to_move"])
            reply = await seats[mover].ok(f"legal {game}")
            moves = (
                [m["move"] for m in json.loads(reply.lines[0])["moves"]]
                if mover
                else reply.text.split()
            )
            await seats[mover].ok(f"play {game} {rng.choice(moves)}")
            if not dropped and mover == 1:
                await b.aclose()  # disconnected, then resumed
                seats[1] = b = await Client.connect(port)
                await b.ok("format json")
                await b.ok(f"resume {token}")
                dropped = True
        for client in (wt, wj):
            await client.ok("name")
    text_events = [e.split(" ", 4) for e in wt.events]
    json_events = [json.loads(e[2:]) for e in wj.events]
    assert [int(e[2]) for e in text_events] == list(range(1, len(text_events) + 1))
    assert [e["seq"] for e in json_events] == list(range(1, len(json_events) + 1))
    kinds_seen = set()
    for text, event in zip(text_events, json_events, strict=True):
        assert text[1] == event["game"] == game and text[3] == event["kind"]
        kind = event["kind"]
        kinds_seen.add(kind)
        fields = dict(f.split("=", 1) for f in text[4].split(" ")) if len(text) > 4 else {}
        assert set(fields) == EVENT_FIELDS[kind], (kind, fields)
        assert fields == dict(flatten(event["data"])), (text, event)
    assert kinds_seen >= EVENT_FIELDS.keys() - {"hand", "no-follow"}
    # Hipparchus moves one seat at a time: every turn is followed by a to-move naming that
    # seat alone, and the match-over by a game-over with the same winner, last of all.
    for before, event in itertools.pairwise(json_events):
        if before["kind"] == "turn":
            assert event["kind"] == "to-move"
            assert event["data"] == {"seats": [before["data"]["seat"]]}
    over, last = json_events[-2:]
    assert over["kind"] == "match-over" and last["kind"] == "game-over"
    assert last["data"] == {
        "winners": [over["data"]["winner"]],
        "scores": over["data"]["round_wins"],
        "resigned": over["data"]["resigned"],
    }
    # Each seat's hand event carries the seq of the round-started just before it.
    for line in a.events:
        if " hand " in line:
            before = a.events[a.events.index(line) - 1]
            assert " round-started " in before and before.split(" ")[2] == line.split(" ")[2]


async def test_text_responses_are_the_flattened_json(start_server: StartServer) -> None:
    server = await start_server()
    a, b, t, j = [await Client.connect(server.ports[0]) for _ in range(4)]
    await j.ok("format json")
    game = (await t.ok("new hipparchus leader=0 seed=21")).fields()["game"]
    await a.ok(f"join {game} name=ann")
    await b.ok(f"join {game} name=bob")
    moves = (await a.ok(f"legal {game}")).text.split()
    await a.ok(f"play {game} {moves[-1]}")
    for line in (f"state {game}", "games"):
        text, data = (await t.ok(line)).lines, _json((await j.ok(line)).lines)
        if line == "games":
            assert text == [
                " ".join(f"{k}={v}" for k, v in flatten(g))
                for g in data["games"]  # type: ignore[attr-defined]
            ]
        else:
            assert text == [f"{k}={v}" for k, v in flatten(data)]
    await b.ok(f"resign {game}")
    text, data = (await t.ok(f"record {game}")).lines, _json((await j.ok(f"record {game}")).lines)
    assert text == [f"{k}={v}" for k, v in flatten(data)]


async def test_legal_clumps_are_the_hands_clumps(start_server: StartServer) -> None:
    server = await start_server()
    a, b = [await Client.connect(server.ports[0]) for _ in range(2)]
    await a.ok("format json")
    game = _json((await a.ok("new hipparchus leader=0 seed=33")).lines)["game"]
    await a.ok(f"join {game}")
    await b.ok(f"join {game}")
    hand = _json((await a.ok(f"state {game}")).lines)["view"]["hand"]  # type: ignore[index]
    moves = _json((await a.ok(f"legal {game}")).lines)["moves"]
    assert isinstance(moves, list) and isinstance(hand, str)
    for move in moves:
        clump = move["clump"]
        assert clump == list(range(clump[0], clump[-1] + 1))
        assert {hand[p - 1] for p in clump} == {move["suit"]}
        # Maximal: the cards just outside are of another suit (RULINGS H2).
        assert clump[0] == 1 or hand[clump[0] - 2] != move["suit"]
        assert clump[-1] == len(hand) or hand[clump[-1]] != move["suit"]
        assert move["count"] <= min(3, len(clump))
        assert move["count"] == len(clump) or len(clump) >= 4


async def test_resume_snapshot_seq_and_a_spectator_who_joins(start_server: StartServer) -> None:
    server = await start_server()
    port = server.ports[0]
    a, b, w = [await Client.connect(port) for _ in range(3)]
    game = (await w.ok("new hipparchus leader=0")).fields()["game"]
    await a.ok(f"watch {game}")  # a spectator first, then a seat: each event once
    token = (await a.ok(f"join {game} 0")).fields()["token"]
    await w.ok(f"watch {game}")
    await b.ok(f"join {game} 1")
    moves = (await a.ok(f"legal {game}")).text.split()
    await a.ok(f"play {game} {moves[0]}")
    await a.aclose()
    a2 = await Client.connect(port)
    seq = int((await a2.ok(f"resume {token}")).fields()["seq"])
    moves = (await b.ok(f"legal {game}")).text.split()
    await b.ok(f"play {game} {moves[0]}")
    first = await a2.next_event()
    assert event_fields(first)[1] == seq + 1, (seq, first)
    await w.ok("name")
    seen = [event_fields(e)[1] for e in a.events if event_fields(e)[2] != "hand"]
    assert seen == sorted(set(seen)), seen  # no event twice
    last_w = [event_fields(e) for e in w.events]
    assert ("resumed" in [k for _, _, k, _ in last_w]) and last_w[-1][1] >= seq
    # Unwatching stops the events at once.
    await w.ok(f"unwatch {game}")
    count = len(w.events)
    for mover in (a2, b):
        moves = (await mover.ok(f"legal {game}")).text.split()
        if moves:
            await mover.ok(f"play {game} {moves[0]}")
            break
    await w.ok("name")
    assert len(w.events) == count
