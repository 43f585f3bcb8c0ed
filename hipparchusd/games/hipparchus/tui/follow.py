"""Following a Hipparchus match from its events, and explaining what happened (docs/rules.md):
pure functions, no I/O.

:func:`follow` keeps a view (protocol/games/hipparchus.md, "The view") up to date
from the events; it returns a new dict and never changes its input. A seat learns its own
plays' effect on its hand from the answers to its requests (:func:`without_play`), since the
``played`` event has no hand position (RULINGS H13). :func:`trick_reason` and
:func:`round_lines` say in words why a trick or a round went as it did, from public data
only.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from ....play.phrases import Label, View, plural, possessive, verb_s

SUIT_LETTERS = "SME"
"""Hipparchus suits in the per-suit order of every list: Sun, Moon, Earth."""
HIPPARCHUS_SUITS = {"S": "Sun", "M": "Moon", "E": "Earth"}
HAND_SIZE = 14


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


def follow(view: View | None, kind: str, data: dict[str, Any]) -> View | None:
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


def trick_reason(trick: dict[str, Any], won_after: Sequence[Sequence[int]], label: Label) -> str:
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
            f"{label(winner)} take{verb_s(label(winner))} it"
        )
    before = won_before(trick, won_after)
    lead_had = before[leader][SUIT_LETTERS.index(lead_suit)]
    follow_had = before[follower][SUIT_LETTERS.index(follow_suit)]
    counts = (
        f"{label(leader)} had won {suit_count(lead_had, lead_suit)}, "
        f"{label(follower)} {suit_count(follow_had, follow_suit)} before this trick"
    )
    rule = "equal counts go to the follower" if lead_had == follow_had else "the lower count wins"
    return f"different suits: {counts}; {rule}, so {label(winner)} take{verb_s(label(winner))} it"


def round_lines(data: dict[str, Any], label: Label) -> list[str]:
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
                f"{label(more)} won more and score{verb_s(label(more))} {got} "
                f"({possessive(label(1 - more))} {plural(got, name)})"
            )
        lines.append(f"{name}: {label(0)} won {a}, {label(1)} won {b}; {how}")
    totals = result.get("totals") or [0, 0]
    winner = result.get("winner")
    line = f"Totals: {label(0)} {totals[0]}, {label(1)} {totals[1]}"
    if winner is not None:
        line += f": {label(int(winner))} win{verb_s(label(int(winner)))} the round"
        if result.get("by_tie_break"):
            line += " (equal totals: the follower of the last full trick wins, RULINGS H11)"
    lines.append(line)
    return lines
