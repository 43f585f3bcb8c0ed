"""The rules of planets, once, on ints, bitmasks and small tuples (seed 002; RULINGS P1-P16).

Everything that plays planets plays it through this module: the daemon's game (:mod:`.game`),
the object model of hands and games (:mod:`.model`, :mod:`.rules`), replay, and the engine's
playouts. The object model is a view over these values, as python-chess's moves and squares are
a view over its bitboards.

Representation
--------------
- A *card* is one int, ``10 * suit + rank``: suits Earth, Jupiter, Mars, Neptune, Saturn, Venus
  (0-5, the order of the cut and of a sorted hand), ranks 1-7, Moon, Sun, Galaxy (0-9, low to
  high). Within a suit the higher int is the higher card. :class:`.model.Card` members are
  these ints.
- A *set of cards* (a hand, a deck, a trick's cards) is a *mask*: an int with bit ``card`` set
  for each card in it. A seat's legal cards, the winner of a trick and its points are then a
  few integer operations.
- A *seat* is 0 to n-1, clockwise; "left" is the next seat, seat + 1 mod n (P15).
- A *hand* (one deal of the cards, its pass, its tricks) is the tuple
  ``(base, trick, legal, seat, left, suits, shift)``. A card that does not complete a trick
  changes only ``trick``, ``legal``, ``seat`` and ``left`` (and, leading, ``suits`` and
  ``shift``), so that such a play builds one small tuple and reads nothing of ``base`` but a
  hand and the next seat; everything else is in ``base``, remade when a trick is complete, a
  seat passes or the shooter chooses:

  - ``base`` is ``(hands, leader, taken, broken, done, passes, choice, arriving, after)``:
    ``hands`` each seat's cards before the trick in progress (masks: the cards of ``trick``
    are still in them, and leave them all at once when the trick is complete,
    :func:`holdings`; during the pass, as dealt); ``leader`` the seat leading the trick in
    progress, -1 during the pass (who leads is not known before the cards move, P12);
    ``taken`` the points each seat has taken (P7); ``broken`` whether a Jupiter card has been
    played to a trick (P11); ``done`` the finished tricks; ``passes`` each seat's pass, the
    chosen cards in order (``None`` until it has passed; ``()`` in a no-pass hand);
    ``choice`` the shooter's choice, 0 until made, then :data:`SELF` or :data:`OTHERS` (P8);
    ``arriving`` during the pass each seat's cards as the passes made so far leave them (its
    own chosen cards out, those passed to it in: the hands once the last seat has passed),
    ``()`` after it; ``after`` the seat after each seat, clockwise (``after[seat]``, P15:
    a look-up costs less than the arithmetic).
  - ``trick`` the cards played to the trick in progress, in order from the leader;
  - ``legal`` the cards the seat to play may play, sorted (a tuple of cards, empty when no
    card is to be played). The rules work it out with each move (a follow is one table
    look-up: :data:`SUIT_CARDS`), so asking for it, and checking a card against it, costs
    nothing;
  - ``seat`` the seat to play, -1 when no card is to be played;
  - ``left`` during play the cards still to be played to the trick after the seat to play's
    (0: it plays the last); during the pass the seats still to pass;
  - ``suits`` and ``shift``, once the trick in progress is led, the table of the led suit's
    cards by rank bits (``SUIT_CARDS[suit]``) and the shift ``10 * suit`` that brings a
    hand's cards of that suit down to those bits (``()`` and 0 before the lead): a follow
    (P5) is ``suits[held >> shift & 0x3FF]``.

  Its phase (:func:`phase`) follows: the pass while ``leader`` is -1, play while a card is
  legal, then the shooter's choice while one is owed, then over. :func:`fields` gives a
  hand's fields by name for readers off the hot path; :func:`hand_of` makes a hand of them.

Every function is pure: it returns new values and never changes its arguments (the playout
works on lists of its own). Who deals and which pass each hand uses (P3, P4, P15) are in
:mod:`.schedule`; a game's totals, its end and its winners (P9, P14, P16) in :mod:`.totals`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ...wording import counted

# P1: the deck.

#: Suit letters and names by suit number, in the order of the cut (P3) and of a sorted hand.
SUIT_LETTERS = "EJMNSV"
SUIT_NAMES = ("Earth", "Jupiter", "Mars", "Neptune", "Saturn", "Venus")
#: Rank letters and names, low to high: 1-7, Moon, Sun, Galaxy (the Galaxy above its Sun).
RANK_LETTERS = "1234567MSG"
RANK_NAMES = ("1", "2", "3", "4", "5", "6", "7", "Moon", "Sun", "Galaxy")
EARTH, JUPITER, MARS, NEPTUNE, SATURN, VENUS = range(6)
#: The rank number of a Galaxy card.
GALAXY = 9
#: The mask of every card of a suit, by suit number.
SUIT_MASKS: tuple[int, ...] = tuple(0x3FF << (10 * suit) for suit in range(6))
#: The Jupiter cards, the Jupiter Galaxy included (P6, P11).
JUPITER_MASK = SUIT_MASKS[JUPITER]
#: The nine cards from 1 to Sun of each suit: the 54 cards of every deck.
BASE_DECK = sum(0x1FF << (10 * suit) for suit in range(6))
#: Each Galaxy card's mask, by suit number.
GALAXY_MASKS: tuple[int, ...] = tuple(1 << (10 * suit + GALAXY) for suit in range(6))
V1 = 10 * VENUS
M7 = 10 * MARS + 6
N7 = 10 * NEPTUNE + 6


def card_name(card: int) -> str:
    """The card's two letters, suit then rank: ``V1``, ``JS``, ``VG``."""
    return SUIT_LETTERS[card // 10] + RANK_LETTERS[card % 10]


#: ``SUIT_CARDS[suit][bits]``: the cards of ``suit`` whose ranks are the set bits of ``bits``
#: (10 bits), sorted: a mask becomes cards by six look-ups (:func:`cards_in`), the cards of
#: one suit by one.
SUIT_CARDS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(10 * suit + rank for rank in range(10) if bits >> rank & 1) for bits in range(1024))
    for suit in range(6)
)
_EARTH, _JUPITER, _MARS, _NEPTUNE, _SATURN, _VENUS = SUIT_CARDS


