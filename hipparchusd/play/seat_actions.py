"""What a person at a table does besides choosing moves, the same in every game screen: read
the keys and the rules (``?``), seat a computer opponent while the table waits for players
(``b``, :mod:`.opponents`), resign (Ctrl+R, once confirmed), claim the game over an absent
opponent (Ctrl+K, offered once the server said it is absent: RULINGS T4) and leave (Ctrl+Q),
told truly what becomes of the seat."""

from __future__ import annotations

import abc
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import attrs
from rich.text import Text
from textual.screen import Screen

from ..client import ConnectionClosed, ServerError
from .connection import Connection
from .opponents import LevelScreen
from .widgets import ConfirmScreen, RulesScreen


@attrs.define
class Seating:
    """Who the screen is for: the ``game`` and its ``kind``, our ``seat`` (``None`` for a
    spectator) and its ``token``, the ``players``' names by seat (``None`` or ``-`` when free)."""

    game: str
    kind: str
    seat: int | None
    token: str | None
    players: list[Any]


# Textual's screen metaclass is taken from Screen itself rather than imported by its private
# name, which a Textual release may rename; mypy cannot follow a base computed at run time.
class ScreenABCMeta(type(Screen), abc.ABCMeta):  # type: ignore[misc]
    """Textual's screen metaclass with ABCMeta's, as a plain ABC base clashes with it: the
    metaclass of a screen with abstract methods (:class:`~.game_screen.GameScreen`)."""


class SeatActions(Screen[None]):
    """The actions of :class:`~.game_screen.GameScreen` that are not moves, over what that
    screen keeps: its ``connection`` and ``seating``, its ``rules`` text and :attr:`KEYS`, the
    engine ``levels`` the server offers for the game (and the ``level`` chosen last), whether
    the game is ``over`` and its ``status``, and the callbacks ``on_finished(message, code)``
    and ``forget_token()``."""

    #: How the screen is played from the keyboard and the mouse (Markdown), shown by ``?``.
    KEYS: ClassVar[str] = ""

    connection: Connection
    seating: Seating
    rules: str
    levels: tuple[str, ...]
    level: str
    over: dict[str, Any] | None
    absent: set[int]
    status: str
    refusal: str
    on_finished: Callable[[str, int], None]
    forget_token: Callable[[], None]

    @abc.abstractmethod
    def note(self, text: Text | str) -> None:
        """Add a line to the log."""

    @abc.abstractmethod
    def redraw(self) -> None:
        """Draw the screen again."""

    @property
    def waiting(self) -> bool:
        """True while the game waits for players (seats are free, it has not started)."""
        return self.status == "waiting" and self.over is None

    def action_rules(self) -> None:
        """Show the screen's keys and the game's rules text; a spectator is told first that
        only ``?`` and Ctrl+Q work while watching."""
        keys = f"**Keys.** {self.KEYS}\n\n" if self.KEYS else ""
        if self.seating.seat is None:
            watching = "You are watching: `?` shows this, Ctrl+Q stops watching."
            keys = f"**Keys.** {watching} The players' keys: {self.KEYS}\n\n"
        self.app.push_screen(RulesScreen(keys + self.rules))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The keys that work now, the only ones the footer shows: Enter plays (``submit``)
        and Ctrl+R resigns only for a seat we hold in a game started and not over, so that a
        spectator is offered neither, nor sends them (the daemon would refuse them); once
        the game is over Enter leaves (``finish``, named by the status line, not the
        footer); ``b`` (a computer opponent) only while the table waits for players and the
        server has an opponent for the game; Ctrl+K as :meth:`can_claim` says."""
        seated = self.seating.seat is not None and self.over is None
        if action == "submit":
            return seated and not self.waiting
        if action == "resign":
            return seated and self.status == "playing"
        if action == "finish":
            return self.over is not None
        if action == "add_opponent":
            return self.waiting and bool(self.levels)
        if action == "claim":
            return self.can_claim()
        return True

    def keys_state(self) -> tuple[bool, ...]:
        """What :meth:`check_action` depends on: the footer is drawn again when it changes."""
        seated = self.seating.seat is not None
        return (
            self.waiting and bool(self.levels),
            seated,
            self.over is None,
            self.status == "playing",
        )

    def can_claim(self) -> bool:
        """Whether ``claim`` is offered: we hold a seat in a game going on and another seat is
        absent (the server still decides: in planets the engine plays for an absent seat)."""
        seat = self.seating.seat
        return (
            seat is not None
            and self.over is None
            and self.status == "playing"
            and any(other != seat for other in self.absent)
        )

    def action_claim(self) -> None:
        """Claim the game over an absent opponent (RULINGS T4); the server says if it may not."""
        if not self.can_claim():
            return

        async def claim() -> None:
            try:
                await self.connection.request("claim", self.seating.game)
            except ConnectionClosed:
                return
            except ServerError as error:
                self.note(Text(f"Claim refused: {error.message}", "red"))

        self.run_worker(claim(), group="moves")

    def action_add_opponent(self) -> None:
        """Choose a level, then seat the engine at it in the next free seat."""
        if not (self.waiting and self.levels):
            return

        def chosen(level: str | None) -> None:
            if level:
                self.level = level
                self.run_worker(self.add_opponents([level]), group="opponents")

        self.app.push_screen(LevelScreen(self.levels, self.level or None), chosen)

    async def add_opponents(self, levels: Sequence[str]) -> None:
        """Seat the engine at each of ``levels`` in turn (``bot``); the log shows each seat
        taken (its ``joined`` event), or why the server refused one (then no more are asked)."""
        for level in levels:
            try:
                await self.connection.request("bot", self.seating.game, f"level={level}")
            except ConnectionClosed:
                return
            except ServerError as error:
                self.refusal = f"No computer opponent ({level}): {error.message}"
                self.note(Text(self.refusal, "bold red"))
                self.redraw()
                return

    def action_resign(self) -> None:
        """Resign, once confirmed."""
        if self.seating.seat is None or self.over is not None or self.status != "playing":
            return

        async def resign(yes: bool | None) -> None:
            if yes:
                try:
                    await self.connection.request("resign", self.seating.game)
                except ConnectionClosed:
                    return
                except ServerError as error:
                    self.note(Text(f"Resign refused: {error.message}", "red"))

        def answered(yes: bool | None) -> None:
            self.run_worker(resign(yes), group="moves")

        self.app.push_screen(ConfirmScreen("Resign the whole game?"), answered)

    def action_finish(self) -> None:
        """Enter once the game is over: leave (:meth:`action_leave`)."""
        self.action_leave()

    def action_leave(self) -> None:
        """Leave: the message says truly what becomes of the seat."""
        game = self.seating.game
        if self.seating.seat is None:
            self.on_finished(f"Stopped watching {game}.", 0)
        elif self.over is not None:
            self.on_finished(f"Game {game} is over.", 0)
        elif self.status != "playing":
            # Before the start, leaving frees the seat (PROTOCOL.md, leave): no token to keep.
            self.forget_token()
            self.on_finished(f"You left {game} before it started: your seat is free again.", 130)
        else:
            self.on_finished(
                f"You left {game}; your seat stays reserved. "
                "Run hipparchus-play --resume to take it back.",
                130,
            )
