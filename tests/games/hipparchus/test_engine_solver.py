"""The engine's exact solver for the late part of a Hipparchus round (issue 29): its winner is
the one plain minimax over every move of the rules core finds, within its node budget or not at
all."""

from __future__ import annotations

import random

import pytest
from hipparchus_positions import random_position

from hipparchusd.engine.analysis import analyze
from hipparchusd.engine.types import Level
from hipparchusd.games.hipparchus import core
from hipparchusd.games.hipparchus.dealing import seeded_deal
from hipparchusd.games.hipparchus.engine import ADAPTER, LEAF_TUNING, ROOT_TUNING, TUNING
from hipparchusd.games.hipparchus.engine_heuristic import heuristic_play
from hipparchusd.games.hipparchus.engine_information import HipparchusInformation
from hipparchusd.games.hipparchus.engine_solver import Solver
from hipparchusd.games.hipparchus.engine_state import HipparchusState
from hipparchusd.games.hipparchus.model import play_of_move
from hipparchusd.games.hipparchus.notation import format_play


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


def exhaustive_chance(round_: core.Round, seat: int, error: float) -> float:
    """``seat``'s chance to win ``round_`` by plain expectimax over every legal move to the
    round's end (no table, no shortcut through the winner): ``seat`` takes its best move; the
    other seat its best with probability ``1 - error``, else any legal move alike."""
    legal = round_[6]
    if not legal:
        return 1.0 if core.round_winner(round_[1], round_[4])[0] == seat else 0.0
    values = [exhaustive_chance(core.play(round_, move), seat, error) for move in legal]
    if core.to_move(round_) == seat:
        return max(values)
    return (1.0 - error) * min(values) + error * sum(values) / len(values)


def test_the_chance_against_an_erring_opponent_is_the_exhaustive_expectimax() -> None:
    """On late positions (8 cards or fewer) the solver's chance for either seat against an
    opponent who errs one move in five (or half the time) is plain expectimax's; a won
    position is worth 1, and some lost ones are worth more than 0 (the opponent may err)."""
    compared = hopeful = 0
    for number in range(150):
        round_ = _late(95_000 + number, 8)
        if not round_[6]:
            continue
        for seat in (0, 1):
            for error in (0.2, 0.5):
                expected = exhaustive_chance(round_, seat, error)
                found = Solver(error=error).chance(round_, 1_000_000, seat)
                assert found == pytest.approx(expected, abs=1e-12), (number, seat, error)
                assert (found == 1.0) == (exhaustive_winner(round_) == seat)
                hopeful += 0.0 < found < 1.0
                compared += 1
    assert compared > 400
    assert hopeful > 20


def test_a_perfect_opponent_leaves_the_winner() -> None:
    """At error 0 the chance is the minimax winner's bit."""
    for number in range(60):
        round_ = _late(96_000 + number, 10)
        if round_[6]:
            winner = exhaustive_winner(round_)
            assert Solver().chance(round_, 1_000_000, 0) == (1.0 if winner == 0 else 0.0)


def test_the_chance_keeps_its_budget_and_card_limit() -> None:
    """A lost position that needs more positions than the budget gives ``None``; more cards
    than the solver tries give ``None`` at once, nothing searched."""
    for number in range(100):
        round_ = _late(97_000 + number, 12)
        solver = Solver(error=0.2)
        seat = core.to_move(round_)
        solved = round_[6] and solver.chance(round_, 1_000_000, seat) is not None
        if solved and len(solver.chances) > 5:
            break
    else:
        pytest.fail("no lost late position needs more than five positions")
    assert Solver(error=0.2).chance(round_, 3, seat) is None
    far = Solver(cards=12, error=0.2)
    assert far.chance(_late(97_500, 30), 1_000_000, 0) is None
    assert not far.table and not far.chances


def test_the_states_solve_gives_the_chance_with_an_erring_opponent() -> None:
    """With the solver's error set, a determinization's solve() gives the searching seat's
    expectimax chance and the other seat the rest."""
    checked = 0
    for number in range(40):
        round_ = _late(98_000 + number, 8)
        if not round_[6]:
            continue
        for observer in (0, 1):
            state = HipparchusState(observer, round_, Solver(error=0.3))
            values = state.solve(100_000)
            assert values is not None
            chance = exhaustive_chance(round_, observer, 0.3)
            assert values[observer] == pytest.approx(chance)
            assert values[1 - observer] == pytest.approx(1.0 - chance)
            checked += 1
    assert checked > 60


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


