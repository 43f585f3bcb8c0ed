"""Every command's success path, in text and JSON mode, and every error code of PROTOCOL.md."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import NoReturn

import attrs
import trio

from hipparchusd.games.hipparchus.kind import HIPPARCHUS
from hipparchusd.games.planets.kind import PLANETS
from hipparchusd.lobby import COMMANDS
from hipparchusd.protocol import ErrorCode
from hipparchusd.server import Server

from .client import Client, Reply, event_fields
from .conftest import StartServer
from .helpers import DEAL, HAND0, new_game, seated_game

Connect = Callable[..., Awaitable[Client]]

#: The engine levels PROTOCOL.md section 9 names, weakest first, as `kinds` lists them.
LEVELS = ["random", "heuristic", "sampler", "ismcts"]


async def test_greeting_and_gtp_commands(connect: Connect) -> None:
    c = await connect(greet=False)
    assert await c.read_line() == "* server hello name=hipparchusd version=0.1.0 protocol=1"
    assert (await c.ok("protocol_version")).lines == ["1"]
    assert (await c.ok("3 name")).lines == ["hipparchusd"]
    assert (await c.ok("version")).lines == ["0.1.0"]
    listed = await c.ok("list_commands")
    assert listed.lines == list(COMMANDS)
    assert "play" in listed.lines and "record" in listed.lines
    assert (await c.ok("known_command play")).lines == ["true"]
    assert (await c.ok("known_command fly")).lines == ["false"]
    usage = await c.ok("help")
    assert len(usage.lines) == len(COMMANDS)
    assert (await c.ok("help play")).lines[0].startswith("play <game> <move>")
    assert (await c.ok("kinds")).lines == [
        f"hipparchus seats=2 levels=random,heuristic,sampler,ismcts  -- {HIPPARCHUS.summary}",
        f"planets seats=3-6 levels=random,heuristic,sampler,ismcts  -- {PLANETS.summary}",
    ]
    assert (await c.ok("format")).lines == ["text"]
    assert (await c.ok("games")).lines == []
    reply = await c.ok("42 quit")
    assert reply.id == "42" and reply.lines == []
    assert await c.stream.receive_some(100) == b""


async def test_gtp_commands_in_json(connect: Connect) -> None:
    c = await connect()
    assert (await c.ok("format json")).json() == {"format": "json"}
    assert (await c.ok("protocol_version")).json() == {"protocol_version": 1}
    assert (await c.ok("name")).json() == {"name": "hipparchusd"}
    assert (await c.ok("version")).json() == {"version": "0.1.0"}
    assert (await c.ok("list_commands")).json() == {"commands": list(COMMANDS)}
    assert (await c.ok("known_command resign")).json() == {"known": True}
    assert set((await c.ok("help")).json()["help"]) == set(COMMANDS)
    assert list((await c.ok("help state")).json()["help"]) == ["state"]
    assert (await c.ok("kinds")).json() == {
        "kinds": ["hipparchus", "planets"],
        "about": {
            "hipparchus": {"seats": "2", "summary": HIPPARCHUS.summary, "levels": LEVELS},
            "planets": {"seats": "3-6", "summary": PLANETS.summary, "levels": LEVELS},
        },
    }
    assert (await c.ok("games")).json() == {"games": []}
    reply = await c.request("frobnicate")
    assert json.loads(reply.lines[0]) == {
        "code": "unknown-command",
        "message": "unknown command 'frobnicate'",
    }
    assert (await c.ok("format text")).lines == ["text"]
    assert (await c.ok("quit")).lines == []


async def test_a_game_from_new_to_record(connect: Connect) -> None:
    a, b, w = await connect(), await connect(), await connect()
    game = await new_game(a)
    assert game == "g1"
    listed = await w.ok("games")
    assert listed.lines == ["game=g1 kind=hipparchus status=waiting players=-,- fixed_deal=true"]
    watched = await w.ok(f"watch {game}")
    assert watched.lines[:6] == [
        "game=g1", "kind=hipparchus", "status=waiting", "seq=0", "players=-,-", "view=-"
    ]  # fmt: skip
    joined = await a.ok(f"join {game} name=alice")
    assert joined.fields()["seat"] == "0" and len(joined.fields()["token"]) == 32
    assert await a.next_event() == "* g1 1 joined seat=0 name=alice"
    assert await w.next_event() == "* g1 1 joined seat=0 name=alice"
    await b.ok("format json")
    joined_b = (await b.ok(f"join {game}")).json()
    assert joined_b["game"] == game and joined_b["seat"] == 1 and len(joined_b["token"]) == 32
    expected_a = [
        "* g1 2 joined seat=1 name=player1",
        "* g1 3 round-started round_number=1 leader=0 round_wins=0,0",
        f"* g1 3 hand round_number=1 seat=0 hand={HAND0}",
        "* g1 4 turn seat=0 lead=-",
        "* g1 5 to-move seats=0",  # seat 0 leads the first trick (leader=0)
    ]
    assert [await a.next_event() for _ in expected_a] == expected_a
    # The spectator gets the same public events, never the hand.
    expected_w = [e for e in expected_a if " hand " not in e]
    assert [await w.next_event() for _ in expected_w] == expected_w
    b_events = [json.loads((await b.next_event())[2:]) for _ in range(5)]
    assert [(e["seq"], e["kind"]) for e in b_events] == [
        (2, "joined"), (3, "round-started"), (3, "hand"), (4, "turn"), (5, "to-move")
    ]  # fmt: skip
    assert b_events[2]["data"]["seat"] == 1
    assert b_events[4]["data"] == {"seats": [0]}

    state = (await a.ok(f"state {game}")).fields()
    assert state["status"] == "playing" and state["seq"] == "5"
    assert state["players"] == "alice,player1" and state["view.hand"] == HAND0
    assert state["view.fixed_deal"] == "true" and state["view.to_move"] == "0"
    state_b = (await b.ok(f"state {game}")).json()
    assert set(state_b) == {"game", "kind", "status", "seq", "players", "view", "presence"}
    assert state_b["presence"] == ["here", "here"]  # both seats' connections hold them (T4)
    assert state_b["view"]["seat"] == 1 and state_b["view"]["hand"] == "EEESSSSMMMMEES"
    assert "hand=" not in (await w.ok(f"state {game}")).text.replace("view.hand=-", "")

    legal = await a.ok(f"legal {game}")
    expected_legal = [f"1{s}@{i}" for i, s in enumerate(HAND0[:10], 1)]
    assert legal.lines == [" ".join([*expected_legal, "1E@11", "2E@11", "3E@11"])]
    assert (await b.ok(f"legal {game}")).json() == {"game": game, "moves": []}
    played = await a.ok(f"play {game} 1M@2")
    assert played.lines == ["1M@2"]
    assert await a.next_event() == "* g1 6 played seat=0 play=1M hand_size=13"
    assert await a.next_event() == "* g1 7 turn seat=1 lead=1M"
    assert await a.next_event() == "* g1 8 to-move seats=1"
    legal_b = (await b.ok(f"legal {game}")).json()
    # Seat 1 must follow Moon with a count other than 1, from its clump of four at 8 (H5).
    assert [m["move"] for m in legal_b["moves"]] == ["2M@8", "3M@8"]
    assert legal_b["moves"][0] == {
        "move": "2M@8", "suit": "M", "count": 2, "position": 8, "clump": [8, 9, 10, 11]
    }  # fmt: skip
    # Any position inside the clump is accepted; the answer is canonical.
    assert (await b.ok(f"play {game} 2M@10")).json() == {"game": game, "move": "2M@8"}
    await a.fail(f"record {game}", "game-not-over")
    assert (await b.ok(f"resign {game}")).json() == {}
    events = await w.events_until(["game-over"])
    assert event_fields(events[-2])[2:] == (
        "match-over", {"winner": "0", "round_wins": "0,0", "resigned": "1"}
    )  # fmt: skip
    # The generic end: seat 1 resigned, so seat 0 wins; the scores are the round wins.
    assert event_fields(events[-1])[2:] == (
        "game-over", {"winners": "0", "scores": "0,0", "resigned": "1"}
    )  # fmt: skip
    record = await w.ok(f"record {game}")
    fields = record.fields()
    assert record.lines[0] == "game=g1"
    assert fields["options.deal"] == DEAL and fields["options.leader"] == "0"
    assert fields["record.rounds.1.deal.hands"] == DEAL.replace("/", ",", 1).rsplit("/")[0]
    assert fields["record.rounds.1.plays"] == "1M@2,2M@8"
    assert fields["record.resigned"] == "1" and fields["record.winner"] == "0"
    json_record = (await b.ok(f"record {game}")).json()
    assert set(json_record) == {"game", "kind", "options", "players", "record"}
    assert json_record["record"]["rounds"][0]["plays"] == ["1M@2", "2M@8"]
    assert (await w.ok("games")).lines == []  # a finished game is no longer listed
    assert (await w.ok(f"unwatch {game}")).lines == []
    assert (await a.ok(f"leave {game}")).lines == []


async def test_leave_before_the_start_frees_the_seat(connect: Connect) -> None:
    a, b = await connect(), await connect()
    game = await new_game(a)
    await a.ok(f"join {game} 1 name=alice")
    await b.ok(f"watch {game}")
    await a.ok(f"leave {game}")
    assert await b.next_event() == "* g1 2 left seat=1"
    assert (await b.ok("games")).lines[0].endswith("players=-,- fixed_deal=true")
    await b.ok(f"join {game} 1")  # watching, then joining: allowed


async def test_every_error_code(start_server: StartServer) -> None:
    server = await start_server(max_games=2, max_line_bytes=100)
    port = server.ports[0]
    a = await Client.connect(port)
    b = await Client.connect(port)
    w = await Client.connect(port)
    seen: set[str] = set()

    async def fail(client: Client, line: str | bytes, code: str) -> Reply:
        if isinstance(line, bytes):
            await client.send(line)
            reply = await client.read_reply()
        else:
            reply = await client.request(line)
        assert not reply.ok and reply.code == code, (line, reply)
        seen.add(code)
        return reply

    await fail(a, "join", "syntax")
    await fail(a, "1234567890 name", "syntax")
    await fail(a, "state g1 extra", "syntax")
    await fail(a, "format yaml", "syntax")
    await fail(a, b"name \xff\n", "syntax")
    await fail(a, "frobnicate", "unknown-command")
    await fail(a, "help frobnicate", "unknown-command")
    await fail(a, "new chess", "unknown-kind")
    await fail(a, "new hipparchus leader=2", "bad-option")
    await fail(a, "new hipparchus colour=red", "bad-option")
    await fail(a, "new hipparchus seed=x", "bad-option")
    await fail(a, "new hipparchus deal=SSS/MMM/EE", "bad-option")
    await fail(a, "new hipparchus leader=0 leader=1", "bad-option")
    await fail(a, "state g9", "unknown-game")
    game = await new_game(a)
    await fail(a, f"join {game} name=" + "x" * 33, "bad-option")
    await fail(a, f"join {game} name=a,b", "bad-option")
    await fail(a, f"join {game} 2", "syntax")
    await fail(a, f"legal {game}", "not-seated")
    await fail(a, f"play {game} 1S@1", "not-seated")
    await fail(a, f"resign {game}", "not-seated")
    await a.ok(f"join {game} 0")
    await fail(a, f"join {game} 1", "already-seated")
    await fail(a, f"watch {game}", "already-seated")
    await fail(b, f"join {game} 0", "seat-taken")
    await fail(a, f"legal {game}", "not-started")
    await fail(a, f"play {game} 1S@1", "not-started")
    await fail(a, f"resign {game}", "not-started")
    await fail(w, f"leave {game}", "not-following")
    await fail(w, f"unwatch {game}", "not-following")
    await fail(w, "resume 0123456789abcdef0123456789abcdef", "bad-token")
    await b.ok(f"join {game} 1")
    await fail(w, f"join {game}", "seat-taken")
    await fail(b, f"play {game} 1E@1", "not-your-turn")
    refused = await fail(a, f"play {game} 2S@1", "illegal-move")  # a clump of one Sun
    assert refused.text == "illegal-move a clump of 1 is played whole"  # why (RULINGS H2)
    await fail(a, f"play {game} 1S@99", "illegal-move")
    await fail(a, f"play {game} 1M@1", "illegal-move")  # card 1 is a Sun
    await fail(a, f"play {game} lots", "illegal-move")
    await fail(a, f"record {game}", "game-not-over")
    await fail(a, "x" * 200, "line-too-long")
    await new_game(w)
    await fail(w, "new hipparchus", "limit")  # max_games=2
    await a.ok(f"resign {game}")
    await fail(a, f"play {game} 1S@1", "game-over")
    await fail(b, f"resign {game}", "game-over")

    def broken(*_: object) -> NoReturn:
        raise RuntimeError("a bug")

    broken_version = attrs.evolve(COMMANDS["version"], handler=broken)
    server.lobby.commands = {**COMMANDS, "version": broken_version}
    await fail(w, "version", "internal")
    assert (await w.ok("name")).lines == ["hipparchusd"]  # the connection is still usable

    server.lobby.commands = COMMANDS
    server.lobby.set_maintenance("back at five")  # as hipparchusd admin maintenance on does
    await fail(a, "new hipparchus", "maintenance")
    server.lobby.set_maintenance(None)
    game2 = await new_game(a)  # the finished game no longer counts against max_games
    await a.ok(f"join {game2}")
    await b.ok(f"join {game2}")
    server.shutdown()
    assert (await w.next_event()).startswith("* server shutdown grace=")
    await fail(w, "new hipparchus", "shutting-down")
    moves = (await a.ok(f"legal {game2}")).lines[0].split()
    await fail(a, f"play {game2} {moves[0]}", "shutting-down")
    assert seen == {code.value for code in ErrorCode}


async def test_the_connection_limit(start_server: StartServer) -> None:
    server = await start_server(max_connections=1)
    first = await Client.connect(server.ports[0])
    second = await Client.connect(server.ports[0], greet=False)
    reply = await second.read_reply()
    assert not reply.ok and reply.code == "limit"
    assert await second.stream.receive_some(10) == b""
    assert (await first.ok("name")).lines == ["hipparchusd"]
    await first.aclose()
    await second.aclose()
    with trio.fail_after(5):
        while server.connection_count:
            await trio.sleep(0.01)
    third = await Client.connect(server.ports[0])  # room again
    await third.ok("name")
    await third.aclose()


async def test_request_ids_are_echoed_on_success_and_failure(connect: Connect) -> None:
    c = await connect()
    assert (await c.ok("7 version")).id == "7"
    assert (await c.request("8 state g1")).id == "8"
    assert (await c.request("9 frobnicate")).id == "9"
    assert (await c.request("000000001 name")).id == "000000001"
    await c.ok("format json")
    reply = await c.request("10 state g1")
    assert reply.id == "10" and reply.code == "unknown-game"


async def test_seats_and_tokens_are_per_game(server: Server, connect: Connect) -> None:
    a, b = await connect(), await connect()
    g1 = await seated_game(a, b)
    g2 = await seated_game(b, a)
    assert (await a.ok(f"state {g1}")).fields()["view.seat"] == "0"
    assert (await a.ok(f"state {g2}")).fields()["view.seat"] == "1"
    assert server.games == 2 and server.connection_count == 2
    assert server.status() == "2 games, 2 connections"


async def test_a_bug_while_leaving_does_not_take_the_server_down(
    server: Server, connect: Connect
) -> None:
    a = await connect()
    await a.ok("name")

    def broken(session: object) -> object:
        raise RuntimeError("a bug")

    original = server.lobby.disconnect
    server.lobby.disconnect = broken  # type: ignore[method-assign]
    await a.aclose()
    with trio.fail_after(5):
        while server.connection_count:
            await trio.sleep(0.01)
    server.lobby.disconnect = original  # type: ignore[method-assign]
    b = await connect()
    assert (await b.ok("name")).lines == ["hipparchusd"]
