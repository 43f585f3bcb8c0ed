"""The Hipparchus search's tree kept between moves (issue 29, the adapter's ``reuse`` option):
the path from a decision to the seat's next is its own play (the core's move) and the
opponent's plays by public form (RULINGS H13); a view that does not extend the kept one (a new
round, an undo, the other seat) starts afresh; the search continues the kept subtree; and two
games that differ only in what the seat cannot see get the same answers with it."""

from __future__ import annotations

import itertools
import random

import attrs
import pytest
from hipparchus_positions import hidden_twin

from hipparchusd.engine.analysis import TreeMemory, analyze
from hipparchusd.engine.ismcts import search
from hipparchusd.engine.types import Analysis, Level
from hipparchusd.games.hipparchus.engine import ADAPTER, TUNING, HipparchusPosition
from hipparchusd.games.hipparchus.game import HipparchusGame
from hipparchusd.games.hipparchus.model import move_of
from hipparchusd.jsondata import JSON

REUSING = ADAPTER.with_options({"reuse": "1"})


def _comparable(analysis: Analysis) -> Analysis:
    return attrs.evolve(analysis, elapsed_ms=0.0)


def _decisions(seed: int, seat: int, plays: int) -> list[tuple[JSON, int | None, list[int]]]:
    """A seeded game of random plays: each of ``seat``'s decisions as (its view, the core
    move it made, the public forms of the opponent's plays after it before its next)."""
    rng = random.Random(seed)
    game = HipparchusGame(seed=seed, first_leader=seed % 2)
    game.start()
    found: list[tuple[JSON, int | None, list[int]]] = []
    for _ in range(plays):
        if game.outcome is not None:
            break
        mover = next(iter(game.seats_to_move()))
        legal = game.legal_moves(mover)
        play = legal[rng.randrange(len(legal))]
        move = move_of(play)
        assert move is not None
        if mover == seat:
            found.append((game.view_data(seat), move, []))
        elif found:
            found[-1][2].append(move & 15)
        game.play(mover, play)
    return found


@pytest.mark.parametrize(("seed", "seat"), [(1, 0), (2, 1), (3, 0), (4, 1)])
def test_the_path_is_the_seats_play_then_the_opponents(seed: int, seat: int) -> None:
    decisions = _decisions(seed, seat, 60)
    followed = 0
    for (view, move, replies), (later, _, _) in itertools.pairwise(decisions):
        earlier = HipparchusPosition(view)
        after = HipparchusPosition(later)
        path = after.path_from(earlier.lineage())
        if earlier.view.round_number != after.view.round_number:
            assert path is None  # a new round: a fresh tree
            continue
        assert path == (move, *replies)
        # The seat's key is one its determinizations play, the opponent's their public form.
        assert move in {move_of(play) for play in earlier.legal}
        followed += 1
        assert earlier.path_from(after.lineage()) is None  # back in time: an undo
        assert after.path_from(after.lineage()) == ()  # the same information set
    assert followed >= 5


def test_another_seat_or_game_does_not_extend_a_decision() -> None:
    view, _, _ = _decisions(5, 0, 8)[1]
    mine = HipparchusPosition(view)
    for seed in (6, 7, 8):
        for later, _, _ in _decisions(seed, 0, 8)[1:]:
            assert HipparchusPosition(later).path_from(mine.lineage()) is None
        for later, _, _ in _decisions(5, 1, 8):
            assert HipparchusPosition(later).path_from(mine.lineage()) is None
    assert mine.path_from(("not", "a", "lineage")) is None


def test_a_lineage_of_another_round_seat_or_history_is_not_extended() -> None:
    (view, move, replies), (later, _, _) = _decisions(15, 0, 20)[1:3]
    earlier = HipparchusPosition(view).lineage()
    after = HipparchusPosition(later)
    assert after.path_from(earlier) == (move, *replies)
    seat, number, wins, hand, plays = earlier
    assert plays
    assert after.path_from((seat, number + 1, wins, hand, plays)) is None
    assert after.path_from((seat, number, (wins[0] + 1, wins[1]), hand, plays)) is None
    assert after.path_from((1 - seat, number, wins, hand, plays)) is None
    other = ((plays[0][0], plays[0][1] ^ 1), *plays[1:])  # the first play in another suit
    assert after.path_from((seat, number, wins, hand, other)) is None


