"""Checking everything a connection received for hidden cards (RULINGS H13), line by line.

A stream is cut into rounds at this game's ``round-over`` events. Before a round's ``round-over``
no line may carry the opponent's hand or the face-down cards, in any field, in any message, in
text or JSON: the only hand a seat may see is its own (exactly as it was at some moment of that
round), a spectator sees none. The expected values all come from replaying the match's record
through the rules, not from what the server printed.

Nor may a line carry a play's hand position (``2S@4``) where anyone but the player could see
it: a position tells which cards of the player's hand were of the suit played (and, being the
first card of a clump, that the card before them was not). Events and views, which go to the
opponent and spectators alike, give plays as count and suit (``2S``); positions are only in a
seat's own ``legal`` and ``play`` answers (and its errors, which echo its own requests), and in
the record once the match is over (:func:`position_leaks`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import attrs
from daemon.helpers import RoundTruth

from hipparchusd.games.hipparchus.notation import format_hand

#: A run of suit letters standing alone: the only thing in the protocol that looks like a hand.
SUIT_RUN = re.compile(r"(?<![A-Za-z])[SME]{2,}(?![A-Za-z])")
#: A play with its hand position (``2S@4``; any count and letter, to catch malformed ones too).
PLAY_POSITION = re.compile(r"(?<![0-9A-Za-z])[0-9]+[A-Za-z]@[0-9]+")
#: Keys of a seat's own moves in answers (JSON ``legal``'s ``moves[].move``, ``play``'s
#: ``move``); in text those answers are bare words, not ``key=value`` fields.
OWN_MOVE_KEYS = frozenset({"move", "moves.move"})
#: Keys (their last part) of the plays that events and views show to everyone.
PUBLIC_PLAY_KEYS = frozenset({"play", "lead", "follow"})
#: A play as events and views show it: count and suit (RULINGS H13).
PUBLIC_PLAY = re.compile(r"[1-3][SME]")
#: Opponent hands at least this long are searched for anywhere in a line (shorter ones occur
#: by chance inside the viewer's own hand).
SUBSTRING_MIN = 5


def scalars(obj: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """(dotted key, scalar) for every scalar of a JSON value (list items keep the list's key)."""
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield from scalars(value, f"{path}.{key}" if path else key)
    elif isinstance(obj, list):
        for item in obj:
            yield from scalars(item, path)
    else:
        yield path, obj


def fields(line: str) -> list[tuple[str, str]]:
    """(key, value text) for every field of a received line, text or JSON, response or event.
    Text values are kept whole (``hand_sizes=12,14``); JSON scalars are given one by one."""
    body = line.lstrip("*=?0123456789 ")
    if body.startswith("{"):
        return [(k, "-" if v is None else str(v)) for k, v in scalars(json.loads(body))]
    pairs = []
    for word in body.split(" "):
        key, equals, value = word.partition("=")
        if equals:
            pairs.append((key, value))
    return pairs


def position_leaks(line: str, viewer: int | None) -> list[str]:
    """The hand positions of plays in ``line`` (an event or a response as :func:`messages`
    gives it) that ``viewer`` (a seat, ``None`` for a spectator or a connection not seated)
    must not see before the match's record: every position in an event (events go to every
    follower), every position sent to a spectator, and every position in a ``key=value`` field
    or JSON value of a seat's answers other than its own moves (:data:`OWN_MOVE_KEYS`). A seat's
    error answers may echo the positions it sent. Empty when there is none."""
    if not PLAY_POSITION.search(line):
        return []
    if line.startswith("*") or viewer is None:
        return PLAY_POSITION.findall(line)
    if line.startswith("?"):
        return []
    return [
        f"{key}={value}"
        for key, value in fields(line)
        if key not in OWN_MOVE_KEYS and PLAY_POSITION.search(value)
    ]


def public_plays(line: str) -> list[str]:
    """The values of the play fields events and views show to everyone (``play``, ``lead``,
    ``follow``, ``trick.lead``, ``view.tricks.1.follow``...) in ``line``, ``-`` left out."""
    return [
        value
        for key, value in fields(line)
        if key.rsplit(".", 1)[-1] in PUBLIC_PLAY_KEYS and value != "-"
    ]


def json_sizes(line: str) -> list[tuple[int, int]]:
    """Every ``hand_sizes`` pair in a JSON line."""
    body = line.lstrip("*=?0123456789 ")
    found: list[tuple[int, int]] = []

    def walk(obj: Any) -> None:
        if isinstance(obj, dict):
            for key, value in obj.items():
                if key == "hand_sizes" and isinstance(value, list):
                    found.append((value[0], value[1]))
                else:
                    walk(value)
        elif isinstance(obj, list):
            for item in obj:
                walk(item)

    walk(json.loads(body))
    return found


def messages(stream: bytes) -> Iterator[str]:
    """The events and responses of ``stream``, each as one line: a text response's payload
    lines are joined with spaces (its ``key=value`` words stay whole)."""
    response: list[str] | None = None
    for line in stream.decode("utf-8").split("\n"):
        if response is not None:
            if line:
                response.append(line)
            else:
                yield " ".join(response)
                response = None
        elif line.startswith(("=", "?")):
            response = [line]
        elif line:
            yield line


def is_round_over(line: str, game: str) -> bool:
    """True for this game's ``round-over`` event, in text or JSON."""
    if line.startswith(f"* {game} ") and line.split(" ")[3] == "round-over":
        return True
    if line.startswith("* {"):
        event = json.loads(line[2:])
        return bool(event.get("game") == game and event.get("kind") == "round-over")
    return False


@attrs.define
class Tally:
    """What a check looked at, so that a test can tell it had work to do."""

    lines: int = 0
    own_hands: int = 0
    sizes: int = 0
    hand_events: list[int] = attrs.field(factory=list)
    public_plays: int = 0


def check_stream(
    stream: bytes,
    game: str,
    rounds: list[RoundTruth],
    viewer: int | None,
    *,
    follows: bool = True,
) -> Tally:
    """Assert that ``stream`` (all bytes one connection received; ``viewer`` is the seat it
    held, ``None`` for a spectator) leaks no hidden card of ``game`` before each round's
    ``round-over``, that the own hand and hand sizes it shows are true, and that each
    ``round-over`` reveals what the rules say. Returns what was checked.

    A connection that does not follow the game (``follows=False``) gets no ``round-over``:
    its lines are placed in their round by the ``round_number`` of the view they carry, and
    views of the finished match (which reveal everything) are skipped."""
    tally = Tally()
    index = 0
    started = False
    for line in messages(stream):
        if index >= len(rounds):
            continue
        line_fields = fields(line)
        numbers = [int(v) for k, v in line_fields if k == "view.round_number"]
        if not follows:
            if ("status", "over") in line_fields:
                continue
            index = numbers[0] - 1 if numbers else index
        elif numbers:
            if not started:
                index = numbers[0] - 1  # a spectator who came late
            assert numbers == [index + 1], ("a view of another round", index + 1, line)
            started = True
        truth = rounds[index]
        if is_round_over(line, game):
            assert follows, line
            _check_round_over(line, truth)
            index += 1
            started = True
            continue
        tally.lines += 1
        leaks = position_leaks(line, viewer)
        assert not leaks, ("a hand position of a play (H13)", viewer, leaks, line)
        for value in public_plays(line):
            assert PUBLIC_PLAY.fullmatch(value), ("not a public play", viewer, value, line)
            tally.public_plays += 1
        own = truth.hands(viewer) if viewer is not None else set()
        other_hands: set[str] = set()
        for seat in (0, 1):
            if seat != viewer:
                other_hands |= truth.hands(seat)
        for key, value in line_fields:
            leaf = key.rsplit(".", 1)[-1]
            if leaf in ("revealed", "face_down") or "revealed" in key.split("."):
                assert value in ("-", ""), ("revealed before round-over", viewer, line)
            if leaf == "hand":
                if viewer is None:
                    assert value == "-", ("a spectator got a hand", line)
                elif value != "-":  # e.g. the spectator's view that an ousted seat gets
                    assert value in own, ("not the viewer's own hand", viewer, value, line)
                    tally.own_hands += 1
                    if " hand " in line or '"kind": "hand"' in line:
                        # The hand event is the hand as dealt.
                        assert value == format_hand(truth.states[0].round.hands[viewer]), line
                        tally.hand_events.append(index + 1)
            if leaf == "hand_sizes" and "," in value:
                pair = tuple(int(x) for x in value.split(","))
                assert pair in truth.sizes(), ("wrong hand sizes", pair, line)
                tally.sizes += 1
        if line.lstrip("*=?0123456789 ").startswith("{"):
            for pair in json_sizes(line):
                assert pair in truth.sizes(), ("wrong hand sizes", pair, line)
                tally.sizes += 1
        # Free text too (error messages, any field): a run of suit letters is a hand, and the
        # only hand a viewer may see is its own.
        for run in SUIT_RUN.findall(line):
            assert any(run in h for h in own), ("a run of suit letters", viewer, run, line)
        for hand in other_hands:
            if len(hand) >= SUBSTRING_MIN and not any(hand in h for h in own):
                assert hand not in line, ("the opponent's hand", viewer, hand, line)
    if follows:
        assert index == len(rounds), f"saw {index} round-over events of {len(rounds)}"
    return tally


def _check_round_over(line: str, truth: RoundTruth) -> None:
    """The ``round-over`` event reveals the rules' hands and face-down cards."""
    end = truth.end.round
    hands = [format_hand(h) for h in end.hands]
    face_down = "".join(s.letter for s in end.face_down) or "-"
    if line.startswith("* {"):
        data = json.loads(line[2:])["data"]
        assert data["revealed"]["hands"] == hands, line
        assert ("".join(data["revealed"]["face_down"]) or "-") == face_down, line
    else:
        words = dict(w.partition("=")[::2] for w in line.split(" ")[4:])
        assert words["revealed.hands"] == ",".join(hands), line
        assert words["revealed.face_down"].replace(",", "") == face_down.replace("-", ""), line
