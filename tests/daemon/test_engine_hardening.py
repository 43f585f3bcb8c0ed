"""The engine against a hostile or unlucky client, through a live daemon (issue 24 items 5 and
6): a stopped (SIGSTOP) worker is killed and replaced at its deadline, its searches answered
and its bot seats searched again, and ``random`` seats never wait for it; another client's
analyses hold up no table's bot moves and no analysis beyond its budget; one address's
searches and one connection's games of bots are bounded, and the creator of such a game may
end it."""

from __future__ import annotations

import os
import signal

import trio

from hipparchusd.server import Server

from .client import Client, event_fields
from .helpers import StartServer

#: One worker per pool, started with the daemon (the default), and a short deadline: one a
#: stopped worker misses, a running one never, even niced on a machine loaded twenty times over.
ENGINE = {"engine_workers": 1, "engine_start": "with-daemon", "engine_timeout": 5.0}
#: Seconds a test waits for what takes the daemon milliseconds, or one deadline of a second:
#: far more, so that only what never happens (a stop never answered, a bot never moving, an
#: analysis past its budget by many seconds) fails it on a loaded machine.
GENEROUS = 60


async def connect_from(server: Server, source: str) -> Client:
    """A client connecting from the loopback address ``source`` (another peer address)."""
    sock = trio.socket.socket(trio.socket.AF_INET, trio.socket.SOCK_STREAM)
    await sock.bind((source, 0))
    await sock.connect(("127.0.0.1", server.ports[0]))
    client = Client(trio.SocketStream(sock))
    assert (await client.read_line()).startswith("* server hello ")
    return client


async def my_turn_against(client: Client, level: str, leader: int = 0) -> str:
    """A started game: ``client`` at seat 0, the engine at seat 1 at ``level``; its id, once
    ``leader`` must move."""
    game = (await client.ok(f"new hipparchus seed=9 leader={leader}")).fields()["game"]
    await client.ok(f"join {game} 0")
    await client.ok(f"bot {game} level={level}")
    await client.events_until(["to-move"], timeout=GENEROUS)
    return game


async def played_by(client: Client, seat: int) -> None:
    """Wait for a ``played`` event of ``seat`` (text or JSON mode)."""
    while True:
        _, _, kind, fields = event_fields(await client.next_event(timeout=GENEROUS))
        if kind == "played" and str(fields["seat"]) == str(seat):
            return


async def finals_of(client: Client) -> list[dict[str, str]]:
    """The final ``analysis`` events ``client`` has received so far."""
    return [
        event_fields(line)[3]
        for line in client.events
        if event_fields(line)[2] == "analysis" and event_fields(line)[3]["final"] == "true"
    ]


async def test_a_stopped_worker_is_replaced_and_nothing_waits_for_it_for_ever(
    start_server: StartServer,
) -> None:
    server = await start_server(**ENGINE)
    analyst, player = await Client.connect(server.ports[0]), await Client.connect(server.ports[0])
    # An analysis whose worker stops: 'stop' is answered all the same, the stream ending with
    # reason=error; the worker is replaced.
    game = await my_turn_against(analyst, "random")
    await analyst.ok(f"analyze {game} 9000ms interval=50")
    await analyst.events_until(["analysis"], timeout=GENEROUS)
    (stopped,) = server.engines.analyses.pids
    os.kill(stopped, signal.SIGSTOP)
    with trio.fail_after(GENEROUS):
        assert (await analyst.request("stop")).ok
    assert (await finals_of(analyst))[-1]["reason"] == "error"
    # genmove on a stopped worker: '? internal', and the game is as it was.
    other = await my_turn_against(player, "random")
    await player.ok("format json")
    before = (await player.ok(f"state {other}")).json()
    (moves_worker,) = server.engines.moves.pids
    os.kill(moves_worker, signal.SIGSTOP)
    with trio.fail_after(GENEROUS):
        refused = await player.fail(f"genmove {other} 9000ms", "internal")
    assert "nothing was changed" in refused.text
    assert (await player.ok(f"state {other}")).json() == before
    # The random seat never needed a worker: it answers a move at once, workers or not.
    move = (await player.ok(f"legal {other}")).json()["moves"][0]["move"]
    await player.ok(f"play {other} {move}")
    await played_by(player, 1)
    # Both workers were replaced: the next searches are served.
    with trio.fail_after(GENEROUS):
        while server.engines.restarts < 2 or not all(p.ready for p in server.engines.pools):
            await trio.sleep(0.05)
    played = (await player.ok(f"genmove {other} 200")).json()
    assert played["played"] is True
    assert stopped not in server.engines.analyses.pids
    assert moves_worker not in server.engines.moves.pids
    for client in (analyst, player):
        await client.aclose()


async def test_a_bot_seat_whose_worker_stops_is_searched_again(start_server: StartServer) -> None:
    server = await start_server(**ENGINE)
    client = await Client.connect(server.ports[0])
    game = (await client.ok("new hipparchus seed=9 leader=1")).fields()["game"]
    await client.ok(f"join {game} 0")
    await client.ok(f"bot {game} level=ismcts:3000ms")  # the engine leads
    with trio.fail_after(GENEROUS):
        while server.engines.moves.searches == 0:
            await trio.sleep(0.01)
    (worker,) = server.engines.moves.pids
    os.kill(worker, signal.SIGSTOP)
    await played_by(client, 1)
    assert server.engines.moves.restarts == 1 and worker not in server.engines.moves.pids
    await client.aclose()