def cards_in(mask: int) -> tuple[int, ...]:
    """The cards whose bits are set in ``mask``, sorted (by suit, then rank)."""
    # Six look-ups, unrolled: the rules list the legal cards on every lead. The mask split in
    # two 30-bit halves first, so that the rest is arithmetic on one-digit ints; the suits'
    # tuples joined by +, which returns the other operand unmade when one is empty (a hand
    # lacks some suits): a third fewer instructions than unpacking them into one.
    low = mask & 0x3FFFFFFF
    high = mask >> 30
    return (
        _EARTH[low & 0x3FF]
        + _JUPITER[low >> 10 & 0x3FF]
        + _MARS[low >> 20]
        + _NEPTUNE[high & 0x3FF]
        + _SATURN[high >> 10 & 0x3FF]
        + _VENUS[high >> 20]
    )


# P2: the cards in play by the number of players.

#: The seat counts planets is played with.
PLAYER_COUNTS = (3, 4, 5, 6)


def deck_mask(players: int, galaxies: bool = False) -> int:
    """P2: the cards in play for ``players`` seats: the 54 cards, plus the Venus and Saturn
    Galaxies for four, the Venus Galaxy for five, all six Galaxies for six with ``galaxies``
    (the option ``galaxies=all``).

    Raises:
        ValueError: not 3 to 6 players, or ``galaxies`` with other than six.
    """
    if players not in PLAYER_COUNTS:
        raise ValueError(f"planets is played by 3 to 6 players, not {players}")
    if galaxies and players != 6:
        raise ValueError("galaxies=all is for six players only")
    if players == 4:
        return BASE_DECK | GALAXY_MASKS[VENUS] | GALAXY_MASKS[SATURN]
    if players == 5:
        return BASE_DECK | GALAXY_MASKS[VENUS]
    if players == 6 and galaxies:
        return BASE_DECK | sum(GALAXY_MASKS)
    return BASE_DECK


