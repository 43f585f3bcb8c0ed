"""The ``hipparchus-play`` command: play Hipparchus at a terminal against a person or a bot.

It speaks only the protocol (PROTOCOL.md), in JSON mode, through :mod:`hipparchusd.client`:
create or join a game, then follow its events, showing the opponent's moves as they happen;
at each of your turns it shows the table (:func:`hipparchusd.play.table.table_view`) and asks
for a play by number or notation. With ``--watch GAME`` it follows a game as a spectator
(``watch``): every play, trick and round as it happens, the table after each trick, never a
hand during a round (RULINGS H13), and no questions asked.
"""

from __future__ import annotations

import argparse
import codecs
import sys
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape

from ..client import DEFAULT_PORT, Client, ClientError, Event, ServerError
from .table import (
    Style,
    follow_view,
    hand_text,
    pick_move,
    player_name,
    round_result,
    seat_label,
    table_view,
)

HELP = (
    "Type the number of a legal play, or its notation <count><suit>@<position> (e.g. 2E@5:\n"
    "two Earths from the clump at position 5; any position inside the clump will do).\n"
    "Other commands: 'table' shows the table again, 'resign' gives up the match, '?' this help."
)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line (see ``hipparchus-play --help``)."""
    parser = argparse.ArgumentParser(
        prog="hipparchus-play",
        description="Play Hipparchus against a person or a bot, through a hipparchusd server.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="server address (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="server port (7460)")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--game", help="join this game id (default: create a new game)")
    which.add_argument(
        "--resume", metavar="TOKEN", help="take your seat back (the token printed on joining)"
    )
    which.add_argument(
        "--watch", metavar="GAME", help="watch this game as a spectator, to its end (no seat)"
    )
    parser.add_argument("--name", help="your name at the table (default: player)")
    parser.add_argument("--seed", type=int, help="new game only: deal reproducibly from this seed")
    parser.add_argument(
        "--leader", choices=["0", "1", "random"], help="new game only: who leads round 1"
    )
    parser.add_argument(
        "--ascii", action="store_true", help="draw suits as letters S M E, not symbols"
    )
    args = parser.parse_args(argv)
    if args.watch is not None:
        given = [f"--{key}" for key in ("seed", "leader", "name") if getattr(args, key) is not None]
        if given:
            parser.error(f"{', '.join(given)}: not allowed with --watch (a spectator has no seat)")
    elif args.game is not None or args.resume is not None:
        given = [f"--{key}" for key in ("seed", "leader") if getattr(args, key) is not None]
        if given:
            chosen = "--game" if args.game is not None else "--resume"
            parser.error(f"{', '.join(given)}: for a new game only, not with {chosen}")
    return args


def wants_symbols(console: Console, force_ascii: bool) -> bool:
    """Suit symbols unless ``--ascii`` or the output encoding is not UTF-8 (they would not
    show)."""
    if force_ascii:
        return False
    try:
        return codecs.lookup(console.encoding).name == "utf-8"
    except LookupError:
        return False


class Session:
    """One seat at one game: the connection, what we know of the table, and the console.

    ``seat`` is ``None`` for a spectator (:class:`Spectator`), who is never asked to play.
    """

    def __init__(
        self, client: Client, console: Console, style: Style, game: str, seat: int | None
    ) -> None:
        self.client = client
        self.console = console
        self.style = style
        self.game = game
        self.seat = seat
        self.players: list[Any] = ["-", "-"]
        self.past_rounds: list[dict[str, Any]] = []  # round-over data, for the score

    def label(self, seat: Any) -> str:
        """``you`` or the opponent's name (a spectator's: name and seat)."""
        return seat_label(seat, self.seat, self.players)

    def run(self) -> int:
        """Follow the game to its end; return the exit status."""
        for event in self.client.events():
            if event.game == "server":
                if event.kind == "shutdown":
                    self.console.print("[bold red]The server is shutting down.[/]")
                continue
            if event.game != self.game:
                continue
            if self.on_event(event):
                return 0
        self.console.print("[bold red]The server closed the connection.[/]")
        return 1

    def on_event(self, event: Event) -> bool:
        """Show one event (and play, at our turn); True once the match is over."""
        data = event.data
        kind = event.kind
        if kind == "joined":
            self.players[int(data["seat"])] = data.get("name", "-")
            if int(data["seat"]) != self.seat:
                self.console.print(f"{data.get('name')} joined (seat {data['seat']}).")
        elif kind in ("left", "disconnected", "resumed"):
            self.console.print(f"{self.label(data.get('seat'))} {kind}.")
        elif kind == "round-started":
            self.console.rule(f"Round {data.get('round_number')}")
            leader = data.get("leader")
            who = "You lead" if leader == self.seat else f"{self.label(leader)} leads"
            self.console.print(f"{who} the first trick.")
        elif kind == "hand":
            self.console.print(
                "Your new hand: ", hand_text(str(data.get("hand")), self.style), sep=""
            )
        elif kind == "turn":
            if data.get("seat") == self.seat:
                self.my_turn()
        elif kind == "played":
            if data.get("seat") != self.seat:
                self.console.print(
                    f"{self.label(data.get('seat'))} played ",
                    self.style.play(str(data.get("play"))),
                    f" ({data.get('hand_size')} cards left)",
                    sep="",
                )
        elif kind == "trick":
            trick = data.get("trick") or {}
            self.console.print(
                f"Trick {data.get('number')}: {self.label(trick.get('leader'))} led ",
                self.style.play(str(trick.get("lead"))),
                ", followed by ",
                self.style.play(str(trick.get("follow"))),
                f": {self.label(trick.get('winner'))} won it.",
                sep="",
            )
        elif kind == "no-follow":
            trick = data.get("trick") or {}
            self.console.print(
                f"Trick {data.get('number')}: {self.label(1 - int(trick.get('leader', 0)))}"
                " cannot follow ",
                self.style.play(str(trick.get("lead"))),
                ": the round ends and the led cards are set aside (RULINGS H6).",
                sep="",
            )
        elif kind == "round-over":
            self.show_round_over(data)
        elif kind == "match-over":
            self.show_match_over(data)
            return True
        return False

    def show_round_over(self, data: dict[str, Any]) -> None:
        """The round's result, and the hands it reveals (RULINGS H13)."""
        self.past_rounds.append(data)
        self.console.print(round_result(data, self.seat, self.players))
        revealed = data.get("revealed") or {}
        hands = revealed.get("hands") or []
        if len(hands) == 2:
            for seat in (0, 1):
                if seat != self.seat:  # our own hand we know
                    self.console.print(
                        f"{self.label(seat)} still held: ",
                        hand_text(str(hands[seat]), self.style),
                        sep="",
                    )
        if revealed.get("face_down"):
            self.console.print(
                "Face down: ", self.style.cards("".join(map(str, revealed["face_down"]))), sep=""
            )

    def show_match_over(self, data: dict[str, Any]) -> None:
        """The match's result (a line the tests read: ``Match over: winner seat <n> ...``)."""
        winner = data.get("winner")
        wins = data.get("round_wins") or [0, 0]
        self.console.rule("Match over")
        how = ""
        if data.get("resigned") is not None:
            how = f" ({self.label(data['resigned'])} resigned)"
        # A spectator's label already names the seat: the name alone here.
        who = (
            self.label(winner)
            if self.seat is not None
            else player_name(self.players, data["winner"])
        )
        self.console.print(
            f"Match over: winner seat {winner} ({who}), round wins {wins[0]}-{wins[1]}{how}.",
            style="bold",
        )
        if self.seat is not None:
            self.console.print("You win!" if winner == self.seat else "You lose.")

    def finished(self, view: dict[str, Any] | None) -> bool:
        """Show the result if the snapshot ``view`` (``resume``'s, ``watch``'s) is of a match
        already over; True if it was."""
        if view is None or view.get("winner") is None:
            return False
        self.show_match_over(
            {
                "winner": view["winner"],
                "round_wins": view.get("round_wins"),
                "resigned": view.get("resigned"),
            }
        )
        return True

    def my_turn(self) -> None:
        """Show the table and the legal plays, then read a play until the server accepts one."""
        state = self.client.request_json("state", self.game)
        self.players = list(state.get("players") or self.players)
        legal: list[dict[str, Any]] = self.client.request_json("legal", self.game)["moves"]
        if not legal:
            return
        moves = [str(move["move"]) for move in legal]
        self.console.print(
            table_view(state["view"], self.players, moves, self.style, self.past_rounds)
        )
        while True:
            answer = self.console.input("[bold]Your play[/] (number or notation, ? for help): ")
            answer = answer.strip()
            if answer in ("?", "help"):
                self.console.print(HELP)
            elif answer == "table":
                self.console.print(
                    table_view(state["view"], self.players, moves, self.style, self.past_rounds)
                )
            elif answer == "resign":
                sure = self.console.input(r"Resign the whole match? \[y/N] ").strip().lower()
                if sure in ("y", "yes"):
                    self.client.request_json("resign", self.game)
                    return
            elif answer:
                move = pick_move(answer, legal)
                if move is None:
                    self.console.print(
                        f"[red]{escape(repr(answer))} is not one of the legal plays[/] "
                        f"(1-{len(moves)}, or notation such as {moves[0]}; ? for help)."
                    )
                    continue
                try:
                    played = self.client.request_json("play", self.game, move)["move"]
                except ServerError as exc:  # e.g. the game ended meanwhile
                    self.console.print(f"[red]Refused: {escape(str(exc))}[/]")
                    continue
                self.console.print("You played ", self.style.play(str(played)), sep="")
                return