def test_the_heuristic_plays_a_forced_win_late_in_a_round() -> None:
    """Late in a round (8 cards or fewer in both hands), where one play of the seat wins the
    round against every opponent hand that agrees with the view and best play (plain minimax
    on each), the heuristic's play wins against every such hand too, in nearly every position
    (it samples a few of them; the margin-after-the-trick player it was before did not)."""
    forced = found = 0
    for seed in range(1200):
        game, seat = random_position(seed, 14 + seed % 12)
        view = game.view(seat)
        if view.hand is None or view.hand.size + view.hand_sizes[1 - seat] > 8:
            continue
        information = HipparchusInformation(view)
        rng = random.Random(seed)
        worlds = {information.determinize(rng).round for _ in range(60)}
        winning = {
            move
            for move in next(iter(worlds))[6]
            if all(exhaustive_winner(core.play(world, move)) == seat for world in worlds)
        }
        if not winning or len(winning) == len(next(iter(worlds))[6]):
            continue
        forced += 1
        fresh = HipparchusInformation(view)
        play = heuristic_play(view, lambda fresh=fresh: fresh, random.Random(seed))
        chosen = {move for move in next(iter(worlds))[6] if play_of_move(move) == play}
        found += bool(chosen & winning)
    assert forced >= 20
    assert found >= 0.9 * forced


def _forced_positions(limit: int) -> list[tuple[object, int, set[int], int]]:
    """Positions of seeded random games with ``limit`` cards or fewer in both hands where
    some plays of the seat win the round against every opponent hand that agrees with the view
    (plain minimax on each of 60 sampled worlds) and others do not: (view data, seat, the
    winning moves, seed)."""
    found = []
    for seed in range(1200):
        game, seat = random_position(seed, 14 + seed % 12)
        view = game.view(seat)
        if view.hand is None or view.hand.size + view.hand_sizes[1 - seat] > limit:
            continue
        information = HipparchusInformation(view)
        rng = random.Random(seed)
        worlds = {information.determinize(rng).round for _ in range(60)}
        legal = next(iter(worlds))[6]
        winning = {
            move
            for move in legal
            if all(exhaustive_winner(core.play(world, move)) == seat for world in worlds)
        }
        if winning and len(winning) < len(legal):
            found.append((game.view_data(seat), seat, winning, seed))
    return found


def test_the_root_solver_plays_a_forced_win() -> None:
    """With the root solved world by world (the adapter's ``root_solve``), in every late
    position (8 cards or fewer) where some plays win the round against every opponent hand
    that agrees with the view (RULINGS H2-H11, plain minimax) and others do not, the engine
    plays one of the winning plays, and its value says it wins every world it solved."""
    adapter = ADAPTER.with_options({"root_solve": "16"})
    positions = _forced_positions(8)
    assert len(positions) >= 20
    for view, _, winning, seed in positions:
        analysis = analyze(adapter, view, Level.parse("ismcts:600"), seed=seed)
        words = {format_play(play_of_move(move)) for move in winning}
        assert analysis.best in words, seed
        assert analysis.moves[0].value == 1.0
        assert all(stats.value < 1.0 for stats in analysis.moves if stats.move not in words)


def test_the_root_solver_is_an_option() -> None:
    """``root_solve`` takes 0 to 28 cards; above its cards the search is the default one."""
    with pytest.raises(ValueError, match="root_solve"):
        ADAPTER.with_options({"root_solve": "29"})
    with pytest.raises(ValueError, match=r"root_solve must be in 0\.\.28, not 'all'"):
        ADAPTER.with_options({"root_solve": "all"})
    view, _, _, _ = _forced_positions(8)[0]
    assert ADAPTER.with_options({"root_solve": "16"}).position(view).tuning() == ROOT_TUNING
    assert ADAPTER.with_options({"root_solve": "2"}).position(view).tuning() == TUNING
    assert ADAPTER.position(view).tuning() == TUNING


def test_leaf_cards_solves_larger_leaves() -> None:
    """``leaf_cards`` raises the cards of a leaf the search solves: with 16, a world of 13 to 16
    cards is solved exactly (the winner plain minimax's solver gives); by default it is out of
    reach (played out); the option takes 0 to 28."""
    with pytest.raises(ValueError, match="leaf_cards"):
        ADAPTER.with_options({"leaf_cards": "-1"})
    adapter = ADAPTER.with_options({"leaf_cards": "16"})
    checked = 0
    for seed in range(400):
        game, seat = random_position(seed, 6 + seed % 10)
        view = game.view(seat)
        if view.hand is None or not 13 <= view.hand.size + view.hand_sizes[1 - seat] <= 16:
            continue
        position = adapter.position(game.view_data(seat))
        assert position.tuning() == LEAF_TUNING
        world = position.information_set().determinize(random.Random(seed))
        values = world.solve(LEAF_TUNING.solve_nodes)
        winner = Solver(cards=30).winner(world.round, 10**7)
        assert values is not None and values[winner] == 1.0
        default = ADAPTER.position(game.view_data(seat))
        assert default.tuning() == TUNING
        assert default.information_set().determinize(random.Random(seed)).solve(10**7) is None
        checked += 1
    assert checked >= 10
