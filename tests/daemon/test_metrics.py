"""The metrics listener (issue 26): scraped while games are played, its numbers move as the
requests made them move, and no label carries a name, a token, a game or a card."""

from __future__ import annotations

from pathlib import Path

import trio
from prometheus_client.parser import text_string_to_metric_families

from hipparchusd.server import Server

from .client import Client
from .helpers import DEAL, StartServer, open_sqlite, seated_game


async def scrape(port: int, path: str = "/metrics") -> tuple[str, str]:
    """(the status line and head, the body) of ``GET path`` on the metrics port."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    async with stream:
        await stream.send_all(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        received = bytearray()
        # The server closes the connection after its answer: read to the end.
        with trio.fail_after(10):
            while data := await stream.receive_some(65536):
                received += data
    head, _, body = bytes(received).partition(b"\r\n\r\n")
    return head.decode(), body.decode()


def samples(body: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a scrape, by (name, sorted labels)."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(body)
        for sample in family.samples
    }


async def figures(server: Server) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    head, body = await scrape(server.metrics_ports[0])
    assert head.startswith("HTTP/1.1 200 "), head
    return samples(body)


Figures = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def value(found: Figures, name: str, **labels: str) -> float:
    return found.get((name, tuple(sorted(labels.items()))), 0.0)


async def test_scraped_while_games_are_played_the_numbers_move(
    start_server: StartServer, tmp_path: Path, nursery: trio.Nursery
) -> None:
    store = await open_sqlite(nursery, tmp_path / "state")
    server = await start_server(store=store, metrics_port=0, max_games=1)
    before = await figures(server)
    assert value(before, "hipparchusd_connections", transport="tcp") == 0
    assert value(before, "hipparchusd_moves_total") == 0

    a = await Client.connect(server.ports[0])
    b = await Client.connect(server.ports[0])
    game = await seated_game(a, b)
    found = await figures(server)
    assert value(found, "hipparchusd_connections", transport="tcp") == 2
    assert value(found, "hipparchusd_connections_opened_total", transport="tcp") == 2
    assert value(found, "hipparchusd_games", kind="hipparchus", status="playing") == 1
    assert value(found, "hipparchusd_request_duration_seconds_count", command="join") == 2

    # Three moves, each asked for with legal first; one refused move; one game too many.
    players = (a, b)
    for _ in range(3):
        (seat,) = server.lobby.tables[game].game.seats_to_move()
        moves = (await players[seat].ok(f"legal {game}")).lines[0].split()
        await players[seat].ok(f"play {game} {moves[0]}")
    (seat,) = server.lobby.tables[game].game.seats_to_move()
    await players[1 - seat].fail(f"play {game} 1S@1", "not-your-turn")
    await a.fail("new hipparchus", "limit")
    found = await figures(server)
    assert value(found, "hipparchusd_moves_total") == 3
    assert value(found, "hipparchusd_request_duration_seconds_count", command="play") == 4
    assert value(found, "hipparchusd_request_duration_seconds_count", command="legal") >= 3
    assert value(found, "hipparchusd_error_answers_total", code="limit") == 1
    assert value(found, "hipparchusd_error_answers_total", code="not-your-turn") == 1
    assert value(found, "hipparchusd_refusals_total", limit="max-games") == 1
    assert value(found, "hipparchusd_store_commit_duration_seconds_count", call="add_move") == 3
    # Each durable move waited for a commit, which the batch histogram counted.
    assert value(found, "hipparchusd_store_commit_batch_size_count") >= 3
    bucket = value(found, "hipparchusd_request_duration_seconds_bucket", command="play", le="+Inf")
    assert bucket == 4

    await a.ok(f"resign {game}")
    await a.fail("nonsense", "unknown-command")
    await a.request("play")
    found = await figures(server)
    assert value(found, "hipparchusd_games_ended_total", kind="hipparchus", how="resigned") == 1
    assert value(found, "hipparchusd_games", kind="hipparchus", status="over") == 1
    assert value(found, "hipparchusd_games", kind="hipparchus", status="playing") == 0
    assert value(found, "hipparchusd_error_answers_total", code="unknown-command") == 1
    assert value(found, "hipparchusd_error_answers_total", code="syntax") == 1
    # A command the server does not have is counted under "other", not under its word.
    assert value(found, "hipparchusd_request_duration_seconds_count", command="other") == 1
    await a.aclose()
    await b.aclose()

    _, body = await scrape(server.metrics_ports[0])
    for secret in ("alice", "bob", game, "nonsense"):
        assert secret not in body, secret


async def test_only_the_metrics_path_is_served(start_server: StartServer) -> None:
    server = await start_server(metrics_port=0)
    head, _ = await scrape(server.metrics_ports[0], "/")
    assert head.startswith("HTTP/1.1 404 ")
    head, body = await scrape(server.metrics_ports[0])
    assert "text/plain" in head and "# TYPE hipparchusd_connections gauge" in body


async def test_without_a_metrics_port_nothing_is_counted(start_server: StartServer) -> None:
    server = await start_server()
    assert server.metrics is None and server.pipeline.metrics is None
    assert server.metrics_ports == []


async def test_the_clocks_endings_are_counted_by_how(
    start_server: StartServer, tmp_path: Path, nursery: trio.Nursery
) -> None:
    """Issue 26 on issue 27's clocks: a flag that resigns a seat and an abort are counted as
    such (``how="timeout"``, ``how="abort"``), not as a resignation or a game played out."""
    store = await open_sqlite(nursery, tmp_path / "state")
    server = await start_server(store=store, metrics_port=0)
    a = await Client.connect(server.ports[0])
    b = await Client.connect(server.ports[0])
    # Seat 0 never moves in either: a flag after its bank and lag allowance in the first, the
    # first-move limit in the second (a few tenths of a second each: tests/daemon/test_clocks).
    flagged = await seated_game(a, b, f"leader=0 deal={DEAL} clock=0.3s first_move=off")
    aborted = await seated_game(a, b, f"leader=0 deal={DEAL} clock=1m first_move=0.3s")
    # Generous, for a loaded machine: each deadline comes within seconds of its start.
    with trio.fail_after(60):
        while not all(server.lobby.tables[g].finished for g in (flagged, aborted)):
            await b.events_until(["game-over"], timeout=60)
    found = await figures(server)
    assert value(found, "hipparchusd_games_ended_total", kind="hipparchus", how="timeout") == 1
    assert value(found, "hipparchusd_games_ended_total", kind="hipparchus", how="abort") == 1
    assert value(found, "hipparchusd_games_ended_total", kind="hipparchus", how="resigned") == 0
    await a.aclose()
    await b.aclose()
