"""The notation of planets (docs/planets.md, "Notation"): cards, hands, passes, deals.

- A card is two ASCII characters, its suit letter (``E J M N S V``) then its rank
  (``1``-``7``, ``M`` Moon, ``S`` Sun, ``G`` Galaxy): ``V1``, ``M7``, ``JS``, ``VG``. Input may
  be in either case; the canonical form is upper case.
- A hand, or any set of cards, is its cards sorted by suit then rank, joined by ``,``
  (``E1,E5,J3``); no cards is ``-``.
- A pass is the chosen cards joined by ``,``; the i-th card goes to the i-th target of the
  hand's pass. Canonical: each target's cards sorted, targets in the pass's order (left,
  across, right).
- A deal is the seats' hands in seat order joined by ``/``.
- The shooting choice is ``self`` or ``others``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ...wording import listed
from .model import CARDS, RANK_LETTERS, RANK_NAMES, SUIT_LETTERS, SUIT_NAMES, Card, PassKind

_BY_NAME: dict[str, Card] = {card.name: card for card in CARDS}
#: The suits as a player reads them, for the errors: ``E Earth, J Jupiter, ... or V Venus``.
_SUITS_NAMED = listed(
    [f"{s} {name}" for s, name in zip(SUIT_LETTERS, SUIT_NAMES, strict=True)], "or"
)
#: The ranks as a player reads them: ``1 to 7, M Moon, S Sun or G Galaxy``.
_RANKS_NAMED = listed(
    [
        f"{RANK_LETTERS[0]} to {RANK_LETTERS[6]}",
        *(f"{r} {name}" for r, name in zip(RANK_LETTERS[7:], RANK_NAMES[7:], strict=True)),
    ],
    "or",
)


class NotationError(ValueError):
    """Text that is not what the notation says; the message quotes it (cut short) and says in a
    player's words what is wrong with it."""


def _echo(text: str) -> str:
    return repr(text[:20] + ("..." if len(text) > 20 else ""))


def parse_card(text: str) -> Card:
    """The card written ``text`` (either case, ASCII only), e.g. ``"js"`` -> ``Card.JS``.

    Raises:
        NotationError: not a suit letter and a rank, saying which part is wrong.
    """
    card = _BY_NAME.get(text.upper()) if text.isascii() else None
    if card is None:
        raise NotationError(f"{_echo(text)} is not a card: {_card_fault(text)}")
    return card


def _card_fault(text: str) -> str:
    """What is wrong with ``text`` as a card, in a player's words."""
    if len(text) != 2:
        return (
            "a card is two characters, its suit's letter then its rank, as V1 (the 1 of "
            "Venus) or JS (the Sun of Jupiter)"
        )
    if text[0].upper() not in SUIT_LETTERS:
        return f"it starts with its suit's letter, {_SUITS_NAMED}"
    return f"after the suit comes the rank, {_RANKS_NAMED}"


def format_card(card: Card) -> str:
    """The canonical notation of ``card``, e.g. ``"JS"``."""
    return card.name


def parse_cards(text: str) -> tuple[Card, ...]:
    """The cards written ``text``, joined by ``,`` (``-`` for none), in the order written;
    duplicates are kept (the rules refuse them where they matter).

    Raises:
        NotationError: an empty item or one that is not a card.
    """
    if text == "-":
        return ()
    if not text:
        raise NotationError("no cards given (write - for none)")
    items = text.split(",")
    if "" in items:
        raise NotationError(
            f"{_echo(text)} has a comma with no card on one side (cards are split by one comma)"
        )
    return tuple(parse_card(item) for item in items)


def format_cards(cards: Iterable[Card]) -> str:
    """``cards`` in the order given joined by ``,``; ``-`` for none."""
    return ",".join(card.name for card in cards) or "-"


def format_hand(cards: Iterable[Card]) -> str:
    """``cards`` sorted (suit, then rank) joined by ``,``; ``-`` for none."""
    return format_cards(sorted(cards))


def canonical_pass(cards: Sequence[Card], kind: PassKind) -> tuple[Card, ...]:
    """``cards`` chosen for a pass of ``kind`` in canonical order: each run of cards bound for
    the same target sorted, the runs kept in the pass's target order. When ``cards`` has not
    ``kind.count`` cards it is simply sorted (the rules will refuse it)."""
    offsets = kind.offsets
    if len(cards) != len(offsets):
        return tuple(sorted(cards))
    result: list[Card] = []
    start = 0
    for end in range(1, len(offsets) + 1):
        if end == len(offsets) or offsets[end] != offsets[start]:
            result += sorted(cards[start:end])
            start = end
    return tuple(result)


def parse_deal(text: str) -> tuple[tuple[Card, ...], ...]:
    """The hands of a deal written ``hand0/hand1/...`` (each hand its cards joined by ``,``),
    sorted. Whether it is a possible deal is for the rules (:func:`~.rules.check_deal`).

    Raises:
        NotationError: a hand that is not cards.
    """
    hands: list[tuple[Card, ...]] = []
    for seat, hand in enumerate(text.split("/")):
        try:
            hands.append(tuple(sorted(parse_cards(hand))))
        except NotationError as error:
            raise NotationError(f"seat {seat}'s hand: {error}") from None
    return tuple(hands)


def format_deal(hands: Iterable[Iterable[Card]]) -> str:
    """A deal's hands in ``parse_deal`` notation."""
    return "/".join(format_hand(hand) for hand in hands)
