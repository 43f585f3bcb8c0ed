"""The ``hipparchus-play`` command: a full-screen terminal client for every game the daemon
serves, built on Textual.

It speaks only the protocol (PROTOCOL.md), in JSON mode (:mod:`.connection`). Without
arguments it opens the lobby (list, create, join, watch); ``--game`` joins a game, ``--new``
(or ``--seed``/``--leader``/``--option``) creates one and joins it, ``--bot LEVEL`` (repeated)
seats the daemon's engine in the new game's other seats (:mod:`.opponents`), ``--watch``
follows one as a spectator paced by ``--delay``, ``--resume`` takes a seat back with its token
(kept in the user's data directory, :mod:`.seats`, so that plain ``--resume`` finds it). Each
game is shown by the screen its kind names, or the generic one (:mod:`.kinds`); a game opened
from the lobby goes back to it once over (or once a spectator stops watching).
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import attrs
from textual.app import App
from textual.binding import Binding, BindingType

from ..client import DEFAULT_PORT, ClientError, Event, ServerError
from .connection import Connection
from .game_screen import GameScreen
from .kinds import rules_text, screen_class
from .lobby import LobbyScreen
from .opponents import check_levels, seat_range
from .phrases import plural
from .seat_actions import Seating
from .seats import SavedSeat, SeatStore
from .widgets import ConfirmScreen, Look

CSS = """
/* Two rows where one is too narrow: the parts at its end (fixed deal, watching) matter. */
#title { height: auto; max-height: 2; background: $primary-darken-2; color: $text; padding: 0 1; }
#main { height: 1fr; }
#play-area { width: 3fr; padding: 0 1; overflow-y: auto; }
/* The table takes what the status, the hand and the moves leave (23 rows at most), so that
   the hand stays on screen in a small terminal (80x24); below 12 rows the area scrolls. */
#table { grid-size: 3 3; grid-columns: 1fr 2fr 1fr; grid-rows: 6fr 11fr 6fr; height: 1fr;
         max-height: 23; min-height: 12; grid-gutter: 0 1; }
.cell { padding: 0 1; height: 100%; }
.seat { border: round $primary; }
.seat.to-move { border: heavy $warning; }
.center { border: double $secondary; }
#legend { height: auto; color: $text-muted; }
#legend.empty { display: none; }
#status { height: auto; margin: 1 0 0 0; }
#hand-label { margin: 1 0 0 0; }
#hand { margin: 0 0 1 0; }
#typed { height: 1; }
#log { width: 2fr; border-left: solid $primary; padding: 0 1; }
/* A short terminal (under 34 rows, PlayApp.VERTICAL_BREAKPOINTS): no legend (? shows the
   rules) and no blank lines, so that the hand and the moves fit in 24 rows. */
Screen.-short #legend { display: none; }
Screen.-short #status, Screen.-short #hand-label, Screen.-short #hand { margin: 0; }
ModalScreen { align: center middle; }
#dialog { width: 84; height: auto; max-height: 90%; border: thick $primary;
          background: $surface; padding: 1 2; }
