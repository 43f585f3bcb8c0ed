"""Does the daemon stay responsive while the engine plays? (issue 29, "Speed where it buys
strength": play p99 with 20 engine games running within 2x of without)

Runs one ``hipparchusd`` subprocess (``--state-dir none``, its default engine workers) and
times a person's ``play``, from the request to its answer, in Hipparchus games of two people
(two connections from 127.0.0.2, each playing its seat's first legal move ``--pause`` seconds
after its turn came; a new game when one ends). Phases alternate in the same run, so that the
shared machine's load falls on both alike: *quiet* (nothing else running) and *loaded*
(``--games`` Hipparchus games of two engine seats each at the default level, each from an
address of its own, watched by one connection a game and replaced as they end). Printed per
phase and pooled: the median, the 99th percentile and the longest play, and for the loaded
phases the engine moves made meanwhile (the load was real).

    .venv/bin/python bench/bench_responsive.py [--games 20] [--plays 300] [--phases 2]

Run it with another checkout's interpreter to measure that checkout's daemon. Not a test: it
prints figures. Wall-clock latency is the quantity measured here, so the phases interleave.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import trio
from bench_engine_load import Line, field
from daemons import daemon

#: The engine level of the loading games' seats: the default one.
LEVEL = "ismcts"


async def _to_move(watcher: Line) -> int | None:
    """The seat to move next, from ``watcher``'s events; None once the game is over."""
    line = await watcher.event_of(("to-move",), ("game-over",))
    if "game-over" in line.split():
        return None
    return int(field([line], "seats").split(",")[0])


async def time_plays(port: int, plays: int, pause: float) -> list[float]:
    """Seconds from each ``play`` to its answer, over ``plays`` plays of people's games, each
    ``pause`` seconds after the last (people take time; the engine games go on meanwhile)."""
    took: list[float] = []
    while len(took) < plays:
        seats = [await Line.open(port, "127.0.0.2") for _ in range(2)]
        game = field(await seats[0].request("new hipparchus"), "game")
        for seat, client in enumerate(seats):
            await client.request(f"join {game} {seat}")
        seat = await _to_move(seats[0])
        while seat is not None and len(took) < plays:
            client = seats[seat]
            legal = (await client.request(f"legal {game}"))[0].lstrip("= ").split()
            await trio.sleep(pause)
            start = time.perf_counter()
            answer = await client.request(f"play {game} {legal[0]}")
            took.append(time.perf_counter() - start)
            assert answer[0].startswith("="), answer
            seat = await _to_move(seats[0])
        for client in seats:
            await client.stream.aclose()
    return took


async def engine_game(port: int, source: str, moves: list[int]) -> None:
    """Keep one game of two engine seats running, game after game, counting their moves;
    created from the address ``source`` (the daemon bounds games of engines per address)."""
    while True:
        client = await Line.open(port, source)
        game = field(await client.request("new hipparchus"), "game")
        for _ in range(2):
            answer = await client.request(f"bot {game} level={LEVEL}")
            assert answer[0].startswith("="), answer
        await client.request(f"watch {game}")
        while "game-over" not in (line := await client.event_of(("played",), ("game-over",))):
            moves[0] += 1 if "played" in line.split() else 0
        await client.stream.aclose()


def _figures(took: list[float]) -> str:
    return (
        f"median {statistics.median(took) * 1e3:.2f} ms, p99 {p99(took) * 1e3:.2f} ms, "
        f"longest {max(took) * 1e3:.2f} ms over {len(took)} plays"
    )


def p99(took: list[float]) -> float:
    """The 99th percentile of ``took`` (nearest rank)."""
    ordered = sorted(took)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


async def trial(port: int, games: int, plays: int, phases: int, pause: float) -> None:
    quiet: list[float] = []
    loaded: list[float] = []
    for phase in range(phases):
        took = await time_plays(port, plays, pause)
        quiet += took
        print(f"phase {phase + 1} quiet: {_figures(took)}", flush=True)
        moves = [0]
        async with trio.open_nursery() as nursery:
            for number in range(games):
                nursery.start_soon(engine_game, port, f"127.0.1.{number + 1}", moves)
            # The engine games under way before timing: every one has made a move or two.
            while moves[0] < 2 * games:
                await trio.sleep(0.1)
            before = moves[0]
            took = await time_plays(port, plays, pause)
            made = moves[0] - before
            nursery.cancel_scope.cancel()
        loaded += took
        print(
            f"phase {phase + 1} loaded ({games} engine games, {made} engine moves meanwhile): "
            f"{_figures(took)}",
            flush=True,
        )
    print(f"all quiet: {_figures(quiet)}")
    print(f"all loaded: {_figures(loaded)}")
    print(f"p99 loaded / quiet: {p99(loaded) / p99(quiet):.2f} (target: at most 2)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="engine games in the loaded phases")
    parser.add_argument("--plays", type=int, default=300, help="plays timed in each phase")
    parser.add_argument("--phases", type=int, default=2, help="quiet/loaded pairs")
    parser.add_argument("--pause", type=float, default=0.05, help="seconds before each play")
    args = parser.parse_args()
    print(f"daemon: the hipparchusd of {sys.executable}")
    with daemon("--max-games", str(args.games + 50)) as running:
        trio.run(trial, running.port, args.games, args.plays, args.phases, args.pause)


if __name__ == "__main__":
    main()
