"""Where the default level loses Hipparchus rounds to ``random`` (issue 29): a diagnosis, not a
test. It prints figures.

Plays first rounds of seeded matches in-process, the engine (``--level``, default
``ismcts:100cpu``, its adapter's ``--option`` s) in one seat and uniformly random plays in the
other (the engine in each seat on every deal: duplicate deals). Every lost round is replayed
with all hands known: at each play whose position holds at most ``--cards`` cards in both
hands, the exact (minimax, RULINGS H2-H11) winner comes from the solver, and the engine's
*blunder* is its last play that turned a won position into a lost one. Losses are classed by
that play (lead or follow, cards left, a lead that ends the round under H6, a round decided by
H11's tie) or, when the round was already lost at the first solvable position, as lost early.
Won rounds give the control: how often the engine was lost there and came back.

Usage::

    python bench/diagnose_losses.py --deals 150 [--seed 1] [--cards 20] [--option K=V]
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
import time

from hipparchusd.engine.analysis import analyze
from hipparchusd.engine.types import Level
from hipparchusd.games.hipparchus import core
from hipparchusd.games.hipparchus.engine import ADAPTER
from hipparchusd.games.hipparchus.engine_solver import Solver
from hipparchusd.games.hipparchus.game import HipparchusGame
from hipparchusd.games.hipparchus.model import move_of

#: The positions a diagnosis solve may take.
DIAGNOSIS_NODES = 3_000_000


def seed_of(view: object) -> int:
    """The search's seed, as the daemon and level_bot take it: a digest of the view."""
    import hashlib

    text = json.dumps(view, sort_keys=True, separators=(",", ":")).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 2


def play_round(
    deal_seed: int, engine_seat: int, level: Level, adapter: object
) -> tuple[list[tuple[core.Round, int, int]], int, list[float]]:
    """The first round of the match seeded ``deal_seed``: every position before a play, its
    mover and the core move made; the round's winner; the engine's CPU seconds a move. The
    random seat's numbers depend only on the deal and the seat, so that two settings play the
    same round until their first different move (paired rounds)."""
    rng = random.Random(deal_seed * 2 + engine_seat)
    game = HipparchusGame(seed=deal_seed, first_leader=deal_seed % 2)
    game.start()
    plies: list[tuple[core.Round, int, int]] = []
    spent: list[float] = []
    while True:
        round_ = game.state.round.core
        if not round_[6]:
            break
        seat = core.to_move(round_)
        if seat == engine_seat:
            view = game.view_data(seat)
            started = time.thread_time()
            analysis = analyze(adapter, view, level, seed=seed_of(view))  # type: ignore[arg-type]
            spent.append(time.thread_time() - started)
            move = game.parse_move(seat, analysis.best)
        else:
            legal = game.legal_moves(seat)
            move = legal[rng.randrange(len(legal))]
        plies.append((round_, seat, move_of(move) or 0))
        number = game.state.round_number
        game.play(seat, move)
        if game.outcome is not None or game.state.round_number != number:
            break
    last, _, move = plies[-1]
    final = core.play(last, move)
    return plies, core.round_winner(final[1], final[4])[0], spent


def cards_left(round_: core.Round) -> int:
    """Cards in both hands."""
    return core.size_of(round_[0][0]) + core.size_of(round_[0][1])


def classify(
    plies: list[tuple[core.Round, int, int]], me: int, limit: int, solver: Solver
) -> tuple[str, int | None]:
    """The class of a round's decisive engine play (see the module), and the cards left then."""
    values: list[int | None] = []
    for round_, _, _ in plies:
        if cards_left(round_) > limit:
            values.append(None)
            continue
        winner = solver.winner(round_, DIAGNOSIS_NODES)
        values.append(None if winner is None else int(winner == me))
    final_round = core.play(plies[-1][0], plies[-1][2])
    final = core.round_winner(final_round[1], final_round[4])
    values.append(int(final[0] == me))
    first = next((i for i, v in enumerate(values) if v is not None), None)
    if first is None:
        return "unsolved", None
    if values[first] == 0 and all(v in (0, None) for v in values[first:]):
        return "lost-early", cards_left(plies[first][0]) if first < len(plies) else 0
    # The last engine play that turned a won position into a lost one.
    for i in range(len(plies) - 1, first - 1, -1):
        round_, mover, move = plies[i]
        if mover == me and values[i] == 1 and values[i + 1] == 0:
            kind = "follow" if round_[3] else "lead"
            after = core.play(round_, move)
            if kind == "lead" and not after[6] and after[5]:
                kind = "lead-H6"
            elif not after[6]:
                kind += "-last"
            n = cards_left(round_)
            tie = " tie" if final[1] else ""
            return f"{kind}{tie}", n
    return "lost-early-comeback", None


def main(argv: list[str] | None = None) -> int:
    """Play, replay the losses, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cards", type=int, default=20)
    parser.add_argument("--level", default="ismcts:100cpu")
    parser.add_argument("--option", action="append", default=[])
    parser.add_argument("--dump", help="append every lost round's plies (JSON lines) here")
    parser.add_argument("--results", help="append every round's 'deal seat won' line here")
    args = parser.parse_args(argv)
    level = Level.parse(args.level)
    adapter = ADAPTER
    if args.option:
        adapter = adapter.with_options(dict(item.split("=", 1) for item in args.option))
    solver = Solver(cards=30)
    classes: collections.Counter[str] = collections.Counter()
    by_cards: collections.Counter[tuple[str, int]] = collections.Counter()
    rounds = wins = 0
    spent: list[float] = []
    dump = open(args.dump, "a") if args.dump else None  # noqa: SIM115
    results = open(args.results, "a") if args.results else None  # noqa: SIM115
    for deal in range(args.deals):
        deal_seed = args.seed * 100_000 + deal
        for me in (0, 1):
            plies, winner, times = play_round(deal_seed, me, level, adapter)
            spent += times
            rounds += 1
            if results is not None:
                results.write(f"{deal_seed} {me} {int(winner == me)}\n")
                results.flush()
            if winner == me:
                wins += 1
                continue
            if len(solver.table) > 2_000_000:
                solver.table.clear()
            kind, n = classify(plies, me, args.cards, solver)
            classes[kind] += 1
            if n is not None:
                by_cards[kind.split()[0], n] += 1
            if dump is not None:
                dump.write(
                    json.dumps({"deal": deal_seed, "me": me, "class": kind, "n": n, "plies": plies})
                    + "\n"
                )
                dump.flush()
        print(f"deal {deal + 1}: {wins}/{rounds} rounds won; {dict(classes)}", file=sys.stderr)
    print(
        f"level {args.level} {args.option}, {rounds} first rounds against random, seed "
        f"{args.seed}: won {wins} ({100 * wins / rounds:.1f}%), "
        f"{sum(spent) / len(spent) * 1000:.1f} ms CPU a move"
    )
    print(f"lost rounds by class (solver on <= {args.cards} cards):")
    for kind, count in classes.most_common():
        print(f"  {kind:24} {count}")
    print("by class and cards left at the blunder:")
    for (kind, n), count in sorted(by_cards.items()):
        print(f"  {kind:16} {n:3} {count}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
