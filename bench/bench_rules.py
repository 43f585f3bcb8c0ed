"""Benchmark of the rules engines, one process, through the public API the daemon uses.

Hipparchus (issue 2; ``shuffled_deal``, ``RoundState.start``, ``legal_plays``, ``play``):

1. Random complete rounds per second: deal with ``random.Random(seed)``, then play uniformly
   random legal plays until the round ends. Target: >= 10,000 rounds/s.
2. Legal-move generations per second: ``legal_plays()`` on positions taken from random rounds,
   each on a freshly built state whose hands have never been asked before (so no per-hand
   cache is reused: this measures generation, not lookup).

Planets (issue 14; ``shuffled_deal``, ``HandState.start``, ``pass_cards``, ``legal_cards``,
``play``, ``choose``, ``added``):

3. Random complete hands per second at four seats: deal with ``random.Random(seed)``, each seat
   passes uniformly random cards (hands 1-4 of the cycle in turn: left, right, across,
   split), then uniformly random legal cards until the hand ends, a shooter's choice at
   random, and the hand's score. Target: >= 6,000 hands/s (a plain implementation: ~2,100).

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
from hipparchusd.games.planets.model import Shoot, cards_of
from hipparchusd.games.planets.rules import HandState, Phase
from hipparchusd.games.planets.rules import shuffled_deal as planets_deal


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


_PASS, _PLAY, _CHOICE = Phase.PASS, Phase.PLAY, Phase.CHOICE
_CHOICES = (Shoot.SELF, Shoot.OTHERS)


def random_planets_hand(rng: random.Random, number: int, players: int = 4) -> tuple[int, ...]:
    """Deal hand ``number`` with ``rng``, pass and play it to its end by uniformly random
    legal moves; return what it adds to each total."""
    state = HandState.start(number, number % players, planets_deal(rng, players))
    if state.phase is _PASS:
        count = state.kind.count
        for seat in range(players):
            state = state.pass_cards(seat, rng.sample(cards_of(state.dealt[seat]), count))
    random_ = rng.random
    while state.tally.phase is _PLAY:
        legal = state.legal_cards()
        state = state.play(legal[int(random_() * len(legal))])
    if state.phase is _CHOICE:
        assert state.shooter is not None
        state = state.choose(state.shooter, rng.choice(_CHOICES))
    return state.added()


def time_planets_hands(hands: int, seed: int) -> tuple[float, float]:
    """(wall-clock seconds, CPU seconds) to deal, pass, play and score ``hands`` random hands
    of four seats."""
    rng = random.Random(seed)
    wall, cpu = time.perf_counter(), time.process_time()
    for number in range(1, hands + 1):
        random_planets_hand(rng, number)
    return time.perf_counter() - wall, time.process_time() - cpu


def bench_planets(hands: int, repeat: int, seed: int) -> None:
    """Run and print benchmark 3."""
    times = [time_planets_hands(hands, seed + run) for run in range(repeat)]
    wall = [hands / w for w, _ in times]
    cpu = [hands / c for _, c in times]
    print(
        f"planets: random complete hands at 4 seats (deal, pass, 56 plays, score; "
        f"{repeat} runs of {hands}):\n"
        f"  wall clock: best {max(wall):,.0f} hands/s, median {statistics.median(wall):,.0f}\n"
        f"  CPU time:   best {max(cpu):,.0f} hands/s, median {statistics.median(cpu):,.0f}"
    )


def main() -> None:
    """Parse the arguments, run the benchmarks asked for, print the figures."""
    parser = argparse.ArgumentParser(description="rules engines benchmark (Hipparchus, planets)")
    parser.add_argument("--rounds", type=int, default=5000, help="rounds per run")
    parser.add_argument("--repeat", type=int, default=5, help="runs; the best is reported")
    parser.add_argument("--hands", type=int, default=5000, help="planets hands per run")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--game", choices=("all", "hipparchus", "planets"), default="all", help="which engine"
    )
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.game in ("all", "planets"):
        bench_planets(args.hands, args.repeat, args.seed)
    if args.game == "planets":
        return

    plays = sum(
        sum(1 if t.follow is None else 2 for t in random_round(random.Random(s)).tricks)
        for s in range(1000)
    )
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
