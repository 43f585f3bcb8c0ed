"""A protocol bot that plays one seat at an engine level, searching in its own process
(issue 29): ``hipparchusd match`` starts it as a ``cmd:`` player.

Why not a built-in level: the code it searches with is whatever ``hipparchusd`` its Python
imports, so that a match can set one tree's engine against another's (``PYTHONPATH`` naming a
checkout of the old code), e.g. the engine before and after a change, each with the same CPU
time. The daemon only referees.

Usage (``match`` adds ``--host --port --game --name``)::

    python bench/level_bot.py --level ismcts:100cpu [--option K=V] [--log FILE] \
        --host H --port P --game G --name N

It joins the first free seat of ``G``; whenever ``to-move`` names its seat it asks ``state``
for its view (JSON) and plays the move :func:`hipparchusd.engine.analysis.analyze` gives at
``--level`` for that view, seeded by a digest of the view as the daemon seeds its own
searches. With ``--log`` it appends one line per move: the seat's CPU seconds, playouts and
the root's visits (above the playouts where the search continued a kept tree: ``--option
reuse=1``), for the benchmarks' figures of time per move.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from typing import Any

from hipparchusd.client import Client, ClientError, GameOver, NotYourTurn, int_list
from hipparchusd.engine.analysis import TreeMemory, analyze
from hipparchusd.engine.types import Level
from hipparchusd.games.registry import KINDS


def seed_of(view: Any) -> int:
    """The search's seed: a digest of the view (the daemon's rule, server/engines.py)."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":")).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 2


def play(args: argparse.Namespace) -> int:
    """Join and play the game to its end; the exit status."""
    level = Level.parse(args.level)
    log = open(args.log, "a") if args.log else None  # noqa: SIM115  (open for the game)
    with Client.connect(args.host, args.port, json=True) as client:
        seat = int(str(client.request_json("join", args.game, f"name={args.name}")["seat"]))
        adapter = None
        # The trees of its searches, continued by the next where the adapter's tuning keeps
        # them (--option reuse=1); one game, one seat: each decision follows the last.
        memory = TreeMemory()
        for event in client.events():
            if event.game != args.game:
                continue
            if event.kind == "to-move" and seat in int_list(event.data["seats"]):
                state = client.request_json("state", args.game)
                view = state["view"]
                if adapter is None:
                    engine = KINDS[str(state["kind"])].engine
                    assert engine is not None, "a kind the engine does not play"
                    adapter = engine.load()
                    if args.option:
                        options = dict(item.split("=", 1) for item in args.option)
                        adapter = adapter.with_options(options)  # type: ignore[attr-defined]
                started = time.thread_time()
                try:
                    analysis = analyze(adapter, view, level, seed=seed_of(view), memory=memory)
                except ValueError:
                    # The seat need not move any more: it passed already (a to-move of a
                    # simultaneous decision names the seats still to pass), or the game moved on.
                    continue
                spent = time.thread_time() - started
                try:
                    client.request("play", args.game, analysis.best)
                except (NotYourTurn, GameOver):
                    continue
                if log is not None:
                    visits = sum(stats.visits for stats in analysis.moves)
                    log.write(f"{spent:.6f} {analysis.playouts} {visits}\n")
                    log.flush()
            elif event.kind == "game-over":
                client.request("quit")
                return 0
    return 1


def main(argv: list[str] | None = None) -> int:
    """Run the bot; the exit status (0 once the game is over)."""
    parser = argparse.ArgumentParser(description="Play a seat at an engine level.")
    parser.add_argument("--level", default="ismcts")
    parser.add_argument("--log", help="append each move's CPU seconds and playouts here")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--game", required=True)
    parser.add_argument("--name", default="levelbot")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an engine option of the game's adapter (its with_options), e.g. inference=0.7",
    )
    args = parser.parse_args(argv)
    try:
        return play(args)
    except (ClientError, OSError) as error:
        print(f"level_bot: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
