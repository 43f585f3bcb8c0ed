"""The engine's Hipparchus adapter (issue 18): the search sees only its seat's information,
every level plays a legal move, a playouts budget is deterministic, and what it cannot search
is refused."""

from __future__ import annotations

import attrs
import pytest
from hipparchus_positions import hidden_twin, random_position

from hipparchusd.engine.analysis import analyze
from hipparchusd.engine.position import EXPLORATION
from hipparchusd.engine.types import Analysis, Level
from hipparchusd.games.hipparchus.engine import (
    ADAPTER,
    OPPONENT_ERROR,
    HipparchusAdapter,
    HipparchusPosition,
    match_chance,
)
from hipparchusd.games.hipparchus.notation import format_play
from hipparchusd.jsondata import JSON


def _comparable(analysis: Analysis) -> Analysis:
    return attrs.evolve(analysis, elapsed_ms=0.0)


SHARED_ROOT = ADAPTER.with_options({"shared_root": "1"})


@pytest.mark.parametrize("adapter", [ADAPTER, SHARED_ROOT], ids=["default", "shared-root"])
@pytest.mark.parametrize(("seed", "moves"), [(1, 0), (2, 5), (3, 12), (4, 19), (5, 24)])
def test_the_search_sees_only_its_seats_information(
    adapter: HipparchusAdapter, seed: int, moves: int
) -> None:
    """Two games that differ only in cards the seat cannot see (the opponent's hand and its
    order, the face-down cards), searched with the same seed and playouts, answer the same,
    also with shared worlds at the root (whose worlds are dealt once for every root move)."""
    game, seat, twin = hidden_twin(seed, moves)
    level = Level.parse("ismcts:300")
    assert twin.view_data(seat) == game.view_data(seat)
    one = analyze(adapter, game.view_data(seat), level, seed=99)
    two = analyze(adapter, twin.view_data(seat), level, seed=99)
    assert _comparable(one) == _comparable(two)
    assert one.playouts == 300


@pytest.mark.parametrize("text", ["random", "heuristic", "sampler:20", "ismcts:200", "ismcts:30ms"])
@pytest.mark.parametrize(("seed", "moves"), [(21, 0), (22, 3), (23, 10), (24, 17), (25, 26)])
def test_every_level_plays_a_legal_move(text: str, seed: int, moves: int) -> None:
    game, seat = random_position(seed, moves)
    legal = {format_play(p) for p in game.legal_moves(seat)}
    analysis = analyze(ADAPTER, game.view_data(seat), Level.parse(text), seed=seed)
    assert analysis.best in legal
    assert analysis.moves[0].move == analysis.best
    assert {m.move for m in analysis.moves} <= legal
    for stats in analysis.moves:
        assert 0.0 <= stats.value <= 1.0
        assert stats.match_value is not None and 0.0 <= stats.match_value <= 1.0
    if text.startswith("ismcts"):
        if not text.endswith("ms"):  # a time budget on a loaded machine may expand fewer
            assert {m.move for m in analysis.moves} == legal
        assert sum(m.visits for m in analysis.moves) == analysis.playouts
        assert [m.visits for m in analysis.moves] == sorted(
            (m.visits for m in analysis.moves), reverse=True
        )


def test_a_playouts_budget_is_deterministic() -> None:
    game, seat = random_position(31, 8)
    level = Level.parse("ismcts:250")
    one = analyze(ADAPTER, game.view_data(seat), level, seed=5)
    two = analyze(ADAPTER, game.view_data(seat), level, seed=5)
    assert _comparable(one) == _comparable(two)


def test_match_chance_counts_rounds_to_two() -> None:
    assert match_chance((0, 0), 0, 0.5) == 0.5
    assert match_chance((1, 0), 0, 1.0) == 1.0
    assert match_chance((0, 1), 0, 0.0) == 0.0
    assert match_chance((1, 1), 1, 0.3) == pytest.approx(0.3)
    assert match_chance((0, 0), 0, 1.0) == 0.75  # then an even chance in two more rounds


def test_analyze_refuses_what_it_cannot_search() -> None:
    game, seat = random_position(40, 3)
    level = Level.parse("random")
    with pytest.raises(ValueError, match="need not move"):
        analyze(ADAPTER, game.view_data(1 - seat), level, seed=0)
    with pytest.raises(ValueError, match="spectator"):
        analyze(ADAPTER, game.view_data(None), level, seed=0)
    bad: JSON = {"seat": 0}
    with pytest.raises(ValueError):
        analyze(ADAPTER, bad, level, seed=0)
    with pytest.raises(ValueError, match="interval"):
        analyze(ADAPTER, game.view_data(seat), level, seed=0, interval_ms=0)
    assert isinstance(HipparchusPosition(game.view_data(seat)), HipparchusPosition)


