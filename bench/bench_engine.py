"""Benchmark of the built-in engine (issue 18): playout speed, per-move time and strength.

1. Random Hipparchus rounds per second in the engine's playouts, on the rules core
   (:func:`hipparchusd.games.hipparchus.core.random_finish`), from a fresh shuffled deal
   each. Target: >= 40,000 rounds/s (``rules.py`` plays about 8,700).
2. Search iterations per second and per-move time of ``ismcts`` at its default level.
3. Strength: in-process matches played through the rules (:class:`HipparchusGame`, each seat
   asking :func:`hipparchusd.engine.analysis.analyze` with its own view only) of the engine at the
   default level (at most 100 ms per move) against ``random`` and against ``heuristic``, with
   duplicate deals: each deal is played twice, the engine in seat 0 then in seat 1 (the same
   seed deals every round of both matches and fixes the first leader). Targets: >= 95% of
   matches against random and >= 65% against heuristic over >= 400 matches; the 95% Wilson
   score interval of the win rate is printed.
4. planets at four seats: hand 1 of games dealt from one seed each, the engine in one seat and
   ``random`` (or ``heuristic``) in the three others, every deal played four times with the
   engine in each seat. Targets: the engine takes at most half the points per hand of a
   random seat, and fewer than a heuristic seat, over >= 400 hands; means with 95% intervals.

With ``--old REV`` it prints instead the cost of one playout (a determinization's, played
out by the game's engine state) in the old version ``REV`` and in this tree, under callgrind
and in CPU time, for Hipparchus and planets at 3 to 6 seats (bench/engine_playouts.py).

Run: ``.venv/bin/python bench/bench_engine.py [--old REV [--count N]] [--matches N]
[--opponents random,heuristic] [--level ismcts] [--games hipparchus,planets]
[--hands N] [--jobs J] [--json FILE]``;
``--matches`` counts matches (two per deal), ``--hands`` planets hands (four per deal). A
full run takes long: run it in the background (``nohup ... &``). Not a test: it prints figures.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from typing import Any

from hipparchusd.engine.analysis import analyze
from hipparchusd.engine.types import Level
from hipparchusd.games.hipparchus import core
from hipparchusd.games.hipparchus.engine import ADAPTER as HIPPARCHUS
from hipparchusd.games.hipparchus.game import HipparchusGame
from hipparchusd.games.planets.engine import ADAPTER as PLANETS
from hipparchusd.games.planets.game import PlanetsGame

DECK = [suit for suit in range(3) for _ in range(10)]


def playouts_per_second(rounds: int, seed: int) -> tuple[float, float]:
    """(rounds/s by wall clock, rounds/s by this process's CPU time) dealing and playing
    ``rounds`` random rounds in the engine's playouts (:func:`core.random_finish`)."""
    rng = random.Random(seed)
    rand = rng.random
    deck = DECK[:]
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(rounds):
        rng.shuffle(deck)
        core.random_finish(core.start(core.deal(deck)[0], 0), rand)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return rounds / wall, rounds / max(cpu, 1e-9)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``wins / n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def play_match(deal_seed: int, engine_seat: int, engine: str, opponent: str) -> dict[str, Any]:
    """One match on the deals of ``deal_seed``; the engine (level ``engine``) in
    ``engine_seat``. Returns the winner and the engine's move times (ms) and playouts."""
    levels = {engine_seat: Level.parse(engine), 1 - engine_seat: Level.parse(opponent)}
    game = HipparchusGame(seed=deal_seed, first_leader=deal_seed % 2)
    game.start()
    times: list[float] = []
    playouts: list[int] = []
    move = 0
    while game.outcome is None:
        seat = next(iter(game.seats_to_move()))
        started = time.perf_counter()
        analysis = analyze(
            HIPPARCHUS, game.view_data(seat), levels[seat], seed=deal_seed * 1000 + move
        )
        if seat == engine_seat:
            times.append((time.perf_counter() - started) * 1000.0)
            playouts.append(analysis.playouts)
        game.play_word(seat, analysis.best)
        move += 1
    return {
        "deal": deal_seed,
        "engine_seat": engine_seat,
        "engine_won": game.outcome.winners == (engine_seat,),
        "rounds": list(game.outcome.scores),
        "times": times,
        "playouts": playouts,
    }


def _job(args: tuple[int, int, str, str]) -> dict[str, Any]:
    return play_match(*args)


def strength(engine: str, opponent: str, matches: int, jobs: int, seed: int) -> dict[str, Any]:
    """Play ``matches`` matches (duplicate pairs) and print the running and final figures."""
    tasks = [
        (seed + d, seat, engine, opponent) for d in range((matches + 1) // 2) for seat in (0, 1)
    ]
    tasks = tasks[:matches]
    results: list[dict[str, Any]] = []
    started = time.perf_counter()
    with multiprocessing.Pool(jobs) as pool:
        for result in pool.imap_unordered(_job, tasks):
            results.append(result)
            if len(results) % 20 == 0 or len(results) == len(tasks):
                wins = sum(r["engine_won"] for r in results)
                low, high = wilson(wins, len(results))
                print(
                    f"  {engine} vs {opponent}: {wins}/{len(results)} matches "
                    f"({100 * wins / len(results):.1f}% [{100 * low:.1f}-{100 * high:.1f}%]) "
                    f"after {time.perf_counter() - started:.0f} s",
                    flush=True,
                )
    wins = sum(r["engine_won"] for r in results)
    low, high = wilson(wins, len(results))
    times = [t for r in results for t in r["times"]]
    playouts = [p for r in results for p in r["playouts"]]
    pairs: dict[int, int] = {}
    for r in results:
        pairs[r["deal"]] = pairs.get(r["deal"], 0) + r["engine_won"]
    summary = {
        "engine": engine,
        "opponent": opponent,
        "matches": len(results),
        "wins": wins,
        "win_rate": wins / len(results),
        "interval95": [low, high],
        "both_seats_won": sum(1 for v in pairs.values() if v == 2),
        "move_ms_mean": statistics.fmean(times) if times else 0.0,
        "move_ms_max": max(times, default=0.0),
        "playouts_per_move_mean": statistics.fmean(playouts) if playouts else 0.0,
    }
    print(
        f"{engine} vs {opponent}: won {wins} of {len(results)} matches = "
        f"{100 * summary['win_rate']:.1f}% (95% CI {100 * low:.1f}-{100 * high:.1f}%); "
        f"move time mean {summary['move_ms_mean']:.1f} ms, max {summary['move_ms_max']:.1f} ms; "
        f"{summary['playouts_per_move_mean']:.0f} playouts per move",
        flush=True,
    )
    return summary


def play_planets_hand(
    deal_seed: int, engine_seat: int, engine: str, opponent: str, players: int
) -> dict[str, Any]:
    """Hand 1 of a planets game dealt from ``deal_seed`` (seat 0 deals), the engine in
    ``engine_seat`` and ``opponent`` in every other seat; the points each seat took (what the
    hand added to its total: a shoot counts -23 or +23, RULINGS P13) and the engine's times."""
    game = PlanetsGame(players=players, seed=deal_seed, dealer=0)
    game.start()
    levels = [Level.parse(opponent)] * players
    levels[engine_seat] = Level.parse(engine)
    times: list[float] = []
    move = 0
    while game.state.hand_number == 1 and game.outcome is None:
        seat = min(game.seats_to_move())
        started = time.perf_counter()
        analysis = analyze(
            PLANETS, game.view_data(seat), levels[seat], seed=deal_seed * 1000 + move
        )
        if seat == engine_seat:
            times.append((time.perf_counter() - started) * 1000.0)
        game.play_word(seat, analysis.best)
        move += 1
    return {
        "deal": deal_seed,
        "engine_seat": engine_seat,
        "points": list(game.state.totals if game.outcome is None else game.outcome.scores),
        "times": times,
    }


def _planets_job(args: tuple[int, int, str, str, int]) -> dict[str, Any]:
    return play_planets_hand(*args)


def _mean_interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% interval (normal approximation)."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, mean - half, mean + half


def planets_strength(
    engine: str, opponent: str, hands: int, jobs: int, seed: int, players: int = 4
) -> dict[str, Any]:
    """Play ``hands`` hands of planets with duplicate deals (each deal once with the engine in
    every seat) and print the engine's and the opponents' points per hand."""
    tasks = [
        (seed + d, seat, engine, opponent, players)
        for d in range((hands + players - 1) // players)
        for seat in range(players)
    ][:hands]
    results: list[dict[str, Any]] = []
    with multiprocessing.Pool(jobs) as pool:
        for result in pool.imap_unordered(_planets_job, tasks):
            results.append(result)
            if len(results) % 40 == 0:
                mine = statistics.fmean(r["points"][r["engine_seat"]] for r in results)
                print(
                    f"  planets {engine} vs {opponent}: {len(results)} hands, engine "
                    f"{mine:.2f} points per hand",
                    flush=True,
                )
    mine = [float(r["points"][r["engine_seat"]]) for r in results]
    theirs = [
        statistics.fmean(p for s, p in enumerate(r["points"]) if s != r["engine_seat"])
        for r in results
    ]
    difference = [a - b for a, b in zip(mine, theirs, strict=True)]
    times = [t for r in results for t in r["times"]]
    m, theirs_mean = _mean_interval(mine), _mean_interval(theirs)
    d = _mean_interval(difference)
    summary = {
        "engine": engine,
        "opponent": opponent,
        "players": players,
        "hands": len(results),
        "engine_points": m,
        "opponent_points": theirs_mean,
        "difference": d,
        "ratio": m[0] / theirs_mean[0] if theirs_mean[0] else math.inf,
        "move_ms_mean": statistics.fmean(times) if times else 0.0,
        "move_ms_max": max(times, default=0.0),
    }
    print(
        f"planets ({players} seats) {engine} vs 3 x {opponent} over {len(results)} hands: engine "
        f"{m[0]:.2f} points per hand (95% CI {m[1]:.2f}-{m[2]:.2f}), {opponent} seat "
        f"{theirs_mean[0]:.2f} ({theirs_mean[1]:.2f}-{theirs_mean[2]:.2f}); ratio "
        f"{summary['ratio']:.2f}; engine minus {opponent} {d[0]:+.2f} ({d[1]:+.2f} to "
        f"{d[2]:+.2f}); move time mean {summary['move_ms_mean']:.1f} ms, max "
        f"{summary['move_ms_max']:.1f} ms",
        flush=True,
    )
    return summary


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20_000, help="random rounds to time")
    parser.add_argument("--repeat", type=int, default=3, help="best of this many timings")
    parser.add_argument("--matches", type=int, default=100, help="matches per opponent")
    parser.add_argument("--opponents", default="random,heuristic")
    parser.add_argument("--games", default="hipparchus,planets", help="games to measure")
    parser.add_argument("--hands", type=int, default=100, help="planets hands per opponent")
    parser.add_argument("--level", default="ismcts", help="the engine's level")
    parser.add_argument("--jobs", type=int, default=1, help="matches played at once")
    parser.add_argument("--seed", type=int, default=180_000)
    parser.add_argument("--json", help="write the figures to this file")
    parser.add_argument("--old", help="compare playouts with this old git revision, then stop")
    parser.add_argument("--count", type=int, default=400, help="playouts under callgrind")
    parser.add_argument("--cpu-count", type=int, default=4000, help="playouts per CPU run")
    args = parser.parse_args(argv)
    if args.old:
        from engine_playouts import compare

        compare(args.old, args.count, args.cpu_count, args.repeat)
        return
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load {os.getloadavg()}")

    speeds = [playouts_per_second(args.rounds, args.seed + i) for i in range(args.repeat)]
    wall = max(s[0] for s in speeds)
    cpu = max(s[1] for s in speeds)
    print(
        f"random Hipparchus rounds in playouts: {wall:,.0f}/s wall, {cpu:,.0f}/s CPU (best of "
        f"{args.repeat} x {args.rounds:,}; target 40,000/s)",
        flush=True,
    )

    game = HipparchusGame(seed=args.seed, first_leader=0)
    game.start()
    level = Level.parse(args.level)
    searches = [analyze(HIPPARCHUS, game.view_data(0), level, seed=i) for i in range(10)]
    per_second = [a.playouts / (a.elapsed_ms / 1000.0) for a in searches]
    print(
        f"{level} at the first lead: {statistics.fmean(a.playouts for a in searches):.0f} "
        f"iterations in {statistics.fmean(a.elapsed_ms for a in searches):.1f} ms "
        f"({max(per_second):,.0f} iterations/s)",
        flush=True,
    )

    figures: dict[str, Any] = {"rounds_per_second": wall, "rounds_per_cpu_second": cpu}
    games = args.games.split(",")
    for opponent in args.opponents.split(","):
        if opponent and "hipparchus" in games:
            figures[opponent] = strength(args.level, opponent, args.matches, args.jobs, args.seed)
    for opponent in args.opponents.split(","):
        if opponent and "planets" in games:
            figures[f"planets-{opponent}"] = planets_strength(
                args.level, opponent, args.hands, args.jobs, args.seed
            )
    if args.json:
        with open(args.json, "w") as out:
            json.dump(figures, out, indent=2)


if __name__ == "__main__":
    main()
