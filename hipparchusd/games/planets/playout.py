"""The engine's playouts of planets: a hand played on to its last trick, as cheaply as the
rules allow (RULINGS P5-P7, P10-P12), on the values of :mod:`.core` (its representation is
explained there). The engine's policy (:mod:`.engine_state`) only chooses among the legal cards
given here.
"""

from __future__ import annotations

from collections.abc import Callable

from .core import (
    EVERY_CARD,
    JUPITER_MASK,
    MASK_POINTS,
    POINT_MASK,
    SUIT_MASKS,
    V1,
    Hand,
    fields,
    holdings,
)

_V1_BIT = 1 << V1
_NOT_JUPITER = EVERY_CARD ^ JUPITER_MASK

#: A playout's choice of card: ``choose(legal, led, best, last, rand)`` gives a card of the
#: mask ``legal``; ``led`` is the led suit's mask (0 for a lead), ``best`` the highest card of
#: the led suit played so far (-1 for a lead), ``last`` whether the seat plays last to the
#: trick, ``rand()`` a number in [0, 1).
Chooser = Callable[[int, int, int, bool, Callable[[], float]], int]


def random_card(legal: int, led: int, best: int, last: bool, rand: Callable[[], float]) -> int:
    """A :data:`Chooser`: a uniformly random card of ``legal``."""
    k = int(rand() * legal.bit_count())
    while k:
        legal &= legal - 1
        k -= 1
    return (legal & -legal).bit_length() - 1


def playout(hand: Hand, choose: Chooser, rand: Callable[[], float]) -> list[int]:
    """The points each seat takes in ``hand`` played on to its last trick by ``choose`` (a
    :data:`Chooser`), by the rules above (P5-P7, P10-P12): what a playout needs, and the
    cheapest way to it. The trick's winner, its cards and its led suit are kept as it goes,
    so that a finished trick costs a few integer operations. ``hand`` is unchanged.
    """
    hands = list(holdings(hand))
    _, leader, trick, taken_so_far, broken, done, _, _ = fields(hand)
    taken = list(taken_so_far)
    players = len(hands)
    played = len(trick)
    cards = 0
    led = best = winner = 0
    for offset, card in enumerate(trick):
        cards |= 1 << card
        if not offset:
            led, best, winner = SUIT_MASKS[card // 10], card, leader
        elif led >> card & 1 and card > best:
            best, winner = card, (leader + offset) % players
    seat = (leader + played) % players
    while played or hands[seat]:
        held = hands[seat]
        if played:
            card = choose(held & led or held, led, best, played == players - 1, rand)
            if led >> card & 1 and card > best:
                best, winner = card, seat
        else:
            if not done:
                may = held & _V1_BIT
            elif broken:
                may = held
            else:
                may = held & _NOT_JUPITER or held
            card = choose(may, 0, -1, False, rand)
            led, best, winner = SUIT_MASKS[card // 10], card, seat
        bit = 1 << card
        hands[seat] = held ^ bit
        cards |= bit
        played += 1
        if played < players:
            seat = (seat + 1) % players
            continue
        taken[winner] += MASK_POINTS[cards & POINT_MASK]
        broken = broken or cards & JUPITER_MASK != 0
        done += 1
        seat, played, cards = winner, 0, 0
    return taken