#dialog-title { margin: 0 0 1 0; }
#dialog.rules { width: 90; height: 90%; overflow-y: auto; }
#lobby { padding: 1 2; }
#games { height: 1fr; }
#lobby-status { height: 2; }
#new-line, #buttons { height: auto; }
#kind { width: 20; }
#options { width: 1fr; }
"""


@attrs.frozen
class KindAbout:
    """What the server says of a kind it serves (``kinds``): its one-line ``summary``, its
    ``seats`` (``2``, ``3-6``) and the engine ``levels`` that ``bot`` seats, weakest first
    (``None`` from a server whose ``kinds`` does not list them: it is then the judge)."""

    summary: str = ""
    seats: str = ""
    levels: tuple[str, ...] | None = ()

    @classmethod
    def of(cls, about: object) -> KindAbout:
        """From the kind's entry of ``kinds``' ``about`` (JSON; anything missing is empty)."""
        fields = about if isinstance(about, dict) else {}
        return cls(
            str(fields.get("summary") or ""),
            str(fields.get("seats") or ""),
            None
            if "levels" not in fields
            else tuple(str(level) for level in fields.get("levels") or []),
        )


@attrs.define
class Options:
    """The command line, checked (:func:`parse_args`)."""

    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    name: str | None = None
    game: str | None = None
    resume: str | None = None  # "" = the saved token for this server
    watch: str | None = None
    new: str | None = None  # the kind to create ("": the server's first kind)
    options: list[str] = attrs.Factory(list)
    bots: list[str] = attrs.Factory(list)  # the new game's computer opponents' levels
    delay: float | None = None
    ascii: bool = False
    data_dir: Path | None = None


def parse_args(argv: Sequence[str] | None) -> Options:
    """The command line (see ``hipparchus-play --help``); exits with status 2 on bad input."""
    parser = argparse.ArgumentParser(
        prog="hipparchus-play",
        description=(
            "Play any game a hipparchusd server serves, full-screen. Without --game, --new, "
            "--watch or --resume it opens the lobby."
        ),
    )
    parser.add_argument("--host", default="127.0.0.1", help="server address (127.0.0.1)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="server port (7460)")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--game", help="join this game")
    which.add_argument(
        "--resume",
        metavar="TOKEN",
        nargs="?",
        const="",
        help="take your seat back (default: the seat saved for this server)",
    )
    which.add_argument("--watch", metavar="GAME", help="watch this game as a spectator")
    which.add_argument(
        "--new",
        metavar="KIND",
        help="create a game of KIND (see 'kinds' on the server) and join it",
    )
    parser.add_argument("--name", help="your name at the table (default: player<seat>)")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an option of the new game (repeat; see 'help new' on the server)",
    )
    parser.add_argument(
        "--seed", type=int, help="new game: deal reproducibly (a fixed deal): --option seed=N"
    )
    parser.add_argument(
        "--leader", help="new game: who leads first, for a kind with that option: --option leader=L"
    )
    parser.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="LEVEL",
        help="new game: seat a computer opponent of LEVEL in the next free seat (repeat for "
        "more; the levels are the server's, see 'kinds': e.g. random, heuristic, ismcts)",
    )
    parser.add_argument(
        "--delay",
        type=float,
        help="seconds between events while watching (default 1.0; 0 while playing)",
    )
    parser.add_argument("--ascii", action="store_true", help="suits as letters, not symbols")
    parser.add_argument("--data-dir", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    options = list(args.option)
    for option in options:
        if "=" not in option or option.startswith("="):
            parser.error(f"--option {option!r}: expected KEY=VALUE")
    if args.seed is not None:
        options.append(f"seed={args.seed}")
    if args.leader is not None:
        options.append(f"leader={args.leader}")
    new = args.new
    if (options or args.bot) and new is None:
        if args.game or args.watch or args.resume is not None:
            parser.error("--seed, --leader, --option and --bot are for a new game only")
        new = ""  # the first kind the server lists
    if args.delay is not None and args.delay < 0:
        parser.error("--delay must not be negative")
    if args.watch is not None and args.name is not None:
        parser.error("--name: not with --watch (a spectator has no seat)")
    return Options(
        host=args.host,
        port=args.port,
        name=args.name,
        game=args.game,
        resume=args.resume,
        watch=args.watch,
        new=new,
        options=options,
        bots=list(args.bot),
        delay=args.delay,
        ascii=args.ascii,
        data_dir=args.data_dir,
    )


def wants_symbols(encoding: str | None, force_ascii: bool) -> bool:
    """Suit symbols unless ``--ascii`` or the terminal's encoding is not UTF-8."""
    if force_ascii or not encoding:
        return False
    try:
        return codecs.lookup(encoding).name == "utf-8"
    except LookupError:
        return False


