#!/usr/bin/env python3
"""A bot that plays uniformly random legal moves in any game the daemon serves (standard library
only). It knows no game's rules: it follows the generic events and ``legal`` of the protocol's
core (protocol/PROTOCOL.md).

Usage::

    python3 bot.py [--host H] [--port P] [--name NAME] [--seed N]
                   (--create [--kind KIND] [--option KEY=VALUE ...] | --game ID)

It connects, creates a game of ``--kind`` (default ``hipparchus``) with the given ``new`` options
and joins it (``--create``), or joins the game ``--game`` names, and prints
``game=<id> seat=<n>`` once seated. Then, whenever a ``to-move`` event names its seat, it asks
for its ``legal`` moves and plays one at random: a word of the list, or, for a choice
``pick <n> <item>... [to=<seats>]``, ``n`` distinct items joined by ``,``. At the ``game-over``
event it prints ``winners=<seats> scores=<per seat> resigned=<seat or ->`` and exits 0.
Protocol errors and a lost connection go to standard error with exit status 1.

In a timed game (``--option clock=5m+3s``) each ``to-move`` also says how many milliseconds
each seat named has left (``left_ms``, PROTOCOL.md section 10): the bot keeps its own, and
after its ``game-over`` line prints ``clock decisions=<n> spent_ms=<ms> left_ms=<ms>
timeout=<seat or ->``: its decisions, the time they took as it saw them, what its clock had at
its last ``to-move``, and the seat whose time ran out if that ended the game. A bot that thinks
would budget by it: see :func:`time_for`.

``--seed N`` seeds the bot's choices and, with ``--create``, adds ``seed=N`` to the game's
options (unless ``--option seed=...`` is given): the kind must then have a ``seed`` option.

To make it play well, replace :func:`choose` (see README.md).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass

from hipparchus_client import (
    DEFAULT_PORT,
    Client,
    ClientError,
    GameOver,
    NotYourTurn,
    ProtocolViolation,
    split_list,
)


@dataclass(frozen=True)
class Pick:
    """``legal``'s choice form ``pick <count> <item>... [to=<seat>,...]``: a legal move is
    ``count`` distinct items joined by ``,``, in any order; with ``to``, the i-th item chosen
    goes to seat ``to[i]``."""

    count: int
    items: list[str]
    to: list[str] | None


def parse_legal(words: list[str]) -> list[str] | Pick:
    """``legal``'s text answer (its words) -> the list of move words, or a :class:`Pick`.

    Raises:
        ProtocolViolation: a ``pick`` answer that is malformed or asks for more items than it
            offers.
    """
    if not words or words[0] != "pick":
        return words
    items = words[2:]
    to: list[str] | None = None
    if items and items[-1].startswith("to="):
        to = split_list(items.pop()[3:])
    if len(words) < 2 or not words[1].isdigit():
        raise ProtocolViolation(f"malformed pick answer: {' '.join(words)!r}")
    count = int(words[1])
    if count > len(items) or (to is not None and len(to) != count):
        raise ProtocolViolation(f"impossible pick answer: {' '.join(words)!r}")
    return Pick(count, items, to)


def choose(legal: list[str] | Pick, rng: random.Random) -> str:
    """The bot's whole strategy: a legal move word, at random. ``legal`` is not empty: a move
    word from the list, or ``legal.count`` distinct items of the pick joined by ``,``."""
    if isinstance(legal, Pick):
        return ",".join(rng.sample(legal.items, legal.count))
    return rng.choice(legal)


def time_for(left_ms: int, decisions_left: int = 30) -> float:
    """Seconds a bot that thinks could spend on a decision with ``left_ms`` on its clock and
    about ``decisions_left`` to go (UCI engines assume 30 when told nothing): its share, less
    a margin for the network. The random bot needs none of it."""
    return max(0.0, (left_ms - 50) / 1000 / max(1, decisions_left))


def my_time_left(event_data: dict[str, str], seat: str) -> int | None:
    """The milliseconds ``seat`` has left according to a ``to-move`` event's fields
    (``seats=0,2 left_ms=29000,31500``), or ``None`` in an untimed game or when ``seat`` is not
    named."""
    seats = split_list(event_data["seats"])
    left = split_list(event_data.get("left_ms", "-"))
    if seat not in seats or len(left) != len(seats):
        return None
    return int(left[seats.index(seat)])


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line (see the module's docstring)."""
    parser = argparse.ArgumentParser(description="Play random legal moves in any game.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--create", action="store_true", help="create a new game and join it")
    which.add_argument("--game", help="join this game id")
    parser.add_argument(
        "--kind", default="hipparchus", help="with --create: the game kind (see 'kinds')"
    )
    parser.add_argument(
        "--option",
        "-o",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="with --create: an option of 'new' (see 'help new'); repeatable",
    )
    parser.add_argument("--name", default="pybot", help="seat name (1-32 of A-Z a-z 0-9 _ . -)")
    parser.add_argument(
        "--seed", type=int, help="seed the bot's choices (and, with --create, the game: seed=N)"
    )
    args = parser.parse_args(argv)
    if args.game is not None and (args.option or args.kind != "hipparchus"):
        parser.error("--kind and --option go with --create")
    for option in args.option:
        key, equals, value = option.partition("=")
        if not (key and equals and value):
            parser.error(f"--option {option!r} is not KEY=VALUE")
    return args


