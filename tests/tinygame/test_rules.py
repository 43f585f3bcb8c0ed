"""High card's rules (tinygame/game.py) on their own, through the generic Game interface."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from hipparchusd.games.base import GameFinished, IllegalMove, MoveList, NotYourTurn, Pick

from .codec import CODEC, HighCardRecord, Picked, Revealed
from .game import HighCardGame, check_deal, deal
from .kind import HIGHCARD

HANDS = ((2, 5, 9), (1, 6, 7), (3, 4, 8))


def test_a_seeded_deal_is_reproducible_and_possible() -> None:
    first = HighCardGame(best_of=4, seed=12)
    again = HighCardGame(best_of=4, seed=12)
    assert first.record() == again.record() and first.fixed_deal
    hands = first.record().hands
    check_deal(4, hands)
    assert sorted(itertools.chain(*hands)) == list(range(1, 13))
    assert not HighCardGame(best_of=2).fixed_deal


@pytest.mark.parametrize(
    "hands",
    [((1, 2), (3, 4), (5, 6)), ((2, 1, 9), (6, 7, 8), (3, 4, 5)), ((1, 1, 9), HANDS[1], HANDS[2])],
)
def test_an_impossible_deal_is_refused(hands: tuple[tuple[int, ...], ...]) -> None:
    with pytest.raises(ValueError):
        HighCardGame(best_of=3, hands=hands)


def test_every_seat_moves_at_once_and_the_order_of_the_picks_does_not_matter() -> None:
    outcomes = set()
    for order in itertools.permutations(range(3)):
        game = HighCardGame(hands=HANDS)
        assert game.seats_to_move() == {0, 1, 2}
        cards = {0: 9, 1: 6, 2: 8}
        for done, seat in enumerate(order, 1):
            events = game.play(seat, cards[seat])
            assert events[0].payload == Picked(seat) and events[0].audience is None
            assert game.seats_to_move() == ({0, 1, 2} - set(order[:done]) or {0, 1, 2})
        assert events[-1].payload == Revealed(1, (9, 6, 8), 0, (1, 0, 0))
        outcomes.add(game.record().picks[-1])
    assert len(outcomes) == 3  # the record keeps the order the picks came in


def test_a_pick_stays_hidden_until_the_round_ends() -> None:
    game = HighCardGame(hands=HANDS)
    game.play(1, 7)
    for seat in (None, 0, 2):
        view = game.view(seat)
        assert view.picked == (False, True, False) and view.own_pick is None
        assert "7" not in json.dumps(CODEC.unstructure(view))
    assert game.view(1).own_pick == 7 and game.view(1).hand == (1, 6)
    assert game.legal(1) == MoveList(())  # it has picked: nothing to do
    assert game.legal(0) == Pick(1, ("2", "5", "9"))


def test_refusals_change_nothing() -> None:
    game = HighCardGame(hands=HANDS)
    game.play(0, 2)
    before = game.record()
    for seat, move, error in [
        (0, 5, NotYourTurn),
        (1, 2, IllegalMove),
        (3, 1, IllegalMove),
    ]:
        with pytest.raises(error):
            game.play(seat, move)
    with pytest.raises(IllegalMove):
        game.parse_move(1, "06")
    with pytest.raises(IllegalMove):
        game.parse_move(1, "six")
    assert game.record() == before


def test_the_most_round_wins_win_and_ties_share() -> None:
    game = HighCardGame(hands=HANDS)
    for picks in ((9, 1, 3), (2, 6, 4), (5, 7, 8)):
        for seat, card in enumerate(picks):
            game.play(seat, card)
    outcome = game.outcome
    assert outcome is not None
    assert (outcome.winners, outcome.scores, outcome.resigned) == ((0, 1, 2), (1, 1, 1), None)
    assert game.seats_to_move() == frozenset()
    with pytest.raises(GameFinished):
        game.play(0, 2)


def test_a_resigning_seat_ranks_last_and_the_others_share_by_round_wins() -> None:
    game = HighCardGame(hands=HANDS)
    for seat, card in enumerate((9, 1, 3)):
        game.play(seat, card)
    fork = game.fork()
    assert fork.resign(0) == []
    outcome = fork.outcome
    assert outcome is not None and outcome.winners == (1, 2) and outcome.resigned == 0
    assert game.outcome is None  # the fork is independent
    assert game.resign(2) == [] and game.outcome is not None
    assert game.outcome.winners == (0,)


def test_the_record_round_trips_through_json_and_replays() -> None:
    game = HighCardGame(best_of=3, seed=4)
    for _ in range(4):
        seat = min(game.seats_to_move())
        legal = game.legal(seat)
        assert isinstance(legal, Pick)
        game.play_word(seat, legal.items[-1])
    data = json.loads(json.dumps(game.record_data()))
    restored = HIGHCARD.restore({"seed": "4"}, data)
    assert restored.record_data() == game.record_data()
    assert [restored.view_data(s) for s in (None, 0, 1, 2)] == [
        game.view_data(s) for s in (None, 0, 1, 2)
    ]
    data["picks"][1] = data["picks"][0]  # the same seat twice in a round
    with pytest.raises(ValueError, match="does not replay"):
        HIGHCARD.restore({}, data)
    with pytest.raises(ValueError, match="not a high card record"):
        HIGHCARD.restore({}, {**data, "best_of": "3"})
    assert CODEC.structure(game.record_data(), HighCardRecord) == game.record()


def test_deal_gives_each_seat_best_of_cards() -> None:
    hands = deal(5, random.Random(1))
    assert [len(hand) for hand in hands] == [5, 5, 5]