class PlayApp(App[int]):
    """The application: one connection, the lobby or a game screen.

    Its ``return_code`` is 0 once a game is over or the player quits the lobby, 130 when the
    player leaves a game in progress, 1 when the server cannot be reached, refuses the start
    or drops the connection.
    """

    CSS = CSS
    #: Below 34 rows the screen is ``-short`` (CSS above): the table, the hand and the moves
    #: need about 34 rows drawn in full; ``-tall`` has no rules, it only ends ``-short``.
    #: (Textual types it ``ClassVar[...] | None``, which mypy reads as an instance variable,
    #: so it cannot be annotated ``ClassVar`` here.)
    VERTICAL_BREAKPOINTS = [(0, "-short"), (34, "-tall")]  # noqa: RUF012
    TITLE = "hipparchus-play"
    ENABLE_COMMAND_PALETTE = False
    # Ctrl+Q and Ctrl+C leave through the screen shown, which says what becomes of the seat.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "leave", "leave", priority=True),
        Binding("ctrl+c", "leave", "leave", show=False, priority=True),
    ]

    def __init__(self, options: Options, *, store: SeatStore | None = None) -> None:
        super().__init__()
        self.options = options
        self.store = store or SeatStore(options.data_dir)
        self.look = Look(symbols=wants_symbols(sys.stdout.encoding, options.ascii))
        self.connection: Connection | None = None
        self.game_screen: GameScreen | None = None
        self.lobby: LobbyScreen | None = None  # the lobby, once shown (a game goes back to it)
        self.following: str | None = None
        self.early: list[tuple[Event, int]] = []
        self.leaving = False
        self.saved: SavedSeat | None = None
        self.kinds: dict[str, KindAbout] = {}  # the server's kinds (``kinds``), in its order
        self.exit_message = ""  # what the terminal shows once the application has left

    def action_leave(self) -> None:
        """Leave: from a game, saying truly what becomes of the seat; else quit."""
        screen = self.game_screen
        if screen is not None and screen.is_attached:
            screen.action_leave()
        else:
            self.finish("", 0)

    @property
    def where(self) -> str:
        """``host:port``."""
        return f"{self.options.host}:{self.options.port}"

    def on_mount(self) -> None:
        """Connect, then start as the command line says."""
        self.run_worker(self.begin(), name="begin")

    async def begin(self) -> None:
        """Connect and start: resume, watch, join, create, or the lobby."""
        options = self.options
        try:
            self.connection = await Connection.open(
                options.host, options.port, self.dispatch, self.closed
            )
        except ConnectionRefusedError as error:
            # Nothing listens there: the newcomer's usual case is a daemon not started yet.
            port = "" if options.port == DEFAULT_PORT else f" --port {options.port}"
            self.finish(
                f"hipparchus-play: cannot talk to {self.where}: {error}\n"
                f"Is hipparchusd running there? Start it with: hipparchusd{port}"
                " (or give the --host and --port of one that runs)",
                1,
            )
            return
        except (OSError, ClientError) as error:
            self.finish(f"hipparchus-play: cannot talk to {self.where}: {error}", 1)
            return
        try:
            about = await self.connection.request("kinds")
            described = about.get("about") or {}
            self.kinds = {
                str(kind): KindAbout.of(described.get(kind)) for kind in about.get("kinds") or []
            }
            if options.resume is not None:
                await self.resume(options.resume)
            elif options.watch is not None:
                await self.start("watch", options.watch)
            elif options.game is not None:
                await self.start("join", options.game)
            elif options.new is not None:
                kind = options.new or next(iter(self.kinds), None)
                if kind is None:
                    raise ValueError(f"{self.where} serves no game kind")
                self.check_bots(kind, options.bots)
                await self.start("new", " ".join([kind, *options.options]), options.bots)
            else:
                await self.open_lobby()
        except (ClientError, ValueError) as error:  # refused, or the connection dropped
            self.finish(f"hipparchus-play: {error}", 1)

    async def open_lobby(self) -> None:
        """The lobby, after offering the seats saved for this server (if their games go on)."""
        assert self.connection is not None
        self.lobby = LobbyScreen(
            self.connection, self.start, lambda: self.finish("", 0), self.where, list(self.kinds)
        )
        await self.push_screen(self.lobby)
        for saved in self.store.for_server(self.options.host, self.options.port):
            try:
                state = await self.connection.request("state", saved.game)
            except ServerError:
                self.store.forget(saved.token)  # the game is gone
                continue
            if state.get("status") != "playing":
                continue

            async def answered(yes: bool | None, saved: SavedSeat = saved) -> None:
                if yes:
                    await self.resume(saved.token)

            await self.push_screen(
                ConfirmScreen(f"Take your seat back? ({saved.describe()})"), answered
            )
            return

    async def resume(self, token: str) -> None:
        """``resume``: with ``token``, or ``""`` for the saved seat of this server."""
        assert self.connection is not None
        if not token:
            saved = self.store.for_server(self.options.host, self.options.port)
            if not saved:
                raise ValueError(f"no seat saved for {self.where}: give the token")
            token = saved[0].token
        self.following = None
        snapshot, order = await self.connection.ask("resume", token)
        game = str(snapshot["game"])
        self.following = game
        view = snapshot.get("view") or {}
        seat = int(view["seat"])
        players = list(snapshot.get("players") or [])
        name = str(players[seat]) if seat < len(players) else "player"
        self.saved = SavedSeat(
            self.options.host, self.options.port, game, str(snapshot["kind"]), seat, name, token
        )
        self.store.save(self.saved)
        self.open_game(Seating(game, str(snapshot["kind"]), seat, token, players), snapshot, order)

    def check_bots(self, kind: str, bots: Sequence[str]) -> None:
        """Refuse ``--bot`` levels the server does not offer for ``kind``, or more opponents
        than its largest table leaves room for beside the player, before anything is created.

        Raises:
            ValueError: saying why.
        """
        about = self.kinds.get(kind, KindAbout())
        check_levels(bots, about.levels, kind)
        if bots and about.seats:
            most = seat_range(about.seats)[1]
            if len(bots) >= most:
                raise ValueError(
                    f"{kind} seats at most {most}: room for you and {most - 1} computer "
                    f"opponents, not {len(bots)}"
                )

    async def start(self, action: str, argument: str, bots: Sequence[str] = ()) -> None:
        """``join <game>``, ``watch <game>`` or ``new <kind> <options>`` (then join, and seat
        the engine at each level of ``bots`` in the next free seats).

        Raises:
            ServerError: the server refused a request.
            ValueError: more ``bots`` than the new game's seats leave room for (checked
                before the player sits down).
        """
        assert self.connection is not None
        if action == "new":
            kind, *words = argument.split()
            created = await self.connection.request("new", kind, *words)
            argument = str(created["game"])
            action = "join"
            if bots:
                await self.room_for(argument, len(bots))
        game = argument
        self.following = game
        self.early = []
        if action == "watch":
            snapshot, order = await self.connection.ask("watch", game)
            seating = Seating(game, str(snapshot["kind"]), None, None, [])
            self.open_game(seating, snapshot, order)
            return
        words = [f"name={self.options.name}"] if self.options.name else []
        joined = await self.connection.request("join", game, *words)
        seat, token = int(joined["seat"]), str(joined["token"])
        snapshot, order = await self.connection.ask("state", game)
        players = list(snapshot.get("players") or [])
        kind = str(snapshot["kind"])
        name = str(players[seat]) if seat < len(players) else f"player{seat}"
        self.saved = SavedSeat(self.options.host, self.options.port, game, kind, seat, name, token)
        self.store.save(self.saved)
        self.open_game(Seating(game, kind, seat, token, players), snapshot, order, bots)

    async def room_for(self, game: str, bots: int) -> None:
        """Check that the new ``game`` has a seat for the player and ``bots`` more.

        Raises:
            ValueError: it has fewer (its options chose a smaller table).
        """
        assert self.connection is not None
        seats = len((await self.connection.request("state", game)).get("players") or [])
        if bots >= seats:
            raise ValueError(
                f"game {game} has {plural(seats, 'seat')}: room for you and "
                f"{plural(seats - 1, 'computer opponent')}, not {bots}"
            )

    def open_game(
        self,
        seating: Seating,
        snapshot: dict[str, Any],
        order: int,
        opponents: Sequence[str] = (),
    ) -> None:
        """Show the game's screen and hand it the events read meanwhile; it seats the engine at
        each level of ``opponents`` once shown."""
        assert self.connection is not None
        delay = self.options.delay
        if delay is None:
            delay = 1.0 if seating.seat is None else 0.0
        screen = screen_class(seating.kind)(
            self.connection,
            seating,
            snapshot,
            order,
            self.look,
            delay=delay,
            on_finished=self.left_game,
            forget_token=self.forget_token,
            rules=rules_text(seating.kind, self.kinds.get(seating.kind, KindAbout()).summary),
            levels=self.kinds.get(seating.kind, KindAbout()).levels or (),
        )
        where = "" if self.options.host == "127.0.0.1" else f" --host {self.options.host}"
        if self.options.port != DEFAULT_PORT:
            where += f" --port {self.options.port}"
        screen.join_hint = f"hipparchus-play{where} --game {seating.game}"
        screen.opponents = list(opponents)
        if self.lobby is not None:
            screen.back_to = "the lobby"
        self.game_screen = screen
        for event, event_order in self.early:
            screen.push_event(event, event_order)
        self.early = []
        self.push_screen(screen)

    def left_game(self, message: str, code: int) -> None:
        """The game's screen was left with ``message``: back to the lobby it was opened from
        once the game is over or a spectator stops watching (``code`` 0), else out of the
        program with status ``code``."""
        screen, lobby = self.game_screen, self.lobby
        if screen is None or lobby is None or code != 0:
            self.finish(message, code)
            return
        self.game_screen = None
        self.following = None
        self.early = []
        self.run_worker(self._back_to(lobby, screen, message))

    async def _back_to(self, lobby: LobbyScreen, screen: GameScreen, message: str) -> None:
        while self.screen is not lobby:  # the game's screen and any dialog over it
            self.pop_screen()
        assert self.connection is not None
        # Refused (the game ended meanwhile: nothing to stop), or the connection closed (the
        # person quit meanwhile: the application says so as it closes), as the lobby's mount.
        if screen.seating.seat is None:
            with contextlib.suppress(ClientError):
                await self.connection.request("unwatch", screen.seating.game)
        lobby.say(message)
        with contextlib.suppress(ClientError):
            await lobby.action_refresh(message)

    def forget_token(self) -> None:
        """The seat's token is of no more use."""
        if self.saved is not None:
            self.store.forget(self.saved.token)

    def dispatch(self, event: Event) -> None:
        """An event, the moment it is read: to the game's screen (or kept for it)."""
        assert self.connection is not None
        order = self.connection.lines_read
        if event.game == "server":
            if event.kind == "shutdown":
                self.notify("The server is shutting down.", severity="error", timeout=10)
            return
        screen = self.game_screen
        if screen is not None and event.game == screen.seating.game:
            screen.push_event(event, order)
        elif event.game == self.following:
            self.early.append((event, order))

    def closed(self, reason: str) -> None:
        """The connection ended: say so and what becomes of the seat."""
        if self.leaving:
            return
        screen = self.game_screen
        message = f"hipparchus-play: {reason}."
        if screen is not None and screen.seating.seat is not None and screen.over is None:
            message += " Your seat is kept: hipparchus-play --resume takes it back."
        self.finish(message, 1)

    def finish(self, message: str, code: int) -> None:
        """Close the connection and leave with ``message`` printed and status ``code``."""
        if self.leaving:
            return
        self.leaving = True
        self.exit_message = message
        if self.connection is not None:
            self.run_worker(self._close_then_exit(message, code))
        else:
            self.exit(code, return_code=code, message=message or None)

    async def _close_then_exit(self, message: str, code: int) -> None:
        assert self.connection is not None
        await self.connection.close()
        self.exit(code, return_code=code, message=message or None)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``hipparchus-play``; returns the exit status (see :class:`PlayApp`)."""
    options = parse_args(argv)
    app = PlayApp(options)
    app.run()
    return app.return_code or 0


if __name__ == "__main__":
    sys.exit(main())
