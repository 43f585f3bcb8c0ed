"""The shooting choice by the game's standing (issue 29, point 4; RULINGS P8, P9, P13, P14):
the issue's position, where ``exact100=reset`` turns ``others`` from a win into a loss."""

from __future__ import annotations

import random

import attrs
import pytest

from hipparchusd.engine.analysis import analyze
from hipparchusd.engine.types import Level
from hipparchusd.games.planets.engine import ADAPTER
from hipparchusd.games.planets.engine_standing import after_hand, shooting_choice, win_chance
from hipparchusd.games.planets.game import PlanetsGame
from hipparchusd.games.planets.model import Shoot
from hipparchusd.games.planets.rules import Phase
from hipparchusd.games.planets.views import View

#: The issue's position: seat 0 shot the moon at these totals.
TOTALS = (10, 90, 77, 50)


def test_exact100_turns_others_into_a_loss_at_once() -> None:
    # others: 90 + 23 = 113 ends the game (P9), and 77 + 23 = 100 drops to 0 (P14): seat 2
    # wins alone, so seat 0's chance is exactly 0; self (-13) leaves seat 0 far ahead.
    choice, self_chance, others_chance = shooting_choice(TOTALS, 0, True, random.Random(1))
    assert choice is Shoot.SELF
    assert others_chance == 0.0
    assert self_chance > 0.5


def test_without_exact100_others_wins_at_once() -> None:
    # others: 113, 100, 73 ends the game with seat 0 (10) alone lowest: a certain win.
    choice, _, others_chance = shooting_choice(TOTALS, 0, False, random.Random(1))
    assert choice is Shoot.OTHERS
    assert others_chance == 1.0


def test_the_standing_after_a_hand_follows_p9_and_p14() -> None:
    assert after_hand((77, 10), (23, 0), True) == (0, 10)
    assert after_hand((77, 10), (23, 0), False) == (100, 10)
    # A total of exactly 100 does not end the game (P9: above 100); 101 does.
    assert win_chance((50, 101), 0, False, random.Random(1)) == 1.0
    assert win_chance((60, 60, 101), 1, False, random.Random(1)) == 0.5


def _shooting(exact100: bool) -> PlanetsGame:
    """A game of four (``exact100`` as given) crafted to the issue's position: seat 0 took
    every point card (P8) at :data:`TOTALS` and must choose."""
    rng = random.Random(3)
    game = PlanetsGame(players=4, seed=3, dealer=0, exact100=exact100)
    game.start()
    while game.state.hand.phase is Phase.PASS:
        seat = min(game.seats_to_move())
        legal = game.legal(seat)
        game.play_word(seat, ",".join(rng.sample(legal.items, legal.count)))  # type: ignore[union-attr]
    state = game.state
    hand = state.hand
    tally = attrs.evolve(hand.tally, phase=Phase.CHOICE, shooter=0, taken=(23, 0, 0, 0))
    ended = attrs.evolve(hand, tally=tally, hands=(0, 0, 0, 0), trick=())
    game._state = attrs.evolve(state, hand=ended, totals=TOTALS)  # a crafted position
    assert game.seats_to_move() == frozenset({0})
    return game


@pytest.mark.parametrize("text", ["heuristic", "ismcts:50"])
@pytest.mark.parametrize(("exact100", "best"), [(True, "self"), (False, "others")])
def test_the_engine_knows_exact100_in_the_issues_position(
    text: str, exact100: bool, best: str
) -> None:
    view = _shooting(exact100).view_data(0)
    assert isinstance(view, dict) and view["exact100"] is exact100  # the view carries it
    assert analyze(ADAPTER, view, Level.parse(text), seed=1).best == best


def test_a_view_without_exact100_reads_as_a_game_without_it() -> None:
    assert attrs.fields(View).exact100.default is False
