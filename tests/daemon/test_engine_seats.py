"""The engine inside the daemon (issue 18, PROTOCOL.md section 9) through a live server: bot
seats play whole games of both kinds with records that replay through the rules; ``genmove``
with ``play=false`` changes nothing; ``analyze`` streams ``info`` events for the caller's seat
and ends on ``stop``, on any other request, and when the game ends; searches stop when the
game ends; limits answer ``? limit``; an analysis never names another seat's cards."""

from __future__ import annotations

import re
from typing import Any

import trio

from hipparchusd.games.planets.codec import converter as planets_converter
from hipparchusd.games.planets.record import PlanetsRecord
from hipparchusd.games.planets.record import replay as planets_replay
from hipparchusd.games.registry import find_kind
from hipparchusd.server import Server

from .client import Client, event_fields
from .helpers import StartServer

#: One worker per pool, started with the daemon as by default (the first search is warm).
ENGINE = {"engine_workers": 1, "engine_start": "with-daemon"}
#: Seconds to wait for what takes the engine milliseconds: generous, for a loaded machine.
WAIT = 60


async def watch_to_the_end(server: Server, game: str, timeout: float = 60) -> dict[str, str]:
    """Watch ``game`` until its ``game-over``; that event's fields."""
    watcher = await Client.connect(server.ports[0])
    try:
        await watcher.ok(f"watch {game}")
        events = await watcher.events_until(["game-over"], timeout=timeout)
        return event_fields(events[-1])[3]
    finally:
        await watcher.aclose()


async def record_of(server: Server, game: str) -> Any:
    client = await Client.connect(server.ports[0])
    try:
        await client.ok("format json")
        return (await client.ok(f"record {game}")).json()
    finally:
        await client.aclose()


async def test_bot_seats_play_a_whole_hipparchus_match_that_replays(
    start_server: StartServer,
) -> None:
    server = await start_server(**ENGINE)
    client = await Client.connect(server.ports[0])
    game = (await client.ok("new hipparchus seed=11")).fields()["game"]
    await client.ok(f"watch {game}")
    first = await client.ok(f"bot {game} level=random")
    assert first.fields() == {"seat": "0", "level": "random"}
    await client.ok(f"bot {game} 1 level=heuristic name=h")
    await client.fail(f"bot {game}", "seat-taken")
    events = await client.events_until(["game-over"], timeout=60)
    over = event_fields(events[-1])[3]
    joined = [event_fields(e)[3] for e in events if event_fields(e)[2] == "joined"]
    assert joined == [{"seat": "0", "name": "bot-random"}, {"seat": "1", "name": "h"}]
    # The same events as any seat: every move is announced, seat by seat, as to-move says.
    assert any(event_fields(e)[2] == "played" for e in events)
    record = await record_of(server, game)
    assert record["players"] == ["bot-random", "h"]
    restored = find_kind("hipparchus").restore(record["options"], record["record"])
    assert restored.outcome is not None
    assert ",".join(map(str, restored.outcome.scores)) == over["scores"]
    assert ",".join(map(str, restored.outcome.winners)) == over["winners"]
    await client.aclose()


async def test_bot_seats_play_a_whole_planets_game_that_replays(
    start_server: StartServer,
) -> None:
    server = await start_server(**ENGINE)
    client = await Client.connect(server.ports[0])
    game = (await client.ok("new planets players=3 seed=5")).fields()["game"]
    for level in ("random", "heuristic", "random"):
        await client.ok(f"bot {game} level={level}")
    over = await watch_to_the_end(server, game, timeout=120)
    record = await record_of(server, game)
    final = planets_replay(planets_converter.structure(record["record"], PlanetsRecord))
    assert ",".join(map(str, final.totals)) == over["scores"]
    await client.aclose()


async def test_genmove_without_play_changes_nothing(start_server: StartServer) -> None:
    server = await start_server(**ENGINE)
    client = await Client.connect(server.ports[0])
    game = (await client.ok("new hipparchus seed=4 leader=0")).fields()["game"]
    await client.ok(f"join {game}")
    await client.ok(f"bot {game} level=random")
    await client.events_until(["to-move"])
    await client.ok("format json")
    before = (await client.ok(f"state {game}")).json()
    legal = (await client.ok(f"legal {game}")).json()["moves"]
    answer = (await client.ok(f"genmove {game} 300 play=false")).json()
    assert answer["played"] is False and answer["game"] == game
    assert answer["move"] in [move["move"] for move in legal]
    assert answer["playouts"] == 300
    assert (await client.ok(f"state {game}")).json() == before
    assert not client.unread
    # Played, it is the seat's move, announced as any play.
    played = (await client.ok(f"genmove {game} 200")).json()
    assert played["played"] is True and played["move"] in [m["move"] for m in legal]
    event = await client.next_event()
    assert '"kind": "played"' in event and '"seat": 0' in event
    await client.aclose()


