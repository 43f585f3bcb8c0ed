"""What keeping the tree between moves gives a search (issue 29, the adapter's ``reuse``
option): the root's visits per move with the kept tree and without it, on the same positions,
and the iterations a CPU second of each. Not a test: it prints figures.

Positions: seeded matches, ``--level`` with ``reuse=1`` (seat 0, in-process, its
:class:`~hipparchusd.engine.analysis.TreeMemory` kept across the match as bench/level_bot.py
keeps it) against ``--opponent`` (seat 1). At each of the engine's decisions the same view is
also searched afresh (the default, no memory) with the same level and seed; the move played
is the kept tree's. Printed by cards left in both hands: decisions, the kept tree's share of
them that found a subtree, the root visits (the moves' visits summed: the kept node's and the
new iterations) with and without, the mean paired difference and ratio with 95% normal
intervals over the decisions, and iterations per CPU second of each.

Usage::

    python bench/bench_tree_reuse.py [--matches 10] [--level ismcts:100cpu] \
        [--opponent sampler:40cpu] [--seed 1]
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time

from hipparchusd.engine.analysis import TreeMemory, analyze
from hipparchusd.engine.types import Level
from hipparchusd.games.hipparchus import core
from hipparchusd.games.hipparchus.engine import ADAPTER
from hipparchusd.games.hipparchus.game import HipparchusGame

#: The 97.5th percentile of the standard normal distribution.
Z95 = 1.959963984540054
#: Cards left in both hands, as the rows printed (lower bound inclusive).
BUCKETS = ((21, 28), (13, 20), (1, 12))


def _mean_interval(values: list[float]) -> tuple[float, float, float]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.nan, math.nan
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def play(matches: int, level: Level, opponent: Level, seed: int) -> list[dict[str, float]]:
    """Play the matches; one row per engine decision (cards, visits and CPU seconds of both
    searches, the kept visits)."""
    reusing = ADAPTER.with_options({"reuse": "1"})
    rows: list[dict[str, float]] = []
    for number in range(matches):
        game = HipparchusGame(seed=seed * 100_000 + number, first_leader=number % 2)
        game.start()
        memory = TreeMemory()
        while game.outcome is None:
            seat = next(iter(game.seats_to_move()))
            view = game.view_data(seat)
            search_seed = random.Random(seed * 7919 + len(rows)).getrandbits(62)
            if seat == 1:
                best = analyze(ADAPTER, view, opponent, seed=search_seed).best
                game.play(seat, game.parse_move(seat, best))
                continue
            round_ = game.state.round.core
            cards = core.size_of(round_[0][0]) + core.size_of(round_[0][1])
            started = time.thread_time()
            kept = analyze(reusing, view, level, seed=search_seed, memory=memory)
            kept_cpu = time.thread_time() - started
            started = time.thread_time()
            fresh = analyze(ADAPTER, view, level, seed=search_seed)
            fresh_cpu = time.thread_time() - started
            kept_visits = sum(m.visits for m in kept.moves)
            rows.append(
                {
                    "cards": cards,
                    "visits": kept_visits,
                    "reused": kept_visits - kept.playouts,
                    "playouts": kept.playouts,
                    "cpu": kept_cpu,
                    "fresh_visits": sum(m.visits for m in fresh.moves),
                    "fresh_cpu": fresh_cpu,
                }
            )
            game.play(seat, game.parse_move(seat, kept.best))
    return rows


def report(rows: list[dict[str, float]]) -> None:
    """Print the figures by cards left, and over all decisions."""
    groups = [(f"{low}-{high} cards", low, high) for low, high in BUCKETS]
    for name, low, high in [*groups, ("all", 0, 99)]:
        chosen = [row for row in rows if low <= row["cards"] <= high]
        if not chosen:
            continue
        found = sum(1 for row in chosen if row["reused"] > 0)
        kept, kept_lo, kept_hi = _mean_interval([row["visits"] for row in chosen])
        fresh, fresh_lo, fresh_hi = _mean_interval([row["fresh_visits"] for row in chosen])
        diff, diff_lo, diff_hi = _mean_interval(
            [row["visits"] - row["fresh_visits"] for row in chosen]
        )
        ratio, ratio_lo, ratio_hi = _mean_interval(
            [row["visits"] / row["fresh_visits"] for row in chosen]
        )
        reused = sum(row["reused"] for row in chosen) / len(chosen)
        rate = sum(row["playouts"] for row in chosen) / sum(row["cpu"] for row in chosen)
        fresh_rate = sum(row["fresh_visits"] for row in chosen) / sum(
            row["fresh_cpu"] for row in chosen
        )
        print(
            f"{name}: {len(chosen)} decisions, a subtree kept at {found} "
            f"({100 * found / len(chosen):.0f}%), {reused:.0f} visits kept on average; "
            f"root visits with the kept tree {kept:.0f} [{kept_lo:.0f}-{kept_hi:.0f}], "
            f"fresh {fresh:.0f} [{fresh_lo:.0f}-{fresh_hi:.0f}]; paired difference "
            f"{diff:+.0f} [{diff_lo:+.0f}, {diff_hi:+.0f}], ratio {ratio:.2f} "
            f"[{ratio_lo:.2f}-{ratio_hi:.2f}]; iterations per CPU second {rate:,.0f} kept, "
            f"{fresh_rate:,.0f} fresh"
        )


def main(argv: list[str] | None = None) -> int:
    """Play the matches and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--level", default="ismcts:100cpu")
    parser.add_argument("--opponent", default="sampler:40cpu")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    level, opponent = Level.parse(args.level), Level.parse(args.opponent)
    rows = play(args.matches, level, opponent, args.seed)
    print(
        f"{args.matches} matches, {level} (reuse=1 and fresh) against {opponent}, seed {args.seed}"
    )
    report(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
