"""The command line of ``hipparchusd match``: its options, and the run from them to the closing
report."""

from __future__ import annotations

import argparse
import contextlib
import math
import sys
from collections.abc import Sequence
from pathlib import Path

from ..games.registry import KINDS
from .config import Config, MatchError, Player, parse_tc, seats_of
from .daemon import local_daemon
from .runner import Runner, run_match
from .scoring import report
from .stats import Sprt


def build_parser() -> argparse.ArgumentParser:
    """The options of ``hipparchusd match``."""
    parser = argparse.ArgumentParser(
        prog="hipparchusd match",
        description="Play games between players (built-in levels or protocol bots) with "
        "duplicate deals and report win rates, points, Elo with a 95% interval (Bayesian: "
        "as if one more game, or pair of a deal's games, of each outcome had been played, so "
        "that few games give a wide interval), and SPRT.",
    )
    add = parser.add_argument
    add(
        "players",
        nargs="+",
        metavar="PLAYER",
        help="random, heuristic, ismcts, ismcts:<budget> (200ms, 5000 playouts), or "
        "cmd:<command line> (a bot taking --host --port --game --name); two or more",
    )
    first = next(iter(KINDS))  # the registry lists its built-in kinds first
    add("--kind", default=first, help=f"the game kind (default {first})")
    add(
        "--option",
        "-o",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an option of 'new' (not seed=: deals come from --seed); repeatable",
    )
    add("--games", type=int, default=100, help="games to play, rounded up to whole deals")
    add("--concurrency", type=int, default=4, help="games played at once (default 4)")
    add("--seed", type=int, default=1, help="deal d is dealt from seed=SEED+d (default 1)")
    add(
        "--tc",
        metavar="TC",
        help="a time control for every game, cutechess-style: 60+1 (60 s and 1 s a move), or "
        "the daemon's notation (1m+1s, 30s/move); reports each player's time losses",
    )
    add("--output", default="match.json", help="the results file; resumes it (default match.json)")
    add("--connect", metavar="HOST:PORT", help="play on this daemon instead of starting one")
    add(
        "--engine-workers",
        type=int,
        default=0,
        help="the started daemon's engine worker processes (0: one per core less one)",
    )
    add("--sprt", nargs="+", metavar="KEY=VALUE", help="elo0=0 elo1=20 alpha=0.05 beta=0.05")
    add("--timeout", type=float, default=600.0, help="seconds a game may take (default 600)")
    add("--bot-logs", metavar="DIR", help="keep each external bot's output in DIR")
    add("--quiet", action="store_true", help="no progress bar")
    return parser


def main(argv: Sequence[str]) -> int:
    """``hipparchusd match ...``; the exit status (0 done, 1 the match failed, 2 bad options)."""
    parser = build_parser()
    args = parser.parse_args(list(argv))
    try:
        players = tuple(Player.parse(text) for text in args.players)
        if len(players) < 2:
            raise MatchError("a match needs two players or more")
        if any(o.startswith("seed=") for o in args.option):
            raise MatchError("deals come from --seed, not -o seed=")
        if args.games < 1 or args.concurrency < 1:
            raise MatchError("--games and --concurrency are at least 1")
        sprt = Sprt.parse(args.sprt) if args.sprt else None
        if any(o.startswith("clock=") for o in args.option):
            raise MatchError("the time control comes from --tc, not -o clock=")
        tc = parse_tc(args.tc) if args.tc else ""
        seats = seats_of(args.kind, args.option)
    except (MatchError, ValueError) as error:
        parser.error(str(error))
    config = Config(args.kind, tuple(args.players), tuple(args.option), args.seed, seats, tc)
    deals = math.ceil(args.games / len(players))
    output = Path(args.output)
    log_dir = Path(args.bot_logs) if args.bot_logs else None
    if log_dir is not None:
        log_dir.mkdir(parents=True, exist_ok=True)
    daemon: contextlib.AbstractContextManager[tuple[str, int]]
    if args.connect:
        host, _, port = args.connect.rpartition(":")
        if not host or not port.isdigit():
            parser.error("--connect takes HOST:PORT")
        daemon = contextlib.nullcontext((host, int(port)))
    else:
        daemon = local_daemon(args.engine_workers, max(1000, 4 * args.concurrency))
    try:
        with daemon as (host, port):
            runner = Runner(host, port, config, players, args.timeout, log_dir)
            results = run_match(
                runner, deals, args.concurrency, output, sprt, progress=not args.quiet
            )
    except MatchError as error:
        print(f"hipparchusd match: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"interrupted; {output} keeps the games played: run again to resume", file=sys.stderr)
        return 130
    print(report(results, players, sprt, tc))
    print(f"results: {output}")
    return 0