def start(args: argparse.Namespace, client: Client, console: Console) -> tuple[str, int]:
    """Create (unless ``--game``) and join the game; return (game id, our seat)."""
    game = args.game
    if game is None:
        options = []
        if args.seed is not None:
            options.append(f"seed={args.seed}")
        if args.leader is not None:
            options.append(f"leader={args.leader}")
        game = str(client.request_json("new", "hipparchus", *options)["game"])
        console.print(
            f"Created game [bold]{escape(game)}[/]. An opponent joins with "
            f"'hipparchus-play --game {game}', or a bot with "
            f"'python3 clients/python/bot.py --port {args.port} --game {game}'."
        )
    joined = client.request_json("join", game, f"name={args.name or 'player'}")
    seat = int(joined["seat"])
    console.print(
        f"You sit at seat {seat} of game {game}. "
        f"Your seat's token (to resume it) is {joined.get('token')}."
    )
    return game, seat


def seated_players(client: Client, game: str) -> list[Any]:
    """The names at the table now (``-`` or ``None`` for a free seat), from ``state``: a seat
    taken before we followed the game sent its ``joined`` event before we could see it."""
    players = client.request_json("state", game).get("players")
    return list(players) if players else ["-", "-"]


class Spectator(Session):
    """A spectator of one game (``watch``): it shows what both seats see in common (RULINGS
    H13), keeping the public view up to date from the events to show the table after each
    trick."""

    def __init__(
        self, client: Client, console: Console, style: Style, game: str, view: dict[str, Any] | None
    ) -> None:
        super().__init__(client, console, style, game, None)
        self.view = view

    def show_table(self) -> None:
        """The table now: score, both hand sizes, won piles, the trick (no hand, no plays)."""
        if self.view is not None:
            self.console.print(
                table_view(self.view, self.players, [], self.style, self.past_rounds)
            )

    def on_event(self, event: Event) -> bool:
        """Show one event as :meth:`Session.on_event` does; after a trick, the table."""
        self.view = follow_view(self.view, event.kind, event.data)
        over = super().on_event(event)
        if event.kind == "trick":
            self.show_table()
        return over


