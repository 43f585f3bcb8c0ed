"""The engine's playouts, old and new in the same run (issue 23): the worker of
``bench_engine.py --old REV``.

Workloads, through the engine adapter's interface only (so that any version of hipparchusd
runs them): a seat's view at the start of the card play, its information set, then, per
repetition, a determinization (``determinize``) and, in the ``playout`` mode, its playout to
the end of the round or hand (``playout``) with the reward of every seat:

- ``hipparchus``: the first lead of a match's first round (seats' views from seeded matches);
- ``planets-3`` to ``planets-6``: the first card of hand 1 at 3 to 6 seats (``planets-6``
  with ``galaxies=all``), after every seat has passed as the ``random`` level does.

A playout's instructions are those of the ``playout`` mode less the ``deal`` mode's, per
repetition (see bench/old_tree.py). Both versions must print the same checksum: the same
deals, the same playouts.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

from hipparchusd.engine.analysis import analyze
from hipparchusd.engine.types import Level

WORKLOADS = ("hipparchus", "planets-3", "planets-4", "planets-5", "planets-6")
VIEWS = 8


def _views(name: str) -> tuple[Any, list[Any]]:
    """The adapter and ``VIEWS`` views of a seat to play its first card (see the module)."""
    if name == "hipparchus":
        from hipparchusd.games.hipparchus.engine import ADAPTER as HIPPARCHUS
        from hipparchusd.games.hipparchus.game import HipparchusGame

        views = []
        for seed in range(VIEWS):
            game = HipparchusGame(seed=seed, first_leader=seed % 2)
            game.start()
            views.append(game.view_data(next(iter(game.seats_to_move()))))
        return HIPPARCHUS, views
    from hipparchusd.games.planets.engine import ADAPTER as PLANETS
    from hipparchusd.games.planets.game import PlanetsGame

    players = int(name.split("-")[1])
    views = []
    for seed in range(VIEWS):
        game = PlanetsGame(players=players, galaxies=players == 6, seed=seed)
        game.start()
        move = 0
        while True:
            seat = min(game.seats_to_move())
            view = game.view_data(seat)
            if view["phase"] == "play":
                views.append(view)
                break
            best = analyze(PLANETS, view, Level.parse("random"), seed=seed * 100 + move).best
            game.play_word(seat, best)
            move += 1
    return PLANETS, views


def worker(name: str, mode: str, count: int) -> None:
    """``count`` repetitions of workload ``name`` in ``mode`` (``deal`` or ``playout``); print
    the CPU seconds they took and a checksum of the rewards."""
    adapter, views = _views(name)
    informations = [adapter.position(view).information_set() for view in views]
    seats = len(views[0]["hand_sizes"]) if "hand_sizes" in views[0] else 2
    rng = random.Random(2026)
    checksum = 0
    play = mode == "playout"
    started = time.process_time()
    for index in range(count):
        state = informations[index % VIEWS].determinize(rng)
        if play:
            state.playout(rng)
            for seat in range(seats):
                checksum = (checksum * 31 + int(state.reward(seat) * 1000)) % (1 << 61)
    print(time.process_time() - started, checksum)


def compare(old_revision: str, count: int, cpu_count: int, repeat: int) -> None:
    """Print each workload's playout cost in the old version (``old_revision``, out of git)
    and this tree: instructions under callgrind and CPU time (``repeat`` runs of each version,
    interleaved), per playout.

    Raises:
        SystemExit: the versions' checksums differ (they did not play the same playouts).
    """
    import statistics
    import tempfile
    from pathlib import Path

    from old_tree import ROOT, run_in

    script = Path(__file__).resolve()
    with tempfile.TemporaryDirectory() as folder:
        from old_tree import extract

        trees = {"old": extract(old_revision, Path(folder)), "new": ROOT}
        print(f"engine playouts, old: {old_revision}; new: {ROOT}")
        print(
            f"{'workload':<12} {'old instr':>11} {'new instr':>11} {'ratio':>6}   "
            f"{'old CPU':>9} {'new CPU':>9} {'ratio':>6}  (per playout; CPU: best of {repeat})"
        )
        for name in WORKLOADS:
            sums = {
                v: run_in(t, script, [name, "playout", "40"]).split()[1] for v, t in trees.items()
            }
            if sums["old"] != sums["new"]:
                raise SystemExit(f"{name}: the versions disagree (checksums {sums})")
            counts = {}
            for version, tree in trees.items():
                full = int(run_in(tree, script, [name, "playout", str(count)], callgrind=True))
                deal = int(run_in(tree, script, [name, "deal", str(count)], callgrind=True))
                counts[version] = (full - deal) / count
            cpu: dict[str, list[float]] = {"old": [], "new": []}
            for _ in range(repeat):
                for version, tree in trees.items():
                    full = float(run_in(tree, script, [name, "playout", str(cpu_count)]).split()[0])
                    deal = float(run_in(tree, script, [name, "deal", str(cpu_count)]).split()[0])
                    cpu[version].append((full - deal) / cpu_count * 1e6)
            best = {version: min(times) for version, times in cpu.items()}
            median = {version: statistics.median(times) for version, times in cpu.items()}
            print(
                f"{name:<12} {counts['old']:>11,.0f} {counts['new']:>11,.0f} "
                f"{counts['old'] / counts['new']:>5.2f}x   {best['old']:>7.1f}us "
                f"{best['new']:>7.1f}us {best['old'] / best['new']:>5.2f}x"
                f"  (median {median['old']:.1f} / {median['new']:.1f} us)",
                flush=True,
            )


def main(argv: list[str]) -> None:
    """``engine_playouts.py WORKLOAD MODE COUNT`` (a worker, see :func:`worker`)."""
    worker(argv[0], argv[1], int(argv[2]))


if __name__ == "__main__":
    main(sys.argv[1:])
