"""The planets rules core (hipparchusd.games.planets.core): its playout plays the rules of
:func:`core.play` draw for draw, at every seat count and from every point of a hand (issue 23;
the rulings' cases run through the object model, a view of the core, in test_planets_*.py)."""

from __future__ import annotations

import random

import pytest

from hipparchusd.games.planets import core, playout, schedule
from hipparchusd.games.planets.dealing import shuffled_deal

HANDS = 40


class _Recorded:
    """A ``rand`` that draws from ``rng`` and remembers the draws."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.draws: list[float] = []

    def __call__(self) -> float:
        value = self.rng.random()
        self.draws.append(value)
        return value


def _after_the_pass(rng: random.Random, players: int, galaxies: bool, number: int) -> core.Hand:
    """A dealt hand of ``number``'s pass, every seat passing random cards."""
    offsets = schedule.pass_of(players, number)[1]
    hand = core.start(shuffled_deal(rng, players, galaxies), offsets)
    for seat in range(players):
        if core.phase(hand) == core.PASS:
            cards = rng.sample(core.cards_in(core.holdings(hand)[seat]), len(offsets))
            hand = core.pass_cards(hand, seat, cards, offsets)
    return hand


@pytest.mark.parametrize(("players", "galaxies"), [(3, False), (4, False), (5, False), (6, True)])
def test_playout_plays_the_rules_with_its_draws(players: int, galaxies: bool) -> None:
    """playout() with random_card takes the r-th legal card of core.play (r = int(u * n)):
    replaying its draws through play() reaches the same points, and the hand it was given is
    unchanged."""
    rng = random.Random(players)
    for number in range(1, HANDS + 1):
        hand = _after_the_pass(rng, players, galaxies, number)
        while core.phase(hand) == core.PLAY:
            rand = _Recorded(rng)
            before = hand
            taken = playout.playout(hand, playout.random_card, rand)
            assert hand == before
            draws = iter(rand.draws)
            replayed = hand
            while core.phase(replayed) == core.PLAY:
                legal = core.legal(replayed)
                replayed = core.play(replayed, legal[int(next(draws) * len(legal))])
            assert next(draws, None) is None
            assert tuple(taken) == core.fields(replayed)[3]
            assert sum(taken) == core.HAND_POINTS
            legal = core.legal(hand)
            hand = core.play(hand, legal[rng.randrange(len(legal))])


def test_the_last_pass_of_a_deal_without_venus_1_is_refused() -> None:
    """P12: after the pass the holder of Venus 1 leads; a hand given to the core without it
    has no leader, so the last seat's pass is refused rather than giving the lead to anyone,
    and the hand is as before it."""
    hand = core.start((0b111, 0b111 << 10, 0b111 << 20), (1,))
    for seat in (0, 1):
        hand = core.pass_cards(hand, seat, [10 * seat], (1,))
    with pytest.raises(core.IllegalPlay, match="no seat holds V1"):
        core.pass_cards(hand, 2, [20], (1,))
    assert core.fields(hand)[6] == ((0,), (10,), None)
    assert core.phase(hand) == core.PASS