def resume(token: str, client: Client, console: Console, style: Style) -> int:
    """Take a seat back with its token (``resume``) and play on from the snapshot: if it is
    our turn, the ``turn`` event went to the old connection, so we ask for a play at once."""
    snapshot = client.request_json("resume", token)
    game = str(snapshot["game"])
    view = snapshot.get("view") or {}
    seat = int(view["seat"])
    session = Session(client, console, style, game, seat)
    session.players = list(snapshot.get("players") or session.players)
    console.print(f"You are back at seat {seat} of game {game}.")
    if session.finished(view):
        return 0
    if view.get("to_move") == seat:
        session.my_turn()
    return session.run()


def watch(game: str, client: Client, console: Console, style: Style) -> int:
    """Follow ``game`` as a spectator (``watch``) until the match is over (exit status 0),
    from its start if it has not started yet, else from the snapshot: the table as it is."""
    snapshot = client.request_json("watch", game)
    spectator = Spectator(client, console, style, game, snapshot.get("view"))
    spectator.players = list(snapshot.get("players") or spectator.players)
    console.print(f"Watching game {game}: {spectator.label(0)} against {spectator.label(1)}.")
    if spectator.finished(spectator.view):
        return 0
    if spectator.view is None:
        console.print("Waiting for the game to start...")
    else:
        spectator.show_table()
    return spectator.run()


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``hipparchus-play``; returns the exit status (0 once the match is over)."""
    args = parse_args(argv)
    console = Console(highlight=False)
    style = Style(symbols=wants_symbols(console, args.ascii))
    try:
        with Client.connect(args.host, args.port, json=True) as client:
            if args.resume is not None:
                return resume(args.resume, client, console, style)
            if args.watch is not None:
                return watch(args.watch, client, console, style)
            game, seat = start(args, client, console)
            session = Session(client, console, style, game, seat)
            session.players = seated_players(client, game)
            if any(name in (None, "-") for name in session.players):
                console.print("Waiting for an opponent...")
            return session.run()
    except (ClientError, OSError) as exc:
        console.print(f"[bold red]hipparchus-play: {escape(str(exc))}[/]")
        return 1
    except (KeyboardInterrupt, EOFError):
        if args.watch is not None:
            console.print("\nStopped watching.")
        else:
            console.print("\nLeft the game (your seat stays reserved for its token).")
        return 130


if __name__ == "__main__":
    sys.exit(main())
