"""Which search settings make the planets engine stronger (issue 29): single hands, the same
deals for every setting, against ``heuristic`` seats, in one process (interleaved, so that the
machine's load falls on every setting alike; every search has a CPU-time budget).

- ``cards SETTING...``: each deal is played once with the engine in each seat, once per
  setting, the other seats ``heuristic``; the engine's points per hand against the heuristic
  seats' mean (``ratio``, a 95% bootstrap interval over deals) and each setting's paired
  difference from the first (points a hand, 95% normal interval over hands). Settings:
  ``paper`` (a tree of every seat's moves, a world per iteration), ``shared`` (that tree
  below shared worlds at the root), ``flat`` (shared worlds, no tree), ``modeled`` (the other
  seats played by the playout policy, :class:`~hipparchusd.games.planets.engine.ModeledState`),
  ``modeled-shared`` (and shared worlds at the root, one card of each run of equivalent
  cards searched), ``every-card`` (that search over every legal card), each with the
  heuristic's pass, and
  ``default`` (that search and the searched pass).
- ``pass``: one seat a deal passes by the heuristic and, on the same deal, by the search
  (the level's budget times ``PASS_BUDGET_SCALE``); every card by the heuristic; the seat's
  points, paired.

A hand's number runs with the deal, so every pass of the cycle is played (RULINGS P4). Lines
go to ``--out`` as they are played (JSON lines, resumed by ``--start``). Not a test: it prints
figures. Usage::

    python bench/bench_planets_search.py cards paper modeled-shared --deals 25 [--players 4]
    python bench/bench_planets_search.py pass --deals 200
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from hipparchusd.engine.analysis import analyze
from hipparchusd.engine.position import PAPER, Tuning
from hipparchusd.engine.types import Level
from hipparchusd.games.planets import HandState
from hipparchusd.games.planets import engine as planets_engine
from hipparchusd.games.planets.game import PlanetsGame
from hipparchusd.games.planets.model import PASS_CYCLES, deck_mask

#: The engine module's constants of each setting.
_MODELED_SHARED = {"SEARCH_TUNING": Tuning(shared_worlds=True), "MODELED_OPPONENTS": True}
SETTINGS: dict[str, dict[str, object]] = {
    "paper": {"SEARCH_TUNING": PAPER, "MODELED_OPPONENTS": False, "PASS_SEARCHED": False},
    "shared": {"SEARCH_TUNING": Tuning(shared_worlds=True), "MODELED_OPPONENTS": False},
    "flat": {"SEARCH_TUNING": Tuning(shared_worlds=True, tree=False), "MODELED_OPPONENTS": False},
    "modeled": {"SEARCH_TUNING": PAPER, "MODELED_OPPONENTS": True, "PASS_SEARCHED": False},
    "modeled-shared": {**_MODELED_SHARED, "PASS_SEARCHED": False},
    "every-card": {**_MODELED_SHARED, "PASS_SEARCHED": False, "EQUIVALENT_CARDS": False},
    "default": {**_MODELED_SHARED, "PASS_SEARCHED": True},
}
for _constants in SETTINGS.values():  # each setting sets every constant a setting varies
    _constants.setdefault("EQUIVALENT_CARDS", True)
Z95 = 1.959963984540054
Player = Callable[[Any, int], str]


def deal_of(players: int, seed: int) -> tuple[int, ...]:
    """A shuffled deal of the deck (masks by seat)."""
    deck = [card for card in range(60) if deck_mask(players) >> card & 1]
    random.Random(seed).shuffle(deck)
    size = len(deck) // players
    return tuple(sum(1 << c for c in deck[i * size : (i + 1) * size]) for i in range(players))


def play_hand(
    dealt: Sequence[int], number: int, seat: int, engine: Player, other: Player
) -> tuple[int, ...]:
    """Hand ``number`` of a game from totals of 0, dealt ``dealt``: ``seat`` played by
    ``engine``, the others by ``other``; the points it added to each seat."""
    game = PlanetsGame(players=len(dealt), dealer=0, deals=[tuple(dealt)])
    game.start()
    if number != 1:
        game._state = attrs.evolve(game.state, hand=HandState.start(number, 0, tuple(dealt)))
    moves = 0
    while game.outcome is None and game.state.hand_number == number:
        mover = min(game.seats_to_move())
        view = game.view_data(mover)
        game.play_word(mover, (engine if mover == seat else other)(view, moves))
        moves += 1
    return tuple(game.state.totals)


def level_player(text: str) -> Player:
    """A player at the level ``text``, seeded by the move's number."""
    level = Level.parse(text)
    return lambda view, n: analyze(planets_engine.ADAPTER, view, level, seed=n).best


