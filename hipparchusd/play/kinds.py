"""What the terminal client knows of a game kind: the screen that plays it and the rules text
that ``?`` shows, both found through the kind's
:class:`~hipparchusd.games.base.GameKind` (``tui``, ``rules``), never by its name.

The kinds a server serves come from the server (``kinds``); the client may not know one of them
(a newer server, or a kind registered in the server's process only): it then plays it with
:class:`~.generic_screen.GenericScreen` and shows the server's summary as its rules.
"""

from __future__ import annotations

from importlib.metadata import EntryPoint

from ..games.registry import KINDS
from .game_screen import GameScreen
from .generic_screen import GenericScreen

#: The entry point group of a kind's terminal screen (:attr:`GameKind.tui` is one's value).
TUI_GROUP = "hipparchusd.tui"


def screen_class(kind: str) -> type[GameScreen]:
    """The screen for games of ``kind``: the class its ``GameKind.tui`` names, imported now;
    :class:`GenericScreen` for a kind without one or unknown to this client.

    Raises:
        ImportError, AttributeError: ``tui`` names a module or class that is not there.
        TypeError: what it names is not a :class:`GameScreen`.
    """
    game_kind = KINDS.get(kind)
    if game_kind is None or game_kind.tui is None:
        return GenericScreen
    loaded = EntryPoint(name=kind, value=game_kind.tui, group=TUI_GROUP).load()
    if not (isinstance(loaded, type) and issubclass(loaded, GameScreen)):
        raise TypeError(f"{kind}: tui {game_kind.tui} is not a game screen")
    return loaded


def rules_text(kind: str, summary: str = "") -> str:
    """The rules ``?`` shows for ``kind`` (Markdown): the text its ``GameKind.rules`` ships;
    else the server's one-line ``summary`` of the kind (from ``kinds``), saying that this
    client has no more.

    Raises:
        OSError: the rules file of an installed kind cannot be read.
    """
    game_kind = KINDS.get(kind)
    text = game_kind.rules_text() if game_kind is not None else None
    if text is not None:
        return text
    about = f"{summary[:1].upper()}{summary[1:]}." if summary else "The server gives no summary."
    return f"# {kind}\n\n{about}\n\nThis client has no rules text for {kind}."
