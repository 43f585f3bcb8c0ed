"""The Hipparchus rules core (hipparchusd.games.hipparchus.core): its playout plays the rules
of :func:`core.play` draw for draw, and the rulings' cases on the core's own values (issue 23;
the worked examples of the seeds run through the object model in test_rules_examples.py)."""

from __future__ import annotations

import random

from hipparchusd.games.hipparchus import core
from hipparchusd.games.hipparchus.dealing import seeded_deal

ROUNDS = 300


class _Recorded:
    """A ``rand`` that draws from ``rng`` and remembers the draws."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.draws: list[float] = []

    def __call__(self) -> float:
        value = self.rng.random()
        self.draws.append(value)
        return value


def _dealt(number: int) -> core.Round:
    deal = seeded_deal(number, 1)
    return core.start((deal.hands[0].core, deal.hands[1].core), number % 2)


def test_random_finish_plays_the_rules_with_its_draws() -> None:
    """random_finish's r-th option is the r-th legal move of core.play (r = int(u * n)), from
    the deal and from every point of a round: replaying its draws through play() reaches the
    same winner, and the round it was given is unchanged."""
    rng = random.Random(7)
    ended_by_h6 = 0
    for number in range(ROUNDS):
        round_ = _dealt(10_000 + number)

        while round_[6]:
            before = round_
            rand = _Recorded(rng)
            winner = core.random_finish(round_, rand)
            assert round_ == before
            draws = iter(rand.draws)
            replayed = round_
            while replayed[6]:
                legal = replayed[6]
                replayed = core.play(replayed, legal[int(next(draws) * len(legal))])
            assert next(draws, None) is None
            assert winner == core.round_winner(replayed[1], replayed[4])[0]
            # On into the round by a random move, to start the next playout from there.
            round_ = core.play(round_, round_[6][rng.randrange(len(round_[6]))])

        ended_by_h6 += bool(round_[5])
        assert core.to_move(round_) == -1
    assert ended_by_h6 > 0  # the H6 ending was exercised


def test_h3_a_whole_clump_leaving_merges_its_neighbours() -> None:
    hand = core.hand_of([0, 0, 1, 0])  # SS M S
    assert hand == (2 << 2 | 0, 1 << 2 | 1, 1 << 2 | 0)
    assert core.remove(hand, 3 << 4 | 1 << 2 | 1) == (3 << 2 | 0,)
    # A torn clump keeps its place.
    long = core.hand_of([2, 2, 2, 2, 2, 1])
    assert core.remove(long, 1 << 4 | 2 << 2 | 2) == (3 << 2 | 2, 1 << 2 | 1)


def test_h2_h5_follows_of_the_lead_suit_at_another_count_else_other_suits() -> None:
    hand = core.hand_of([0, 0, 1, 1, 1, 1, 2])  # SS MMMM E
    # Two Suns led: no Sun at another count, so any play of the other suits (H5 fall-back).
    assert core.follow_moves(hand, 2 << 2 | 0) == (
        3 << 4 | 1 << 2 | 1,
        3 << 4 | 2 << 2 | 1,
        3 << 4 | 3 << 2 | 1,
        7 << 4 | 1 << 2 | 2,
    )
    # Two Moons led: the torn clump gives one or three, never two.
    assert core.follow_moves(hand, 2 << 2 | 1) == (3 << 4 | 1 << 2 | 1, 3 << 4 | 3 << 2 | 1)


def test_h6_a_lead_with_no_legal_follow_is_set_aside_and_ends_the_round() -> None:
    hands = (core.hand_of([0, 1]), core.hand_of([0]))
    round_ = core.start(hands, 0)
    after = core.play(round_, 1 << 4 | 1 << 2 | 0)  # one Sun: the follower holds one Sun only
    assert after[5] == 1 << 4 | 1 << 2 | 0 and after[6] == () and core.to_move(after) == -1


def test_h7_off_suit_lower_count_wins_and_equal_counts_go_to_the_follower() -> None:
    won = (1, 0, 0, 0, 2, 0)  # seat 0 won a Sun, seat 1 two Moons
    assert core.trick_winner(0, 1 << 2 | 0, 1 << 2 | 1, won) == 0  # 1 Sun < 2 Moons
    assert core.trick_winner(1, 1 << 2 | 1, 1 << 2 | 0, won) == 0  # 2 Moons > 1 Sun
    assert core.trick_winner(0, 1 << 2 | 2, 1 << 2 | 0, (0,) * 6) == 1  # 0 = 0: follower
    assert core.trick_winner(0, 3 << 2 | 1, 1 << 2 | 1, won) == 0  # same suit: more cards


def test_h10_h11_scores_and_the_tie_break() -> None:
    won = (3, 1, 0, 2, 4, 0)
    assert core.scores(won) == (2, 0, 0, 0, 1, 0)
    assert core.round_winner(won, 0) == (0, False)
    assert core.round_winner((1, 2, 0, 2, 1, 0), 1) == (1, True)
