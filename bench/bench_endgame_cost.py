"""The cost of the endgame options (issue 29, the adapter's ``root_solve`` and ``leaf_cards``):
iterations per CPU second and the visits of the best move, by cards left, against the default
search. Not a test: it prints figures.

Positions: seeded first rounds, ``ismcts:100cpu`` against random plays (as
bench/diagnose_losses.py plays them), every decision of the engine's seat with 10 to 20 cards
in both hands. Each position is searched at ``--level`` by the default search and with each
``--option`` (interleaved, one process); an iteration of the root solver is one root move's
world solved.

Usage::

    python bench/bench_endgame_cost.py [--deals 10] [--option root_solve=16] [--option ...]
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from hipparchusd.engine.analysis import analyze
from hipparchusd.engine.types import Level
from hipparchusd.games.hipparchus import core
from hipparchusd.games.hipparchus.engine import ADAPTER
from hipparchusd.games.hipparchus.game import HipparchusGame
from hipparchusd.jsondata import JSON


def positions(deals: int, level: Level) -> list[tuple[int, JSON]]:
    """(cards in both hands, view) of the engine seat's decisions at 10 to 20 cards."""
    found: list[tuple[int, JSON]] = []
    rng = random.Random(7)
    for deal in range(deals):
        game = HipparchusGame(seed=70_000 + deal, first_leader=deal % 2)
        game.start()
        number = game.state.round_number
        while game.outcome is None and game.state.round_number == number:
            round_ = game.state.round.core
            seat = core.to_move(round_)
            if seat == 0:
                view = game.view_data(seat)
                cards = core.size_of(round_[0][0]) + core.size_of(round_[0][1])
                if 10 <= cards <= 20:
                    found.append((cards, view))
                move = game.parse_move(seat, analyze(ADAPTER, view, level, seed=deal).best)
            else:
                legal = game.legal_moves(seat)
                move = legal[rng.randrange(len(legal))]
            game.play(seat, move)
    return found


def main(argv: list[str] | None = None) -> int:
    """Search every position with and without the root solver; print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--option", action="append", default=[], help="KEY=VALUE")
    parser.add_argument("--level", default="ismcts:100cpu")
    args = parser.parse_args(argv)
    level = Level.parse(args.level)
    found = positions(args.deals, level)
    settings = {"default": ADAPTER}
    for option in args.option:
        key, _, value = option.partition("=")
        settings[option] = ADAPTER.with_options({key: value})
    rows: dict[tuple[str, int], list[tuple[float, int, float]]] = {}
    for cards, view in found:
        for option, adapter in settings.items():
            started = time.thread_time()
            analysis = analyze(adapter, view, level, seed=1)
            spent = time.thread_time() - started
            top = max(stats.visits for stats in analysis.moves)
            rows.setdefault((option, (cards - 1) // 2), []).append(
                (analysis.playouts / spent, top, spent)
            )
    print(f"{len(found)} positions of {args.deals} deals, {args.level}, one process")
    for (option, pair), values in sorted(rows.items()):
        rate = sum(v[0] for v in values) / len(values)
        top = sum(v[1] for v in values) / len(values)
        worst = max(v[2] for v in values) * 1000
        print(
            f"{option:14} cards {2 * pair + 1}-{2 * pair + 2}: {len(values):3} "
            f"positions, {rate:8,.0f} iterations a CPU second, {top:6,.0f} visits of the "
            f"best move, {worst:4.0f} ms CPU at most"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
