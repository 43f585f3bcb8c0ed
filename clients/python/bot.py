#!/usr/bin/env python3
"""A Hipparchus bot that plays uniformly random legal moves (standard library only).

Usage::

    python3 bot.py [--host H] [--port P] (--create | --game ID) [--name NAME] [--seed N]

It connects, creates a game (``--create``) or joins one (``--game``), prints
``game=<id> seat=<n>`` once seated, then follows the game's events: whenever a ``turn`` event
names its seat it asks the server for the ``legal`` moves and plays one at random. When the
match is over it prints ``winner=<n> round_wins=<a>,<b>`` and exits 0. Protocol errors and a
lost connection go to standard error with exit status 1.

To make it play well, replace :func:`choose` (see README.md).
"""

from __future__ import annotations

import argparse
import random
import sys

from hipparchus_client import DEFAULT_PORT, Client, ClientError, split_list


def choose(moves: list[str], rng: random.Random) -> str:
    """The bot's whole strategy: one of the legal ``moves`` (canonical notation), at random."""
    return rng.choice(moves)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Play random legal Hipparchus moves.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--create", action="store_true", help="create a new game and join it")
    which.add_argument("--game", help="join this game id")
    parser.add_argument("--name", default="pybot", help="seat name (1-32 of A-Z a-z 0-9 _ . -)")
    parser.add_argument(
        "--seed", type=int, help="seed the bot's choices (and, with --create, the deal)"
    )
    return parser.parse_args(argv)


def play(args: argparse.Namespace) -> int:
    """Play one match; return the exit status."""
    rng = random.Random(args.seed)
    with Client.connect(args.host, args.port) as client:
        game = args.game
        if args.create:
            options = [] if args.seed is None else [f"seed={args.seed}"]
            game = client.request("new", "hipparchus", *options).fields()["game"]
        seat = client.request("join", game, f"name={args.name}").fields()["seat"]
        print(f"game={game} seat={seat}", flush=True)
        for event in client.events():
            if event.game != game:
                continue  # a server event (e.g. shutdown) or another game
            data = event.data
            if event.kind == "turn" and data["seat"] == seat:
                moves = client.request("legal", game).words()
                if moves:  # empty only if the turn passed already
                    client.request("play", game, choose(moves, rng))
            elif event.kind == "played" and data["seat"] != seat:
                print(f"opponent played {data['play']}", flush=True)
            elif event.kind == "round-over":
                print(
                    f"round {data['round_number']} won by seat {data['result.winner']}"
                    f" (scores {data['result.totals']})",
                    flush=True,
                )
            elif event.kind == "match-over":
                wins = ",".join(split_list(data["round_wins"]))
                print(f"winner={data['winner']} round_wins={wins}", flush=True)
                client.request("quit")
                return 0
    print("the server closed the connection before the match ended", file=sys.stderr)
    return 1


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        return play(args)
    except (ClientError, OSError) as exc:
        print(f"bot: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