def test_the_option_sets_the_tuning() -> None:
    view, _, _ = _decisions(9, 0, 4)[0]
    assert not ADAPTER.position(view).tuning().reuse
    assert REUSING.position(view).tuning() == attrs.evolve(TUNING, reuse=True)
    assert not REUSING.with_options({"reuse": "0"}).position(view).tuning().reuse
    with pytest.raises(ValueError, match="reuse must be 0 or 1"):
        ADAPTER.with_options({"reuse": "yes"})


@pytest.mark.parametrize(("seed", "seat"), [(11, 0), (12, 1), (13, 0)])
def test_the_search_continues_the_kept_subtree(seed: int, seat: int) -> None:
    """The second decision's moves start with the visits of the first search's node reached
    by the seat's play and the opponent's, less the one iteration that added that node, and
    add this search's playouts; a search of its own (no memory) has only its own."""
    (first, move, replies), (second, _, _) = _decisions(seed, seat, 20)[:2]
    position = HipparchusPosition(first)
    tuning = attrs.evolve(TUNING, reuse=True)
    alone = search(position.information_set(), random.Random(3), playouts=2000, tuning=tuning)
    assert alone.tree is not None
    kept = alone.tree.subtree((move, *replies))
    assert kept is not None and kept.visits > 1
    memory = TreeMemory()
    analyze(REUSING, first, Level.parse("ismcts:2000"), seed=3, memory=memory)
    answer = analyze(REUSING, second, Level.parse("ismcts:500"), seed=4, memory=memory)
    assert answer.playouts == 500
    assert sum(m.visits for m in answer.moves) == kept.visits - 1 + 500
    fresh = analyze(REUSING, second, Level.parse("ismcts:500"), seed=4)
    assert sum(m.visits for m in fresh.moves) == 500
    again = TreeMemory()
    analyze(REUSING, first, Level.parse("ismcts:2000"), seed=3, memory=again)
    repeat = analyze(REUSING, second, Level.parse("ismcts:500"), seed=4, memory=again)
    assert _comparable(repeat) == _comparable(answer)  # deterministic


def test_a_new_round_starts_afresh() -> None:
    decisions = _decisions(14, 0, 80)
    views = [view for view, _, _ in decisions]
    rounds = [HipparchusPosition(view).view.round_number for view in views]
    assert rounds[-1] > rounds[0]
    start = rounds.index(rounds[-1])
    memory = TreeMemory()
    level = Level.parse("ismcts:300")
    analyze(REUSING, views[start - 1], level, seed=1, memory=memory)  # the last of a round
    answer = analyze(REUSING, views[start], level, seed=2, memory=memory)
    assert sum(m.visits for m in answer.moves) == answer.playouts == 300


def _round_views(game: HipparchusGame, seat: int) -> list[JSON]:
    """``seat``'s views at each of its decisions of the round in play, replayed from the
    game's record, the last the game's own."""
    record = game.record()
    replay = HipparchusGame(first_leader=record.first_leader, deals=[r.deal for r in record.rounds])
    replay.start()
    views: list[JSON] = []
    for number, old in enumerate(record.rounds):
        for play in old.plays:
            mover = next(iter(replay.seats_to_move()))
            if number == len(record.rounds) - 1 and mover == seat:
                views.append(replay.view_data(seat))
            replay.play(mover, play)
    views.append(game.view_data(seat))
    return views


@pytest.mark.parametrize(("seed", "moves"), [(1, 9), (2, 12), (3, 14), (4, 19)])
def test_a_kept_tree_sees_only_the_seats_information(seed: int, moves: int) -> None:
    """Two games that differ only in cards the seat cannot see, their decisions of the
    round searched in turn with a tree memory each: the same answers, kept trees included."""
    game, seat, twin = hidden_twin(seed, moves)
    views, twin_views = _round_views(game, seat), _round_views(twin, seat)
    assert views == twin_views and len(views) >= 2
    level = Level.parse("ismcts:300")
    mine, theirs = TreeMemory(), TreeMemory()
    continued = 0
    for number, (view, twin_view) in enumerate(zip(views, twin_views, strict=True)):
        one = analyze(REUSING, view, level, seed=number, memory=mine)
        two = analyze(REUSING, twin_view, level, seed=number, memory=theirs)
        assert _comparable(one) == _comparable(two)
        continued += sum(m.visits for m in one.moves) > one.playouts
    assert continued  # the kept trees were used: the test tests them
