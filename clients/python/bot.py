#!/usr/bin/env python3
"""A bot that plays uniformly random legal moves in any game the daemon serves (standard
library only).

Usage::

    python3 bot.py [--host H] [--port P] (--create | --game ID) [--kind KIND]
                   [--option KEY=VALUE ...] [--name NAME] [--seed N] [--json]

It connects, creates a game (``--create``: ``new <kind> <options>``, ``hipparchus`` unless
``--kind`` says otherwise) or joins one (``--game``), prints ``game=<id> seat=<n>`` once seated,
then follows the game's events by the generic contract alone (PROTOCOL.md): whenever a
``to-move`` event names its seat (several seats may move at once, as in planets' pass) it asks
``legal``, which lists the moves or describes a choice (``pick``), and plays one at random. At
``game-over`` it prints ``winners=<seats> scores=<per seat>``, and for a two-seat game with one
winner (Hipparchus) also ``winner=<n> round_wins=<a>,<b>``; then it exits 0. Protocol errors
and a lost connection go to standard error with exit status 1.

To make it play well, replace :func:`choose` (see README.md).
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from hipparchus_client import (
    DEFAULT_PORT,
    Client,
    ClientError,
    Legal,
    can_move,
    int_list,
    random_move,
)


def choose(legal: Legal, rng: random.Random) -> str:
    """The bot's whole strategy: one of the ``legal`` moves (a list of canonical move words, or
    a ``Pick`` of ``count`` items whose move is the chosen items joined by ``,``), at random."""
    return random_move(legal, rng)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Play random legal moves in a hipparchusd game.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--create", action="store_true", help="create a new game and join it")
    which.add_argument("--game", help="join this game id")
    parser.add_argument("--kind", default="hipparchus", help="the game kind --create makes")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an option of new for --create (repeatable), e.g. --option players=5",
    )
    parser.add_argument("--name", default="pybot", help="seat name (1-32 of A-Z a-z 0-9 _ . -)")
    parser.add_argument(
        "--seed", type=int, help="seed the bot's choices (and, with --create, the deal)"
    )
    parser.add_argument("--json", action="store_true", help="speak the protocol's JSON mode")
    args = parser.parse_args(argv)
    for option in args.option:
        key, equals, value = option.partition("=")
        if not key or not equals or not value or " " in option:
            parser.error(f"--option wants KEY=VALUE, not {option!r}")
    return args


def _payload(response: Any) -> dict[str, Any]:
    """A response's fields: the JSON object in JSON mode, else its ``key=value`` words."""
    return dict(response.json) if response.json is not None else response.fields()


def play(args: argparse.Namespace) -> int:
    """Play one game to its end; return the exit status."""
    rng = random.Random(args.seed)
    with Client.connect(args.host, args.port, json=args.json) as client:
        game = args.game
        if args.create:
            options = dict(option.split("=", 1) for option in args.option)
            if args.seed is not None:
                options.setdefault("seed", str(args.seed))
            game = client.new_game(args.kind, **options)
        seat = int(_payload(client.request("join", game, f"name={args.name}"))["seat"])
        print(f"game={game} seat={seat}", flush=True)
        for event in client.events():
            if event.game != game:
                continue  # a server event (e.g. shutdown) or another game
            data = event.data
            if event.kind == "to-move" and seat in int_list(data["seats"]):
                # The event may be older than our last move (in a simultaneous move, others'
                # moves announce the seats still to move, ours among them until our move
                # lands): ``legal`` answers for the position as it is now, empty if we are done.
                legal = client.legal(game)
                if can_move(legal):
                    client.request("play", game, choose(legal, rng))
            elif event.kind == "game-over":
                winners, scores = int_list(data["winners"]), int_list(data["scores"])
                print(
                    f"winners={','.join(map(str, winners))} scores={','.join(map(str, scores))}",
                    flush=True,
                )
                if len(winners) == 1 and len(scores) == 2:
                    print(f"winner={winners[0]} round_wins={scores[0]},{scores[1]}", flush=True)
                client.request("quit")
                return 0
    print("the server closed the connection before the game ended", file=sys.stderr)
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
