"""Old and new rules side by side: the same games played by two versions of hipparchusd must
show the same game at every step (issue 23, "Proof it is the same game").

Each version runs in its own process (``--worker``), the version under test from this tree and
the old one from a source tree taken out of git (``--old REV``: ``git archive REV hipparchusd``
into a temporary folder). Both play the same games: Hipparchus matches and planets games, each
from a seed, every move chosen from the legal moves by a generator seeded by the game's number,
so that two versions that list the same moves make the same choices. At every step a worker
writes down, as JSON:

- the legal moves of every seat to move, described (``legal``: words, or the pass's pick);
- a move that may be refused (a random word, played on a fork of the game) and what came of
  it: the canonical word or the refusal's message;
- the move played, its canonical word and every event, with its audience (trick winners,
  scores, the shooting choice, totals...);
- the view of every seat and of a spectator (planets: of the seat that moved and a spectator,
  and of every seat when a move ended a trick, a pass or a hand);
- the full state in the object model (Hipparchus: its position notation and state document,
  at every step; planets: the state's JSON, when a move ended a trick, a pass or a hand);

and at the end the record, and the views of the game restored from its record. A worker
prints one digest (SHA-256) of that stream per game; the two versions must print the same
digest for every game. For a game whose digests differ, the two streams are written out and
the first line that differs is printed.

The games cover every seat count of planets (3 to 6), ``galaxies=all``, ``exact100=reset``,
passes of every kind, shooting (one seat in some games plays greedily for every trick, and
the seats' cards are then dealt so that it holds most point cards), resignations (some games
end with a random seat resigning at a random step) and Hipparchus's ends of round (H6, H9) and
tie-breaks (H11), which random play reaches by itself.

Run (both versions' workers run ``--jobs`` at a time):

    .venv/bin/python bench/compare_rules.py --old <commit> --rounds 100000 --hands 100000

``--without exact100,operator`` leaves out of every line the fields added on purpose since the
old revision (against f09d15c, the last tree with two copies of the rules: the planets view's
``exact100``, issue 29, and the outcome's ``operator``, issue 26), so that what is compared is
the rules' game and not those additions.

``--rounds 0`` (or ``--hands 0``) leaves that kind out; ``--start N`` numbers the games from N,
so that a later run extends an earlier one with games it has not played. A line of progress
every five minutes says what a long run has compared so far.

It prints, per game kind, the games, rounds or hands, steps and views compared and the number
of games whose streams differ (0 when the versions play the same game), apart from those
that differ only as the change meant (a resigned planets game's phase, issue 25), counted
and listed on their own. Not a test: the suite
keeps a smaller proof (tests/games/hipparchus/test_rules_core.py,
tests/games/planets/test_planets_core.py and the rules tests around them) against the seeds'
worked examples and the rulings' cases.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from old_tree import extract

ROOT = Path(__file__).resolve().parent.parent

# What a game of each kind sets out to cover, by game number (see the module's doc).
RESIGN_SHARE = 0.05
GREEDY_SHARE = 0.3


class Stream:
    """The JSON lines a worker writes down for one game: hashed, and kept when asked to."""

    def __init__(self, keep: bool) -> None:
        self.digest = hashlib.sha256()
        self.lines: list[str] | None = [] if keep else None
        self.views = 0

    def add(self, *item: Any) -> None:
        line = json.dumps(_without(item, WITHOUT), sort_keys=True, separators=(",", ":"))
        self.digest.update(line.encode())
        self.digest.update(b"\n")
        if self.lines is not None:
            self.lines.append(line)


#: Fields left out of every line (``--without``): fields that a later issue added to the views
#: or the outcome on purpose, which an older tree cannot have. Set once, before any game.
WITHOUT: frozenset[str] = frozenset()


def _without(item: Any, fields: frozenset[str]) -> Any:
    """``item`` (JSON data) with every key in ``fields`` dropped from its objects and every
    ``, field=...`` dropped from its strings (an attrs repr, such as the outcome's)."""
    if not fields:
        return item
    if isinstance(item, dict):
        return {key: _without(value, fields) for key, value in item.items() if key not in fields}
    if isinstance(item, list | tuple):
        return [_without(value, fields) for value in item]
    if isinstance(item, str):
        for field in fields:
            item = re.sub(rf", {field}=[^,)]*", "", item)
    return item


def _events(stream: Stream, game: Any, events: list[Any]) -> None:
    for event in events:
        stream.add("event", event.audience, game.event_data(event.payload))


def _views(stream: Stream, game: Any, seats: Any = None) -> None:
    """The views of ``seats`` (default: every seat, then a spectator)."""
    for seat in (*range(game.seat_count), None) if seats is None else seats:
        stream.add("view", seat, game.view_data(seat))
        stream.views += 1


def _try(game: Any, seat: int, word: str) -> Any:
    """What ``word`` played by ``seat`` on a fork of ``game`` comes to."""
    fork = game.fork()
    try:
        answer, _ = fork.play_word(seat, word)
    except Exception as error:  # the game's own refusals: IllegalMove, NotYourTurn...
        return [type(error).__name__, str(error)]
    return ["accepted", answer]


def play_hipparchus(number: int, keep: bool) -> tuple[Stream, int, int]:
    """Play Hipparchus match ``number``; (its stream, rounds played, steps)."""
    from hipparchusd.games.hipparchus import codec
    from hipparchusd.games.hipparchus.game import HipparchusGame
    from hipparchusd.games.hipparchus.notation import format_position
    from hipparchusd.games.registry import find_kind

    rng = random.Random(f"compare/hipparchus/{number}")
    stream = Stream(keep)
    seed = number
    game = HipparchusGame(seed=seed, first_leader=rng.randrange(2))
    resign_at = rng.randrange(80) if rng.random() < RESIGN_SHARE else -1
    _events(stream, game, game.start())
    words = [f"{c}{s}@{p}" for c in range(1, 5) for s in "SMEs" for p in range(0, 16)]
    steps = 0
    while game.outcome is None:
        if steps == resign_at:
            seat = rng.randrange(2)
            stream.add("resign", seat)
            _events(stream, game, game.resign(seat))
            break
        (seat,) = game.seats_to_move()
        legal = game.legal(seat, describe=True)
        stream.add("legal", seat, list(legal.moves), list(legal.described))
        trial = rng.choice(words)
        stream.add("try", seat, trial, _try(game, seat, trial))
        stream.add("try-other", trial, _try(game, 1 - seat, trial))
        word = rng.choice(legal.moves)
        answer, events = game.play_word(seat, word)
        stream.add("play", seat, word, answer)
        _events(stream, game, events)
        _views(stream, game)
        stream.add("state", format_position(game.state), codec.dump_state(game.state))
        steps += 1
    record = game.record_data()
    stream.add("record", record, repr(game.outcome))
    restored = find_kind("hipparchus").restore({"seed": str(seed)}, record)
    _views(stream, restored)
    return stream, len(game.record().rounds), steps


def _planets_options(number: int, rng: random.Random) -> dict[str, str]:
    players = 3 + number % 4
    options = {"players": str(players), "seed": str(number)}
    if players == 6 and rng.random() < 0.5:
        options["galaxies"] = "all"
    if rng.random() < 0.5:
        options["exact100"] = "reset"
    if rng.random() < 0.5:
        options["dealer"] = str(rng.randrange(players))
    return options


def _greedy_card(legal: list[str]) -> str:
    """The card a seat trying to take every trick plays: its highest legal card."""
    ranks = "1234567MSG"
    return max(legal, key=lambda card: ranks.index(card[1]))


def play_planets(number: int, keep: bool) -> tuple[Stream, int, int]:
    """Play planets game ``number``; (its stream, hands played, steps)."""
    from hipparchusd.games.base import Pick
    from hipparchusd.games.planets.codec import CODEC
    from hipparchusd.games.registry import find_kind

    rng = random.Random(f"compare/planets/{number}")
    stream = Stream(keep)
    kind = find_kind("planets")
    options = _planets_options(number, rng)
    game = kind.create(options)
    players = game.seat_count
    greedy = rng.randrange(players) if rng.random() < GREEDY_SHARE else -1
    resign_at = rng.randrange(600) if rng.random() < RESIGN_SHARE else -1
    stream.add("options", options, greedy)
    _events(stream, game, game.start())
    cards = [s + r for s in "EJMNSV" for r in "1234567MSG"]
    steps = 0
    while game.outcome is None:
        if steps == resign_at:
            seat = rng.randrange(players)
            stream.add("resign", seat)
            _events(stream, game, game.resign(seat))
            break
        seats = sorted(game.seats_to_move())
        seat = rng.choice(seats)
        legal = game.legal(seat, describe=True)
        if isinstance(legal, Pick):
            stream.add("legal", seat, legal.count, list(legal.items), legal.to)
            if seat == greedy:  # keep the high cards: pass the lowest
                ranks = "1234567MSG"
                chosen = sorted(legal.items, key=lambda card: ranks.index(card[1]))
                word = ",".join(chosen[: legal.count])
            else:
                word = ",".join(rng.sample(list(legal.items), legal.count))
            trial = ",".join(rng.sample(cards, rng.choice((legal.count, legal.count + 1))))
        else:
            words = list(legal.moves)
            stream.add("legal", seat, words, list(legal.described))
            if seat == greedy and words[0] not in ("self", "others"):
                word = _greedy_card(words)
            else:
                word = rng.choice(words)
            trial = rng.choice((*cards, "self", "others"))
        stream.add("try", seat, trial, _try(game, seat, trial))
        other = (seat + 1) % players
        stream.add("try-other", other, trial, _try(game, other, trial))
        answer, events = game.play_word(seat, word)
        stream.add("play", seat, word, answer)
        _events(stream, game, events)
        if len(events) > 1 or game.outcome is not None:
            # A trick, a pass or a hand ended: every seat's view and the whole state. (Each
            # view holds the hand's tricks: every view at every step would make a hand's
            # checks grow with the square of its length.)
            _views(stream, game)
            stream.add("state", CODEC.unstructure(game.state))
        else:
            _views(stream, game, (seat, None))
        steps += 1
    record = game.record_data()
    stream.add("record", record, repr(game.outcome))
    restored = kind.restore({"seed": options["seed"]}, record)
    _views(stream, restored)
    return stream, len(game.record().hands), steps


PLAYERS: dict[str, Callable[[int, bool], tuple[Stream, int, int]]] = {
    "hipparchus": play_hipparchus,
    "planets": play_planets,
}


def worker(kind: str, first: int, count: int, keep: int | None) -> None:
    """Play games ``first`` to ``first + count - 1`` of ``kind`` and print, per game, its
    number, digest, rounds (or hands), steps and views; with ``keep``, print that game's
    stream instead."""
    play = PLAYERS[kind]
    if keep is not None:
        stream, _, _ = play(keep, True)
        assert stream.lines is not None
        print("\n".join(stream.lines))
        return
    for number in range(first, first + count):
        stream, rounds, steps = play(number, False)
        print(number, stream.digest.hexdigest(), rounds, steps, stream.views, flush=True)


def _run(tree: Path, args: list[str]) -> str:
    environment = {**os.environ, "PYTHONPATH": str(tree)}
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", *args]
    if WITHOUT:
        command += ["--without", ",".join(sorted(WITHOUT))]
    done = subprocess.run(command, env=environment, capture_output=True, text=True, check=False)
    if done.returncode:
        raise RuntimeError(f"worker in {tree} failed:\n{done.stderr[-3000:]}")
    return done.stdout


#: Seconds between two progress lines of a comparison (a long run shows what it has proved
#: so far, should it be stopped).
PROGRESS_EVERY = 300.0


def _chunks(total: int, per_game: float, size: int, start: int) -> Iterator[tuple[int, int]]:
    games = max(1, round(total / per_game))
    for first in range(start, start + games, size):
        yield first, min(size, start + games - first)


def compare(
    kind: str, old: Path, target: int, per_game: float, jobs: int, chunk: int, start: int = 0
) -> int:
    """Play games of ``kind`` (numbered from ``start``) in both trees until ``target`` rounds
    (or hands) are played; print the figures, and a line of progress every
    :data:`PROGRESS_EVERY` seconds; return the number of games whose streams differ."""
    started = last = time.perf_counter()
    games = rounds = steps = views = 0
    differing: list[int] = []
    intended: list[int] = []
    unit = "rounds" if kind == "hipparchus" else "hands"
    tasks = list(_chunks(target, per_game, chunk, start))
    # Each task runs the old worker, then the new: ``jobs`` tasks keep ``jobs`` processes busy.
    with ThreadPoolExecutor(max(1, jobs)) as pool:

        def both(task: tuple[int, int]) -> tuple[str, str]:
            args = [kind, str(task[0]), str(task[1])]
            return _run(old, args), _run(ROOT, args)

        for old_out, new_out in pool.map(both, tasks):
            old_lines, new_lines = old_out.split("\n"), new_out.split("\n")
            for old_line, new_line in zip(old_lines, new_lines, strict=True):
                if not new_line:
                    continue
                number, _, played, taken, seen = new_line.split()
                games += 1
                rounds += int(played)
                steps += int(taken)
                views += int(seen)
                if old_line != new_line:
                    if _only_intended(kind, old, int(number)):
                        intended.append(int(number))
                    else:
                        differing.append(int(number))
            if time.perf_counter() - last > PROGRESS_EVERY:
                last = time.perf_counter()
                print(
                    f"  {kind} so far (games {start} to {start + games - 1}): {rounds:,} "
                    f"{unit}, {steps:,} steps, {views:,} views in {last - started:,.0f} s: "
                    f"{len(differing)} games differ ({len(intended)} more as intended)",
                    flush=True,
                )
    elapsed = time.perf_counter() - started
    print(
        f"{kind}: {games:,} games, {rounds:,} {unit}, {steps:,} steps, {views:,} views compared "
        f"in {elapsed:,.0f} s: {len(differing)} games differ",
        flush=True,
    )
    if intended:
        shown = ", ".join(map(str, intended[:20])) + (", ..." if len(intended) > 20 else "")
        print(
            f"  and {len(intended)} games differ only as intended (a resigned planets game's "
            f"phase is over, issue 25): games {shown}",
            flush=True,
        )
    for number in differing[:3]:
        old_stream, new_stream = _streams(kind, old, number)
        for index, (a, b) in enumerate(zip(old_stream, new_stream, strict=False)):
            if a != b:
                print(f"  game {number}, line {index}:\n    old {a[:800]}\n    new {b[:800]}")
                break
        else:
            print(f"  game {number}: one stream is longer")
    return len(differing)


def _streams(kind: str, old: Path, number: int) -> tuple[list[str], list[str]]:
    """Game ``number``'s streams in the old tree and in this one, line by line."""
    arguments = [kind, "0", "0", "--keep", str(number)]
    return _run(old, arguments).split("\n"), _run(ROOT, arguments).split("\n")


#: A view's or a state's phase, as the stream writes it.
_PHASE = re.compile(r'"phase":"[a-z]+"')


def _settled(lines: list[str]) -> list[str]:
    """``lines`` with every phase after a resignation written ``over``: the one difference
    of the wire that the change of the rules core brought on purpose (issue 25, point 19: a
    resigned planets game is over in every view, where it kept the hand's own phase)."""
    settled, resigned = [], False
    for line in lines:
        resigned = resigned or line.startswith('["resign"')
        settled.append(_PHASE.sub('"phase":"over"', line) if resigned else line)
    return settled


def _only_intended(kind: str, old: Path, number: int) -> bool:
    """Whether game ``number``'s streams, which differ, are the same once settled."""
    old_stream, new_stream = _streams(kind, old, number)
    return _settled(old_stream) == _settled(new_stream)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", help="the old version: a git revision of this repository")
    parser.add_argument("--rounds", type=int, default=2000, help="Hipparchus rounds to play")
    parser.add_argument("--hands", type=int, default=2000, help="planets hands to play")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes at once")
    parser.add_argument("--chunk", type=int, default=200, help="games per worker process")
    parser.add_argument(
        "--start", type=int, default=0, help="the first game's number (to extend a past run)"
    )
    parser.add_argument("--worker", nargs=3, metavar=("KIND", "FIRST", "COUNT"))
    parser.add_argument("--keep", type=int, help="(worker) print this game's stream")
    parser.add_argument(
        "--without",
        default="",
        help="fields to leave out, comma-separated: those added on purpose since --old "
        "(since f09d15c: exact100, issue 29's planets views; operator, issue 26's outcome)",
    )
    args = parser.parse_args()
    global WITHOUT
    WITHOUT = frozenset(filter(None, args.without.split(",")))
    if args.worker:
        kind, first, count = args.worker
        worker(kind, int(first), int(count), args.keep)
        return
    if not args.old:
        parser.error("--old REV is needed")
    with tempfile.TemporaryDirectory() as folder:
        old = extract(args.old, Path(folder))
        print(f"old: {args.old} (in {old}); new: {ROOT}", flush=True)
        # About 2.6 rounds a match, and 9 hands a planets game (measured on these games).
        differ = 0
        if args.rounds:
            differ += compare(
                "hipparchus", old, args.rounds, 2.6, args.jobs, args.chunk, args.start
            )
        if args.hands:
            differ += compare("planets", old, args.hands, 9.0, args.jobs, args.chunk, args.start)
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
