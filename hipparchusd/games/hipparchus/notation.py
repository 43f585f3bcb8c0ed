"""Text notation for Hipparchus: plays and hands (grammar in docs/rules.md, "Notation").

Plays: ``<count><suit>@<position>``, e.g. ``2E@5``: two Earths from the clump whose first card is
the 5th card of the hand (1-based, left to right). Any position inside the clump is accepted on
input; the canonical form names the clump's first card. Suit letters may be lower case on input.

Played cards (the public form of a play, RULINGS H13): ``<count><suit>``, e.g. ``2E``; no
position, since it would show the player's hand order.

Hands: the suit letters left to right, e.g. ``SSMEEMS``; ``-`` for an empty hand.

Positions: one line of space-separated fields, FEN-like, from which play can restart
(:func:`format_position`, :func:`parse_position`; a round alone: :func:`format_round_position`,
:func:`parse_round_position`).

Every parse error is a :class:`NotationError` that quotes the text and says in a player's words
what is wrong with it (``'9S@1': a play is 1, 2 or 3 cards, not 9``), and gives the index of the
character at fault.
"""

from __future__ import annotations

import re

from ...wording import counted
from . import core
from .model import (
    FACE_DOWN_SIZE,
    HAND_SIZE,
    MAX_PLAY,
    Deal,
    Hand,
    Play,
    PlayedCards,
    Suit,
    SuitCounts,
    cards_of,
    play_of,
    play_of_move,
)
from .rules import (
    ROUNDS_TO_WIN,
    MatchState,
    RoundState,
    round_ended,
    score_round,
)
from .validation import InvalidState, validate_match, validate_round

#: The digits of a count or a position: str.isdigit() would take other scripts' digits too.
_DIGITS = "0123456789"
#: The suits as a player reads them, for the errors.
_SUITS_NAMED = "S Sun, M Moon or E Earth"
#: A play explained, for the errors.
_PLAY_EXAMPLE = "(2E@5 plays two Earths from the clump that holds your 5th card)"
#: Each suit's letter, indexed by the suit (``Suit.letter``).
_SUIT_LETTERS = "".join(suit.letter for suit in Suit)
#: Each suit by its letter, either case (``Suit.from_letter`` without a call, for every move).
_SUIT_OF_LETTER = {case(suit.letter): suit for suit in Suit for case in (str.upper, str.lower)}
#: (count, suit, position) of each play in canonical notation that fits in a hand: a client
#: usually sends a play as ``legal`` wrote it, and a lookup is ten times faster than reading
#: it, which :func:`parse_play_text` still does for every other spelling, naming what is wrong.
_CANONICAL_PLAYS = {
    f"{count}{suit.letter}@{position}": (count, suit, position)
    for count in range(1, MAX_PLAY + 1)
    for suit in Suit
    for position in range(1, HAND_SIZE + 1)
}


class NotationError(ValueError):
    """Text that does not parse: the message is the text quoted then ``reason``, what is wrong
    in a player's words; ``position`` is the 0-based index of the offending character in
    ``text``."""

    def __init__(self, message: str, text: str, position: int) -> None:
        # The text is echoed cut short: an error must not repeat a client's megabyte.
        shown = text if len(text) <= 40 else text[:40] + "..."
        super().__init__(f"{shown!r}: {message}")
        self.text = text
        self.reason = message
        self.position = position


def format_play(move: Play) -> str:
    """The canonical notation of the play ``move``, e.g. ``2E@5``."""
    text = move._notation
    if text is None:
        # Indexing the letters with the suit (an int) is Suit.letter without a call.
        text = f"{move.count}{_SUIT_LETTERS[move.suit]}@{move.position}"
        object.__setattr__(move, "_notation", text)  # the play's cache (model.Play)
    return text