async def test_genmove_needs_the_callers_turn(start_server: StartServer) -> None:
    server = await start_server(**ENGINE)
    client, other = await Client.connect(server.ports[0]), await Client.connect(server.ports[0])
    game = (await client.ok("new hipparchus seed=4 leader=0")).fields()["game"]
    await client.fail(f"genmove {game}", "not-seated")
    await client.ok(f"join {game}")
    await client.fail(f"genmove {game}", "not-started")
    await other.ok(f"join {game}")
    await other.fail(f"genmove {game}", "not-your-turn")
    await client.fail(f"genmove {game} 12xs", "syntax")
    await client.fail(f"genmove {game} play=maybe", "bad-option")
    await client.aclose()
    await other.aclose()


INFO_FIELDS = {"seat", "order", "move", "visits", "value", "match"}


async def test_analyze_streams_until_stop_then_any_request_ends_it(
    start_server: StartServer,
) -> None:
    # Robust under load (issue 24): the workers are ready before the greeting, so the first
    # report comes in milliseconds, not after a worker's start; every wait is bounded
    # generously (reports are 50 ms apart); the streams ended by a request have budgets far
    # longer than a loaded machine takes to send two reports and read them (a budget counts
    # from the answer, and a stream past it would end by itself first); and the playouts
    # budget is bounded by a longest search of a minute, which 500 playouts never take.
    server = await start_server(**ENGINE, max_search_ms=60_000)
    client = await Client.connect(server.ports[0])
    game = (await client.ok("new hipparchus seed=9 leader=0")).fields()["game"]
    await client.ok(f"join {game}")
    await client.ok(f"bot {game} level=random")
    await client.events_until(["to-move"], timeout=WAIT)
    legal = set((await client.ok(f"legal {game}")).lines[0].split())
    started = await client.ok(f"analyze {game} 50000ms interval=50")
    assert started.fields() == {"seat": "0", "budget": "50000ms"}
    # At least two reports, each an info event per move, best first, then a summary.
    reports: list[list[dict[str, str]]] = []
    current: list[dict[str, str]] = []
    while len(reports) < 2:
        _, _, kind, fields = event_fields(await client.next_event(timeout=WAIT))
        if kind == "info":
            assert set(fields) == INFO_FIELDS and fields["move"] in legal
            current.append(fields)
        else:
            assert kind == "analysis" and fields["final"] == "false"
            assert fields["best"] == current[0]["move"]
            assert [int(f["order"]) for f in current] == list(range(1, len(current) + 1))
            visits = [int(f["visits"]) for f in current]
            assert visits == sorted(visits, reverse=True)
            assert 0 <= float(current[0]["value"]) <= 1
            reports.append(current)
            current = []
    stopped = await client.request("stop")
    assert stopped.ok
    # The stream's last report came before stop's answer, marked final.
    finals = [event_fields(e)[3] for e in client.unread if event_fields(e)[2] == "analysis"]
    assert finals[-1]["final"] == "true" and finals[-1]["reason"] == "stop"
    client.unread.clear()
    # Any other request ends a stream too.
    await client.ok(f"analyze {game} 50000ms interval=50")
    await client.ok(f"state {game}")
    finals = [event_fields(e)[3] for e in client.unread if event_fields(e)[2] == "analysis"]
    assert finals[-1]["final"] == "true" and finals[-1]["reason"] == "stop"
    # A short budget ends by itself.
    client.unread.clear()
    await client.ok(f"analyze {game} 500 interval=1000")
    events = await client.events_until(["analysis"], timeout=WAIT)
    assert event_fields(events[-1])[3]["reason"] == "budget"
    assert event_fields(events[-1])[3]["playouts"] == "500"
    await client.aclose()