def _apply(setting: str) -> None:
    for name, value in SETTINGS[setting].items():
        setattr(planets_engine, name, value)


def _interval(diffs: list[float]) -> str:
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else math.nan
    half = Z95 * sd / math.sqrt(n)
    return f"{mean:+.2f} points a hand [95% {mean - half:+.2f}, {mean + half:+.2f}] (n={n})"


def cards_report(rows: list[dict[str, Any]], settings: Sequence[str]) -> None:
    """Print each setting's ratio and its paired difference from the first setting."""
    by = {(r["setting"], r["deal"], r["seat"]): r["points"] for r in rows}
    keys = sorted({(r["deal"], r["seat"]) for r in rows})
    keys = [k for k in keys if all((s, *k) in by for s in settings)]
    deals = sorted({d for d, _ in keys})
    for setting in settings:

        def ratio(chosen: list[int], setting: str = setting) -> float:
            mine = others = 0.0
            for deal, seat in keys:
                if deal in chosen:
                    points = by[setting, deal, seat]
                    weight = chosen.count(deal)
                    mine += weight * points[seat]
                    rest = [p for s, p in enumerate(points) if s != seat]
                    others += weight * sum(rest) / len(rest)
            return mine / others if others else math.nan

        rng = random.Random(1)
        boot = sorted(ratio([rng.choice(deals) for _ in deals]) for _ in range(1000))
        print(
            f"{setting}: {len(keys)} hands, engine / heuristic seats' mean "
            f"{ratio(deals):.2f}x [95% {boot[25]:.2f}-{boot[974]:.2f}]"
        )
        if setting != settings[0]:
            diffs = [float(by[(setting, *k)][k[1]] - by[(settings[0], *k)][k[1]]) for k in keys]
            print(f"  {setting} - {settings[0]}: {_interval(diffs)}")


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module's doc)."""
    parser = argparse.ArgumentParser(description="planets search settings, single hands")
    parser.add_argument("action", choices=("cards", "pass"))
    parser.add_argument("settings", nargs="*")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=25)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--level", default="ismcts:100cpu")
    parser.add_argument("--out", type=Path, default=Path("bench-planets-search.jsonl"))
    args = parser.parse_args(argv)
    heuristic = level_player("heuristic")
    engine = level_player(args.level)
    cycle = len(PASS_CYCLES[args.players])
    with args.out.open("a") as out:
        for deal in range(args.start, args.start + args.deals):
            dealt = deal_of(args.players, (5000 if args.action == "pass" else 1000) + deal)
            number = 1 + deal % cycle
            if args.action == "pass":
                seat = deal % args.players
                planets_engine.PASS_SEARCHED = False
                plain = play_hand(dealt, number, seat, heuristic, heuristic)[seat]
                planets_engine.PASS_SEARCHED = True
                searched_player = _pass_then(engine, heuristic)
                searched = play_hand(dealt, number, seat, searched_player, heuristic)[seat]
                row = {"deal": deal, "seat": seat, "heuristic": plain, "searched": searched}
                out.write(json.dumps(row) + "\n")
                out.flush()
                continue
            for seat in range(args.players):
                for setting in args.settings:
                    _apply(setting)
                    points = play_hand(dealt, number, seat, engine, heuristic)
                    row = {"setting": setting, "deal": deal, "seat": seat, "points": points}
                    out.write(json.dumps(row) + "\n")
                    out.flush()
    rows = [json.loads(line) for line in args.out.read_text().splitlines()]
    if args.action == "pass":
        diffs = [float(r["searched"] - r["heuristic"]) for r in rows]
        n = len(rows)
        print(
            f"pass: {n} hands, the seat's points a hand: heuristic pass "
            f"{sum(r['heuristic'] for r in rows) / n:.2f}, searched "
            f"{sum(r['searched'] for r in rows) / n:.2f}; searched - heuristic {_interval(diffs)}"
        )
    else:
        cards_report(rows, args.settings)
    return 0


def _pass_then(engine: Player, heuristic: Player) -> Player:
    """The engine at the pass, the heuristic for every card after it."""

    def player(view: Any, n: int) -> str:
        return (engine if view["phase"] == "pass" else heuristic)(view, n)

    return player


if __name__ == "__main__":
    sys.exit(main())