def parse_play_text(text: str) -> tuple[int, Suit, int]:
    """Split play notation into (count, suit, position) without reference to a hand.

    Raises:
        NotationError: not of the form ``<count><suit>@<position>`` with count 1-3, suit S/M/E
            and position >= 1, naming the first part that is not.
    """
    canonical = _CANONICAL_PLAYS.get(text)
    if canonical is not None:
        return canonical
    count, suit, i = _count_and_suit(text, _PLAY_EXAMPLE)
    if i == len(text) or text[i] != "@":
        raise NotationError(
            f"after the suit comes @, then where the cards are in your hand {_PLAY_EXAMPLE}",
            text,
            i,
        )
    i += 1
    digits = text[i:].lstrip(_DIGITS)
    end = len(text) - len(digits)
    if end == i:
        raise NotationError(
            "after the @ comes where the cards are in your hand, 1 for your leftmost card "
            + _PLAY_EXAMPLE,
            text,
            i,
        )
    if end < len(text):
        raise NotationError(
            f"nothing comes after where the cards are in your hand {_PLAY_EXAMPLE}", text, end
        )
    if end - i > 9:  # int() would read it, but no hand comes near
        raise NotationError(f"a hand has at most {HAND_SIZE} cards", text, i)
    position = int(text[i:])
    if position < 1:
        raise NotationError("your cards are counted from 1, your leftmost card", text, i)
    return count, suit, position


def format_cards(cards: PlayedCards | Play) -> str:
    """The public notation of a play, its count and suit: ``2E`` (RULINGS H13). Given a
    :class:`Play`, its position is left out."""
    return f"{cards.count}{_SUIT_LETTERS[cards.suit]}"


def parse_cards(text: str) -> PlayedCards:
    """Parse the public notation of a play, ``<count><suit>`` (``2E``; the suit letter may be
    lower case).

    Raises:
        NotationError: not of that form with count 1-3 and suit S/M/E (a hand position, as in
            ``2E@5``, is refused: public plays have none), naming the first part that is not.
    """
    count, suit, end = _count_and_suit(text, "(2E is two Earths)")
    if end < len(text):
        cards = text[:end]
        if text[end] == "@":
            raise NotationError(f"played cards name no place in a hand: write {cards}", text, end)
        raise NotationError(f"nothing comes after the suit: write {cards}", text, end)
    return cards_of(count, suit)


def _count_and_suit(text: str, example: str) -> tuple[int, Suit, int]:
    """The count and suit that begin ``text`` (a play or played cards), and the index just
    past them.

    Raises:
        NotationError: the first thing wrong with them: no count, a count that is not 1 to 3,
            no suit letter after it, or a letter that is not a suit; ``example`` closes the
            message of a part missing.
    """
    i = len(text) - len(text.lstrip(_DIGITS))
    if i == 0:
        raise NotationError(f"a play starts with how many cards, 1, 2 or 3 {example}", text, 0)
    digits = text[:i]
    if len(digits) != 1 or not 1 <= int(digits) <= MAX_PLAY:
        shown = digits if len(digits) <= 9 else digits[:9] + "..."
        raise NotationError(f"a play is 1, 2 or 3 cards, not {shown}", text, 0)
    if i == len(text) or not text[i].isalpha():
        raise NotationError(f"after the count comes the suit, {_SUITS_NAMED} {example}", text, i)
    suit = _SUIT_OF_LETTER.get(text[i])
    if suit is None:
        raise NotationError(_suit_fault(text[i]), text, i)
    return int(digits), suit, i + 1


def _suit_fault(letter: str) -> str:
    return f"{letter!r} is not a suit ({_SUITS_NAMED})"


def parse_play(text: str, hand: Hand) -> Play:
    """Parse ``text`` as a play from ``hand`` and return it with its canonical position.

    The play is checked against the hand (the position must hold a card of the named suit), not
    against the rules of the trick: that is the rules' job.

    Raises:
        NotationError: bad notation, a position outside the hand, or a position whose card is
            of another suit.
    """
    return play_of_move(parse_move(text, hand.core))


