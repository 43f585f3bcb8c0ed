"""The game's standing for the engine's planets decisions (issue 29): each seat's chance to win
the game from its totals, and the shooting choice that follows from it (RULINGS P8, P9, P13,
P14).

A hand's points are a means; the game is won by the lowest total once some total passes 100
(P9), and with ``exact100=reset`` a total of exactly 100 drops to 0 (P14). So the shooter's
choice (23 off its own total, or 23 onto everyone else's, P13) is a choice between two
standings, and the better one is the one that wins more often: a game that ends at once is
won or lost as it stands; one that goes on is played out over model hands.

The model of a future hand is deliberately plain: each of the eleven point cards (nine
Jupiters of 1 point, Mars 7 and Neptune 7; P7) goes to a seat drawn uniformly at random. It
gives the right answer where the choice matters, near the end of a game: which option ends it,
and at whose expense, is exact; the rest is a fair coin between equal seats.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .model import HAND_POINTS, Shoot
from .rules import GAME_LIMIT, lowest

#: The point cards of a hand, by points (P7): nine Jupiters of 1, Mars 7 and Neptune 7.
POINT_CARDS = (1,) * 9 + (7, 7)
#: Games played out from a standing that does not end at once.
PLAYOUTS = 400
#: Model hands a playout plays at most (a game rarely needs more than 20 hands).
MAX_HANDS = 60


def after_hand(totals: Sequence[int], added: Sequence[int], exact100: bool) -> tuple[int, ...]:
    """The totals after a hand that ``added`` these points (P14: add them, then, with
    ``exact100``, every total of exactly 100 becomes 0)."""
    summed = [total + points for total, points in zip(totals, added, strict=True)]
    if exact100:
        summed = [0 if total == GAME_LIMIT else total for total in summed]
    return tuple(summed)


def winners(totals: Sequence[int]) -> tuple[int, ...] | None:
    """The seats that won if the game ends with these totals after a hand (P9: some total
    above 100; the lowest win, sharing on ties), ``None`` if it goes on."""
    if max(totals) > GAME_LIMIT:
        return lowest(totals)
    return None


def win_chance(
    totals: Sequence[int], seat: int, exact100: bool, rng: random.Random, playouts: int = PLAYOUTS
) -> float:
    """``seat``'s chance to win from ``totals`` at the end of a hand (a shared win counts as
    its share): exact when the game is over, else the mean over ``playouts`` games played on
    with model hands (see the module's doc)."""
    ended = winners(totals)
    if ended is not None:
        return 1.0 / len(ended) if seat in ended else 0.0
    players = len(totals)
    won = 0.0
    for _ in range(playouts):
        current = list(totals)
        for _ in range(MAX_HANDS):
            added = [0] * players
            for points in POINT_CARDS:
                added[rng.randrange(players)] += points
            current = list(after_hand(current, added, exact100))
            ended = winners(current)
            if ended is not None:
                if seat in ended:
                    won += 1.0 / len(ended)
                break
    return won / playouts


def shooting_choice(
    totals: Sequence[int], seat: int, exact100: bool, rng: random.Random
) -> tuple[Shoot, float, float]:
    """The shooter's choice (P8, P13) for ``seat`` with the game's ``totals`` before the hand
    is added: the option whose standing after the hand (P14) wins more often; on even chances
    the one that ends the game (a win there is certain, not estimated), else ``self``.
    Returns the choice and the win chances after ``self`` and after ``others``."""
    players = len(totals)
    own = [0] * players
    own[seat] = -HAND_POINTS
    theirs = [HAND_POINTS] * players
    theirs[seat] = 0
    # The same model hands for both options (common random numbers): the comparison is not
    # the luck of different playouts.
    seed = rng.getrandbits(64)
    after_self = after_hand(totals, own, exact100)
    after_others = after_hand(totals, theirs, exact100)
    self_chance = win_chance(after_self, seat, exact100, random.Random(seed))
    others_chance = win_chance(after_others, seat, exact100, random.Random(seed))
    better = (others_chance, winners(after_others) is not None) > (
        self_chance,
        winners(after_self) is not None,
    )
    return (Shoot.OTHERS if better else Shoot.SELF), self_chance, others_chance
