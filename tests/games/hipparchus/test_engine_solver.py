"""The engine's exact solver for the late part of a Hipparchus round (issue 29): its winner is
the one plain minimax over every move of the rules core finds, within its node budget or not at
all."""

from __future__ import annotations

import random

import pytest

from hipparchusd.games.hipparchus import core
from hipparchusd.games.hipparchus.dealing import seeded_deal
from hipparchusd.games.hipparchus.engine_solver import Solver
from hipparchusd.games.hipparchus.engine_state import HipparchusState


def exhaustive_winner(round_: core.Round) -> int:
    """The seat that wins ``round_`` with perfect play, by plain minimax over every legal move
    to the end of the round (no table, no cut-offs, no move order): the seat to move wins if
    one of its moves leads to a round it wins (RULINGS H10, H11 at the end)."""
    legal = round_[6]
    if not legal:
        return core.round_winner(round_[1], round_[4])[0]
    mover = core.to_move(round_)
    winners = [exhaustive_winner(core.play(round_, move)) for move in legal]
    return mover if mover in winners else 1 - mover


def _late(number: int, cards: int) -> core.Round:
    """A round of deal ``number`` played at random until its hands hold ``cards`` cards or
    fewer (or it ends): a late position built by the rules."""
    rng = random.Random(number)
    deal = seeded_deal(number, 1)
    round_ = core.start((deal.hands[0].core, deal.hands[1].core), number % 2)
    while round_[6] and core.size_of(round_[0][0]) + core.size_of(round_[0][1]) > cards:
        round_ = core.play(round_, rng.choice(round_[6]))
    return round_


def test_the_solver_finds_the_exhaustive_winner() -> None:
    """On 300 late positions (10 cards or fewer in both hands, leads and follows, won counts
    and tie-breaks as the rules left them) the solver names the seat plain minimax names."""
    compared = both = 0
    winners = set()
    for number in range(300):
        round_ = _late(50_000 + number, 10)
        if not round_[6]:
            continue
        expected = exhaustive_winner(round_)
        assert Solver().winner(round_, 1_000_000) == expected, number
        compared += 1
        winners.add(expected)
        both += core.to_move(round_) != expected
    assert compared > 250
    assert winners == {0, 1}
    assert both > 0  # some positions are lost for the seat to move


def test_a_shared_table_changes_no_answer() -> None:
    """One solver used for many positions (its table filling up) answers as a fresh one."""
    shared = Solver()
    for number in range(200):
        round_ = _late(60_000 + number, 12)
        if round_[6]:
            assert shared.winner(round_, 1_000_000) == Solver().winner(round_, 1_000_000)


def test_the_node_budget_is_kept() -> None:
    """A position that needs more positions than the budget is not solved (``None``), and
    solved once the budget allows."""
    for number in range(100):
        round_ = _late(70_000 + number, 12)
        solver = Solver()
        if round_[6] and solver.winner(round_, 1_000_000) is not None and len(solver.table) > 5:
            break
    else:
        pytest.fail("no late position needs more than five positions")
    assert Solver().winner(round_, 3) is None
    assert Solver().winner(round_, 1_000_000) == exhaustive_winner(round_)


def test_too_many_cards_are_out_of_reach_at_once() -> None:
    """A round whose hands hold more cards than the solver tries is not searched at all."""
    round_ = _late(80_000, 30)
    solver = Solver(cards=12)
    assert solver.winner(round_, 1_000_000) is None
    assert not solver.table


def test_a_finished_round_gives_its_winner() -> None:
    round_ = _late(80_001, 0)
    assert not round_[6]
    assert Solver().winner(round_, 1) == core.round_winner(round_[1], round_[4])[0]


def test_the_states_solve_gives_each_seats_reward() -> None:
    """A determinization's solve() is 1 for the winning seat, 0 for the other."""
    for number in range(20):
        round_ = _late(90_000 + number, 8)
        if not round_[6]:
            continue
        state = HipparchusState(0, round_)
        winner = exhaustive_winner(round_)
        values = state.solve(100_000)
        assert values is not None
        assert values[winner] == 1.0 and values[1 - winner] == 0.0
