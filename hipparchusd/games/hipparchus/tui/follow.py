"""Following a game from its events, and explaining what happened: pure functions, no I/O.

A *view* here is the game's view as the protocol sends it in JSON (``state``, ``watch``,
``resume``: protocol/games/hipparchus.md and planets.md, "The view"), kept up to date from the
events that follow (:func:`follow_hipparchus`, :func:`follow_planets`) so that a spectator
paced by ``--delay`` shows each event as it comes, never a later position asked for with
``state``. The reducers return a new dict and never change their input. A seat also learns its
own moves' effect from the answers to its requests (:func:`without_play`).

The explanations (:func:`hipparchus_trick_reason`, :func:`hipparchus_round_lines`,
:func:`planets_trick_reason`, :func:`planets_hand_over_lines`) say in words why a trick or a
round went as it did, from public data only. ``label(seat)`` is how the caller names a seat
(``you``, ``bob``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

from ..wording import counted

View = dict[str, Any]
Label = Callable[[int], str]

# --- Hipparchus (docs/rules.md) -----------------------------------------------------------------

SUIT_LETTERS = "SME"
"""Hipparchus suits in the per-suit order of every list: Sun, Moon, Earth."""
HIPPARCHUS_SUITS = {"S": "Sun", "M": "Moon", "E": "Earth"}
HAND_SIZE = 14


def plural(count: int, word: str) -> str:
    """``1 card``, ``2 cards``: :func:`hipparchusd.wording.counted` (never ``1 cards``)."""
    return counted(count, word)


def suit_count(count: int, letter: str) -> str:
    """``1 Sun``, ``3 Moons``."""
    return plural(count, HIPPARCHUS_SUITS[letter])


def without_play(hand: str, play: str) -> str:
    """The hand after the canonical ``play`` (``2E@5``: two cards from the clump starting at
    position 5) left it; neighbours close up (RULINGS H1, H3: cards of a suit are alike, so
    taking the clump's first cards is the same hand)."""
    count_suit, _, position = play.partition("@")
    count = int(count_suit[:-1])
    start = int(position) - 1
    rest = hand[:start] + hand[start + count :]
    return rest or "-"


def follow_hipparchus(view: View | None, kind: str, data: dict[str, Any]) -> View | None:
    """The Hipparchus view after the event ``kind`` with ``data``.

    ``view`` is ``None`` before the game starts (a ``round-started`` makes one: the seat, if
    any, comes from the previous view). A seat's own plays change its hand through
    :func:`without_play` (the ``played`` event has no hand position, RULINGS H13).
    """
    if kind == "round-started":
        old = view or {}
        return {
            "seat": old.get("seat"),
            "hand": old.get("hand") if old.get("seat") is not None else None,
            "hand_sizes": [HAND_SIZE, HAND_SIZE],
            "won": [[0, 0, 0], [0, 0, 0]],
            "set_aside": [0, 0, 0],
            "leader": data.get("leader"),
            "lead": None,
            "tricks": [],
            "to_move": data.get("leader"),
            "round_number": data.get("round_number"),
            "round_wins": data.get("round_wins"),
            "result": None,
            "revealed": None,
            "winner": None,
            "resigned": None,
            "fixed_deal": old.get("fixed_deal", False),
        }
    if view is None:
        return None
    new = copy.deepcopy(view)
    if kind == "hand" and data.get("seat") == new.get("seat"):
        new["hand"] = data.get("hand")
    elif kind == "turn":
        new["to_move"] = data.get("seat")
    elif kind == "to-move":
        seats = data.get("seats") or []
        new["to_move"] = seats[0] if seats else None
    elif kind == "played":
        sizes = list(new.get("hand_sizes") or [HAND_SIZE, HAND_SIZE])
        sizes[int(data["seat"])] = data.get("hand_size")
        new["hand_sizes"] = sizes
        if new.get("lead") is None:
            new["lead"] = data.get("play")
            new["leader"] = data.get("seat")
    elif kind in ("trick", "no-follow"):
        trick = data.get("trick") or {}
        new["tricks"] = [*(new.get("tricks") or []), trick]
        new["lead"] = None
        if kind == "trick":
            new["won"] = data.get("won")
            new["leader"] = trick.get("winner")
        else:
            new["set_aside"] = data.get("set_aside")
    elif kind == "round-over":
        for key in ("won", "round_wins", "result", "revealed"):
            new[key] = data.get(key)
        new["to_move"] = None
    elif kind == "match-over":
        for key in ("winner", "round_wins", "resigned"):
            new[key] = data.get(key)
        new["to_move"] = None
    return new


def _parse_played(play: str) -> tuple[int, str]:
    """``2E`` (or ``2E@5``) -> (2, "E")."""
    cards = play.split("@")[0]
    return int(cards[:-1]), cards[-1].upper()


def won_before(trick: dict[str, Any], won_after: Sequence[Sequence[int]]) -> list[list[int]]:
    """Each seat's won counts by suit before ``trick`` (a finished trick's public form), from
    the counts after it: the winner took both plays (RULINGS H8)."""
    before = [list(won_after[0]), list(won_after[1])]
    winner = trick.get("winner")
    if winner is None:
        return before
    for key in ("lead", "follow"):
        count, letter = _parse_played(str(trick[key]))
        before[int(winner)][SUIT_LETTERS.index(letter)] -= count
    return before


def hipparchus_trick_reason(
    trick: dict[str, Any], won_after: Sequence[Sequence[int]], label: Label
) -> str:
    """Why ``trick`` was won (RULINGS H7), e.g. ``same suit: 3 Moons beat 1 Moon (more cards
    win)`` or ``different suits: bob had won 2 Earths before this trick, you 0 Suns; the
    fewer wins, so you take it``. ``won_after`` is the ``trick`` event's ``won``. A trick with
    no winner was ended by H6."""
    leader = int(trick["leader"])
    if trick.get("winner") is None:
        lead = str(trick.get("lead"))
        count, letter = _parse_played(lead)
        return (
            f"{label(1 - leader)} had no legal answer to {suit_count(count, letter)}: the led "
            "cards are set aside and the round ends (RULINGS H6)"
        )
    follower = 1 - leader
    winner = int(trick["winner"])
    lead_count, lead_suit = _parse_played(str(trick["lead"]))
    follow_count, follow_suit = _parse_played(str(trick["follow"]))
    if lead_suit == follow_suit:
        more, fewer = (lead_count, follow_count)
        if winner != leader:
            more, fewer = fewer, more
        return (
            f"same suit: {suit_count(max(more, fewer), lead_suit)} beat "
            f"{suit_count(min(more, fewer), lead_suit)} (more cards win): "
            f"{label(winner)} take{_s(label(winner))} it"
        )
    before = won_before(trick, won_after)
    lead_had = before[leader][SUIT_LETTERS.index(lead_suit)]
    follow_had = before[follower][SUIT_LETTERS.index(follow_suit)]
    counts = (
        f"{label(leader)} had won {suit_count(lead_had, lead_suit)}, "
        f"{label(follower)} {suit_count(follow_had, follow_suit)} before this trick"
    )
    rule = "equal counts go to the follower" if lead_had == follow_had else "the lower count wins"
    return f"different suits: {counts}; {rule}, so {label(winner)} take{_s(label(winner))} it"


def _s(name: str) -> str:
    return "" if name == "you" else "s"


def _possessive(name: str) -> str:
    return "your" if name == "you" else f"{name}'s"


def hipparchus_round_lines(data: dict[str, Any], label: Label) -> list[str]:
    """A ``round-over`` event explained: per suit who won more and what it scores (RULINGS
    H10), the totals and the winner (H11's tie-break if it decided)."""
    result = data.get("result") or {}
    won = data.get("won") or [[0, 0, 0], [0, 0, 0]]
    scores = result.get("scores") or [[0, 0, 0], [0, 0, 0]]
    lines = []
    for index, letter in enumerate(SUIT_LETTERS):
        a, b = won[0][index], won[1][index]
        name = HIPPARCHUS_SUITS[letter]
        if a == b:
            how = "equal: nobody scores"
        else:
            more = 0 if a > b else 1
            got = scores[more][index]
            how = (
                f"{label(more)} won more and score{_s(label(more))} {got} "
                f"({_possessive(label(1 - more))} {plural(got, name)})"
            )
        lines.append(f"{name}: {label(0)} won {a}, {label(1)} won {b}; {how}")
    totals = result.get("totals") or [0, 0]
    winner = result.get("winner")
    line = f"Totals: {label(0)} {totals[0]}, {label(1)} {totals[1]}"
    if winner is not None:
        line += f": {label(int(winner))} win{_s(label(int(winner)))} the round"
        if result.get("by_tie_break"):
            line += " (equal totals: the follower of the last full trick wins, RULINGS H11)"
    lines.append(line)
    return lines


# --- planets (docs/planets.md) ------------------------------------------------------------------

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


def follow_planets(view: View | None, kind: str, data: dict[str, Any]) -> View | None:
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


def planets_trick_reason(trick: dict[str, Any], players: int, label: Label) -> str:
    """Why ``trick`` (a ``trick`` event's data, or a view's finished trick) went to its
    winner: the highest card of the led suit (RULINGS P5), and the points it held (P7)."""
    cards = [str(card) for card in trick.get("cards") or []]
    leader = int(trick["leader"])
    winner = int(trick["winner"])
    led = cards[0][0]
    best = cards[(winner - leader) % players]
    text = (
        f"{label(winner)} take{_s(label(winner))} it with {best}, the highest "
        f"{PLANETS_SUITS[led]} (the led suit)"
    )
    points = int(trick.get("points") or 0)
    scoring = [card for card in cards if card_points(card)]
    if points:
        text += f": {plural(points, 'point')} ({', '.join(scoring)})"
    else:
        text += ": no points"
    return text


def planets_hand_over_lines(data: dict[str, Any], label: Label) -> list[str]:
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
