"""The engine's strength as an outsider measures it (issue 29): matches played by
``hipparchusd match`` on duplicate deals, and their figures with 95% intervals.

Each *run* is one ``hipparchusd match`` (players, kind, options, games) whose results file is
kept in ``--out`` (default ``bench-strength/``), so a run stopped halfway resumes, and a
finished one is only reported again. Figures printed:

- two players (Hipparchus): the first player's share of matches won, with the 95% Wilson score
  interval, and the match runner's own Elo (pairs of a deal's two rotations, pentanomial);
- more seats (planets): each player's points per hand, the first player's points per hand
  against the mean of the others' (``ratio``) and the difference, with 95% intervals from a
  bootstrap over deals (a deal's rotations stay together: they share its luck).

Fair time: every engine player has a CPU-time budget (``ismcts:100cpu``: 100 ms of the
searching thread's CPU time a move) or a count budget (``sampler``: 160 deals a move), never a
wall-clock one, so that the load of a shared machine decides nothing; the bench refuses a
wall-clock budget unless ``--allow-wall`` is given. Every run is ``nice -n 10`` (the machine is
shared) and prints its progress to its log in ``--out``.

Usage::

    python bench/bench_strength.py list
    python bench/bench_strength.py run NAME... [--out DIR] [--workers N] [--concurrency N]
    python bench/bench_strength.py report NAME... [--out DIR]
    python bench/bench_strength.py custom NAME --kind K --games N [-o KEY=VALUE] PLAYER...

A ``cmd:`` player may be :mod:`level_bot` run by another tree's Python
(``cmd:env PYTHONPATH=/old/tree python bench/level_bot.py --level ismcts:100cpu``), which
sets one version of the engine against another. Not a test: it prints figures.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shlex
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

#: The 97.5th percentile of the standard normal distribution.
Z95 = 1.959963984540054
#: Bootstrap resamples for the multi-seat intervals.
RESAMPLES = 4000


@attrs.frozen
class Run:
    """One match: its ``kind``, ``players`` (level words or ``cmd:``), ``options`` of ``new``
    and the ``games`` to play (a multiple of the rotations, one per player)."""

    kind: str
    players: tuple[str, ...]
    options: tuple[str, ...] = ()
    games: int = 400
    seed: int = 1


def _runs() -> dict[str, Run]:
    default = "ismcts:100cpu"
    runs = {
        # issue 29, point 1 (Hipparchus, the default level's search given 100 ms of CPU time)
        # against the sampler given 40 ms of CPU time a move, the ratio of 2.5 (its
        # 160 deals a move take about 125 ms of CPU time in this Python, more than the search's
        # own budget: h-default-sampler160 is that match).
        "h-default-sampler": Run("hipparchus", (default, "sampler:40cpu")),
        "h-default-sampler160": Run("hipparchus", (default, "sampler")),
        "h-default-random": Run("hipparchus", (default, "random")),
        "h-default-heuristic": Run("hipparchus", (default, "heuristic")),
        "h-heuristic-random": Run("hipparchus", ("heuristic", "random")),
        "h-sampler-random": Run("hipparchus", ("sampler", "random")),
        "h-sampler-heuristic": Run("hipparchus", ("sampler", "heuristic")),
    }
    for seats, games in ((3, 45), (4, 40), (6, 36)):
        for other in ("heuristic", "random"):
            runs[f"p{seats}-default-{other}"] = Run(
                "planets",
                (default, *[other] * (seats - 1)),
                (f"players={seats}",),
                games,
            )
    # issue 29, point 5: the rest of planets' ladder at 4 seats, each level against random
    # and against the level below it (one seat of the first level, three of the other).
    for first, other in (("heuristic", "random"), ("sampler", "random"), ("sampler", "heuristic")):
        runs[f"p4-{first}-{other}"] = Run("planets", (first, *[other] * 3), ("players=4",), 40)
    runs["p4-default-sampler"] = Run("planets", (default, *["sampler"] * 3), ("players=4",), 40)
    return runs


RUNS = _runs()


# -- statistics -------------------------------------------------------------------------------


def wilson(successes: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of the proportion ``successes / n``."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def seat_points(games: list[dict[str, Any]], players: int) -> dict[int, list[tuple[float, int]]]:
    """Per deal, each game's (points of each player summed over its seats, hands) -> by deal a
    list of rows ``[points of player 0, ..., hands]``; a helper of :func:`multi_seat`."""
    by_deal: dict[int, list[tuple[float, int]]] = {}
    for game in games:
        hands = int(game["hands"] or 0)
        points = [0.0] * players
        seats = [0] * players
        for seat, player in enumerate(game["players"]):
            points[player] += game["scores"][seat]
            seats[player] += 1
        row = tuple(points[p] / seats[p] if seats[p] else math.nan for p in range(players))
        by_deal.setdefault(game["deal"], []).append((*row, hands))  # type: ignore[arg-type]
    return by_deal


def multi_seat(games: list[dict[str, Any]], players: int) -> dict[str, Any]:
    """The figures of a multi-seat match: hands, each player's points per hand (its seats'
    mean), and player 0's ratio to and difference from the mean of the others, with 95%
    bootstrap intervals over deals."""
    by_deal = seat_points(games, players)
    deals = sorted(by_deal)

    def figures(chosen: list[int]) -> tuple[list[float], float, float]:
        sums = [0.0] * players
        hands = 0
        for deal in chosen:
            for row in by_deal[deal]:
                for p in range(players):
                    sums[p] += row[p]
                hands += int(row[players])
        per_hand = [s / hands if hands else math.nan for s in sums]
        others = sum(per_hand[1:]) / (players - 1)
        return per_hand, per_hand[0] / others if others else math.nan, per_hand[0] - others

    per_hand, ratio, difference = figures(deals)
    rng = random.Random(12345)
    boot_ratio: list[float] = []
    boot_diff: list[float] = []
    boot_hand: list[list[float]] = [[] for _ in range(players)]
    for _ in range(RESAMPLES):
        sample = [deals[rng.randrange(len(deals))] for _ in deals]
        hand, r, d = figures(sample)
        boot_ratio.append(r)
        boot_diff.append(d)
        for p in range(players):
            boot_hand[p].append(hand[p])
    hands = sum(int(row[players]) for deal in deals for row in by_deal[deal])
    return {
        "games": len(games),
        "deals": len(deals),
        "hands": hands,
        "points_per_hand": per_hand,
        "points_per_hand_95": [[_percentile(b, 0.025), _percentile(b, 0.975)] for b in boot_hand],
        "ratio": ratio,
        "ratio_95": [_percentile(boot_ratio, 0.025), _percentile(boot_ratio, 0.975)],
        "difference": difference,
        "difference_95": [_percentile(boot_diff, 0.025), _percentile(boot_diff, 0.975)],
    }


def two_seat(data: dict[str, Any]) -> dict[str, Any]:
    """The figures of a two-player match: the first player's matches won, with the Wilson
    interval, and the runner's Elo."""
    games = data["games"]
    won = 0.0
    for game in games:
        holders = {game["players"][w] for w in game["winners"]}
        won += 1.0 if holders == {0} else 0.5 if holders == {0, 1} else 0.0
    low, high = wilson(won, len(games))
    summary = data.get("summary", {})
    return {
        "games": len(games),
        "won": won,
        "rate": won / len(games) if games else math.nan,
        "rate_95": [low, high],
        "elo": summary.get("elo"),
        "elo_95": summary.get("elo_95"),
    }


