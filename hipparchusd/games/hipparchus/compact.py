"""A compact, fast form of the Hipparchus round rules for the engine's playouts (issue 18).

The same rules as :mod:`hipparchusd.games.hipparchus.rules` (RULINGS H2-H11), on plain ints and
lists instead of attrs values, checked move for move against them by
``tests/engine/test_hipparchus_compact.py``:

- a *clump* is one int, ``size << 2 | suit`` (suit 0-2 as :class:`~.model.Suit`), so a clump
  that can only be played whole (size 1-3, RULINGS H2) is exactly a clump below 16;
- a *hand* is the list of its clumps, left to right (run-length, H1-H3), changed in place;
- a *play* is ``(clump index, count)`` in the hand it is made from;
- won counts are a list of six ints, ``won[seat * 3 + suit]``.

A playout allocates almost nothing: it counts a hand's options, draws one, and edits the hand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .model import Hand, Suit

#: A hand: its clumps (``size << 2 | suit``), left to right.
CHand = list[int]
#: A play: (clump index, count of cards).
CPlay = tuple[int, int]
#: Clumps from this value up hold 4 cards or more and may be torn (RULINGS H2).
TEARABLE = 16


def compact_hand(hand: Hand) -> CHand:
    """The compact form of a model hand."""
    return [c.size << 2 | int(c.suit) for c in hand.clumps]


def hand_from_cards(cards: Iterable[int]) -> CHand:
    """The compact hand whose cards, left to right, are ``cards`` (suits 0-2)."""
    clumps: CHand = []
    run_suit = -1
    run = 0
    for suit in cards:
        if suit == run_suit:
            run += 1
        else:
            if run:
                clumps.append(run << 2 | run_suit)
            run_suit, run = suit, 1
    if run:
        clumps.append(run << 2 | run_suit)
    return clumps


def cards_of(hand: CHand) -> tuple[int, ...]:
    """The cards of a compact hand, left to right (suits 0-2)."""
    return tuple(c & 3 for c in hand for _ in range(c >> 2))


def model_hand(hand: CHand) -> Hand:
    """The model :class:`~.model.Hand` of a compact hand."""
    return Hand.from_cards(Suit(s) for s in cards_of(hand))


def position_of(hand: CHand, index: int) -> int:
    """The 1-based position of the first card of clump ``index`` (the notation's position)."""
    return 1 + sum(c >> 2 for c in hand[:index])


def lead_plays(hand: CHand) -> list[CPlay]:
    """Every play RULINGS H2 allows from ``hand`` (a lead, H4), left to right, fewest cards
    first within a clump (the order of :attr:`.model.Hand.plays`)."""
    found: list[CPlay] = []
    for index, c in enumerate(hand):
        if c < TEARABLE:
            found.append((index, c >> 2))
        else:
            found += ((index, 1), (index, 2), (index, 3))
    return found


def follow_plays(hand: CHand, suit: int, count: int) -> list[CPlay]:
    """The plays that may follow a lead of ``count`` cards of ``suit`` (RULINGS H5), in the
    order of :meth:`.model.Hand.follow_plays`; empty when there is none (H6)."""
    same = [
        (index, n)
        for index, c in enumerate(hand)
        if c & 3 == suit
        for n in ((c >> 2,) if c < TEARABLE else (1, 2, 3))
        if n != count
    ]
    if same:
        return same
    return [
        (index, n)
        for index, c in enumerate(hand)
        if c & 3 != suit
        for n in ((c >> 2,) if c < TEARABLE else (1, 2, 3))
    ]


def can_follow(hand: CHand, suit: int, count: int) -> bool:
    """Whether ``hand`` has a legal follow to ``count`` cards of ``suit`` (not RULINGS H6): a
    clump of another suit, or one of ``suit`` that can give another count (H2, H5)."""
    return any(c & 3 != suit or c >= TEARABLE or c >> 2 != count for c in hand)


def remove(hand: CHand, index: int, count: int) -> None:
    """Take ``count`` cards from clump ``index`` of ``hand`` (in place); neighbours of one suit
    merge (RULINGS H3)."""
    c = hand[index]
    if c >> 2 > count:
        hand[index] = c - (count << 2)
        return
    del hand[index]
    if 0 < index < len(hand) and hand[index - 1] & 3 == hand[index] & 3:
        hand[index - 1] += hand[index] & ~3
        del hand[index]


def trick_winner(
    leader: int,
    lead_suit: int,
    lead_count: int,
    follow_suit: int,
    follow_count: int,
    won: list[int],
) -> int:
    """The seat that wins the trick (RULINGS H7); ``won`` is before the trick."""
    if lead_suit == follow_suit:
        return leader if lead_count > follow_count else 1 - leader
    if won[leader * 3 + lead_suit] < won[(1 - leader) * 3 + follow_suit]:
        return leader
    return 1 - leader


def totals(won: list[int]) -> tuple[int, int]:
    """Each seat's total score of a finished round (RULINGS H10)."""
    t0 = t1 = 0
    for suit in range(3):
        a, b = won[suit], won[3 + suit]
        if a > b:
            t0 += b
        elif b > a:
            t1 += a
    return t0, t1


def round_winner(won: list[int], last_follower: int) -> int:
    """The winner of a finished round (RULINGS H10, H11: equal totals go to the last
    follower)."""
    t0, t1 = totals(won)
    if t0 != t1:
        return 0 if t0 > t1 else 1
    return last_follower


def random_round(
    hands: list[CHand],
    won: list[int],
    leader: int,
    lead_suit: int,
    lead_count: int,
    last_follower: int,
    rand: Callable[[], float],
) -> int:
    """Play the round on with uniformly random legal plays (``rand()`` in [0, 1)) and give its
    winner (RULINGS H4-H11).

    ``hands`` and ``won`` are changed in place. ``lead_count`` is 0 when no trick is in
    progress, else the trick in progress is ``lead_count`` cards of ``lead_suit`` led by
    ``leader`` (already out of its hand). ``last_follower`` is -1 before any completed trick.
    """
    # The literal 16 is TEARABLE: a global lookup per card costs a tenth of the playout.
    while True:
        if not lead_count:
            hand = hands[leader]
            if max(hand) < 16:  # no clump to tear (the common case): one option per clump
                index = int(rand() * len(hand))
                c = hand[index]
                lead_count = c >> 2
            else:
                n = 0
                for c in hand:
                    n += 1 if c < 16 else 3
                r = int(rand() * n)
                for index, c in enumerate(hand):  # noqa: B007  (index is read after the break)
                    if c < 16:
                        if not r:
                            lead_count = c >> 2
                            break
                        r -= 1
                    elif r < 3:
                        lead_count = r + 1
                        break
                    else:
                        r -= 3
            lead_suit = c & 3
            # remove() inlined (RULINGS H3): a call per play is a tenth of the playout.
            if c >> 2 > lead_count:
                hand[index] = c - (lead_count << 2)
            else:
                del hand[index]
                if 0 < index < len(hand) and hand[index - 1] & 3 == hand[index] & 3:
                    hand[index - 1] += hand[index] & ~3
                    del hand[index]
        follower = 1 - leader
        hand = hands[follower]
        # H5: the lead suit's plays of another count; a whole clump of the lead's count or a
        # torn clump's three counts less the lead's.
        n = 0
        for c in hand:
            if c & 3 == lead_suit:
                if c >= 16:
                    n += 2
                elif c >> 2 != lead_count:
                    n += 1
        if n:
            r = int(rand() * n)
            for index, c in enumerate(hand):  # noqa: B007  (index is read after the break)
                if c & 3 == lead_suit:
                    if c >= 16:
                        if r < 2:
                            count = r + 1 if r + 1 < lead_count else r + 2
                            break
                        r -= 2
                    elif c >> 2 != lead_count:
                        if not r:
                            count = c >> 2
                            break
                        r -= 1
        else:
            for c in hand:
                if c & 3 != lead_suit:
                    n += 1 if c < 16 else 3
            if not n:  # RULINGS H6: the lead is set aside, the round ends now
                return round_winner(won, last_follower)
            r = int(rand() * n)
            for index, c in enumerate(hand):  # noqa: B007  (index is read after the break)
                if c & 3 != lead_suit:
                    if c < 16:
                        if not r:
                            count = c >> 2
                            break
                        r -= 1
                    elif r < 3:
                        count = r + 1
                        break
                    else:
                        r -= 3
        follow_suit = c & 3
        if c >> 2 > count:
            hand[index] = c - (count << 2)
        else:
            del hand[index]
            if 0 < index < len(hand) and hand[index - 1] & 3 == hand[index] & 3:
                hand[index - 1] += hand[index] & ~3
                del hand[index]
        if lead_suit == follow_suit:
            winner = leader if lead_count > count else follower
        elif won[leader * 3 + lead_suit] < won[follower * 3 + follow_suit]:
            winner = leader
        else:
            winner = follower
        won[winner * 3 + lead_suit] += lead_count
        won[winner * 3 + follow_suit] += count
        last_follower = follower
        leader = winner
        lead_count = 0
        if not hands[0] or not hands[1]:  # RULINGS H9
            return round_winner(won, last_follower)
