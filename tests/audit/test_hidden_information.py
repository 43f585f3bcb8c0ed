"""Hidden information (RULINGS H13) over real TCP: whole matches of random legal moves with
every connection poking at the game on every move, a seat dropped and resumed, a seat taken
over by another connection, and a spectator who comes late. Every byte each connection
received is then checked against the rules replaying the match (see :mod:`.streams`)."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Awaitable, Sequence

import pytest
import trio
from daemon.client import Client, event_fields
from daemon.helpers import replay_rounds

from hipparchusd.games.hipparchus import MatchRecord
from hipparchusd.games.hipparchus.codec import converter

from .conftest import StartServer
from .streams import check_stream

BAD_TOKEN = "0" * 32


async def _next_turn(watcher: Client, game: str) -> int | None:
    """The seat of the next ``turn`` event ``watcher`` (a text-mode spectator) gets, or
    ``None`` at ``match-over``."""
    while True:
        _, _, kind, data = event_fields(await watcher.next_event())
        if kind == "turn":
            return int(data["seat"])
        if kind == "match-over":
            return None


def _moves(reply_lines: list[str]) -> list[str]:
    if reply_lines and reply_lines[0].startswith("{"):
        return [m["move"] for m in json.loads(reply_lines[0])["moves"]]
    return " ".join(reply_lines).split()


async def _poke(client: Client, game: str, role: str, step: int, other_move: str) -> None:
    """One request that must not leak anything and must not change the game. ``role`` is
    ``mover``, ``waiter`` (the seat not to move), ``spectator`` or ``stranger``."""
    seated = role in ("mover", "waiter")
    pokes: list[tuple[str, str | None]] = [
        (f"state {game}", None),
        (f"legal {game}", None if seated else "not-seated"),
        (f"play {game} 1S@99", {"mover": "illegal-move", "waiter": "not-your-turn"}.get(role)),
        (f"play {game} 4E@1", {"mover": "illegal-move", "waiter": "not-your-turn"}.get(role)),
        ("games", None),
        (f"record {game}", "game-not-over"),
        (f"resume {BAD_TOKEN}", "bad-token"),
        (f"play {game} 2M@0", {"mover": "illegal-move", "waiter": "not-your-turn"}.get(role)),
    ]
    if role == "waiter":
        pokes.append((f"play {game} {other_move}", "not-your-turn"))
        pokes.append((f"watch {game}", "already-seated"))
    line, code = pokes[step % len(pokes)]
    if code is None and role in ("spectator", "stranger") and line.startswith("play"):
        code = "not-seated"
    if code is None:
        await client.ok(line)
    else:
        await client.fail(line, code)


async def play_audited_match(ports: Sequence[int], seed: int, json_seat: int) -> None:
    """One audited match (see the module), its connections made to ``ports`` in turn (one
    daemon's port, or several daemons' sharing the game through forwarding)."""
    turns = itertools.cycle(ports)

    def connect() -> Awaitable[Client]:
        return Client.connect(next(turns))

    rng = random.Random(seed)
    seats = [await connect(), await connect()]
    await seats[json_seat].ok("format json")
    watcher = await connect()  # text, from the start; follows the turns
    stranger = await connect()  # never follows the game
    options = f"leader={seed % 2}" + (f" seed={seed}" if seed % 3 else "")
    game = (await stranger.ok(f"new hipparchus {options}")).fields()["game"]
    await watcher.ok(f"watch {game}")
    tokens = []
    for seat, client in enumerate(seats):
        reply = await client.ok(f"join {game} {seat} name=p{seat}")
        token = (
            json.loads(reply.lines[0])["token"] if seat == json_seat else reply.fields()["token"]
        )
        tokens.append(token)
    streams: dict[str, list[Client]] = {"0": [seats[0]], "1": [seats[1]]}
    late: Client | None = None
    ousted: Client | None = None
    step = 0
    mover = await _next_turn(watcher, game)
    drop_at, takeover_at, late_at = rng.randrange(2, 8), rng.randrange(10, 25), rng.randrange(4, 20)
    while mover is not None:
        if step == drop_at:
            # Seat 0's connection drops mid-round; a new connection resumes it.
            await seats[0].aclose()
            seats[0] = await connect()
            if json_seat == 0:
                await seats[0].ok("format json")
            await seats[0].ok(f"resume {tokens[0]}")
            streams["0"].append(seats[0])
        if step == takeover_at:
            # Another connection takes seat 1 over while its holder is still connected.
            ousted = seats[1]
            seats[1] = await connect()
            await seats[1].ok(f"resume {tokens[1]}")
            streams["1"].append(seats[1])
            await ousted.ok("name")
            for line, code in (
                (f"legal {game}", "not-seated"),
                (f"play {game} 1S@1", "not-seated"),
            ):
                await ousted.fail(line, code)
            state = await ousted.ok(f"state {game}")
            view = (state.json()["view"] if state.lines[0].startswith("{") else None) or {
                "seat": state.fields()["view.seat"],
                "hand": state.fields()["view.hand"],
            }
            assert view["seat"] in (None, "-") and view["hand"] in (None, "-"), state.text
        if step == late_at:
            late = await connect()
            await late.ok("format json")
            await late.ok(f"watch {game}")
        legal = _moves((await seats[mover].ok(f"legal {game}")).lines)
        assert legal, "the seat to move has a move"
        for client, role in (
            (seats[mover], "mover"),
            (seats[1 - mover], "waiter"),
            (watcher, "spectator"),
            (stranger, "stranger"),
            *(((late, "spectator"),) if late is not None else ()),
        ):
            await _poke(client, game, role, step, rng.choice(legal))
        await seats[mover].ok(f"play {game} {rng.choice(legal)}")
        step += 1
        mover = await _next_turn(watcher, game)
    assert takeover_at < step and drop_at < step and late is not None, "the match was too short"

    stranger_stream = bytes(stranger.received)  # before it asks for the record
    record_json = json.loads((await stranger.ok("format json")).lines[0])
    assert record_json == {"format": "json"}
    record_data = (await stranger.ok(f"record {game}")).json()["record"]
    rounds = replay_rounds(converter.structure(record_data, MatchRecord))
    everyone = [*streams["0"][1:], *streams["1"], watcher, stranger, late]
    for client in everyone:
        await client.ok("name")  # everything sent before this answer has arrived

    for seat in (0, 1):
        received = b"".join(bytes(c.received) for c in streams[str(seat)])
        tally = check_stream(received, game, rounds, seat)
        assert tally.hand_events == list(range(1, len(rounds) + 1)), tally
        assert tally.own_hands >= len(rounds) and tally.sizes > 0 and tally.lines > 50, tally
        assert tally.public_plays > 0, tally  # the plays it saw carried no position
    for spectator, received in (
        (watcher, bytes(watcher.received)),
        (late, bytes(late.received)),
        (stranger, stranger_stream),
    ):
        tally = check_stream(received, game, rounds, None, follows=spectator is not stranger)
        assert tally.hand_events == [] and tally.sizes > 0 and tally.public_plays > 0, tally
    assert ousted is not None
    # The ousted connection heard ``resumed`` and then nothing more of the game.
    lines = bytes(ousted.received).decode().split("\n")
    (resumed,) = [
        i
        for i, x in enumerate(lines)
        if " resumed seat=1" in x or ('"kind": "resumed"' in x and '"seat": 1' in x)
    ]
    assert not [x for x in lines[resumed + 1 :] if x.startswith("*")], lines[resumed:]
    for client in (*streams["0"], *streams["1"], watcher, stranger, late):
        await client.aclose()


@pytest.mark.parametrize("seed", [3, 11, 12, 40, 41, 57, 64, 77, 90, 101, 123, 200])
async def test_no_connection_learns_a_hidden_card(start_server: StartServer, seed: int) -> None:
    server = await start_server()
    with trio.fail_after(60):
        await play_audited_match([server.ports[0]], seed, json_seat=seed % 2)
