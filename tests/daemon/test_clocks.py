"""Clocks on a live daemon (RULINGS T1-T6, issue 27): the server's own deadlines flag a seat,
abort a game, announce an absent seat and have the engine play for it, each stored before it
is announced, in the same order for every follower.

Times here are a few tenths of a second of bank, so that a deadline comes soon; no test bounds
how late it may come but generously (a loaded machine), and each checks it came no earlier
than the rules allow.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path

import trio

from hipparchusd.clocks import LAG_MS

from .client import Client, event_fields
from .helpers import DEAL, StartServer, open_sqlite

Connect = Callable[..., Awaitable[Client]]

#: Seconds a deadline may take to be announced on a loaded machine (it takes milliseconds).
SLACK = 20.0


async def seated(connect: Connect, options: str) -> tuple[Client, Client, str]:
    a, b = await connect(), await connect()
    game = (await a.ok(f"new hipparchus leader=0 deal={DEAL} {options}")).fields()["game"]
    await a.ok(f"join {game} 0 name=ann")
    await b.ok(f"join {game} 1 name=bob")
    return a, b, game


def kinds(lines: list[str]) -> list[str]:
    return [event_fields(line)[2] for line in lines]


async def test_a_flag_falls_when_the_bank_and_the_lag_allowance_are_spent(
    start_server: StartServer, nursery: trio.Nursery, tmp_path: Path
) -> None:
    """T2, T3: seat 0 never moves; after its 0.3 s and its 1 s of lag allowance the server ends
    the match as its resignation, stored first: the store has the game finished by then."""
    store = await open_sqlite(nursery, tmp_path / "state")
    server = await start_server(store=store, state_dir=str(tmp_path / "state"))
    a, b = await Client.connect(server.ports[0]), await Client.connect(server.ports[0])
    try:
        game = (
            await a.ok(f"new hipparchus leader=0 deal={DEAL} clock=0.3s first_move=off")
        ).fields()["game"]
        await a.ok(f"join {game} 0 name=ann")
        started = trio.current_time()
        await b.ok(f"join {game} 1 name=bob")
        with trio.fail_after(SLACK):
            seen = await b.events_until(["game-over"], timeout=SLACK)
        flagged = trio.current_time()
        assert flagged - started >= 0.3 + LAG_MS / 1000
        assert seen[-2:] == [
            f"* {game} 6 match-over winner=1 round_wins=0,0 resigned=0",
            f"* {game} 7 game-over winners=1 scores=0,0 resigned=0 timeout=0",
        ]
        # Seat 0's follower saw the same sequence, in the same order.
        assert (await a.events_until(["game-over"]))[-2:] == seen[-2:]
        stored = await store.load_finished(game)
        assert stored is not None and isinstance(stored.timing, dict)
        assert stored.timing["timeout"] == 0
        assert stored.timing["decisions"][-1]["by"] == "timeout"
        record = (await a.ok("format json")) and (await a.ok(f"record {game}")).json()
        assert record["timeout"] == 0 and record["timing"]["control"] == "0.3s"
    finally:
        await a.aclose()
        await b.aclose()


async def test_a_planets_flag_has_the_server_pass_for_the_seat(connect: Connect) -> None:
    """T1, T2: in the pass every clock runs at once; the seat that does not pass is passed
    for, recorded as a timeout, and the game goes on."""
    clients = [await connect() for _ in range(3)]
    first = clients[0]
    game = (
        await first.ok("new planets players=3 seed=11 dealer=0 clock=0.3s+1s first_move=off")
    ).fields()["game"]
    for seat, client in enumerate(clients):
        await client.ok(f"join {game} {seat}")
    for client in clients[:2]:
        words = (await client.ok(f"legal {game}")).text.split()
        await client.ok(f"play {game} {','.join(words[2 : 2 + int(words[1])])}")
    late = clients[2]
    with trio.fail_after(SLACK):
        seen = await late.events_until(["received"], timeout=SLACK)
    assert "passed seat=2" in seen[-2]
    to_move = await late.next_event(SLACK)
    assert kinds([to_move]) == ["to-move"]
    # The seat out of time has only its increment now, 1 s, for each decision (T2).
    state = (await late.ok("format json")) and (await late.ok(f"state {game}")).json()
    assert state["clock"]["bank_ms"][2] == 1000 and state["clock"]["lag_ms"][2] == 0
    await first.ok(f"resign {game}")
    record = (await first.ok("format json")) and (await first.ok(f"record {game}")).json()
    [decision] = [d for d in record["timing"]["decisions"] if d["by"] == "timeout"]
    assert (decision["ply"], decision["seat"]) == (3, 2)
    assert decision["spent_ms"] == 300 + LAG_MS


async def test_a_game_whose_seat_never_moves_is_aborted(connect: Connect) -> None:
    """T5: no result, no winner."""
    a, b, game = await seated(connect, "clock=1m first_move=0.3s")
    with trio.fail_after(SLACK):
        seen = await b.events_until(["game-over"], timeout=SLACK)
    assert seen[-1] == f"* {game} 6 game-over winners=- scores=- resigned=- aborted=true"
    fields = (await a.ok(f"state {game}")).fields()
    assert fields["status"] == "over" and fields["aborted"] == "true"
    await a.fail(f"play {game} 1S@1", "game-over")


async def test_an_absent_opponent_is_announced_and_claimed(connect: Connect) -> None:
    """T4, untimed: the seat's connection drops; after the absence grace everyone is told, and
    its opponent claims the match."""
    a, b, game = await seated(connect, "absence=0.3s")
    w = await connect()
    await w.ok(f"watch {game}")
    await a.fail(f"claim {game}", "illegal-move")  # nobody is away
    await b.aclose()
    with trio.fail_after(SLACK):
        seen = await a.events_until(["absent"], timeout=SLACK)
    assert seen[-2:] == [f"* {game} 6 disconnected seat=1", f"* {game} 7 absent seat=1"]
    assert (await w.events_until(["absent"]))[-2:] == seen[-2:]
    assert (await a.ok(f"state {game}")).fields()["presence"] == "here,absent"
    assert (await a.ok(f"claim {game}")).text == "resigned=1"
    over = await a.events_until(["game-over"])
    assert over[-1] == f"* {game} 9 game-over winners=0 scores=0,0 resigned=1 claimed=true"
    assert (await w.events_until(["game-over"]))[-1] == over[-1]


async def test_the_engine_plays_for_an_absent_planets_seat(connect: Connect) -> None:
    """T4: once absent, the seat is passed for (the heuristic level, recorded as such), so that
    the others can finish; its holder takes it back with its token."""
    clients = [await connect() for _ in range(3)]
    game = (await clients[0].ok("new planets players=3 seed=5 dealer=0 absence=0.3s")).fields()[
        "game"
    ]
    tokens = [
        (await client.ok(f"join {game} {seat}")).fields()["token"]
        for seat, client in enumerate(clients)
    ]
    await clients[2].aclose()
    with trio.fail_after(SLACK):
        seen = await clients[0].events_until(["passed"], timeout=SLACK)
    assert kinds(seen[-3:]) == ["disconnected", "absent", "passed"]
    assert seen[-1].endswith("passed seat=2")
    back = await connect()
    state = (await back.ok("format json")) and (await back.ok(f"resume {tokens[2]}")).json()
    assert state["presence"] == ["here", "here", "here"]
    assert state["view"]["my_pass"] is not None  # passed for it while it was away
    await clients[0].ok(f"resign {game}")
    record = (await back.ok(f"record {game}")).json()
    assert record["timing"] == {
        "control": None,
        "decisions": [{"ply": 1, "seat": 2, "by": "absent"}],
    }
    assert json.dumps(record["timing"]).count("absent") == 1
