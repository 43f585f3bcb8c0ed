"""The totals of a game of planets across its hands, the end of the game and its winners
(seed 002; RULINGS P9, P14, P16): what :mod:`.core` gives for one hand, added up.
"""

from __future__ import annotations

from collections.abc import Sequence

#: P9: the game ends after a hand in which some total exceeds this.
GAME_LIMIT = 100


def totals_after(
    totals: Sequence[int], hand_added: Sequence[int], exact100: bool
) -> tuple[int, ...]:
    """P14: the totals after a hand: the hand's points added (after the shooting choice), then,
    with ``exact100=reset`` (P9's variation), every total of exactly 100 dropped to 0. Totals
    may go below zero (P13)."""
    after = tuple(total + points for total, points in zip(totals, hand_added, strict=True))
    if exact100:
        return tuple(0 if total == GAME_LIMIT else total for total in after)
    return after


def winners(totals: Sequence[int]) -> tuple[int, ...] | None:
    """P9, P14: after a hand in which some total exceeds 100, the game is over and the seats
    with the lowest total win (equal lowest totals share the win); ``None`` while it goes
    on."""
    return lowest(totals) if max(totals) > GAME_LIMIT else None


def lowest(totals: Sequence[int], *, excluding: int | None = None) -> tuple[int, ...]:
    """The seats with the lowest total (P9: ties share the win), leaving out ``excluding``: a
    seat that resigned, which ranks last (P16: a resignation ends the game at once)."""
    best = min(total for seat, total in enumerate(totals) if seat != excluding)
    return tuple(seat for seat, total in enumerate(totals) if total == best and seat != excluding)
