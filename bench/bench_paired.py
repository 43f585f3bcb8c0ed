"""Two runs of bench/bench_strength.py on the same deals, compared match by match (issue 29).
Not a test: it prints figures.

Each results file holds the matches of one setting against the same opponent with the same
seed, so the same (deal, rotation) is the same deal with the first player in the same seat;
the searches are seeded by the view, so two settings play the same match until their first
different move. Printed: the matches both runs played, each run's share won there (Wilson
95%), and the paired difference of the first player's result (1 won, 0.5 shared, 0 lost),
with a 95% normal interval over the pairs, and how many pairs differ.

Usage::

    python bench/bench_paired.py NEW.json OLD.json
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

from bench_strength import Z95, wilson


def results(path: str) -> dict[tuple[int, int], float]:
    """The first player's result of each (deal, rotation) of a results file."""
    data: dict[str, Any] = json.loads(Path(path).read_text())
    found = {}
    for game in data["games"]:
        holders = {game["players"][w] for w in game["winners"]}
        score = 1.0 if holders == {0} else 0.5 if holders == {0, 1} else 0.0
        found[game["deal"], game["rotation"]] = score
    return found


def main(argv: list[str]) -> int:
    """Print the paired figures of two results files."""
    new, old = results(argv[0]), results(argv[1])
    common = sorted(set(new) & set(old))
    n = len(common)
    if n < 2:
        print(f"{n} matches in common: nothing to compare")
        return 1
    diffs = [new[key] - old[key] for key in common]
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    for name, run in ((argv[0], new), (argv[1], old)):
        won = sum(run[key] for key in common)
        low, high = wilson(won, n)
        print(
            f"{name}: {won:g} of {n} = {100 * won / n:.1f}% [95% {100 * low:.1f}-{100 * high:.1f}%]"
        )
    changed = sum(1 for d in diffs if d)
    print(
        f"paired difference {100 * mean:+.1f} points [95% {100 * (mean - half):+.1f}, "
        f"{100 * (mean + half):+.1f}] over {n} matches ({changed} differ: "
        f"{sum(1 for d in diffs if d > 0)} better, {sum(1 for d in diffs if d < 0)} worse)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