async def test_analysis_ends_when_the_game_ends_and_bot_searches_stop(
    start_server: StartServer,
) -> None:
    server = await start_server(**ENGINE)
    client, other = await Client.connect(server.ports[0]), await Client.connect(server.ports[0])
    game = (await client.ok("new hipparchus seed=9 leader=0")).fields()["game"]
    await client.ok(f"join {game}")
    await other.ok(f"join {game}")
    await client.events_until(["to-move"])
    await client.ok(f"analyze {game} 9000ms interval=100")
    await other.ok(f"resign {game}")
    events = await client.events_until(["analysis"], timeout=5)
    while event_fields(events[-1])[3]["final"] != "true":
        events = await client.events_until(["analysis"], timeout=5)
    assert event_fields(events[-1])[3]["reason"] == "game-over"
    # Over, a spectator may take a seat's view: the final position has no move to analyze.
    spectator = await Client.connect(server.ports[0])
    await spectator.ok(f"watch {game}")
    await spectator.fail(f"analyze {game} seat=0", "game-over")
    await spectator.fail(f"analyze {game} seat=2", "bad-option")
    await spectator.aclose()
    # A bot seat searching when its game ends is stopped too.
    game = (await client.ok("new hipparchus seed=9 leader=1")).fields()["game"]
    await client.ok(f"join {game}")
    await client.ok(f"bot {game} level=ismcts:9000ms")
    with trio.fail_after(5):
        while server.engines.moves.searches == 0:
            await trio.sleep(0.02)
    await client.ok(f"resign {game}")
    with trio.fail_after(3):
        while server.engines.moves.searches:
            await trio.sleep(0.02)
    await client.aclose()
    await other.aclose()


async def test_limits_answer_limit(start_server: StartServer) -> None:
    server = await start_server(
        engine_workers=1, max_searches=1, max_search_ms=2000, max_search_playouts=1000
    )
    client, other = await Client.connect(server.ports[0]), await Client.connect(server.ports[0])
    games = []
    for who in (client, other):
        game = (await who.ok("new hipparchus seed=2 leader=0")).fields()["game"]
        await who.ok(f"join {game}")
        await who.ok(f"bot {game} level=random")
        await who.events_until(["to-move"])
        games.append(game)
    await client.fail(f"genmove {games[0]} 3000ms", "limit")
    await client.fail(f"analyze {games[0]} 5000", "limit")
    await client.fail(f"bot {games[0]} level=ismcts:3000ms", "limit")
    await client.ok(f"analyze {games[0]} 2000ms interval=100")
    await other.fail(f"genmove {games[1]} 100ms", "limit")
    await other.fail(f"analyze {games[1]}", "limit")
    await client.ok("stop")
    await other.ok(f"genmove {games[1]} 100ms play=false")
    await client.aclose()
    await other.aclose()


CARD = re.compile(r"(?<![A-Za-z0-9])[EJMNSV][1-7MSG](?![A-Za-z0-9])")


async def test_an_analysis_never_names_another_seats_cards(start_server: StartServer) -> None:
    """planets: every card is unique, so no card held by another seat may appear anywhere in
    what the analysing seat receives (its answers and events), though its own moves do."""
    server = await start_server(**ENGINE)
    clients = [await Client.connect(server.ports[0]) for _ in range(3)]
    game = (await clients[0].ok("new planets players=3 seed=8")).fields()["game"]
    for client in clients:
        await client.ok(f"join {game}")
    watcher = clients[0]
    await watcher.events_until(["to-move"])
    table = server.lobby.tables[game]
    others = set()
    for seat in (1, 2):
        others |= set(CARD.findall(str(table.game.view_data(seat))))
    mine = set(CARD.findall(str(table.game.view_data(0))))
    assert others and not others & mine
    seen_before = len(watcher.received)
    await watcher.ok(f"analyze {game} 400 interval=50")
    await watcher.events_until(["analysis"])
    await watcher.ok("stop")
    await watcher.ok("format json")
    await watcher.ok(f"genmove {game} 200 play=false")
    text = bytes(watcher.received[seen_before:]).decode()
    assert CARD.findall(text), "the analysis names the seat's own cards"
    assert not set(CARD.findall(text)) & others
    for client in clients:
        await client.aclose()


async def test_an_analysis_stops_when_its_client_leaves(start_server: StartServer) -> None:
    server = await start_server(**ENGINE)
    client = await Client.connect(server.ports[0])
    game = (await client.ok("new hipparchus seed=9 leader=0")).fields()["game"]
    await client.ok(f"join {game}")
    await client.ok(f"bot {game} level=random")
    await client.events_until(["to-move"])
    await client.ok(f"analyze {game} 9000ms interval=100")
    await client.events_until(["analysis"])
    assert server.engines.analyses.searches == 1
    await client.aclose()
    with trio.fail_after(3):
        while server.engines.analyses.searches or server.engines.client_searches:
            await trio.sleep(0.02)