def hand_size(players: int, galaxies: bool = False) -> int:
    """P2: the cards dealt to each seat: 18, 14, 11, then 9 or 10 with all Galaxies."""
    return deck_mask(players, galaxies).bit_count() // players


# P7: points.

#: Points of each card (P7): Jupiter 1 to Sun one each, Mars 7 and Neptune 7 seven each;
#: everything else, the Jupiter Galaxy included (P11), nothing.
POINTS: tuple[int, ...] = tuple(
    1 if card // 10 == JUPITER and card % 10 != GALAXY else 7 if card in (M7, N7) else 0
    for card in range(60)
)
#: The eleven point cards (P7, P8).
POINT_MASK = sum(1 << card for card in range(60) if POINTS[card])
#: The cards of one point and of seven: a trick's points are two bit counts.
ONE_POINT_MASK = sum(1 << card for card in range(60) if POINTS[card] == 1)
SEVEN_POINT_MASK = sum(1 << card for card in range(60) if POINTS[card] == 7)
#: The points of a whole hand.
HAND_POINTS = 23

# Phases of a hand, and the shooter's choices (P8, P13).
PASS, PLAY, CHOICE, OVER = range(4)
SELF, OTHERS = 1, 2

#: ``(hands, leader, taken, broken, done, passes, choice, arriving, after)``: see the module.
Base = tuple[tuple[int, ...], int, tuple[int, ...], bool, int,
             tuple[tuple[int, ...] | None, ...], int, tuple[int, ...], tuple[int, ...]]  # fmt: skip
#: ``(base, trick, legal, seat, left, suits, shift)``: see the module.
Hand = tuple[Base, tuple[int, ...], tuple[int, ...], int, int,
             tuple[tuple[int, ...], ...], int]  # fmt: skip
#: A hand's fields by name (:func:`fields`): ``(hands, leader, trick, taken, broken, done,
#: passes, choice)``.
Fields = tuple[tuple[int, ...], int, tuple[int, ...], tuple[int, ...], bool, int,
               tuple[tuple[int, ...] | None, ...], int]  # fmt: skip

