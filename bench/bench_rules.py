"""Benchmark of the Hipparchus rules engine (issue 2), one process, through the public API the
daemon uses (``shuffled_deal``, ``RoundState.start``, ``legal_plays``, ``play``).

1. Random complete rounds per second: deal with ``random.Random(seed)``, then play uniformly
   random legal plays until the round ends. Target: >= 10,000 rounds/s.
2. Legal-move generations per second: ``legal_plays()`` on positions taken from random rounds,
   each on a freshly built state whose hands have never been asked before (so no per-hand
   cache is reused: this measures generation, not lookup).

Run: ``.venv/bin/python bench/bench_rules.py [--seconds N] [--repeat R] [--seed S]``. Each
figure is the best of ``--repeat`` runs (the machine is shared; the best run is the one least
disturbed). Not a test: it prints figures.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import time

from hipparchusd.games.hipparchus.dealing import shuffled_deal
from hipparchusd.games.hipparchus.model import Hand
from hipparchusd.games.hipparchus.rules import RoundState


def random_round(rng: random.Random) -> RoundState:
    """Deal with ``rng`` and play one round to its end by uniformly random legal plays."""
    state = RoundState.start(shuffled_deal(rng), rng.randrange(2))
    while state.result is None:
        state = state.play(rng.choice(state.legal_plays()))
    return state


def time_rounds(rounds: int, seed: int) -> tuple[float, float]:
    """(wall-clock seconds, CPU seconds of this process) to deal and play ``rounds`` random
    rounds. CPU time is less disturbed by other processes on a shared machine."""
    rng = random.Random(seed)
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(rounds):
        random_round(rng)
    return time.perf_counter() - wall, time.process_time() - cpu


def sample_positions(count: int, seed: int) -> list[RoundState]:
    """``count`` positions (some to lead, some to follow) from random rounds."""
    rng = random.Random(seed)
    positions: list[RoundState] = []
    while len(positions) < count:
        state = RoundState.start(shuffled_deal(rng), rng.randrange(2))
        while state.result is None:
            positions.append(state)
            state = state.play(rng.choice(state.legal_plays()))
    return positions[:count]


def fresh(state: RoundState) -> RoundState:
    """An equal state with new hand objects, whose play lists are not computed yet."""
    return RoundState(
        hands=(Hand(state.hands[0].clumps), Hand(state.hands[1].clumps)),
        face_down=state.face_down,
        leader=state.leader,
        won=state.won,
        lead=state.lead,
        set_aside=state.set_aside,
        last_follower=state.last_follower,
    )


def time_generations(positions: list[RoundState]) -> float:
    """Seconds to generate the legal plays of every position once (on fresh copies)."""
    batch = [fresh(p) for p in positions]
    gc.collect()
    start = time.perf_counter()
    for state in batch:
        state.legal_plays()
    return time.perf_counter() - start


def main() -> None:
    """Parse the arguments, run both benchmarks, print the figures."""
    parser = argparse.ArgumentParser(description="Hipparchus rules engine benchmark")
    parser.add_argument("--rounds", type=int, default=5000, help="rounds per run")
    parser.add_argument("--repeat", type=int, default=5, help="runs; the best is reported")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    plays = sum(
        sum(1 if t.follow is None else 2 for t in random_round(random.Random(s)).tricks)
        for s in range(1000)
    )
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    times = [time_rounds(args.rounds, args.seed + run) for run in range(args.repeat)]
    wall = [args.rounds / w for w, _ in times]
    cpu = [args.rounds / c for _, c in times]
    print(
        f"random rounds (deal + uniformly random legal plays, {plays / 1000:.1f} plays/round, "
        f"{args.repeat} runs of {args.rounds}):\n"
        f"  wall clock: best {max(wall):,.0f} rounds/s, median {statistics.median(wall):,.0f}\n"
        f"  CPU time:   best {max(cpu):,.0f} rounds/s, median {statistics.median(cpu):,.0f}"
    )
    positions = sample_positions(20000, args.seed)
    gen_rates = [len(positions) / time_generations(positions) for _ in range(args.repeat)]
    print(
        f"legal-move generations (fresh hands, lead and follow positions): "
        f"best {max(gen_rates):,.0f}/s, median {statistics.median(gen_rates):,.0f}/s"
    )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