async def test_another_clients_analyses_hold_up_no_bot_move(start_server: StartServer) -> None:
    """Four analyses at the longest budget from one address, one worker each way: a table of
    another address gets its bot's move while they all still run (before, behind them)."""
    server = await start_server(**ENGINE, max_search_ms=10_000)
    analysts = [await Client.connect(server.ports[0]) for _ in range(5)]
    games = [await my_turn_against(analyst, "random") for analyst in analysts]
    for analyst, game in zip(analysts[:4], games, strict=False):
        await analyst.ok(f"analyze {game} 10000ms interval=5000")
    # One address runs four at most (max-searches-per-address).
    refused = await analysts[4].fail(f"analyze {games[4]} 10000ms", "limit")
    assert "max-searches-per-address" in refused.text
    table = await connect_from(server, "127.0.0.2")
    game = (await table.ok("new hipparchus seed=9 leader=1")).fields()["game"]
    await table.ok(f"join {game} 0")
    await table.ok(f"bot {game} level=ismcts:200ms")
    await played_by(table, 1)
    for analyst in analysts[:4]:
        assert not await finals_of(analyst), "an analysis ended before the bot moved"
    for client in (*analysts, table):
        await client.aclose()


async def test_an_analysis_ends_on_time_whatever_the_load(start_server: StartServer) -> None:
    """With the analyses' worker busy with another address's 10 s analysis, a 1 s analysis
    ends (final, reason budget) before that one, whether or not it ever got the worker."""
    server = await start_server(**ENGINE, max_search_ms=10_000)
    busy = await Client.connect(server.ports[0])
    long_game = await my_turn_against(busy, "random")
    await busy.ok(f"analyze {long_game} 10000ms interval=5000")
    with trio.fail_after(GENEROUS):
        while not server.engines.analyses.searches or server.engines.analyses.waiting:
            await trio.sleep(0.01)
    client = await connect_from(server, "127.0.0.2")
    game = await my_turn_against(client, "random")
    await client.ok(f"analyze {game} 1000ms interval=200")
    events = await client.events_until(["analysis"], timeout=GENEROUS)
    final = event_fields(events[-1])[3]
    assert (final["final"], final["reason"]) == ("true", "budget")
    assert not await finals_of(busy), "the 1 s analysis waited for the 10 s one"
    # It never had the worker: it says it found nothing.
    assert (final["best"], final["playouts"]) == ("-", "0")
    for other in (busy, client):
        await other.aclose()


async def test_games_only_the_engine_plays_are_bounded_and_their_creator_ends_them(
    start_server: StartServer,
) -> None:
    server = await start_server(
        **ENGINE, max_engine_games_per_connection=2, max_engine_games_per_address=3
    )
    port = server.ports[0]
    ann, bob, eve = [await Client.connect(port) for _ in range(3)]
    watcher = await connect_from(server, "127.0.0.2")

    async def engine_game(creator: Client, refusal: str | None = None) -> str:
        game = (await creator.ok("new hipparchus seed=3")).fields()["game"]
        await creator.ok(f"bot {game} level=ismcts:10000ms")
        if refusal is not None:
            refused = await creator.fail(f"bot {game} level=ismcts:10000ms", "limit")
            assert refusal in refused.text, refused
            return game
        await creator.ok(f"bot {game} level=ismcts:10000ms")
        return game

    first, second = await engine_game(ann), await engine_game(ann)
    await engine_game(ann, "max-engine-games-per-connection")
    await engine_game(bob)
    await engine_game(bob, "max-engine-games-per-address")
    # Only its creator ends one, and only one the engine alone plays, once started.
    await watcher.ok(f"watch {first}")
    await bob.fail(f"end {first}", "not-seated")
    mixed = await my_turn_against(ann, "random")
    await ann.fail(f"end {mixed}", "not-seated")
    waiting = (await ann.ok("new hipparchus")).fields()["game"]
    await ann.fail(f"end {waiting}", "not-started")
    await ann.ok(f"end {first}")
    events = await watcher.events_until(["game-over"], timeout=GENEROUS)
    over = event_fields(events[-1])[3]
    assert over == {"winners": "-", "scores": "-", "resigned": "-", "abandoned": "true"}
    await ann.fail(f"end {first}", "game-over")
    record = await eve.ok(f"record {first}")
    assert "abandoned=true" in record.text
    # Its searches stopped, and its place is free: one more may start.
    with trio.fail_after(GENEROUS):
        while any(job == first for job in server.engines._bots):
            await trio.sleep(0.01)
    await engine_game(ann)
    await engine_game(eve, "max-engine-games-per-address")  # ann's two and bob's one
    assert server.lobby.tables[second].started and not server.lobby.tables[second].finished
    for client in (ann, bob, eve, watcher):
        await client.aclose()
