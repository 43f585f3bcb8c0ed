"""What the terminal client shows, built from protocol data alone (no I/O, no sockets).

Inputs are the JSON forms of PROTOCOL.md: a seat's or a spectator's ``view`` (the ``state`` or
``watch`` answer), ``legal``'s ``moves`` and events' ``data``. Outputs are rich renderables and
strings. A seat's point of view calls it ``you`` and the other seat by name; a spectator's (seat
``None``) names both, with their seat numbers, in seat order. Suits are drawn as
symbols (``☉ ☽ ⊕``) or, for terminals that cannot show them, as their letters (``S M E``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import attrs
from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..games.hipparchus.model import HAND_SIZE

SUIT_LETTERS = "SME"
"""Suit letters in the per-suit order of protocol/games/hipparchus.md: Sun, Moon, Earth."""

SUIT_NAMES = {"S": "Sun", "M": "Moon", "E": "Earth"}
SUIT_SYMBOLS = {"S": "☉", "M": "☽", "E": "⊕"}
SUIT_STYLES = {"S": "bold yellow", "M": "bold cyan", "E": "bold green"}

_PLAY = re.compile(r"([1-9][0-9]*)([SMEsme])@([1-9][0-9]*)")
# A play as shown: with a position (the seat's own legal moves) or, as events and views give
# every play, count and suit only (``2E``; RULINGS H13).
_SHOWN_PLAY = re.compile(r"([1-9][0-9]*)([SMEsme])(?:@[1-9][0-9]*)?")


@attrs.frozen
class Style:
    """How to draw suits: ``symbols`` (Unicode) or letters."""

    symbols: bool

    def suit(self, letter: str) -> str:
        """One card of suit ``letter`` (S, M or E) as drawn."""
        return SUIT_SYMBOLS[letter] if self.symbols else letter

    def cards(self, letters: str) -> Text:
        """A run of cards (e.g. ``"SSM"``), each coloured by suit."""
        text = Text()
        for letter in letters:
            text.append(self.suit(letter), SUIT_STYLES.get(letter, ""))
        return text

    def play(self, notation: str) -> Text:
        """A play such as ``2E@5``, or its public form ``2E``, followed by its cards
        (``2E@5 ⊕⊕``, ``2E ⊕⊕``)."""
        text = Text(notation)
        match = _SHOWN_PLAY.fullmatch(notation)
        if match:
            text.append(" ")
            text.append_text(self.cards(match.group(2).upper() * int(match.group(1))))
        return text


def clumps(hand: str) -> list[tuple[int, str]]:
    """Split a hand (``"SSMEEE"``) into its clumps (RULINGS H2: maximal runs of one suit) as
    ``(position of the first card, 1-based; the cards)``, in hand order (H1)."""
    groups: list[tuple[int, str]] = []
    for index, letter in enumerate(hand, start=1):
        if groups and groups[-1][1][-1] == letter:
            position, run = groups[-1]
            groups[-1] = (position, run + letter)
        else:
            groups.append((index, letter))
    return groups


def hand_text(hand: str, style: Style) -> Text:
    """The hand in its real order, each clump bracketed after the position of its first card
    (the position a play names): ``1[SS] 3[M] 4[EEE]``. An empty hand is ``(empty)``."""
    if not hand or hand == "-":
        return Text("(empty)")
    text = Text()
    for index, (position, run) in enumerate(clumps(hand)):
        if index:
            text.append(" ")
        text.append(f"{position}[", "dim")
        text.append_text(style.cards(run))
        text.append("]", "dim")
    return text


def pick_move(answer: str, legal: Sequence[dict[str, Any]]) -> str | None:
    """The legal move an answer names, or ``None`` when it names none of them.

    ``legal`` is ``legal``'s JSON ``moves`` (``move``, ``suit``, ``count``, ``clump``). A number
    from 1 picks that move of the list; notation picks the move of that count and suit whose
    clump holds the position named (any position inside the clump, suit letters in either
    case, as the protocol accepts).
    """
    answer = answer.strip()
    if answer.isdigit():
        number = int(answer)
        return str(legal[number - 1]["move"]) if 1 <= number <= len(legal) else None
    match = _PLAY.fullmatch(answer)
    if match is None:
        return None
    count, suit, position = int(match.group(1)), match.group(2).upper(), int(match.group(3))
    for move in legal:
        clump = move.get("clump") or [move.get("position")]
        if str(move.get("suit")) == suit and move.get("count") == count and position in clump:
            return str(move["move"])
    return None


def legal_columns(moves: Sequence[str], style: Style) -> Columns:
    """The legal plays, numbered from 1 for choosing (``[1] 1S@1 ☉``), laid out in columns
    that wrap between plays, never inside one."""
    items = [
        Text.assemble((f"[{number}] ", "bold"), style.play(move))
        for number, move in enumerate(moves, start=1)
    ]
    return Columns(items, padding=(0, 3))


def player_name(players: Sequence[Any], seat: int) -> str:
    """The name at ``seat``, or ``seat <n>`` while the seat is free (or its name unknown)."""
    name = players[seat] if len(players) > seat else None
    return str(name) if name not in (None, "-") else f"seat {seat}"


def spectator_label(seat: int, players: Sequence[Any]) -> str:
    """How a spectator calls a seat: ``alice (seat 0)`` (names alone could be alike)."""
    name = player_name(players, seat)
    return name if name == f"seat {seat}" else f"{name} (seat {seat})"


def first_seat(seat: int | None) -> int:
    """The seat shown first: my seat, or seat 0 for a spectator."""
    return 0 if seat is None else seat


def names_of(players: Sequence[Any], seat: int | None) -> tuple[str, str]:
    """(my label, the opponent's name) for the seat's point of view; for a spectator (``None``)
    both seats' labels, seat 0 first."""
    if seat is None:
        return spectator_label(0, players), spectator_label(1, players)
    opponent = players[1 - seat] if len(players) > 1 - seat else None
    return "you", str(opponent) if opponent not in (None, "-") else "opponent"


def seat_label(seat: Any, my_seat: int | None, players: Sequence[Any]) -> str:
    """``you`` for my seat, else the opponent's name; a spectator's label for either seat."""
    if my_seat is None:
        return spectator_label(int(seat), players) if seat in (0, 1) else str(seat)
    mine, theirs = names_of(players, my_seat)
    return mine if seat == my_seat else theirs


def versus(pair: Sequence[Any], seat: int | None, players: Sequence[Any]) -> str:
    """A per-seat pair (totals, round wins) from ``seat``'s point of view: ``you 4 - 3 bob``
    (a spectator's: ``alice (seat 0) 4 - 3 bob (seat 1)``)."""
    first = first_seat(seat)
    mine, theirs = names_of(players, seat)
    return f"{mine} {pair[first]} - {pair[1 - first]} {theirs}"


def won_table(view: dict[str, Any], players: Sequence[Any], style: Style) -> Table:
    """Both won piles by suit (RULINGS H8: public), and the cards set aside (H6) if any."""
    seat = view.get("seat")
    table = Table(box=box.SIMPLE if style.symbols else box.ASCII, show_edge=False, pad_edge=False)
    table.add_column("won")
    for letter in SUIT_LETTERS:
        table.add_column(
            Text.assemble(style.cards(letter), f" {SUIT_NAMES[letter]}"), justify="right"
        )
    won = view.get("won") or [[0, 0, 0], [0, 0, 0]]
    for row_seat in (first_seat(seat), 1 - first_seat(seat)):
        table.add_row(seat_label(row_seat, seat, players), *(str(n) for n in won[row_seat]))
    set_aside = view.get("set_aside") or [0, 0, 0]
    if any(set_aside):
        table.add_row("set aside", *(str(n) for n in set_aside))
    return table


def score_line(
    view: dict[str, Any], players: Sequence[Any], past_rounds: Sequence[dict[str, Any]] = ()
) -> Text:
    """``Round 2 | round wins: you 1 - 0 bob (first to 2) | round 1: you 4 - 3 bob``.

    ``past_rounds`` are the ``round-over`` events' data of the rounds played so far.
    """
    seat = view.get("seat")
    wins = view.get("round_wins") or [0, 0]
    text = Text.assemble(
        (f"Round {view.get('round_number', '?')}", "bold"),
        f" | round wins: {versus(wins, seat, players)} (first to 2)",
    )
    for data in past_rounds:
        totals = (data.get("result") or {}).get("totals") or [0, 0]
        text.append(f" | round {data.get('round_number')}: {versus(totals, seat, players)}")
    return text


def trick_line(view: dict[str, Any], players: Sequence[Any], style: Style) -> Text:
    """The trick on the table: who leads, or what was led and who must follow."""
    seat = view.get("seat")
    lead = view.get("lead")
    leader = view.get("leader")
    if lead:
        return Text.assemble(
            "Trick: ", seat_label(leader, seat, players), " led ", style.play(str(lead))
        )
    return Text.assemble("Trick: ", seat_label(leader, seat, players), " to lead")


def hand_sizes_line(view: dict[str, Any], players: Sequence[Any]) -> Text:
    """How many cards the other seat holds (``bob holds 5 cards``), or for a spectator both
    seats (``alice (seat 0) holds 6 cards, bob (seat 1) holds 5 cards``)."""
    seat = view.get("seat")
    sizes = view.get("hand_sizes") or [0, 0]
    shown = [n for n in (0, 1) if n != seat]
    return Text(", ".join(f"{seat_label(n, seat, players)} holds {sizes[n]} cards" for n in shown))


def table_view(
    view: dict[str, Any],
    players: Sequence[Any],
    moves: Sequence[str],
    style: Style,
    past_rounds: Sequence[dict[str, Any]] = (),
) -> RenderableType:
    """Everything a seat sees at its turn (RULINGS H13): the score (round wins and the past
    rounds' totals), the opponent's hand size, both won piles, the trick on the table, its own
    hand (clumps grouped) and the numbered legal plays.

    A spectator's view (``seat`` ``None``) has no hand (H13): it shows both hand sizes and no
    hand or plays.
    """
    parts: list[RenderableType] = [
        score_line(view, players, past_rounds),
        hand_sizes_line(view, players),
        won_table(view, players, style),
        trick_line(view, players, style),
    ]
    if view.get("seat") is not None:
        parts += [
            Text.assemble(("Hand: ", "bold"), hand_text(str(view.get("hand") or ""), style)),
            Text("Legal plays:", "bold"),
            legal_columns(moves, style),
        ]
    return Group(*parts)


def round_result(data: dict[str, Any], my_seat: int | None, players: Sequence[Any]) -> Text:
    """A ``round-over`` event's result: totals, the winner and how (RULINGS H10, H11)."""
    result = data.get("result") or {}
    totals = result.get("totals") or [0, 0]
    winner = result.get("winner")
    mine, theirs = names_of(players, my_seat)
    first = first_seat(my_seat)
    text = Text.assemble(
        (f"Round {data.get('round_number', '?')} over: ", "bold"),
        f"{versus(totals, my_seat, players)}; ",
        (f"{seat_label(winner, my_seat, players)} won the round", "bold"),
    )
    if result.get("by_tie_break"):
        text.append(" (tie broken by the last follower, RULINGS H11)")
    scores = result.get("scores")
    if scores and len(scores) == 2:
        text.append(". Points by suit (S M E): ")
        text.append(f"{mine} {' '.join(map(str, scores[first]))}, ")
        text.append(f"{theirs} {' '.join(map(str, scores[1 - first]))}")
    wins = data.get("round_wins")
    if wins:
        text.append(f". Round wins: {versus(wins, my_seat, players)}")
    return text


def follow_view(view: dict[str, Any] | None, kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """A spectator's view (``watch``'s ``view``: no hand, RULINGS H13) after the event ``kind``
    with ``data``, built from the events alone: a ``state`` asked for later may already show
    a later position. ``view`` is ``None`` before the game starts; it is not changed (a new
    view is returned), and events that change nothing shown leave the view as it was."""
    if kind == "round-started":
        return {
            "seat": None,
            "hand": None,
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
        }
    new = dict(view or {"seat": None})
    if kind == "turn":
        new["to_move"] = data.get("seat")
    elif kind == "played":
        sizes = list(new.get("hand_sizes") or [HAND_SIZE, HAND_SIZE])
        sizes[int(data["seat"])] = data.get("hand_size")
        new["hand_sizes"] = sizes
        new["to_move"] = None
        if new.get("lead") is None:
            new["lead"] = data.get("play")
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
    elif kind == "match-over":
        for key in ("winner", "round_wins", "resigned"):
            new[key] = data.get(key)
    return new
