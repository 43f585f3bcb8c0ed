"""Issue 29's inference, what it costs and what it knows: the Hipparchus ``ismcts`` level's
iterations per CPU second with and without it, and how close its sampled opponent hands come
to the real one. Not a test: it prints figures.

Positions: every decision of seeded matches whose both seats play the ``heuristic`` level
(the inference's own opponent model: the accuracy figure is its best case), taken after the
round's first two tricks so that there are follows to weigh. For each ``--trust`` (0 is the
engine without inference):

- iterations per CPU second: ``ismcts:100cpu`` searches of each position, total playouts over
  total CPU seconds of the searching thread;
- suit error: over ``--worlds`` determinizations a position, the mean over worlds of the sum
  over suits of |sampled - real| opponent cards (the real hand is read for scoring only; the
  sampler sees the seat's view alone), averaged over positions, with a 95% interval over
  positions;
- weights (trust > 0): the inference's mean weight of the real opponent hand, against that of
  hands drawn without inference (how well the follows single out the real hand: 1 against 1
  would say nothing).

Usage::

    python bench/bench_inference.py [--matches 6] [--trust 0 0.7] [--worlds 200]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from typing import Any

from hipparchusd.engine.analysis import analyze
from hipparchusd.engine.types import Level
from hipparchusd.games.hipparchus.engine import ADAPTER
from hipparchusd.games.hipparchus.engine_information import HipparchusInformation
from hipparchusd.games.hipparchus.game import HipparchusGame


def positions(matches: int) -> list[tuple[Any, tuple[int, ...]]]:
    """Each (view JSON, the opponent's real hand, cards left to right) of the seeded
    matches."""
    found: list[tuple[Any, tuple[int, ...]]] = []
    heuristic = Level.parse("heuristic")
    for seed in range(matches):
        game = HipparchusGame(seed=seed, first_leader=seed % 2)
        game.start()
        move = 0
        while game.outcome is None:
            seat = next(iter(game.seats_to_move()))
            view = game.view_data(seat)
            if len(view["tricks"]) >= 2:
                hand = str(game.state.round.hands[1 - seat])
                found.append((view, tuple("SME".index(letter) for letter in hand)))
            best = analyze(ADAPTER, view, heuristic, seed=seed * 1000 + move).best
            game.play(seat, game.parse_move(seat, best))
            move += 1
    return found


def main(argv: list[str] | None = None) -> int:
    """Print the figures (see the module)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=6)
    parser.add_argument("--trust", type=float, nargs="+", default=[0.0, 0.7])
    parser.add_argument("--worlds", type=int, default=200)
    parser.add_argument("--searches", type=int, default=60, help="positions searched")
    args = parser.parse_args(argv)
    found = positions(args.matches)
    print(f"{len(found)} positions from {args.matches} heuristic matches")
    level = Level.parse("ismcts:100cpu")
    step = max(1, len(found) // args.searches)
    for trust in args.trust:
        adapter = ADAPTER.with_options({"inference": str(trust)})
        errors = []
        real_weights: list[float] = []
        drawn_weights: list[float] = []
        for index, (view, real) in enumerate(found):
            seen = adapter.position(view).view
            information = HipparchusInformation(seen, trust)
            rng = random.Random(index)
            total = 0
            for _ in range(args.worlds):
                hand = information.opponent_cards(rng)
                total += sum(abs(hand.count(suit) - real.count(suit)) for suit in range(3))
            errors.append(total / args.worlds)
            if trust and information.check.history(real) is not None:
                real_weights.append(information.weight(real))
                plain = HipparchusInformation(seen)
                drawn = [plain.opponent_cards(rng) for _ in range(50)]
                drawn_weights.append(statistics.fmean(information.weight(h) for h in drawn))
        playouts, cpu = 0, 0.0
        for index, (view, _) in enumerate(found[::step]):
            started = time.thread_time()
            playouts += analyze(adapter, view, level, seed=index).playouts
            cpu += time.thread_time() - started
        mean = statistics.fmean(errors)
        half = 1.96 * statistics.stdev(errors) / math.sqrt(len(errors))
        print(
            f"trust {trust:.2f}: {playouts / cpu:,.0f} iterations per CPU second "
            f"({len(found[::step])} searches), suit error {mean:.3f} "
            f"[{mean - half:.3f}-{mean + half:.3f}] cards over {len(errors)} positions"
        )
        if real_weights:
            print(
                f"  weights: real hand {statistics.fmean(real_weights):.3f}, hands drawn "
                f"without inference {statistics.fmean(drawn_weights):.3f} "
                f"({len(real_weights)} positions)"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
