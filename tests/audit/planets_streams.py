"""Checking everything a connection received in a planets game for hidden cards and passes
(docs/planets.md; the daemon's rule that a seat never learns another seat's cards or pass).

A stream is cut into hands at its own ``hand-started`` events. Within hand ``h`` a line may name
a card only if the viewer may know it at that moment:

- the viewer's own hand as dealt (a spectator has none);
- the cards it received in the pass, but only once its ``received`` event has come (no cards
  move until every seat has passed, and a seat learns what it gets only then);
- cards played to a trick of this hand, once a ``played`` event named them;
- cards that are not in play at this seat count (they are nobody's, so a refusal may echo them).

Nor may a line carry another seat's ``hand`` or ``received`` event, a ``passed`` event with
anything but the seat, or a view of another seat's pass. The truth (every deal and pass) comes
from the referee that followed the game (:mod:`daemon.planets_referee`), not from the server.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import attrs
from daemon.planets_referee import Referee, deck, event_of

#: A card token standing alone (``E1``, ``JS``, ``VG``), in text or JSON.
CARD = re.compile(r"(?<![A-Za-z0-9])[EJMNSV][1-7MSG](?![A-Za-z0-9])")
#: The notation help that refusals of malformed cards end with: fixed example cards, the same
#: whoever holds them, so not information.
NOTATION_EXAMPLE = re.compile(r"e\.g\. V1 or JS")


def messages(stream: bytes) -> Iterator[str]:
    """The events and responses of ``stream``, one line each (a text response's payload lines
    joined with spaces)."""
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


@attrs.define
class PlanetsTally:
    """What a check looked at: lines, card tokens, own ``hand`` and ``received`` events."""

    lines: int = 0
    cards: int = 0
    hands: list[int] = attrs.field(factory=list)
    received: list[int] = attrs.field(factory=list)
    passed_events: int = 0


def check_planets_stream(
    stream: bytes,
    referee: Referee,
    viewer: int | None,
    echoes: dict[str, set[str]] | None = None,
) -> PlanetsTally:
    """Assert that ``stream`` (all bytes one connection received; ``viewer`` its seat, ``None``
    for a spectator) names no card or pass the viewer may not know (see the module); return
    what was checked. ``echoes`` maps a request id to the cards that request named itself,
    which its refusal (``?<id> ...``) may repeat."""
    tally = PlanetsTally()
    outside = {s + r for s in "EJMNSV" for r in "1234567MSG"} - deck(
        referee.players, referee.galaxies
    )
    hand = 0
    own: set[str] = set()
    played: set[str] = set()
    for line in messages(stream):
        tally.lines += 1
        kind = kind_of(line)
        if kind is not None:
            _, _, data = event_of(line)
            if kind == "game-over":
                break  # the record may be asked for now; nothing is hidden any more
            if kind in ("hand-started", "hand") and int(data["hand_number"]) != hand:
                # A new hand (its hand-started and each seat's hand event share a seq).
                hand = int(data["hand_number"])
                own = set() if viewer is None else set(referee.dealt[hand][viewer])
                played = set()
            if kind in ("hand", "received"):
                assert viewer is not None and int(data["seat"]) == viewer, (viewer, line)
                if kind == "hand":
                    tally.hands.append(hand)
                else:
                    own |= {card for card, _ in referee.received_by_hand[hand][viewer]}
                    tally.received.append(hand)
            elif kind == "passed":
                assert set(data) == {"seat"}, ("a passed event names only the seat", line)
                tally.passed_events += 1
            elif kind == "played":
                played.add(str(data["card"]))
        echoed: set[str] = set()
        if line.startswith("?") and echoes:
            echoed = echoes.get(line[1:].split(" ", 1)[0], set())
        for card in CARD.findall(NOTATION_EXAMPLE.sub("", line)):
            tally.cards += 1
            assert card in own or card in played or card in outside or card in echoed, (
                "a card the viewer may not know",
                viewer,
                hand,
                card,
                line,
            )
    return tally


def kind_of(line: str) -> str | None:
    """The kind of a game event line, ``None`` for anything else."""
    if not line.startswith("* ") or line.startswith("* server "):
        return None
    return event_of(line)[1]
