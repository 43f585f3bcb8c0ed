"""HipparchusGame.restore: a game rebuilt from its (stored) record is the same game."""

from __future__ import annotations

import random

import attrs
import pytest
from store_helpers import play_random

from hipparchusd.games.hipparchus import HipparchusGame, MatchRecord, Play, replay
from hipparchusd.games.hipparchus.codec import converter


def _round_trip(record: MatchRecord) -> MatchRecord:
    """Through the converter, as the store keeps it."""
    return converter.structure(converter.unstructure(record), MatchRecord)


@pytest.mark.parametrize("plays", [0, 1, 7, 20, 31, 60])
def test_unfixed_game_comes_back_with_its_deals_and_stays_unfixed(plays: int) -> None:
    rng = random.Random(plays)
    game = HipparchusGame()  # dealt from the system's randomness
    game.start()
    play_random(game, rng, plays)

    restored = HipparchusGame.restore(_round_trip(game.record()))

    assert restored.state == game.state
    assert restored.record() == game.record()
    assert restored.fixed_deal is False
    for seat in (0, 1, None):
        assert restored.view(seat) == game.view(seat)


def test_restored_game_goes_on_exactly_like_the_original() -> None:
    game = HipparchusGame(seed=5)
    game.start()
    play_random(game, random.Random(1), 25)
    restored = HipparchusGame.restore(_round_trip(game.record()), seed=5)
    assert restored.fixed_deal is True

    # The same plays from here give the same events and, across new deals, the same match.
    rng = random.Random(2)
    while game.outcome is None:
        (seat,) = game.seats_to_move()
        assert restored.seats_to_move() == {seat}
        play = rng.choice(game.legal_moves(seat))
        assert restored.play(seat, play) == game.play(seat, play)
    assert restored.outcome == game.outcome
    assert restored.record() == game.record()
    assert replay(restored.record()) == game.state


def test_a_finished_and_a_resigned_match_come_back_finished() -> None:
    finished = HipparchusGame(seed=3)
    finished.start()
    play_random(finished, random.Random(3))
    assert HipparchusGame.restore(finished.record()).outcome == finished.outcome

    resigned = HipparchusGame()
    resigned.start()
    play_random(resigned, random.Random(4), 9)
    resigned.resign(1)
    back = HipparchusGame.restore(_round_trip(resigned.record()))
    assert back.outcome == resigned.outcome
    assert back.outcome is not None and back.outcome.resigned == 1
    assert back.record() == resigned.record()


def test_a_record_that_breaks_the_rules_is_refused() -> None:
    game = HipparchusGame(seed=9)
    game.start()
    play_random(game, random.Random(9), 6)
    record = game.record()
    first = record.rounds[0]

    wrong_leader = attrs.evolve(record, rounds=(attrs.evolve(first, leader=1 - first.leader),))
    with pytest.raises(ValueError, match="round 1"):
        HipparchusGame.restore(wrong_leader)

    # Four cards in one play are never legal (RULINGS H2: at most 3).
    bogus = Play(4, first.plays[0].suit, 1)
    bad_play = attrs.evolve(record, rounds=(attrs.evolve(first, plays=(*first.plays, bogus)),))
    with pytest.raises(ValueError, match="round 1, play 7"):
        HipparchusGame.restore(bad_play)

    wrong_winner = attrs.evolve(record, winner=0)
    with pytest.raises(ValueError, match="winner"):
        HipparchusGame.restore(wrong_winner)
