"""The engine's compact Hipparchus rules agree with hipparchusd.games.hipparchus.rules move for
move (issue 18: "a fast playout path ... checked move for move against the rules engine")."""

from __future__ import annotations

import random

from hipparchusd.games.hipparchus.compact import (
    can_follow,
    compact_hand,
    follow_plays,
    lead_plays,
    model_hand,
    position_of,
    random_round,
    remove,
    round_winner,
    totals,
    trick_winner,
)
from hipparchusd.games.hipparchus.dealing import seeded_deal
from hipparchusd.games.hipparchus.model import Play, Suit, play_of
from hipparchusd.games.hipparchus.rules import RoundState

ROUNDS = 300


def _legal(hands: list[list[int]], state: RoundState) -> list[Play]:
    """The compact rules' legal plays in ``state``, as model plays in their order."""
    lead = state.lead
    if lead is None:
        hand = hands[state.leader]
        plays = lead_plays(hand)
    else:
        hand = hands[1 - state.leader]
        plays = follow_plays(hand, int(lead.suit), lead.count)
    return [play_of(n, Suit(hand[i] & 3), position_of(hand, i)) for i, n in plays]


def test_compact_hands_round_trip() -> None:
    for seed in range(50):
        deal = seeded_deal(seed, 1)
        for hand in deal.hands:
            assert model_hand(compact_hand(hand)) == hand


def test_compact_rules_list_the_same_plays_and_reach_the_same_states() -> None:
    """Random rounds played through both: at every move the legal plays (in order), the hands
    after each play (H3 merges), the trick winners (H7), won counts (H8), the end (H6, H9) and
    the result (H10, H11) agree."""
    rng = random.Random(18)
    ended_by_h6 = 0
    for number in range(ROUNDS):
        state = RoundState.start(seeded_deal(number, 1), number % 2)
        hands = [compact_hand(h) for h in state.hands]
        won = [0] * 6
        last = -1
        while not state.over:
            legal = _legal(hands, state)
            assert legal == list(state.legal_plays())
            if state.lead is not None:
                follower = hands[1 - state.leader]
                assert can_follow(follower, int(state.lead.suit), state.lead.count) == bool(legal)
            for suit in range(3):
                for count in (1, 2, 3):
                    for hand in hands:
                        if hand:
                            assert can_follow(hand, suit, count) == bool(
                                follow_plays(hand, suit, count)
                            )
            play = legal[rng.randrange(len(legal))]
            mover = state.to_move
            assert mover is not None
            index = next(
                i
                for i, c in enumerate(hands[mover])
                if position_of(hands[mover], i) == play.position
            )
            lead = state.lead
            remove(hands[mover], index, play.count)
            if lead is not None:
                winner = trick_winner(
                    state.leader, int(lead.suit), lead.count, int(play.suit), play.count, won
                )
                won[winner * 3 + lead.suit] += lead.count
                won[winner * 3 + play.suit] += play.count
                last = mover
            state = state.play(play)
            assert [model_hand(h) for h in hands] == list(state.hands)
            assert (tuple(won[:3]), tuple(won[3:])) == state.won
            if lead is not None and not state.over:
                assert state.leader == winner
        result = state.result
        assert result is not None
        ended_by_h6 += state.tricks[-1].winner is None
        assert totals(won) == result.totals
        assert round_winner(won, last) == result.winner
    assert ended_by_h6 > 0  # the H6 ending was exercised


class _Recorded:
    """A ``rand`` that draws from ``rng`` and remembers the draws."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.draws: list[float] = []

    def __call__(self) -> float:
        value = self.rng.random()
        self.draws.append(value)
        return value


def test_random_round_plays_the_rules_with_its_draws() -> None:
    """random_round's r-th option is the r-th legal play of the rules (r = int(u * n)): replaying
    its draws through the rules reaches the same won counts and winner, round after round."""
    rng = random.Random(7)
    for number in range(ROUNDS):
        state = RoundState.start(seeded_deal(10_000 + number, 1), number % 2)
        hands = [compact_hand(h) for h in state.hands]
        won = [0] * 6
        rand = _Recorded(rng)
        winner = random_round(hands, won, state.leader, 0, 0, -1, rand)
        draws = iter(rand.draws)
        while not state.over:
            legal = state.legal_plays()
            state = state.play(legal[int(next(draws) * len(legal))])
        assert next(draws, None) is None
        assert state.result is not None
        assert winner == state.result.winner
        assert (tuple(won[:3]), tuple(won[3:])) == state.won
        assert [model_hand(h) for h in hands] == list(state.hands)