def parse_move(text: str, hand: core.Hand) -> core.Move:
    """:func:`parse_play` against the core's ``hand``: the core's move, canonical position.

    Raises:
        NotationError: as :func:`parse_play`.
    """
    count, suit, position = parse_play_text(text)
    index, start = core.clump_at(hand, position)
    if index < 0:
        raise NotationError(
            f"position {position} is outside your hand of {counted(core.size_of(hand), 'card')}",
            text,
            text.index("@") + 1,
        )
    held = hand[index] & 3
    if held != suit:
        raise NotationError(
            f"card {position} of your hand is {core.SUIT_NAMES[held]}, not {core.SUIT_NAMES[suit]}",
            text,
            text.index("@") + 1,
        )
    return start << 4 | count << 2 | suit


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
        raise NotationError("a hand is its cards' suit letters, and - when it has none", text, 0)
    cards = []
    for i, ch in enumerate(text):
        try:
            cards.append(Suit.from_letter(ch))
        except ValueError:
            raise NotationError(_suit_fault(ch), text, i) from None
    return Hand.from_cards(cards)


def format_deal(deal: Deal) -> str:
    """A deal as ``<hand0>/<hand1>/<face-down>``, e.g. ``SSSSSMMMMMEEEE/SSSSSMMMMEEEEE/ME``
    (the ``deal=`` option of ``new`` in protocol/games/hipparchus.md)."""
    face_down = "".join(card.letter for card in deal.face_down)
    return f"{format_hand(deal.hands[0])}/{format_hand(deal.hands[1])}/{face_down}"


def parse_deal(text: str) -> Deal:
    """Parse ``<hand0>/<hand1>/<face-down>`` (suit letters, either case) into a possible deal:
    14, 14 and 2 cards, 10 of each suit in all (RULINGS H12).

    Raises:
        NotationError: bad syntax, or a deal that cannot occur, with the character position of
            the offending part.
    """
    parts = text.split("/")
    if len(parts) != 3:
        raise NotationError(
            "a deal is seat 0's hand, seat 1's hand and the face-down cards, in suit letters "
            "split by /, as in SSSSSMMMMMEEEE/SSSSSMMMMEEEEE/ME",
            text,
            0,
        )
    sizes = (HAND_SIZE, HAND_SIZE, FACE_DOWN_SIZE)
    names = ("seat 0's hand", "seat 1's hand", "the face-down cards")
    offset = 0
    hands: list[Hand] = []
    for part, size, name in zip(parts, sizes, names, strict=True):
        try:
            hand = parse_hand(part) if part else Hand(())
        except NotationError as error:
            raise NotationError(f"{name}: {error.reason}", text, offset + error.position) from None
        if hand.size != size:
            held = f"{name} has {counted(len(part), 'card')}"
            if size == FACE_DOWN_SIZE:
                held = f"there are {counted(len(part), 'face-down card')}"
            raise NotationError(f"{held}, not {size}", text, offset)
        hands.append(hand)
        offset += len(part) + 1
    deal = Deal((hands[0], hands[1]), hands[2].cards)
    try:
        return deal.validated()
    except ValueError as error:
        raise NotationError(f"impossible deal: {error}", text, 0) from None


# Positions (FEN-like). Grammar in docs/rules.md, "Position notation".

#: The fields of a round position, in order (names as in :class:`RoundState` and in errors).
ROUND_FIELDS = ("hands", "face_down", "won", "set_aside", "leader", "lead", "last_follower")
#: The fields of a match position: a round position, then the match's.
MATCH_FIELDS = (*ROUND_FIELDS, "round_number", "round_wins", "first_leader")

_COUNT = re.compile(r"0|[1-9][0-9]*")
_STRICT_PLAY = re.compile(r"([1-3])([SME])@([1-9][0-9]*)")


def _format_counts(counts: SuitCounts) -> str:
    return ",".join(str(n) for n in counts)