_V1_BIT = 1 << V1
#: ``_BITS[card]`` is ``1 << card`` (a look-up allocates nothing; a shift past 30 bits does).
_BITS: tuple[int, ...] = tuple(1 << card for card in range(60))
#: ``_WITHOUT[players](hands, keep)``: each of the hands of ``players`` seats ``& keep``, the
#: finished trick's cards leaving them (written out: a loop or map() costs more than twice as
#: many instructions).
_WITHOUT: tuple[Callable[[tuple[int, ...], int], tuple[int, ...]], ...] = (
    *(lambda h, keep: h,) * 3,  # no hands of 0 to 2 seats
    lambda h, keep: (h[0] & keep, h[1] & keep, h[2] & keep),
    lambda h, keep: (h[0] & keep, h[1] & keep, h[2] & keep, h[3] & keep),
    lambda h, keep: (h[0] & keep, h[1] & keep, h[2] & keep, h[3] & keep, h[4] & keep),
    lambda h, keep: (h[0] & keep, h[1] & keep, h[2] & keep, h[3] & keep, h[4] & keep, h[5] & keep),
)
#: ``_TRICK_MASK[players](trick, card)``: the mask of a complete trick's cards, ``trick`` the
#: cards before its last, ``card`` (written out, as :data:`_WITHOUT`: a quarter fewer
#: instructions than a loop at six seats, and no tuple of the whole trick made).
_TRICK_MASK: tuple[Callable[[tuple[int, ...], int], int], ...] = (
    *(lambda t, c: 0,) * 3,  # no tricks of 0 to 2 seats
    lambda t, c: _BITS[t[0]] | _BITS[t[1]] | _BITS[c],
    lambda t, c: _BITS[t[0]] | _BITS[t[1]] | _BITS[t[2]] | _BITS[c],
    lambda t, c: _BITS[t[0]] | _BITS[t[1]] | _BITS[t[2]] | _BITS[t[3]] | _BITS[c],
    lambda t, c: _BITS[t[0]] | _BITS[t[1]] | _BITS[t[2]] | _BITS[t[3]] | _BITS[t[4]] | _BITS[c],
)
_V1_ONLY = (V1,)
#: ``_AFTER[players][seat]``: the seat after ``seat`` (clockwise, P15), the ``after`` of a base.
_AFTER: tuple[tuple[int, ...], ...] = tuple(
    tuple((seat + 1) % players for seat in range(players)) for players in range(7)
)
#: ``_LED[card]``: for a trick led with ``card``, the table of its suit's cards by rank bits
#: (:data:`SUIT_CARDS`) and the shift that brings that suit's bits of a hand down to 10 bits:
#: the hand's ``suits`` and ``shift`` from its lead on.
_LED: tuple[tuple[tuple[tuple[int, ...], ...], int], ...] = tuple(
    (SUIT_CARDS[card // 10], 10 * (card // 10)) for card in range(60)
)
#: ``_LED_MASK[card]``: the mask of the suit of ``card`` (P5: a trick goes to its led suit).
_LED_MASK: tuple[int, ...] = tuple(SUIT_MASKS[card // 10] for card in range(60))


def _points_by_mask() -> dict[int, int]:
    """P7: the points of every set of point cards, by its mask (the 2,048 sets of the eleven
    point cards)."""
    table = {0: 0}
    for card in range(60):
        if POINTS[card]:
            table.update(
                {mask | 1 << card: points + POINTS[card] for mask, points in table.items()}
            )
    return table


#: ``MASK_POINTS[cards & POINT_MASK]``: the points (P7) of a set of cards, ``cards`` a mask: a
#: finished trick's points in one look-up.
MASK_POINTS: dict[int, int] = _points_by_mask()
#: Every card's bit: ``EVERY_CARD ^ cards`` is every card but ``cards``, as a positive int: an
#: ``&`` with a positive mask costs less than with the negative ``~cards`` (CPython works the
#: two's complement of a negative int out at every operation).
EVERY_CARD = (1 << 60) - 1
_NOT_JUPITER = EVERY_CARD ^ JUPITER_MASK


class IllegalPlay(ValueError):
    """A move the rules refuse; the message says why (never naming another seat's cards)."""


def holder(hands: Sequence[int], card: int) -> int:
    """The seat whose hand holds ``card``.

    Raises:
        IllegalPlay: no seat holds it.
    """
    bit = 1 << card
    for seat, hand in enumerate(hands):
        if hand & bit:
            return seat
    raise IllegalPlay("no seat holds that card")


def start(dealt: Sequence[int], offsets: tuple[int, ...]) -> Hand:
    """A hand dealt as ``dealt`` (masks by seat) whose pass sends each seat's i-th chosen card
    to the seat ``offsets[i]`` on (P4). A no-pass hand (no offsets) goes straight to play, led
    by the holder of Venus 1 (P5, P12)."""
    hands = tuple(dealt)
    players = len(hands)
    zeros = (0,) * players
    if offsets:
        passing: Base = (hands, -1, zeros, False, 0, (None,) * players, 0, hands, _AFTER[players])
        return (passing, (), (), -1, players, (), 0)
    first = holder(hands, V1)
    base: Base = (hands, first, zeros, False, 0, ((),) * players, 0, (), _AFTER[players])
    return (base, (), _V1_ONLY, first, players - 1, (), 0)


def hand_of(
    hands: Sequence[int],
    leader: int,
    trick: tuple[int, ...],
    taken: tuple[int, ...],
    broken: bool,
    done: int,
    passes: tuple[tuple[int, ...] | None, ...],
    choice: int,
    offsets: tuple[int, ...],
) -> Hand:
    """The hand of these fields (as :func:`fields` gives them, see the module), its pass that
    of ``offsets`` (P4): the legal cards, the seat to play and the rest worked out, as
    :func:`play` and :func:`pass_cards` would have left them. The fields are taken as given:
    a hand made of fields the rules could not reach plays on by the rules from there."""
    hands = tuple(hands)
    players = len(hands)
    if leader < 0:  # the pass: the cards of the passes made so far on their way
        arriving = list(hands)
        for giver, chosen in enumerate(passes):
            for card, offset in zip(chosen or (), offsets, strict=False):
                arriving[giver] ^= 1 << card
                arriving[(giver + offset) % players] |= 1 << card
        base = (hands, -1, taken, broken, done, passes, choice, tuple(arriving), _AFTER[players])
        return (base, (), (), -1, passes.count(None), (), 0)
    base = (hands, leader, taken, broken, done, passes, choice, (), _AFTER[players])
    seat = (leader + len(trick)) % players
    held = hands[seat]
    if not trick and not held:  # every card played
        return (base, (), (), -1, 0, (), 0)
    suits, shift = _LED[trick[0]] if trick else ((), 0)
    legal = cards_in(allowed(held, trick, broken, done))
    return (base, trick, legal, seat, players - 1 - len(trick), suits, shift)


def fields(hand: Hand) -> Fields:
    """The hand's fields by name: ``(hands, leader, trick, taken, broken, done, passes,
    choice)`` (see the module), for readers off the hot path."""
    hands, leader, taken, broken, done, passes, choice, _, _ = hand[0]
    return hands, leader, hand[1], taken, broken, done, passes, choice


def shooter(taken: Sequence[int]) -> int:
    """P8: the seat that took every point card (all 23 points), -1 if none did."""
    for seat, points in enumerate(taken):
        if points == HAND_POINTS:
            return seat
    return -1


def phase(hand: Hand) -> int:
    """The hand's phase: :data:`PASS`, :data:`PLAY`, :data:`CHOICE` (P8: the shooter's choice
    is owed) or :data:`OVER`."""
    base = hand[0]
    if base[1] < 0:
        return PASS
    if hand[2]:
        return PLAY
    if not base[6] and HAND_POINTS in base[2]:
        return CHOICE
    return OVER


def to_move(hand: Hand) -> tuple[int, ...]:
    """The seats that must move now, in seat order: during the pass every seat that has not
    passed (P4: all at once); then the seat to play, then the shooter; none once it is over."""
    now = phase(hand)
    if now == PLAY:
        return (hand[3],)
    if now == PASS:
        return tuple(seat for seat, chosen in enumerate(hand[0][5]) if chosen is None)
    if now == CHOICE:
        return (shooter(hand[0][2]),)
    return ()


def legal(hand: Hand) -> tuple[int, ...]:
    """The cards the seat to play may play now, sorted (:func:`allowed`); empty when no card
    is to be played."""
    return hand[2]


def allowed(held: int, trick: tuple[int, ...], broken: bool, done: int) -> int:
    """The cards of ``held`` its seat may play to ``trick`` (the cards played to it so far),
    ``done`` tricks into a hand where Jupiter is ``broken`` or not, as a mask.

    P5: follow the led suit if you can, otherwise any card (P10: point cards too, in the first
    trick as in any other). P5, P12: the holder of Venus 1 (after the pass) leads it to the
    first trick. P6, P11: no Jupiter lead until a Jupiter card has been played to a trick,
    unless the leader holds nothing but Jupiter cards.
    """
    if trick:
        return held & SUIT_MASKS[trick[0] // 10] or held
    if not done:
        return held & _V1_BIT
    if broken:
        return held
    return held & _NOT_JUPITER or held


def why_illegal(hand: Hand, card: int) -> str:
    """Why the seat to play may not play ``card`` now (naming only its own cards), ``""`` when
    it may."""
    if phase(hand) != PLAY:
        return "no card is to be played now"
    _, trick, legal_now, seat, _, _, _ = hand
    if not hand[0][0][seat] >> card & 1:
        return f"you do not hold {card_name(card)}"
    if card in legal_now:
        return ""
    if trick:
        return f"you must follow {SUIT_NAMES[trick[0] // 10]}"
    if not hand[0][4]:
        return "V1 leads the first trick"
    return "Jupiter is not broken: lead another suit"


def play(hand: Hand, card: int) -> Hand:
    """The hand after the seat to play plays ``card`` (P5, P6, P10-P12). The last card of a
    trick gives it to the highest card of the led suit (P1: a Galaxy above its Sun), who takes
    its points (P7) and leads the next trick; a Jupiter card in it breaks Jupiter (P11: only a
    Jupiter card, the Jupiter Galaxy included). After the last trick the shooter, if any, owes
    its choice (P8).

    Raises:
        IllegalPlay: ``card`` is not legal now; the message says why (:func:`why_illegal`).
    """
    base, trick, legal_now, seat, left, suits, shift = hand
    if card not in legal_now:
        raise IllegalPlay(why_illegal(hand, card))
    if left:
        # The next seat, which has not played to the trick, must follow the led suit if it
        # can (P5, P10): allowed(), as cards, in one look-up when it can.
        if not trick:
            suits, shift = _LED[card]
        seat = base[8][seat]
        held = base[0][seat]
        following = suits[held >> shift & 0x3FF] or cards_in(held)
        return (base, trick + (card,), following, seat, left - 1, suits, shift)  # noqa: RUF005
    # The trick is complete: its cards as a mask, which leaves every hand; the highest card of
    # the led suit is the highest bit of the led suit (P5); its points (P7) one look-up.
    hands, leader, taken, broken, done, passes, choice, _, after = base
    players = len(hands)
    cards = _TRICK_MASK[players](trick, card)
    best = (cards & _LED_MASK[trick[0]]).bit_length() - 1
    winner = seat if best == card else (leader + trick.index(best)) % players
    points = MASK_POINTS[cards & POINT_MASK]
    if points:
        scores = list(taken)
        scores[winner] += points
        taken = tuple(scores)
    if not broken:
        broken = cards & JUPITER_MASK != 0
    hands = _WITHOUT[players](hands, EVERY_CARD ^ cards)
    base = (hands, winner, taken, broken, done + 1, passes, choice, (), after)
    held = hands[winner]
    if not held:  # the last trick: the shooter's choice, if one is owed, then over
        return (base, (), (), -1, 0, (), 0)
    if not broken:
        held = held & _NOT_JUPITER or held
    # The winner's leads, as cards: cards_in(held) written out, saving a call per trick.
    low = held & 0x3FFFFFFF
    high = held >> 30
    leading = (
        _EARTH[low & 0x3FF]
        + _JUPITER[low >> 10 & 0x3FF]
        + _MARS[low >> 20]
        + _NEPTUNE[high & 0x3FF]
        + _SATURN[high >> 10 & 0x3FF]
        + _VENUS[high >> 20]
    )
    return (base, (), leading, winner, players - 1, (), 0)


def holdings(hand: Hand) -> tuple[int, ...]:
    """The cards each seat holds now (masks): its cards before the trick in progress less the
    card it played to it, if any."""
    hands, leader = hand[0][0], hand[0][1]
    trick = hand[1]
    if not trick:
        return hands
    now = list(hands)
    for offset, card in enumerate(trick):
        now[(leader + offset) % len(hands)] &= ~(1 << card)
    return tuple(now)


def before_trick(held: Sequence[int], leader: int, trick: Sequence[int]) -> tuple[int, ...]:
    """The seats' cards before the trick in progress (the ``hands`` of a hand's fields), given
    the cards each seat holds now (masks), the trick's leader and its cards so far: the
    inverse of :func:`holdings`."""
    before = list(held)
    for offset, card in enumerate(trick):
        before[(leader + offset) % len(before)] |= 1 << card
    return tuple(before)


def pass_cards(hand: Hand, seat: int, cards: Sequence[int], offsets: tuple[int, ...]) -> Hand:
    """``seat`` passes ``cards``, in order: the i-th goes to the seat ``offsets[i]`` on (P4,
    P15). Seats pass at the same time: nobody sees what it receives before choosing, and no
    card moves until the last seat has passed. Then the holder of Venus 1 leads (P12: Venus 1
    may be passed; whoever holds it after the pass leads it).

    Raises:
        IllegalPlay: not the pass, already passed, the wrong number of cards, a card named
            twice or not held.
    """
    hands, leader, taken, broken, done, passes, choice, arriving, after = hand[0]
    if leader >= 0:
        raise IllegalPlay("no pass is to be made now")
    players = len(hands)
    if not 0 <= seat < players:
        raise IllegalPlay(f"no seat {seat}")
    if passes[seat] is not None:
        raise IllegalPlay("you have already passed this hand")
    if len(cards) != len(offsets):
        # The syntax too: a newcomer who reads "pick 3 ..." tends to try one card, or words.
        # No example names a card: a refusal must not seem to tell of any seat's cards.
        size = counted(len(offsets), "card")
        raise IllegalPlay(f"pass exactly {size}, in one word, their names joined by commas")
    held = hands[seat]
    given = 0
    for card in cards:
        given |= 1 << card
    if given | held != held or given.bit_count() != len(cards):
        seen = 0  # which card is wrong, for the message (the first, in the order given)
        for card in cards:
            bit = 1 << card
            if seen & bit:
                raise IllegalPlay(f"{card_name(card)} is named twice")
            if not held & bit:
                raise IllegalPlay(f"you do not hold {card_name(card)}")
            seen |= bit
    chosen = list(passes)
    chosen[seat] = tuple(cards)
    # The cards go on their way now; the hands change once the last seat has passed. The
    # seat still holds its chosen cards in ``arriving`` (cards only arrive from others), so
    # ^ takes them out; checked above, they are in _BITS.
    moved = list(arriving)
    moved[seat] ^= given
    if offsets[0] == offsets[-1]:  # every card to one seat: every pass but the split
        moved[(seat + offsets[0]) % players] |= given
    else:
        for card, offset in zip(cards, offsets, strict=True):
            moved[(seat + offset) % players] |= _BITS[card]
    left = hand[4] - 1
    if left:
        base = (hands, -1, taken, broken, done, tuple(chosen), choice, tuple(moved), after)
        return (base, (), (), -1, left, (), 0)
    # P12: whoever holds Venus 1 now leads it (holder() written out: one call fewer a hand).
    for first, held in enumerate(moved):  # noqa: B007 (the loop finds the seat)
        if held & _V1_BIT:
            break
    else:
        raise IllegalPlay("no seat holds V1")
    base = (tuple(moved), first, taken, broken, done, tuple(chosen), choice, (), after)
    return (base, (), _V1_ONLY, first, players - 1, (), 0)


def received(hand: Hand, offsets: tuple[int, ...], seat: int) -> tuple[tuple[int, ...], ...]:
    """What ``seat`` received in the pass, once the cards have moved: the cards sorted and the
    seat each came from (``((), ())`` before then and in a no-pass hand)."""
    hands, leader, _, _, _, passes, _, _, _ = hand[0]
    if leader < 0:
        return (), ()
    players = len(hands)
    got = sorted(
        (card, giver)
        for giver, given in enumerate(passes)
        if given
        for card, offset in zip(given, offsets, strict=True)
        if (giver + offset) % players == seat
    )
    return tuple(card for card, _ in got), tuple(giver for _, giver in got)


def choose(hand: Hand, seat: int, choice: int) -> Hand:
    """The shooter ``seat`` makes its choice (P8, P13): :data:`SELF` or :data:`OTHERS`; the
    hand is then over.

    Raises:
        IllegalPlay: no choice is owed, or ``seat`` is not the shooter.
    """
    if phase(hand) != CHOICE:
        raise IllegalPlay("no shooting choice is pending")
    hands, leader, taken, broken, done, passes, _, arriving, after = hand[0]
    if seat != shooter(taken):
        raise IllegalPlay("only the seat that took every point card chooses")
    _, trick, legal_now, to_play, left, suits, shift = hand
    base = (hands, leader, taken, broken, done, passes, choice, arriving, after)
    return (base, trick, legal_now, to_play, left, suits, shift)


def added(hand: Hand) -> tuple[int, ...]:
    """What the finished hand adds to each total: the points taken (P7); after a shoot (P8,
    P13) the shooter's points are not added: ``SELF`` gives it -23 and the others 0,
    ``OTHERS`` gives it 0 and every opponent +23.

    Raises:
        IllegalPlay: the hand is not over.
    """
    if phase(hand) != OVER:
        raise IllegalPlay("the hand is not over")
    taken, choice = hand[0][2], hand[0][6]
    seat = shooter(taken)
    if seat < 0:
        return taken
    if choice == SELF:
        return tuple(-HAND_POINTS if other == seat else 0 for other in range(len(taken)))
    return tuple(0 if other == seat else HAND_POINTS for other in range(len(taken)))
