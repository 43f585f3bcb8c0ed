"""Issue 29's ceiling: how often can an honest Hipparchus player win at all? A bench, not a
test: it plays whole matches in-process and prints figures with 95% intervals.

No honest seat does better than the same search told every hidden card (``cheat``,
:mod:`cheat`: the ``ismcts`` level's SO-ISMCTS whose every determinization is the true deal,
late positions solved exactly at the root). Its share of matches won against an opponent is
the ceiling of an honest level's at that CPU budget.

Matches are played as ``hipparchusd match`` plays them (bench/bench_strength.py): ``--games``
games (a multiple of 2) of ``--deals = games / 2`` deals, deal ``d`` the match created with
``seed = --seed + d`` (its first leader drawn from that seed, as the ``new`` option does),
each deal once in each rotation (rotation ``r``: seat ``s`` held by player ``(s + r) mod 2``),
a match being first to two round wins (RULINGS H12). A level player moves as the daemon's
``bot`` does: :func:`~hipparchusd.engine.analysis.analyze` of its seat's view, seeded by the
view's digest (:func:`~hipparchusd.engine.types.view_seed`), so ``random`` plays the same in
every run of the same deals, and two runs of one opponent are paired game by game.

Players: a level word (``ismcts:100cpu``, ``sampler:40cpu``, ``random``, ...) or
``cheat:<N>cpu`` (the cheater with N ms of CPU time a move), ``cheat-noroot:<N>cpu`` (without
the root's solve); a level may end in the adapter's options, ``ismcts:100cpu+exploration=0.4``
(``+KEY=VALUE,KEY=VALUE``: what ``bench/level_bot.py --option`` takes). Every budget is CPU
time (the searching thread's), never wall time.

Usage::

    python bench/bench_ceiling.py run NAME PLAYER PLAYER [--games 400] [--seed 1] [--out DIR]
    python bench/bench_ceiling.py report NAME [NAME2]

A second process may play the same run from its last deal (``run NAME2 ... --reverse``, its
own file); ``report NAME+NAME2`` joins them.

``run`` appends one JSON line per game to ``DIR/NAME.jsonl`` (a stopped run resumes where it
stopped) and prints the first player's matches won; ``report NAME NAME2`` also pairs two runs
of the same opponent and deals (the paired difference of the first player's result, with a
95% normal interval over the games, as bench/bench_paired.py).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

from bench_strength import Z95, wilson
from cheat import Cheater

from hipparchusd.engine.analysis import analyze
from hipparchusd.engine.types import Level, view_seed
from hipparchusd.games.hipparchus import core
from hipparchusd.games.hipparchus.engine import ADAPTER
from hipparchusd.games.hipparchus.game import HipparchusGame
from hipparchusd.games.hipparchus.model import Play, play_of_move


class Player:
    """One player of a match: a level (``analyze`` of its seat's view) or the cheater
    (``cheat:<N>cpu``, a fresh :class:`cheat.Cheater` each match, which reads the true round).
    ``spent`` and ``moves`` count its CPU seconds and decisions."""

    def __init__(self, word: str) -> None:
        self.word = word
        self.cheat_millis: int | None = None
        self.root = True
        self.level: Level | None = None
        self.adapter = ADAPTER
        word, _, options = word.partition("+")
        if options:  # the adapter's A/B options, as bench/level_bot.py's --option
            pairs = [option.partition("=") for option in options.split(",")]
            try:
                self.adapter = ADAPTER.with_options({k: v for k, _, v in pairs})
            except ValueError as error:
                raise SystemExit(f"{self.word}: {error}") from None
        name, _, budget = word.partition(":")
        if name in ("cheat", "cheat-noroot"):
            if not budget.endswith("cpu"):
                raise SystemExit(f"{word}: the cheater needs a CPU budget, cheat:100cpu")
            self.cheat_millis = int(budget[:-3])
            self.root = name == "cheat"
        else:
            self.level = Level.parse(word)
            timed = [p for p in budget.split(",") if p.endswith("ms")] if budget else []
            if self.level.name == "ismcts" and (not budget or timed):
                raise SystemExit(f"{word}: give a CPU budget (ismcts:100cpu), not wall time")
        self.cheater: Cheater | None = None
        self.spent = 0.0
        self.moves = 0

    def new_match(self) -> None:
        """Forget the last match (the cheater's solver tables)."""
        if self.cheat_millis is not None:
            self.cheater = Cheater(self.cheat_millis, self.root)

    def move(self, game: HipparchusGame, seat: int) -> Play:
        """The play of ``seat``, to move in ``game``."""
        view = game.view_data(seat)
        started = time.thread_time()
        if self.cheater is not None:
            true_round = game._round  # the hidden cards: the cheater's alone
            play = play_of_move(self.cheater.move(true_round, seat, view_seed(view)))
        else:
            assert self.level is not None
            word = analyze(self.adapter, view, self.level, seed=view_seed(view)).best
            play = game.parse_move(seat, word)
        self.spent += time.thread_time() - started
        self.moves += 1
        return play


def play_match(seed: int, deal: int, rotation: int, players: list[Player]) -> dict[str, Any]:
    """Play deal ``deal`` (the match seeded ``seed + deal``) in ``rotation`` to its end; its
    record line: deal, rotation, the player of each seat, the winning player, rounds played."""
    game = HipparchusGame(seed=seed + deal)
    game.start()
    holders = [(s + rotation) % 2 for s in range(2)]
    for player in players:
        player.new_match()
    while game.outcome is None:
        seat = core.to_move(game._round)
        game.play(seat, players[holders[seat]].move(game, seat))
    outcome = game.outcome
    return {
        "deal": deal,
        "rotation": rotation,
        "holders": holders,
        "winner": holders[outcome.winners[0]],
        "rounds": sum(outcome.scores),
    }


def run(args: argparse.Namespace) -> int:
    """Play (or resume) the run, then report it."""
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{args.name}.jsonl"
    players = [Player(word) for word in args.players]
    if args.games % 2:
        raise SystemExit("--games must be even: each deal in both rotations")
    done = set()
    if path.exists():
        for line in path.read_text().splitlines():
            row = json.loads(line)
            if row["players"] != args.players or row["seed"] != args.seed:
                raise SystemExit(f"{path} holds another run: {row['players']} seed {row['seed']}")
            done.add((row["deal"], row["rotation"]))
    with path.open("a") as results:
        deals = range(args.games // 2)
        for deal in reversed(deals) if args.reverse else deals:
            for rotation in (0, 1):
                if (deal, rotation) in done:
                    continue
                for player in players:
                    player.spent, player.moves = 0.0, 0
                row = play_match(args.seed, deal, rotation, players)
                row["players"] = args.players
                row["seed"] = args.seed
                row["cpu"] = [p.spent for p in players]
                row["moves"] = [p.moves for p in players]
                cheater = players[0].cheater
                if cheater is not None:
                    row["solved"] = cheater.solved
                    row["lost"] = cheater.lost
                    row["searched"] = cheater.searched
                    row["iterations"] = cheater.iterations
                results.write(json.dumps(row) + "\n")
                results.flush()
    report(args.out, [args.name])
    return 0


def load(out: Path, name: str) -> list[dict[str, Any]]:
    """A run's game lines; ``A+B`` joins runs of the same players and seed (parts of one run,
    e.g. one played ``--reverse``), the first run's game kept where both played it."""
    rows: dict[tuple[int, int], dict[str, Any]] = {}
    for part in name.split("+"):
        for line in (out / f"{part}.jsonl").read_text().splitlines():
            row = json.loads(line)
            rows.setdefault((row["deal"], row["rotation"]), row)
    found = list(rows.values())
    if len({(tuple(r["players"]), r["seed"]) for r in found}) > 1:
        raise SystemExit(f"{name}: runs of other players or seeds")
    return found


def _score(row: dict[str, Any]) -> float:
    return 1.0 if row["winner"] == 0 else 0.0


def summary(rows: list[dict[str, Any]]) -> str:
    """The first player's matches won (Wilson 95%), and each player's CPU ms a move."""
    n = len(rows)
    won = sum(_score(r) for r in rows)
    low, high = wilson(won, n)
    per_move = []
    for index in (0, 1):
        spent = sum(r["cpu"][index] for r in rows)
        moves = sum(r["moves"][index] for r in rows)
        per_move.append(f"{1000 * spent / max(moves, 1):.1f}")
    text = (
        f"{' vs '.join(rows[0]['players'])}, seed {rows[0]['seed']}: won {won:g} of {n} matches"
        f" = {100 * won / n:.1f}% [95% {100 * low:.1f}-{100 * high:.1f}%]; CPU ms a move "
        f"{per_move[0]} / {per_move[1]}"
    )
    if "solved" in rows[0]:
        solved = sum(r["solved"] for r in rows)
        searched = sum(r["searched"] for r in rows)
        iterations = sum(r["iterations"] for r in rows)
        lost = sum(r.get("lost", 0) for r in rows)
        text += (
            f"; cheater: {solved} decisions proved won at the root, {lost} proved lost, "
            f"{searched} searched "
            f"({iterations / max(searched, 1):.0f} iterations each)"
        )
    return text


def paired(new: list[dict[str, Any]], old: list[dict[str, Any]]) -> str:
    """The paired difference of the first player's result over the games both runs played."""
    a = {(r["deal"], r["rotation"]): _score(r) for r in new}
    b = {(r["deal"], r["rotation"]): _score(r) for r in old}
    common = sorted(set(a) & set(b))
    n = len(common)
    if n < 2:
        return f"{n} games in common: nothing to pair"
    diffs = [a[k] - b[k] for k in common]
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    better = sum(1 for d in diffs if d > 0)
    worse = sum(1 for d in diffs if d < 0)
    return (
        f"paired over {n} games: {100 * mean:+.1f} points [95% {100 * (mean - half):+.1f}, "
        f"{100 * (mean + half):+.1f}] ({better} better, {worse} worse)"
    )


def report(out: Path, names: list[str]) -> int:
    """Print each run's summary, and the pairing of two."""
    runs = [load(out, name) for name in names]
    for name, rows in zip(names, runs, strict=True):
        print(f"{name}: {summary(rows)}")
    if len(runs) == 2:
        print(paired(runs[0], runs[1]))
    return 0


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module's doc)."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("action", choices=("run", "report"))
    parser.add_argument("name", help="the run's name (its results file DIR/NAME.jsonl)")
    parser.add_argument("rest", nargs="*", help="run: PLAYER PLAYER; report: another NAME")
    parser.add_argument("--games", type=int, default=400, help="games, each deal twice")
    parser.add_argument("--seed", type=int, default=1, help="deal d is the match seeded seed+d")
    parser.add_argument("--out", type=Path, default=Path("bench-ceiling"))
    parser.add_argument(
        "--reverse", action="store_true", help="play the last deal first (a second part of a run)"
    )
    args = parser.parse_args(argv)
    if args.action == "report":
        return report(args.out, [args.name, *args.rest])
    if len(args.rest) != 2:
        parser.error("run NAME PLAYER PLAYER")
    args.players = args.rest
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