# -- running ----------------------------------------------------------------------------------


def _check_fair(run: Run, allow_wall: bool) -> None:
    for player in run.players:
        if player.startswith("cmd:"):
            continue
        _, _, budget = player.partition(":")
        parts = budget.split(",") if budget else []
        timed = [p for p in parts if p.endswith("ms")]
        if (player == "ismcts" or timed) and not allow_wall:
            raise SystemExit(
                f"{player}: a wall-clock budget lets the machine's load decide the match; "
                "give a CPU budget (ismcts:100cpu) or --allow-wall"
            )


def run_match(name: str, run: Run, out: Path, workers: int, concurrency: int) -> None:
    """Play (or resume) the run's match, niced, its progress going to ``out/NAME.log``."""
    out.mkdir(parents=True, exist_ok=True)
    command = ["nice", "-n", "10", sys.executable, "-m", "hipparchusd", "match"]
    command += ["--kind", run.kind, "--games", str(run.games), "--seed", str(run.seed)]
    command += ["--output", str(out / f"{name}.json"), "--quiet"]
    command += ["--engine-workers", str(workers), "--concurrency", str(concurrency)]
    command += ["--timeout", "3600"]
    for option in run.options:
        command += ["-o", option]
    command += list(run.players)
    with (out / f"{name}.log").open("a") as log:
        log.write(f"$ {shlex.join(command)}\n")
        log.flush()
        subprocess.run(command, stdout=log, stderr=subprocess.STDOUT, check=False)