def format_round_position(state: RoundState) -> str:
    """The position of a round as one line of 7 space-separated fields (see docs/rules.md):
    ``hands face-down won set-aside leader lead last-follower``, e.g.
    ``SSMEEMSSEEMMSE/MMEESSMEEMSSMM SE 0,0,0/0,0,0 0,0,0 0 - -``.

    It holds everything play depends on (hands, face-down cards, won counts, set-aside cards,
    leader, the lead in progress, the last follower for RULINGS H11), not the finished tricks.
    It shows every card: never send it to a seat or spectator while the round is on (H13).
    """
    return " ".join(
        (
            f"{format_hand(state.hands[0])}/{format_hand(state.hands[1])}",
            "".join(card.letter for card in state.face_down),
            f"{_format_counts(state.won[0])}/{_format_counts(state.won[1])}",
            _format_counts(state.set_aside),
            str(state.leader),
            "-" if state.lead is None else format_play(state.lead),
            "-" if state.last_follower is None else str(state.last_follower),
        )
    )


def format_position(state: MatchState) -> str:
    """The position of a match as one line: the round position (:func:`format_round_position`)
    then ``round-number round-wins first-leader``, e.g. ``... 0 - - 1 0/0 0``."""
    wins = state.round_wins
    return (
        f"{format_round_position(state.round)} {state.round_number} "
        f"{wins[0]}/{wins[1]} {state.first_leader}"
    )


class _Fields:
    """The space-separated fields of a position string, with their offsets, for errors."""

    def __init__(self, text: str, names: tuple[str, ...]) -> None:
        self.text = text
        self.names = names
        self.values: dict[str, str] = {}
        self.offsets: dict[str, int] = {}
        if not isinstance(text, str):
            raise TypeError(f"a position is a string, not {type(text).__name__}")
        parts = text.split(" ")
        offset = 0
        for index, part in enumerate(parts):
            if index >= len(names):
                raise NotationError(
                    f"unexpected text after the {len(names)} fields of a position", text, offset
                )
            if not part:
                label = names[index].replace("_", " ")
                raise NotationError(
                    f"empty {label} field (fields are separated by one space)",
                    text,
                    offset,
                )
            self.values[names[index]] = part
            self.offsets[names[index]] = offset
            offset += len(part) + 1
        if len(parts) < len(names):
            label = names[len(parts)].replace("_", " ")
            raise NotationError(
                f"missing the {label} field ({len(names)} fields expected)",
                text,
                len(text),
            )

    def error(self, name: str, message: str, at: int = 0) -> NotationError:
        return NotationError(
            f"{name.replace('_', ' ')}: {message}", self.text, self.offsets[name] + at
        )

    def hand(self, name: str, value: str, at: int) -> Hand:
        if value == "-":
            return Hand(())
        for i, ch in enumerate(value):
            if ch not in "SME":
                raise self.error(name, f"{ch!r} is not a suit (S, M or E)", at + i)
        return Hand.from_cards(Suit.from_letter(ch) for ch in value)

    def count(self, name: str, value: str, at: int) -> int:
        if _COUNT.fullmatch(value) is None:
            raise self.error(name, f"{value!r} is not a count (digits, no leading zero)", at)
        return int(value)

    def counts(self, name: str, value: str, at: int) -> SuitCounts:
        parts = value.split(",")
        if len(parts) != 3:
            raise self.error(name, "expected three counts, Sun,Moon,Earth", at)
        numbers = []
        for part in parts:
            numbers.append(self.count(name, part, at))
            at += len(part) + 1
        return (numbers[0], numbers[1], numbers[2])

    def pair(self, name: str, what: str) -> tuple[str, str, int]:
        value = self.values[name]
        if value.count("/") != 1:
            raise self.error(name, f"expected {what} for seat 0 and seat 1, split by /")
        first, second = value.split("/")
        return first, second, len(first) + 1

    def seat(self, name: str, allow_none: bool = False) -> int | None:
        value = self.values[name]
        if allow_none and value == "-":
            return None
        if value not in ("0", "1"):
            raise self.error(name, f"expected seat 0 or 1{' or -' if allow_none else ''}")
        return int(value)


