"""How the engine searches planets (issue 29): the other seats modeled in the card play's
search, a single legal card played at once, and the pass searched within several moves'
budgets (RULINGS P4, P5, P12)."""

from __future__ import annotations

import pytest
from planets_positions import modeled_world, seeded_position

from hipparchusd.engine.analysis import analyze, scaled
from hipparchusd.engine.types import Budget, Level
from hipparchusd.games.base import MoveList, Pick
from hipparchusd.games.planets import core
from hipparchusd.games.planets import engine as planets_engine
from hipparchusd.games.planets.engine import ADAPTER, PlanetsPosition
from hipparchusd.games.planets.game import PlanetsGame
from hipparchusd.games.planets.rules import Phase


@pytest.mark.parametrize("seed", range(6))
def test_a_modeled_determinization_leaves_only_the_observer_to_choose(seed: int) -> None:
    seat, state, rng = modeled_world(seed, 3 + seed * 5)
    held = core.holdings(state.hand)[seat]
    while state.to_move() >= 0:
        assert state.to_move() == seat
        _, leader, trick, _, _, _, _, _ = core.fields(state.hand)
        assert (leader + len(trick)) % state.players == seat  # the observer's turn
        key = state.keys()[rng.randrange(len(state.keys()))]
        state.play(key, rng)  # the other seats' cards go through core.play: legal (P5)
        held &= ~(1 << key)
    assert held == 0  # the observer played every card it held, one per turn
    assert not any(core.holdings(state.hand))  # and so did every other seat
    assert sum(state.taken) == core.HAND_POINTS  # every point was taken (P7)


def test_a_single_legal_card_is_played_without_search() -> None:
    for seed in range(40):
        game = seeded_position(seed, 9)
        seat = min(game.seats_to_move())
        legal = game.legal(seat)
        assert isinstance(legal, MoveList)
        if len(legal.moves) == 1:
            analysis = analyze(ADAPTER, game.view_data(seat), Level.parse("ismcts:500"), seed=1)
            assert analysis.best == legal.moves[0] and analysis.playouts == 0
            return
    pytest.fail("no position with a single legal card among the seeds")


def test_a_budget_scaled_multiplies_each_limit() -> None:
    assert scaled(Budget(millis=100, playouts=7), 5) == Budget(millis=500, playouts=35)
    assert scaled(Budget(cpu_millis=100), 3) == Budget(cpu_millis=300)
    assert scaled(Budget(playouts=9), 1) == Budget(playouts=9)


@pytest.mark.parametrize("players", [3, 4, 6])
def test_the_searched_pass_is_legal_and_gets_several_moves_budgets(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(planets_engine, "PASS_SEARCHED", True)
    game = PlanetsGame(players=players, seed=players, dealer=0)
    game.start()
    assert game.state.hand.phase is Phase.PASS
    legal = game.legal(0)
    assert isinstance(legal, Pick)
    view = game.view_data(0)
    position = PlanetsPosition(view)
    assert position.searched() and position.budget_scale() == planets_engine.PASS_BUDGET_SCALE
    analysis = analyze(ADAPTER, view, Level.parse("ismcts:40"), seed=3)
    chosen = analysis.best.split(",")
    assert len(chosen) == legal.count and set(chosen) <= set(legal.items)
    # Each world plays every candidate still racing: at least 40 x the scale in all.
    assert analysis.playouts >= 40 * planets_engine.PASS_BUDGET_SCALE
    assert all(stats.visits > 0 for stats in analysis.moves)
    game.play_word(0, analysis.best)
