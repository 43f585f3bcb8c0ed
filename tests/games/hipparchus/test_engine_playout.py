"""How a Hipparchus determinization plays on from a leaf (issue 29's A/B options
``playout_follows`` and ``playout_solve``): rule-based follows where asked, the exact winner
where the world is solved, and the options as the adapter parses them."""

from __future__ import annotations

import random

import pytest
from hipparchus_positions import random_position
from test_engine_solver import exhaustive_winner

from hipparchusd.games.hipparchus import core
from hipparchusd.games.hipparchus.dealing import seeded_deal
from hipparchusd.games.hipparchus.engine import ADAPTER
from hipparchusd.games.hipparchus.engine_heuristic import best_follow
from hipparchusd.games.hipparchus.engine_state import RANDOM_PLAYOUT, HipparchusState, Playout


def _last_leads(found: int) -> list[core.Round]:
    """``found`` positions built by the rules where the leader has just led its last cards
    and the follower has two or more follows that end the round with different winners
    (H9: the round ends after this trick)."""
    positions: list[core.Round] = []
    number = 0
    while len(positions) < found:
        number += 1
        rng = random.Random(number)
        deal = seeded_deal(70_000 + number, 1)
        round_ = core.start((deal.hands[0].core, deal.hands[1].core), number % 2)
        while round_[6]:
            hands, _, leader, lead = round_[0], round_[1], round_[2], round_[3]
            if lead and not hands[leader]:
                winners = {
                    core.round_winner(core.play(round_, m)[1], 1 - leader)[0] for m in round_[6]
                }
                if len(winners) == 2:
                    positions.append(round_)
                break
            round_ = core.play(round_, rng.choice(round_[6]))
    return positions


def test_rule_based_follows_in_a_playout_are_best_follow() -> None:
    """With ``follows`` 1 the last trick's follow is always the rule-based one (the best score
    lead after the trick, RULINGS H7-H8): every playout gives the round's winner after that
    follow (H9-H11); with uniformly random follows both winners occur."""
    for round_ in _last_leads(20):
        hands, won, leader, lead = round_[0], round_[1], round_[2], round_[3]
        follow = best_follow(hands[1 - leader], won, leader, lead)
        assert follow is not None
        expected = core.round_winner(core.play(round_, follow)[1], 1 - leader)[0]
        greedy = {_playout(round_, Playout(follows=1.0), seed) for seed in range(20)}
        assert greedy == {expected}
        assert {_playout(round_, RANDOM_PLAYOUT, seed) for seed in range(60)} == {0, 1}


def test_a_solved_playout_gives_the_exact_winner() -> None:
    """With ``solve_nodes`` a playout from a position within the solver's cards gives the
    winner plain minimax finds (RULINGS H2-H11), whatever the random numbers."""
    compared = 0
    for number in range(40):
        rng = random.Random(number)
        deal = seeded_deal(80_000 + number, 1)
        round_ = core.start((deal.hands[0].core, deal.hands[1].core), number % 2)
        while round_[6] and core.size_of(round_[0][0]) + core.size_of(round_[0][1]) > 9:
            round_ = core.play(round_, rng.choice(round_[6]))
        if not round_[6]:
            continue
        expected = exhaustive_winner(round_)
        solved = {_playout(round_, Playout(solve_nodes=100_000), seed) for seed in range(5)}
        assert solved == {expected}, number
        compared += 1
    assert compared >= 30


def _playout(round_: core.Round, playout: Playout, seed: int) -> int:
    """The winner of one playout of ``round_`` played as ``playout`` says."""
    state = HipparchusState(0, round_, playout=playout)
    state.playout(random.Random(seed))
    return state.winner


def test_the_playout_options_reach_the_worlds_and_bad_values_are_refused() -> None:
    """``playout_follows`` and ``playout_solve`` set every world's playout (the random one when
    not given), and a value outside their bounds is refused, saying why."""
    game, seat = random_position(36, 3)
    view = game.view_data(seat)
    world = ADAPTER.position(view).information_set().determinize(random.Random(1))
    assert world.playout_policy == RANDOM_PLAYOUT
    adapter = ADAPTER.with_options({"playout_follows": "0.5", "playout_solve": "3000"})
    world = adapter.position(view).information_set().determinize(random.Random(1))
    assert world.playout_policy == Playout(follows=0.5, solve_nodes=3000)
    assert world.copy().playout_policy == world.playout_policy
    for bad in ("-0.1", "1.5", "nan", "many"):
        with pytest.raises(ValueError, match=r"playout_follows must be in \[0, 1\]"):
            ADAPTER.with_options({"playout_follows": bad})
    for bad in ("-1", "100001", "2.5"):
        with pytest.raises(ValueError, match=r"playout_solve must be in 0\.\.100000"):
            ADAPTER.with_options({"playout_solve": bad})