def test_the_exploration_option_sets_ucb1s_constant() -> None:
    """``exploration`` (an A/B option, issue 29) reaches the tuning, is the engine's constant
    when not given, and is refused, saying why, outside (0, 10]."""
    game, seat = random_position(31, 4)
    view = game.view_data(seat)
    assert ADAPTER.position(view).tuning().exploration == EXPLORATION
    wider = ADAPTER.with_options({"exploration": "1.2"})
    assert wider.position(view).tuning().exploration == 1.2
    assert wider.with_options({"reuse": "1"}).position(view).tuning().exploration == 1.2
    for bad in ("0", "-1", "11", "nan", "wide"):
        with pytest.raises(ValueError, match=r"exploration must be in \(0, 10\]"):
            ADAPTER.with_options({"exploration": bad})
    # The opponent's constant (off: None, the same as the seat's) is set apart from it.
    assert ADAPTER.position(view).tuning().opponent_exploration is None
    greedy = wider.with_options({"opponent_exploration": "0.3"}).position(view).tuning()
    assert (greedy.exploration, greedy.opponent_exploration) == (1.2, 0.3)
    with pytest.raises(ValueError, match=r"opponent_exploration must be in \(0, 10\]"):
        ADAPTER.with_options({"opponent_exploration": "0"})
    # The opponent's chance to err in the tree (the level's OPPONENT_ERROR; 0 is off), in [0, 1).
    assert ADAPTER.position(view).tuning().opponent_error == OPPONENT_ERROR == 0.2
    assert ADAPTER.with_options({"opponent_error": "0"}).position(view).tuning().opponent_error == 0
    erring = wider.with_options({"opponent_error": "0.35"}).position(view).tuning()
    assert (erring.exploration, erring.opponent_error) == (1.2, 0.35)
    shared = ADAPTER.with_options({"opponent_error": "0.35", "shared_root": "1"})
    assert shared.position(view).tuning().opponent_error == 0.35
    for bad in ("-0.1", "1", "nan", "often"):
        with pytest.raises(ValueError, match=r"opponent_error must be in \[0, 1\)"):
            ADAPTER.with_options({"opponent_error": bad})


def test_the_leaf_error_option_reaches_the_leaves_solver() -> None:
    """``leaf_error`` (an A/B option, issue 29) sets the leaves' solver's erring opponent (off,
    0, unless given) and is refused outside [0, 1), saying why; a search with it still
    answers every legal play."""
    game, seat = random_position(35, 8)
    view = game.view_data(seat)
    assert ADAPTER.position(view).information_set().solver.error == 0.0
    erring = ADAPTER.with_options({"leaf_error": "0.25"})
    assert erring.position(view).information_set().solver.error == 0.25
    for bad in ("-0.1", "1", "nan", "often"):
        with pytest.raises(ValueError, match=r"leaf_error must be in \[0, 1\)"):
            ADAPTER.with_options({"leaf_error": bad})
    legal = {format_play(p) for p in game.legal_moves(seat)}
    analysis = analyze(erring, view, Level.parse("ismcts:300"), seed=5)
    assert {m.move for m in analysis.moves} == legal


def test_the_shared_root_option_races_the_root_moves_over_shared_worlds() -> None:
    """``shared_root`` (an A/B option, issue 29) gives the search shared worlds at the root
    with the tree and the leaf solver below (off when not given), keeps the exploration
    constant given with it, and is refused, saying why, unless 0 or 1; searched, every root
    move is played on the same first worlds (the race's first check is after 8)."""
    game, seat = random_position(34, 2)
    view = game.view_data(seat)
    assert not ADAPTER.position(view).tuning().shared_worlds
    shared = ADAPTER.with_options({"shared_root": "1", "exploration": "0.9"})
    tuning = shared.position(view).tuning()
    assert tuning.shared_worlds and tuning.tree and tuning.solve_nodes > 0
    assert tuning.exploration == 0.9
    with pytest.raises(ValueError, match="shared_root must be 0 or 1"):
        ADAPTER.with_options({"shared_root": "2"})
    legal = {format_play(p) for p in game.legal_moves(seat)}
    analysis = analyze(shared, view, Level.parse(f"ismcts:{8 * len(legal)}"), seed=3)
    assert {m.move for m in analysis.moves} == legal
    assert {m.visits for m in analysis.moves} == {8}


def test_the_exploration_constant_changes_the_search() -> None:
    """A far smaller constant spends the root's visits on fewer moves: the same view, seed
    and playouts give a more concentrated root (the most visited move's share grows)."""
    game, seat = random_position(32, 0)
    view = game.view_data(seat)
    level = Level.parse("ismcts:600")
    shares = []
    for constant in ("0.05", "3"):
        adapter = ADAPTER.with_options({"exploration": constant})
        moves = analyze(adapter, view, level, seed=5).moves
        shares.append(max(m.visits for m in moves) / sum(m.visits for m in moves))
    assert shares[0] > shares[1]
