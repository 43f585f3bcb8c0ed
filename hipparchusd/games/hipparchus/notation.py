"""Text notation for Hipparchus: plays and hands (grammar in docs/rules.md, "Notation").

Plays: ``<count><suit>@<position>``, e.g. ``2E@5``: two Earths from the clump whose first card is
the 5th card of the hand (1-based, left to right). Any position inside the clump is accepted on
input; the canonical form names the clump's first card. Suit letters may be lower case on input.

Hands: the suit letters left to right, e.g. ``SSMEEMS``; ``-`` for an empty hand.

Every parse error is a :class:`NotationError` that says what was wrong and at which character.
"""

from __future__ import annotations

import re

from .model import MAX_PLAY, Hand, Play, Suit

_PLAY = re.compile(r"([1-9][0-9]*)([A-Za-z])@([0-9]+)")


class NotationError(ValueError):
    """Text that does not parse. ``position`` is the 0-based index of the offending character
    in ``text``."""

    def __init__(self, message: str, text: str, position: int) -> None:
        super().__init__(f"{message} at character {position + 1} of {text!r}")
        self.text = text
        self.position = position


def format_play(play: Play) -> str:
    """The canonical notation of ``play``, e.g. ``2E@5``."""
    return f"{play.count}{play.suit.letter}@{play.position}"


def parse_play_text(text: str) -> tuple[int, Suit, int]:
    """Split play notation into (count, suit, position) without reference to a hand.

    Raises:
        NotationError: not of the form ``<count><suit>@<position>`` with count 1-3, suit S/M/E
            and position >= 1.
    """
    match = _PLAY.fullmatch(text)
    if match is None:
        bad = _first_bad_play_char(text)
        raise NotationError("expected a play like 2E@5", text, bad)
    count = int(match.group(1))
    if count > MAX_PLAY:
        raise NotationError(f"a play has 1 to {MAX_PLAY} cards, not {count}", text, 0)
    try:
        suit = Suit.from_letter(match.group(2))
    except ValueError:
        raise NotationError(
            f"unknown suit {match.group(2)!r} (S, M or E)", text, match.start(2)
        ) from None
    position = int(match.group(3))
    if position < 1:
        raise NotationError("hand positions start at 1", text, match.start(3))
    return count, suit, position


def _first_bad_play_char(text: str) -> int:
    """Index of the first character where ``text`` stops matching the play grammar."""
    i = 0
    while i < len(text) and text[i].isdigit():
        i += 1
    if i == 0:
        return 0
    if i >= len(text) or not text[i].isalpha():
        return min(i, len(text))
    i += 1
    if i >= len(text) or text[i] != "@":
        return min(i, len(text))
    i += 1
    while i < len(text) and text[i].isdigit():
        i += 1
    return min(i, len(text)) if i > 0 else 0


def parse_play(text: str, hand: Hand) -> Play:
    """Parse ``text`` as a play from ``hand`` and return it with its canonical position.

    The play is checked against the hand (the position must hold a card of the named suit), not
    against the rules of the trick: that is the rules' job.

    Raises:
        NotationError: bad notation, a position outside the hand, or a position whose card is
            of another suit.
    """
    count, suit, position = parse_play_text(text)
    at = text.index("@") + 1
    try:
        index, start = hand.clump_index_at(position)
    except ValueError:
        raise NotationError(
            f"position {position} is outside your hand of {hand.size} cards", text, at
        ) from None
    clump = hand.clumps[index]
    if clump.suit is not suit:
        raise NotationError(
            f"card {position} of your hand is {clump.suit.name.title()}, not {suit.name.title()}",
            text,
            at,
        )
    return Play(count, suit, start)


def format_hand(hand: Hand) -> str:
    """The hand's suit letters left to right, or ``-`` when it is empty."""
    return str(hand) or "-"


def parse_hand(text: str) -> Hand:
    """Parse a hand written as suit letters (``-`` for empty).

    Raises:
        NotationError: a character that is not S, M or E.
    """
    if text == "-":
        return Hand(())
    if not text:
        raise NotationError("empty hand (write - for no cards)", text, 0)
    cards = []
    for i, ch in enumerate(text):
        try:
            cards.append(Suit.from_letter(ch))
        except ValueError:
            raise NotationError(f"unknown suit {ch!r} (S, M or E)", text, i) from None
    return Hand.from_cards(cards)