def _round_from_fields(fields: _Fields) -> RoundState:
    first, second, at = fields.pair("hands", "hands")
    hands = (fields.hand("hands", first, 0), fields.hand("hands", second, at))
    face_down_text = fields.values["face_down"]
    face_down = fields.hand("face_down", face_down_text, 0).cards
    if len(face_down_text) != FACE_DOWN_SIZE or face_down_text == "-":
        raise fields.error("face_down", f"expected {FACE_DOWN_SIZE} suit letters")
    first, second, at = fields.pair("won", "won counts")
    won = (fields.counts("won", first, 0), fields.counts("won", second, at))
    set_aside = fields.counts("set_aside", fields.values["set_aside"], 0)
    leader = fields.seat("leader")
    assert leader is not None
    lead_text = fields.values["lead"]
    lead: Play | None = None
    if lead_text != "-":
        match = _STRICT_PLAY.fullmatch(lead_text)
        if match is None:
            raise fields.error("lead", "expected - or a play like 2E@5 (count 1-3, S/M/E)")
        lead = play_of(int(match.group(1)), Suit.from_letter(match.group(2)), int(match.group(3)))
    last_follower = fields.seat("last_follower", allow_none=True)
    over = round_ended(hands, lead, set_aside) and last_follower is not None
    return RoundState(
        hands=hands,
        face_down=face_down,
        leader=leader,
        won=won,
        lead=lead,
        set_aside=set_aside,
        last_follower=last_follower,
        result=score_round(won, last_follower) if over and last_follower is not None else None,
    )


def _invalid(fields: _Fields, error: InvalidState, prefix: str) -> NotationError:
    path = error.field.removeprefix(prefix)
    name = next((n for n in fields.names if path == n or path.startswith((f"{n}.", f"{n}["))), None)
    at = 0 if name is None else fields.offsets[name]
    return NotationError(f"impossible position: {error}", fields.text, at)


def parse_round_position(text: str) -> RoundState:
    """Parse a round position (:func:`format_round_position`) into a :class:`RoundState` with
    no finished tricks, checking that the rules can reach it (see
    :func:`~hipparchusd.games.hipparchus.validation.validate_round`).

    Raises:
        NotationError: bad syntax or an impossible position, with the offending field's
            character position.
    """
    fields = _Fields(text, ROUND_FIELDS)
    state = _round_from_fields(fields)
    try:
        return validate_round(state, "round")
    except InvalidState as error:
        raise _invalid(fields, error, "round.") from None


def parse_position(text: str) -> MatchState:
    """Parse a match position (:func:`format_position`) into a :class:`MatchState` whose round
    has no finished tricks; the match winner follows from the round wins (RULINGS H12).

    Raises:
        NotationError: bad syntax or an impossible position, with the offending field's
            character position.
    """
    fields = _Fields(text, MATCH_FIELDS)
    round_ = _round_from_fields(fields)
    number_text = fields.values["round_number"]
    number = fields.count("round_number", number_text, 0)
    first, second, at = fields.pair("round_wins", "round wins")
    wins = (fields.count("round_wins", first, 0), fields.count("round_wins", second, at))
    first_leader = fields.seat("first_leader")
    assert first_leader is not None
    winner = next((s for s in (0, 1) if wins[s] >= ROUNDS_TO_WIN), None)
    state = MatchState(round_, number, wins, first_leader, winner)
    try:
        return validate_match(state)
    except InvalidState as error:
        name = error.field
        if name == "winner":
            raise fields.error("round_wins", str(error)) from None
        raise _invalid(fields, error, "round.") from None
