"""The blunders of bench/diagnose_losses.py's lost rounds, looked at from the seat's view (issue
29): a diagnosis, not a test. It prints figures.

For each lost round of a ``--dump`` file whose decisive play was the engine's (a lead or a
follow that turned a won position into a lost one, with all hands known), the match is
replayed to that play and the seat's view taken. From the view alone, ``--worlds`` sampled
determinizations (the engine's own sampler) are solved exactly for every legal play: each
play's share of worlds won (perfect-information Monte Carlo), against the play made and the
plays that win with the true hands. A blunder whose play was also the best by that share is
bad luck (the hidden cards); one that a better share would have avoided is the search's.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from hipparchusd.engine.analysis import analyze
from hipparchusd.engine.types import Level
from hipparchusd.games.hipparchus import core
from hipparchusd.games.hipparchus.engine import ADAPTER, HipparchusPosition
from hipparchusd.games.hipparchus.engine_solver import Solver
from hipparchusd.games.hipparchus.game import HipparchusGame
from hipparchusd.games.hipparchus.model import play_of_move
from hipparchusd.games.hipparchus.notation import format_play

NODES = 2_000_000


def main(argv: list[str] | None = None) -> int:
    """Read the dump, print a line per blunder and the totals."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dumps", nargs="+")
    parser.add_argument("--worlds", type=int, default=100)
    parser.add_argument("--level", default="ismcts:100cpu")
    parser.add_argument("--reruns", type=int, default=5)
    parser.add_argument("--option", action="append", default=[], help="the reruns' adapter's")
    args = parser.parse_args(argv)
    adapter = ADAPTER.with_options(dict(item.split("=", 1) for item in args.option))
    level = Level.parse(args.level)
    solver = Solver(cards=30)
    totals = {"blunders": 0, "pimc-agrees": 0, "pimc-best-wins": 0, "rerun-same": 0}
    for path in args.dumps:
        for line in Path(path).read_text().splitlines():
            data = json.loads(line)
            kind = data["class"]
            if kind.startswith("lost-early") or kind == "unsolved":
                continue
            me = data["me"]
            plies = data["plies"]
            game = HipparchusGame(seed=data["deal"], first_leader=data["deal"] % 2)
            game.start()
            target = None
            for i, (round_json, mover, move) in enumerate(plies):
                round_ = json_round(round_json)
                if mover == me and solver.winner(round_, NODES) == me:
                    after = core.play(round_, move)
                    if solver.winner(after, NODES) != me:
                        target = i
                if i == len(plies) - 1:
                    break
            assert target is not None
            for _round_json, mover, move in plies[:target]:
                game.play(mover, play_of_move(move))
            round_ = json_round(plies[target][0])
            made = plies[target][2]
            view = game.view_data(me)
            position = HipparchusPosition(view)
            information = position.information_set()
            rng = random.Random(data["deal"])
            worlds = [information.determinize(rng).round for _ in range(args.worlds)]
            legal = worlds[0][6]
            shares = {}
            for move in legal:
                won = 0
                for world in worlds:
                    won += solver.winner(core.play(world, move), NODES) == me
                shares[move] = won / len(worlds)
            true_wins = [m for m in legal if solver.winner(core.play(round_, m), NODES) == me]
            best = max(shares.values())
            reruns = [analyze(adapter, view, level, seed=seed).best for seed in range(args.reruns)]
            made_text = format_play(play_of_move(made))
            totals["blunders"] += 1
            totals["pimc-agrees"] += shares[made] >= best - 1e-9
            totals["pimc-best-wins"] += any(shares[m] >= best - 1e-9 for m in true_wins)
            totals["rerun-same"] += sum(r == made_text for r in reruns)
            text = ", ".join(
                f"{format_play(play_of_move(m))}{'*' if m in true_wins else ''}"
                f"{'<' if m == made else ''} {shares[m]:.2f}"
                for m in legal
            )
            n = core.size_of(round_[0][0]) + core.size_of(round_[0][1])
            print(f"{kind:12} {n:2} cards: {text}; reruns {reruns}", flush=True)
    print(totals)
    return 0


def json_round(data: list) -> core.Round:  # type: ignore[type-arg]
    """A core round from its JSON (lists for tuples)."""
    hands, won, leader, lead, last, aside, legal = data
    return (
        (tuple(hands[0]), tuple(hands[1])),
        tuple(won),
        leader,
        lead,
        last,
        aside,
        tuple(legal),
    )  # type: ignore[return-value]


if __name__ == "__main__":
    sys.exit(main())
