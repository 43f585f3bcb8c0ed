"""Benchmark of the rules as the daemon plays them, old and new in the same run (issue 23).

Workloads, each a number of repetitions from one seeded generator (``random.Random``), the
choices drawn the same way in both versions (``legal[int(random() * len(legal))]``, so that
what is measured is the rules, not the generator):

- ``hipparchus``: random complete rounds: deal (``dealing.shuffled_deal``), then uniformly
  random legal plays to the round's end, through the rules the daemon's game plays by: the
  core (``core.start``, the round's legal moves, ``core.play``) in a tree that has one, else
  the object model (``RoundState.start``, ``legal_plays``, ``play``).
- ``planets-3`` to ``planets-6``: random complete hands at 3 to 6 seats: deal, every seat's
  pass (uniformly random cards, :func:`pick`), uniformly random legal cards to the hand's
  end, a shooter's choice at random, the hand's score; hands 1, 2, 3... of the pass cycle in
  turn (every kind of pass, and the no-pass hand). Through the core (``core.start``,
  ``pass_cards``, ``legal``, ``play``, ``choose``, ``added``) or the object model
  (``HandState``).
- ``hipparchus-objects``, ``planets-4-objects``: the same through the object model in both
  versions (``RoundState``, ``HandState``): what tests, replay and tools pay, now a view over
  the core.
- ``hipparchus-replay``: the replay of a whole match's record (``record.replay``, what
  checking a stored record costs), the records those of 20 seeded matches of uniformly random
  legal plays, made before the repetitions start.
- ``planets-replay``: the same for planets, 20 seeded games of 3 to 6 seats (``exact100``
  every other game) of uniformly random passes and cards.

For ``planets-3`` to ``planets-6`` the bench also prints the hand less its *draws*: the same
hands' random player alone (``planets-N-draws``: every seat's :func:`pick` over ``cards_of`` of
a hand dealt once, and one draw ``legal[int(random() * len(legal))]`` per card of the hand, with
no rules called), measured in each version, so that what is left is what the daemon runs: the
deal and the rules.

Both versions must print the same checksum of what their repetitions gave (round winners,
points added): the same rules, the same random draws.

Figures: instructions per repetition under callgrind (a run of ``--count`` + 1 repetitions
less a run of one, so that one-time work is not counted; the machine's load does not move
them), and CPU time per repetition (``--repeat`` runs of each version, interleaved, best and
median). The old version is ``--old REV``, taken
out of git (bench/old_tree.py).

    .venv/bin/python bench/bench_rules.py --old <commit> [--count 300] [--cpu-count 3000]
        [--repeat 5] [--workloads hipparchus,planets-4] [--no-callgrind]

Not a test: it prints figures.
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
WORKLOADS = (
    "hipparchus",
    "planets-3",
    "planets-4",
    "planets-5",
    "planets-6",
    "hipparchus-objects",
    "planets-4-objects",
    "hipparchus-replay",
    "planets-replay",
)


def _has_core(kind: str) -> bool:
    return importlib.util.find_spec(f"hipparchusd.games.{kind}.core") is not None


def hipparchus_rounds(objects: bool) -> Callable[[random.Random], int]:
    """One random round per call (see the module's doc); gives its winner."""
    from hipparchusd.games.hipparchus.dealing import shuffled_deal

    if _has_core("hipparchus") and not objects:
        from hipparchusd.games.hipparchus import core

        start, play, round_winner = core.start, core.play, core.round_winner

        def by_core(rng: random.Random) -> int:
            random_ = rng.random
            deal = shuffled_deal(rng)
            hands = deal.hands
            state = start((hands[0].core, hands[1].core), 0)
            legal = state[6]
            while legal:
                state = play(state, legal[int(random_() * len(legal))])
                legal = state[6]
            return round_winner(state[1], state[4])[0]

        return by_core

    from hipparchusd.games.hipparchus.rules import RoundState

    def by_objects(rng: random.Random) -> int:
        random_ = rng.random
        state = RoundState.start(shuffled_deal(rng), 0)
        while state.result is None:
            legal = state.legal_plays()
            state = state.play(legal[int(random_() * len(legal))])
        return state.result.winner

    return by_objects


def hipparchus_replays() -> Callable[[random.Random], int]:
    """One replay of a match's record per call, the 20 records in turn (see the module's doc);
    gives the final state's winner and its last round's tricks."""
    from hipparchusd.games.hipparchus.game import HipparchusGame
    from hipparchusd.games.hipparchus.record import replay

    records = []
    for seed in range(20):
        choose = random.Random(seed)
        game = HipparchusGame(seed=seed, first_leader=seed % 2)
        game.start()
        while game.outcome is None:
            seat = next(iter(game.seats_to_move()))
            words = [game.format_move(move) for move in game.legal_moves(seat)]
            game.play_word(seat, choose.choice(words))
        records.append(game.record())
    calls = itertools.count()

    def by_record(_: random.Random) -> int:
        state = replay(records[next(calls) % len(records)])
        return (state.winner or 0) * 100 + len(state.round.tricks) + 1

    return by_record


def planets_replays() -> Callable[[random.Random], int]:
    """One replay of a planets game's record per call, the 20 records in turn (see the
    module's doc); gives a checksum of the final totals and the last hand's tricks."""
    from hipparchusd.games.base import Pick
    from hipparchusd.games.planets.game import PlanetsGame
    from hipparchusd.games.planets.record import replay

    records = []
    for seed in range(20):
        choose = random.Random(seed)
        game = PlanetsGame(players=3 + seed % 4, seed=seed, exact100=seed % 2 == 1)
        game.start()
        while game.outcome is None:
            seat = min(game.seats_to_move())
            legal = game.legal(seat)
            if isinstance(legal, Pick):
                word = ",".join(choose.sample(list(legal.items), legal.count))
            else:
                word = choose.choice(list(legal.moves))
            game.play_word(seat, word)
        records.append(game.record())
    calls = itertools.count()

    def by_record(_: random.Random) -> int:
        state = replay(records[next(calls) % len(records)])
        return sum((seat + 1) * total for seat, total in enumerate(state.totals)) + len(
            state.hand.tricks
        )

    return by_record


def pick(cards: tuple[Any, ...], count: int, random_: Callable[[], float]) -> list[Any]:
    """``count`` different items of ``cards``, every choice equally likely, drawn with
    ``random_()`` (a seat's random pass: ``random.sample`` costs more than the pass itself)."""
    pool = list(cards)
    return [pool.pop(int(random_() * len(pool))) for _ in range(count)]


def planets_hands(players: int, objects: bool) -> Callable[[random.Random], int]:
    """One random hand per call (see the module's doc), the next hand number each time; gives
    a checksum of what it adds to the totals."""
    from hipparchusd.games.planets.model import cards_of
    from hipparchusd.games.planets.rules import shuffled_deal

    numbers = iter(range(1, 1 << 62))

    if _has_core("planets") and not objects:
        from hipparchusd.games.planets import core, schedule

        start, pass_cards, play = core.start, core.pass_cards, core.play
        choices = (core.SELF, core.OTHERS)

        def by_core(rng: random.Random) -> int:
            random_ = rng.random
            number = next(numbers)
            offsets = schedule.pass_of(players, number)[1]
            hand = start(shuffled_deal(rng, players), offsets)
            if offsets:
                for seat in range(players):
                    chosen = pick(cards_of(hand[0][0][seat]), len(offsets), random_)
                    hand = pass_cards(hand, seat, chosen, offsets)
            # The hand's fields read as the daemon's hot path reads them (the core's
            # "Representation"): hand[0][0] the hands, hand[2] the legal cards.
            legal = hand[2]
            while legal:
                hand = play(hand, legal[int(random_() * len(legal))])
                legal = hand[2]
            if core.phase(hand) == core.CHOICE:
                hand = core.choose(hand, core.to_move(hand)[0], rng.choice(choices))
            return sum((seat + 1) * points for seat, points in enumerate(core.added(hand)))

        return by_core

    from hipparchusd.games.planets.model import Shoot
    from hipparchusd.games.planets.rules import HandState, Phase

    play_, choice_ = Phase.PLAY, Phase.CHOICE
    shoots = (Shoot.SELF, Shoot.OTHERS)

    def by_objects(rng: random.Random) -> int:
        random_ = rng.random
        number = next(numbers)
        state = HandState.start(number, number % players, shuffled_deal(rng, players))
        if state.phase is Phase.PASS:
            count = state.kind.count
            for seat in range(players):
                state = state.pass_cards(seat, pick(cards_of(state.dealt[seat]), count, random_))
        while state.tally.phase is play_:
            legal = state.legal_cards()
            state = state.play(legal[int(random_() * len(legal))])
        if state.phase is choice_:
            assert state.shooter is not None
            state = state.choose(state.shooter, rng.choice(shoots))
        return sum((seat + 1) * points for seat, points in enumerate(state.added()))

    return by_objects


def planets_draws(players: int) -> Callable[[random.Random], int]:
    """The random player's part of one hand of ``planets-N`` per call, without the rules (see
    the module's doc): the passes' picks over a hand dealt once, then one draw per card of the
    deck; gives the last draw."""
    from hipparchusd.games.planets.model import cards_of
    from hipparchusd.games.planets.rules import shuffled_deal

    dealt = shuffled_deal(random.Random(1), players)
    counts = PASS_COUNTS[players]
    cards = sum(hand.bit_count() for hand in dealt)
    legal = tuple(range(4))
    numbers = iter(range(1 << 62))

    def draws(rng: random.Random) -> int:
        random_ = rng.random
        count = counts[next(numbers) % len(counts)]
        if count:
            for seat in range(players):
                pick(cards_of(dealt[seat]), count, random_)
        drawn = 0
        for _ in range(cards):
            drawn = legal[int(random_() * len(legal))]
        return drawn

    return draws


#: The cards each seat passes, by seat count, hand by hand of the pass cycle (P4, P15: the
#: lengths of ``schedule.PASS_CYCLES``, written here because the old tree has no core).
PASS_COUNTS = {3: (4, 4, 4), 4: (3, 3, 3, 3), 5: (2, 2, 2, 2, 0), 6: (2, 2, 2, 2, 2, 0)}


def workload(name: str) -> Callable[[random.Random], int]:
    """The repetition of workload ``name`` (see the module's doc)."""
    if name.endswith("-draws"):
        return planets_draws(int(name.split("-")[1]))
    if name == "hipparchus-replay":
        return hipparchus_replays()
    if name == "planets-replay":
        return planets_replays()
    objects = name.endswith("-objects")
    if name.startswith("hipparchus"):
        return hipparchus_rounds(objects)
    return planets_hands(int(name.split("-")[1]), objects)


def worker(name: str, count: int) -> None:
    """Run ``count`` repetitions of workload ``name``; print the CPU seconds they took and a
    checksum of what they gave."""
    repeat = workload(name)
    rng = random.Random(2026)
    checksum = 0
    started = time.process_time()
    for index in range(count):
        checksum = (checksum * 31 + (index + 1) * repeat(rng)) % (1 << 61)
    print(time.process_time() - started, checksum)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", required="--worker" not in sys.argv, help="old git revision")
    parser.add_argument("--workloads", default=",".join(WORKLOADS))
    parser.add_argument("--count", type=int, default=300, help="repetitions under callgrind")
    parser.add_argument("--cpu-count", type=int, default=3000, help="repetitions per CPU run")
    parser.add_argument("--repeat", type=int, default=5, help="CPU runs of each version")
    parser.add_argument("--no-callgrind", action="store_true", help="CPU time only")
    parser.add_argument("--worker", nargs=2, metavar=("WORKLOAD", "COUNT"))
    args = parser.parse_args()
    if args.worker:
        worker(args.worker[0], int(args.worker[1]))
        return
    from old_tree import ROOT, extract, instructions, run_in

    with tempfile.TemporaryDirectory() as folder:
        old = extract(args.old, Path(folder))
        trees = {"old": old, "new": ROOT}
        print(f"old: {args.old}; new: {ROOT}")
        print(
            f"{'workload':<20} {'old instr':>11} {'new instr':>11} {'ratio':>6}   "
            f"{'old CPU':>9} {'new CPU':>9} {'ratio':>6}  (per repetition; CPU: best, median)"
        )
        for name in args.workloads.split(","):
            sums = {
                version: run_in(tree, HERE, ["--worker", name, "50"]).split()[1]
                for version, tree in trees.items()
            }
            if sums["old"] != sums["new"]:
                raise SystemExit(f"{name}: the versions disagree (checksums {sums})")
            counts = {"old": 0.0, "new": 0.0}
            if not args.no_callgrind:
                for version, tree in trees.items():
                    counts[version] = instructions(tree, HERE, ["--worker", name], args.count)
            cpu: dict[str, list[float]] = {"old": [], "new": []}
            for _ in range(args.repeat):
                for version, tree in trees.items():
                    out = run_in(tree, HERE, ["--worker", name, str(args.cpu_count)])
                    cpu[version].append(float(out.split()[0]) / args.cpu_count * 1e6)
            best = {version: min(times) for version, times in cpu.items()}
            median = {version: statistics.median(times) for version, times in cpu.items()}
            if args.no_callgrind:  # nothing counted: dashes, not a ratio of zeros
                counted = f"{'-':>11} {'-':>11} {'-':>6}"
            else:
                ratio = counts["old"] / counts["new"]
                counted = f"{counts['old']:>11,.0f} {counts['new']:>11,.0f} {ratio:>5.2f}x"
            print(
                f"{name:<20} {counted}   "
                f"{best['old']:>7.1f}us {best['new']:>7.1f}us {best['old'] / best['new']:>5.2f}x"
                f"  (median {median['old']:.1f} / {median['new']:.1f} us)",
                flush=True,
            )
            if not args.no_callgrind and name.startswith("planets-") and name[-1].isdigit():
                less = {
                    version: counts[version]
                    - instructions(tree, HERE, ["--worker", f"{name}-draws"], args.count)
                    for version, tree in trees.items()
                }
                print(
                    f"{'  less its draws':<20} {less['old']:>11,.0f} {less['new']:>11,.0f} "
                    f"{less['old'] / less['new']:>5.2f}x   (the deal and the rules)",
                    flush=True,
                )


if __name__ == "__main__":
    main()
