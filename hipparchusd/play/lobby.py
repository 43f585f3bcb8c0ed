"""The lobby screen: the server's games (``games``), and buttons and keys to create one of any
kind it serves (``kinds``) with options (``new``), join one (``join``) or watch one
(``watch``)."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, DataTable, Footer, Input, Select, Static

from ..client import ClientError, ConnectionClosed, ServerError
from .connection import Connection
from .phrases import plural


class LobbyScreen(Screen[None]):
    """List games, create one (``n``: the kind chosen and the options typed below), join
    (``j`` or Enter) or watch (``w``) the highlighted one, refresh (``r``), quit (``q``).

    ``start(action, argument)`` is the application's: ``("join", game)``, ``("watch", game)``
    or ``("new", "<kind> key=value ...")``. ``kinds`` are the kinds the server serves, in the
    order its ``kinds`` lists them (the first is chosen at first).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new", "new game"),
        Binding("j", "join", "join"),
        Binding("w", "watch", "watch"),
        Binding("r", "refresh", "refresh"),
        Binding("q", "quit", "quit"),
    ]

    def __init__(
        self,
        connection: Connection,
        start: Callable[[str, str], Awaitable[None]],
        quit_app: Callable[[], None],
        where: str,
        kinds: list[str],
    ) -> None:
        super().__init__()
        self.connection = connection
        self.start = start
        self.quit_app = quit_app
        self.where = where
        self.games: list[dict[str, Any]] = []
        self.kinds = kinds

    def compose(self) -> ComposeResult:
        """The games table; the new-game line (kind, options); the buttons; the keys."""
        yield Static(f"[b]hipparchus-play[/b]  ·  games on {self.where}", id="title")
        with Vertical(id="lobby"):
            table: DataTable[str] = DataTable(id="games", cursor_type="row")
            yield table
            yield Static("", id="lobby-status")
            with Horizontal(id="new-line"):
                yield Select(
                    [(kind, kind) for kind in self.kinds],
                    prompt="kind",
                    allow_blank=not self.kinds,
                    id="kind",
                )
                yield Input(placeholder="options, e.g. players=3 seed=7", id="options")
                yield Button("New game", id="new", variant="primary")
            with Horizontal(id="buttons"):
                yield Button("Join", id="join", variant="success")
                yield Button("Watch", id="watch")
                yield Button("Refresh", id="refresh")
        yield Footer()

    async def on_mount(self) -> None:
        """Columns, then the games."""
        table = self.query_one("#games", DataTable)
        table.add_columns("game", "kind", "status", "players", "fixed deal")
        table.focus()
        with contextlib.suppress(ClientError):  # refused, or the connection closed: the
            await self.action_refresh()  # application says so

    async def action_refresh(self, note: str = "") -> None:
        """Ask ``games`` again, and say how many there are, after ``note`` if given (how the
        last game ended)."""
        answer = await self.connection.request("games")
        self.games = [dict(game) for game in answer.get("games") or []]
        table = self.query_one("#games", DataTable)
        table.clear()
        for game in self.games:
            players = ", ".join(str(p) if p not in (None, "-") else "-" for p in game["players"])
            table.add_row(
                str(game["game"]),
                str(game["kind"]),
                str(game["status"]),
                players,
                "yes" if game.get("fixed_deal") else "",
                key=str(game["game"]),
            )
        count = (
            f"{plural(len(self.games), 'game')}." if self.games else "No game yet: n creates one."
        )
        self.say(" ".join(filter(None, (note, count, f"Kinds: {', '.join(self.kinds)}."))))

    def say(self, text: str) -> None:
        """The line under the table."""
        self.query_one("#lobby-status", Static).update(text)

    def highlighted(self) -> str | None:
        """The game of the highlighted row."""
        table = self.query_one("#games", DataTable)
        if not self.games or table.cursor_row is None:
            return None
        row = min(max(table.cursor_row, 0), len(self.games) - 1)
        return str(self.games[row]["game"])

    async def action_join(self) -> None:
        """Join the highlighted game."""
        game = self.highlighted()
        if game is None:
            self.say("No game to join: n creates one.")
            return
        await self.run_start("join", game)

    async def action_watch(self) -> None:
        """Watch the highlighted game."""
        game = self.highlighted()
        if game is None:
            self.say("No game to watch.")
            return
        await self.run_start("watch", game)

    async def action_new(self) -> None:
        """Create a game of the kind and options typed, and join it."""
        kind = self.query_one("#kind", Select).value
        if not isinstance(kind, str):
            self.say("The server serves no game kind.")
            return
        options = self.query_one("#options", Input).value.strip()
        await self.run_start("new", f"{kind} {options}".strip())

    async def run_start(self, action: str, argument: str) -> None:
        """Start, or say why not."""
        try:
            await self.start(action, argument)
        except ConnectionClosed:
            pass  # the application says so as it closes
        except (ServerError, ValueError) as error:
            self.say(f"[red]{action} refused: {getattr(error, 'message', error)}[/]")

    def action_quit(self) -> None:
        """Leave the program."""
        self.quit_app()

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        """The buttons do what the keys do."""
        actions = {
            "new": self.action_new,
            "join": self.action_join,
            "watch": self.action_watch,
            "refresh": self.action_refresh,
        }
        action = actions.get(event.button.id or "")
        if action is not None:
            await action()

    async def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a game joins it (or watches it when it is full)."""
        game = self.highlighted()
        if game is None:
            return
        summary = next(g for g in self.games if g["game"] == game)
        free = any(p in (None, "-") for p in summary["players"])
        await self.run_start("join" if free else "watch", game)