def report(name: str, out: Path) -> dict[str, Any] | None:
    """Print the run's figures from its results file; ``None`` when it has none yet."""
    path = out / f"{name}.json"
    if not path.exists():
        print(f"{name}: no results yet")
        return None
    data = json.loads(path.read_text())
    config = data["config"]
    players = config["players"]
    head = f"{name}: {config['kind']} {' '.join(config['options'])} {' vs '.join(players)}"
    if len(players) == 2:
        figures = two_seat(data)
        low, high = figures["rate_95"]
        elo = figures["elo"]
        elo_text = ""
        if elo is not None and figures["elo_95"] and None not in figures["elo_95"]:
            lo, hi = figures["elo_95"]
            elo_text = f", Elo {elo:+.0f} [{lo:+.0f}, {hi:+.0f}]"
        print(
            f"{head}: {players[0]} won {figures['won']:g} of {figures['games']} matches = "
            f"{100 * figures['rate']:.1f}% [95% {100 * low:.1f}-{100 * high:.1f}%]{elo_text}"
        )
    else:
        figures = multi_seat(data["games"], len(players))
        per = figures["points_per_hand"]
        spans = figures["points_per_hand_95"]
        table = ", ".join(
            f"p{i} {per[i]:.2f} [{spans[i][0]:.2f}-{spans[i][1]:.2f}]" for i in range(len(per))
        )
        r_low, r_high = figures["ratio_95"]
        d_low, d_high = figures["difference_95"]
        print(
            f"{head}: {figures['hands']} hands in {figures['games']} games "
            f"({figures['deals']} deals); points per hand {table}; p0 / others' mean "
            f"{figures['ratio']:.2f}x [95% {r_low:.2f}-{r_high:.2f}], "
            f"difference {figures['difference']:+.2f} [{d_low:+.2f}, {d_high:+.2f}]"
        )
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module's doc)."""
    parser = argparse.ArgumentParser(description="The engine's strength in matches.")
    parser.add_argument("action", choices=("list", "run", "report", "custom"))
    parser.add_argument("names", nargs="*")
    parser.add_argument("--out", default="bench-strength", type=Path)
    parser.add_argument("--workers", type=int, default=2, help="engine worker processes")
    parser.add_argument("--concurrency", type=int, default=4, help="games at once")
    parser.add_argument("--kind", default="hipparchus")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-o", "--option", action="append", default=[])
    parser.add_argument("--allow-wall", action="store_true")
    args = parser.parse_args(argv)
    if args.action == "list":
        for name, run in RUNS.items():
            options = " ".join(run.options)
            print(f"{name}: {run.kind} {options} {' vs '.join(run.players)}, {run.games} games")
        return 0
    if args.action == "custom":
        if len(args.names) < 3:
            parser.error("custom NAME PLAYER PLAYER...")
        name, players = args.names[0], tuple(args.names[1:])
        run = Run(args.kind, players, tuple(args.option), args.games, args.seed)
        _check_fair(run, args.allow_wall)
        run_match(name, run, args.out, args.workers, args.concurrency)
        report(name, args.out)
        return 0
    unknown = [name for name in args.names if name not in RUNS]
    if unknown:
        parser.error(f"unknown runs {', '.join(unknown)} (see 'list')")
    for name in args.names:
        if args.action == "run":
            _check_fair(RUNS[name], args.allow_wall)
            run_match(name, RUNS[name], args.out, args.workers, args.concurrency)
        report(name, args.out)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