def new_options(args: argparse.Namespace) -> list[str]:
    """The options of ``new``: the ``--option`` words, and ``seed=N`` from ``--seed`` unless
    an option gives the seed."""
    options = list(args.option)
    if args.seed is not None and not any(o.startswith("seed=") for o in options):
        options.append(f"seed={args.seed}")
    return options


class Clock:
    """The bot's own clock in a timed game, as the server tells it: the milliseconds it had
    at its last ``to-move`` (``None`` untimed), and the time its decisions took here."""

    def __init__(self) -> None:
        self.left_ms: int | None = None
        self.decisions = 0
        self.spent = 0.0
        self._since: float | None = None

    def told(self, left_ms: int | None) -> None:
        """A ``to-move`` named this seat, with ``left_ms`` on its clock (``None``: untimed)."""
        if left_ms is not None:
            self.left_ms = left_ms
            self._since = time.monotonic()

    def decided(self) -> None:
        """The move was answered: the decision's time, as this bot saw it, is counted."""
        if self._since is not None:
            self.decisions += 1
            self.spent += time.monotonic() - self._since
            self._since = None

    def describe(self) -> str:
        """``clock decisions=<n> spent_ms=<ms> left_ms=<ms at the last to-move>``."""
        spent = round(self.spent * 1000)
        return f"clock decisions={self.decisions} spent_ms={spent} left_ms={self.left_ms}"


def play(args: argparse.Namespace) -> int:
    """Play one game to its end; return the exit status."""
    rng = random.Random(args.seed)
    with Client.connect(args.host, args.port) as client:
        game = args.game
        if args.create:
            game = client.request("new", args.kind, *new_options(args)).fields()["game"]
        seat = client.request("join", game, f"name={args.name}").fields()["seat"]
        print(f"game={game} seat={seat}", flush=True)
        clock = Clock()
        for event in client.events():
            if event.game != game:
                continue  # a server event (e.g. shutdown)
            if event.kind == "to-move" and seat in split_list(event.data["seats"]):
                clock.told(my_time_left(event.data, seat))
                words = client.request("legal", game).words()
                # Empty when this seat has moved already: a to-move sent before the answer to
                # its move can still name it, for a move that other seats make at once.
                if not words:
                    continue
                try:
                    client.request("play", game, choose(parse_legal(words), rng))
                    clock.decided()
                except (NotYourTurn, GameOver):
                    continue  # the game moved on meanwhile (e.g. a seat resigned)
            elif event.kind == "game-over":
                winners = ",".join(split_list(event.data["winners"]))
                scores = ",".join(split_list(event.data["scores"]))
                resigned = event.data["resigned"]
                print(f"winners={winners} scores={scores} resigned={resigned}", flush=True)
                if clock.left_ms is not None:
                    timeout = event.data.get("timeout", "-")
                    print(f"{clock.describe()} timeout={timeout}", flush=True)
                client.request("quit")
                return 0
    print("the server closed the connection before the game ended", file=sys.stderr)
    return 1


def main(argv: list[str] | None = None) -> int:
    """Run the bot; return the exit status (0 once the game is over)."""
    args = parse_args(argv)
    try:
        return play(args)
    except (ClientError, OSError) as exc:
        print(f"bot: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
