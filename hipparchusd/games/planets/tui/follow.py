"""Following a game of planets from its events, and explaining what happened
(docs/planets.md): pure functions, no I/O.

:func:`follow` keeps a view (protocol/games/planets.md, "The view") up to date from the
events; it returns a new dict and never changes its input. A seat's own pass comes from the
answer to its ``play`` (``my_pass``). :func:`trick_reason` and :func:`hand_over_lines` say in
words why a trick or a hand went as it did, from public data only.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

from ....play.phrases import Label, View, plural, verb_s

PLANETS_SUITS = {
    "E": "Earth",
    "J": "Jupiter",
    "M": "Mars",
    "N": "Neptune",
    "S": "Saturn",
    "V": "Venus",
}
PLANETS_RANKS = "1234567MSG"
RANK_NAMES = {"M": "Moon", "S": "Sun", "G": "Galaxy"}


def card_key(card: str) -> tuple[int, int]:
    """Sort key of a planets card: suit E J M N S V, then rank 1-7 M S G."""
    return ("EJMNSV".index(card[0]), PLANETS_RANKS.index(card[1]))


def sort_cards(cards: Sequence[str]) -> list[str]:
    """Cards sorted as a hand is shown (docs/planets.md, "Notation")."""
    return sorted(cards, key=card_key)


def card_points(card: str) -> int:
    """A card's points (RULINGS P7): Jupiter 1 to Sun 1 each, Mars 7 and Neptune 7 seven."""
    if card in ("M7", "N7"):
        return 7
    return 1 if card[0] == "J" and card[1] != "G" else 0


def card_name(card: str) -> str:
    """``VS`` -> ``Venus Sun``; ``J4`` -> ``Jupiter 4``."""
    return f"{PLANETS_SUITS[card[0]]} {RANK_NAMES.get(card[1], card[1])}"


def follow(view: View | None, kind: str, data: dict[str, Any]) -> View | None:
    """The planets view after the event ``kind`` with ``data`` (``None`` before the start).

    A seat's own pass comes from its ``play`` answer (``my_pass``); the ``received`` event then
    moves the cards. Spectators see the pass end when every seat has passed.
    """
    if kind == "hand-started":
        old = view or {}
        sizes = list(data.get("hand_sizes") or [])
        players = len(sizes)
        count = int(data.get("pass_count") or 0)
        return {
            "seat": old.get("seat"),
            "hand": old.get("hand") if old.get("seat") is not None else None,
            "hand_sizes": sizes,
            "phase": "pass" if count else "play",
            "passed": [],
            "pass_name": data.get("pass_name"),
            "pass_count": count,
            "my_pass": None,
            "received": None,
            "trick": None,
            "tricks": [],
            "points_taken": [0] * players,
            "totals": list(old.get("totals") or [0] * players),
            "jupiter_broken": False,
            "dealer": data.get("dealer"),
            "hand_number": data.get("hand_number"),
            "to_move": [],
            "shoot_pending": None,
            "winners": None,
            "resigned": None,
            "fixed_deal": old.get("fixed_deal", False),
        }
    if view is None:
        return None
    new = copy.deepcopy(view)
    seat = data.get("seat")
    if kind == "hand" and seat == new.get("seat"):
        new["hand"] = sort_cards(data.get("hand") or [])
    elif kind == "passed":
        if seat not in new["passed"]:
            new["passed"] = sorted([*new["passed"], seat])
        if len(new["passed"]) == len(new["hand_sizes"]):
            new["phase"] = "play"
    elif kind == "received" and seat == new.get("seat"):
        gave = set(new.get("my_pass") or [])
        kept = [card for card in new.get("hand") or [] if card not in gave]
        new["hand"] = sort_cards([*kept, *(data.get("cards") or [])])
        new["received"] = sort_cards(data.get("cards") or [])
        new["phase"] = "play"
    elif kind == "played":
        card = str(data.get("card"))
        trick = new.get("trick")
        if not trick or not trick.get("cards"):
            new["trick"] = {"leader": seat, "cards": [card]}
        else:
            trick["cards"] = [*trick["cards"], card]
        sizes = new["hand_sizes"]
        sizes[int(data["seat"])] -= 1
        if seat == new.get("seat") and new.get("hand"):
            new["hand"] = [c for c in new["hand"] if c != card]
        new["phase"] = "play"
    elif kind == "trick":
        done = {key: data.get(key) for key in ("number", "leader", "cards", "winner", "points")}
        new["tricks"] = [*new["tricks"], done]
        new["points_taken"][int(data["winner"])] += int(data.get("points") or 0)
        new["jupiter_broken"] = bool(data.get("jupiter_broken"))
        new["trick"] = None
    elif kind == "shoot-pending":
        new["shoot_pending"] = seat
        new["phase"] = "choice"
    elif kind == "hand-over":
        new["totals"] = list(data.get("totals") or new["totals"])
        new["points_taken"] = list(data.get("points") or new["points_taken"])
        new["shoot_pending"] = None
        new["phase"] = "over"
    elif kind == "to-move":
        new["to_move"] = list(data.get("seats") or [])
    elif kind == "game-over":
        new["winners"] = list(data.get("winners") or [])
        new["resigned"] = data.get("resigned")
        new["to_move"] = []
        new["phase"] = "over"
    return new


def trick_reason(
    trick: dict[str, Any], players: int, label: Label, shown: Callable[[str], str] = str
) -> str:
    """Why ``trick`` (a ``trick`` event's data, or a view's finished trick) went to its
    winner: the highest card of the led suit (RULINGS P5), and the points it held (P7). Each
    card is written ``shown(card)`` (the notation, ``VS``, unless a look draws it otherwise)."""
    cards = [str(card) for card in trick.get("cards") or []]
    leader = int(trick["leader"])
    winner = int(trick["winner"])
    led = cards[0][0]
    best = cards[(winner - leader) % players]
    text = (
        f"{label(winner)} take{verb_s(label(winner))} it with {shown(best)}, the highest "
        f"{PLANETS_SUITS[led]} (the led suit)"
    )
    points = int(trick.get("points") or 0)
    scoring = [card for card in cards if card_points(card)]
    if points:
        text += f": {plural(points, 'point')} ({', '.join(map(shown, scoring))})"
    else:
        text += ": no points"
    return text


def hand_over_lines(data: dict[str, Any], label: Label) -> list[str]:
    """A ``hand-over`` event explained: the points each seat took (RULINGS P7), the shooting
    choice if any (P8, P13) and the totals (P9, P14)."""
    points = list(data.get("points") or [])
    added = list(data.get("added") or [])
    totals = list(data.get("totals") or [])
    lines = [
        f"{label(seat)}: took {plural(points[seat], 'point')}, "
        f"{'+' if added[seat] >= 0 else ''}{added[seat]}, total {totals[seat]}"
        for seat in range(len(points))
    ]
    shooter = data.get("shooter")
    if shooter is not None:
        choice = data.get("choice")
        what = "23 off their own total" if choice == "self" else "23 added to every opponent"
        lines.append(f"{label(int(shooter))} took every point card and chose {choice}: {what}")
    return lines
