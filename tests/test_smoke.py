"""A whole match through the game interface replays to the same state."""

import random

from hipparchusd.games.hipparchus import HipparchusGame, replay


def test_random_match_replays_exactly() -> None:
    rng = random.Random(7)
    game = HipparchusGame(seed=11)
    game.start()
    while game.outcome is None:
        (seat,) = game.seats_to_move()
        game.play(seat, rng.choice(game.legal_moves(seat)))
    assert replay(game.record()) == game.state
    assert max(game.state.round_wins) == 2
