"""The seeds' worked examples and RULINGS H1-H13, one named test each (expected values worked
out by hand from the rules, not printed by the code)."""

from __future__ import annotations

import random

import pytest

from hipparchusd.games.hipparchus import Deal, Hand, MatchState, Play, RoundState, Suit, Trick
from hipparchusd.games.hipparchus.dealing import shuffled_deal
from hipparchusd.games.hipparchus.model import Clump
from hipparchusd.games.hipparchus.notation import parse_round_position
from hipparchusd.games.hipparchus.rules import GameOver, IllegalPlay, score_round, trick_winner
from hipparchusd.games.hipparchus.views import build_view

S, M, E = Suit.SUN, Suit.MOON, Suit.EARTH


def hand(letters: str) -> Hand:
    return Hand.from_cards(Suit.from_letter(ch) for ch in letters)


def deal(seat0: str, seat1: str, face_down: str) -> Deal:
    return Deal(
        (hand(seat0), hand(seat1)), tuple(Suit.from_letter(c) for c in face_down)
    ).validated()


def moon_plays(h: Hand) -> set[tuple[int, int]]:
    return {(p.count, p.position) for p in h.plays if p.suit is M}


# --- Worked examples (seed 000, restated in RULINGS) -------------------------------------------


def test_worked_example_three_moons_beat_one_moon() -> None:
    # Left (seat 0) holds MMM first; right (seat 1) holds only lone Moons, so must follow 1 Moon.
    state = RoundState.start(deal("MMMSSSSSEEEEEE", "MSMSMSMSMSMEME", "EE"), leader=0)
    state = state.play(Play(3, M, 1))
    assert set(state.legal_plays()) == {Play(1, M, p) for p in (1, 3, 5, 7, 9, 11, 13)}
    state = state.play(Play(1, M, 1))
    assert state.tricks[-1].winner == 0
    assert state.won == ((0, 4, 0), (0, 0, 0))
    # Whoever led, same suit: more cards wins.
    assert trick_winner(1, Play(1, M, 1), Play(3, M, 1), ((0, 0, 0), (0, 0, 0))) == 0


@pytest.mark.parametrize("left_count", [1, 2, 3])
@pytest.mark.parametrize("right_count", [1, 2, 3])
@pytest.mark.parametrize("left_leads", [True, False])
def test_worked_example_fewer_won_of_own_suit_wins_whatever_the_counts(
    left_count: int, right_count: int, left_leads: bool
) -> None:
    # Left has won 4 Moons and plays Moon; right has won 3 Earths and plays Earth: right wins.
    won = ((0, 4, 0), (0, 0, 3))
    left, right = Play(left_count, M, 1), Play(right_count, E, 1)
    if left_leads:
        assert trick_winner(0, left, right, won) == 1
    else:
        assert trick_winner(1, right, left, won) == 1


def test_worked_example_lone_earths_cannot_follow_one_earth() -> None:
    follower = hand("ESEMSEMSEMSMSM")  # every Earth clump is a single card
    plays = follower.follow_plays(E, 1)
    assert plays and all(p.suit is not E for p in plays)
    assert set(plays) == set(p for p in follower.plays if p.suit is not E)


def test_worked_example_moon_clump_of_three_and_a_lone_moon_play_three_or_one() -> None:
    assert moon_plays(hand("SMMMESMS")) == {(3, 2), (1, 7)}


def test_worked_example_scores_left_wins_4_to_3() -> None:
    # Left: more Earths (6 to 4): scores the 4 Earths right won. Right: more Suns (5 to 2) and
    # Moons (3 to 1): scores 2 + 1.
    result = score_round(((2, 1, 6), (5, 3, 4)), last_follower=1)
    assert result.scores == ((0, 0, 4), (2, 1, 0))
    assert result.totals == (4, 3)
    assert result.winner == 0
    assert not result.by_tie_break


# --- Rulings ----------------------------------------------------------------------------------


def test_h1_hand_keeps_dealt_order_and_closes_up() -> None:
    rng = random.Random(1)
    deck = [s for s in (S, M, E) for _ in range(10)]
    rng.shuffle(deck)
    dealt = shuffled_deal(random.Random(1))
    assert dealt.hands[0].cards == tuple(deck[:14])  # not sorted, as dealt
    assert dealt.hands[1].cards == tuple(deck[14:28])
    assert hand("SMESM").without(Play(1, E, 3)).cards == (S, M, S, M)


def test_h2_small_clumps_only_whole_big_clumps_give_one_to_three() -> None:
    h = hand("SSSSSMEE")
    assert set(h.plays) == {
        Play(1, S, 1),
        Play(2, S, 1),
        Play(3, S, 1),
        Play(1, M, 6),
        Play(2, E, 7),
    }
    rest = h.without(Play(2, S, 1))
    assert rest.clumps == (Clump(S, 3), Clump(M, 1), Clump(E, 2))
    assert {(p.count, p.suit) for p in rest.plays} == {(3, S), (1, M), (2, E)}


def test_h2_the_rest_of_a_torn_clump_stays_in_place() -> None:
    assert hand("MSSSSSE").without(Play(1, S, 2)).cards == (M, S, S, S, S, E)


def test_h3_neighbours_merge_into_one_clump() -> None:
    merged = hand("SMS").without(Play(1, M, 2))
    assert merged.clumps == (Clump(S, 2),)
    assert merged.plays == (Play(2, S, 1),)  # one clump of 2: whole only
    big = hand("SSMSS").without(Play(1, M, 3))
    assert {p.count for p in big.plays} == {1, 2, 3}  # four Suns: may be torn


def test_h4_leader_may_make_any_h2_play() -> None:
    state = RoundState.start(deal("SSSSMEESSMMEEE", "MMMMEEESSSSMMM", "EE"), leader=0)
    assert state.legal_plays() == state.hands[0].plays
    assert len(state.legal_plays()) == len(set(state.legal_plays())) == 8


def test_h5_follower_must_play_lead_suit_of_another_count() -> None:
    follower = hand("SSSSMME")
    assert set(follower.follow_plays(S, 2)) == {Play(1, S, 1), Play(3, S, 1)}


def test_h5_fallback_is_any_play_of_another_suit_any_count() -> None:
    follower = hand("SSMMEEE")  # the only Sun play is 2 Suns
    assert set(follower.follow_plays(S, 2)) == {Play(2, M, 3), Play(3, E, 5)}


def test_h5_fallback_excludes_lead_suit_clump_of_equal_count() -> None:
    # RULINGS H5: "Otherwise they may make any play of *another* suit": holding only a Sun
    # clump of the lead's count, the follower may not play it, even though no Sun play of
    # another count exists.
    follower = hand("SSMEE")
    plays = follower.follow_plays(S, 2)
    assert Play(2, S, 1) not in plays
    assert set(plays) == {Play(1, M, 3), Play(2, E, 4)}


def test_h6_no_legal_follow_ends_round_and_sets_lead_aside() -> None:
    # Seat 1 leads its 2 Suns; seat 0 holds only a clump of 2 Suns: no legal follow.
    state = parse_round_position("SS/SSM EE 3,9,4/3,0,4 0,0,0 1 - 1")
    after = state.play(Play(2, S, 1))
    assert after.over
    assert after.set_aside == (2, 0, 0)
    assert after.tricks[-1] == Trick(1, Play(2, S, 1), None, None)
    assert after.won == state.won  # the led cards count for nobody
    assert after.hands[0] == hand("SS")
    with pytest.raises(GameOver):
        after.play(Play(2, S, 1))


def test_h6_applies_when_the_leader_leads_its_last_cards_and_no_follow_exists() -> None:
    # Decision (noted on the issue): H9 would complete the trick in which the leader emptied
    # its hand, but the follower cannot play, so H6 ends the round at once; the lead goes aside.
    state = parse_round_position("MMM/MMM EE 5,2,4/5,2,4 0,0,0 1 - 0")
    after = state.play(Play(3, M, 1))
    assert after.over and after.hands == (hand("MMM"), Hand(()))
    assert after.set_aside == (0, 3, 0)
    assert after.result is not None and after.result.winner == 0  # 0-0, last follower seat 0


def test_h6_follower_with_only_lead_suit_of_other_count_still_follows() -> None:
    state = parse_round_position("S/SSM EE 5,9,4/2,0,4 0,0,0 1 - 1")
    after = state.play(Play(2, S, 1))
    assert not after.over
    assert after.legal_plays() == (Play(1, S, 1),)


def test_h7_same_suit_more_cards_wins() -> None:
    zero = ((0, 0, 0), (0, 0, 0))
    assert trick_winner(0, Play(2, E, 1), Play(1, E, 1), zero) == 0
    assert trick_winner(0, Play(1, E, 1), Play(3, E, 1), zero) == 1


def test_h7_different_suits_lower_prior_count_wins() -> None:
    won = ((1, 0, 0), (0, 2, 0))
    # Leader played Sun having won 1 Sun; follower played Moon having won 2 Moons.
    assert trick_winner(0, Play(1, S, 1), Play(3, M, 1), won) == 0
    # Seat 1 leads Moon (2 won), seat 0 follows Sun (1 won): the follower, seat 0, wins.
    assert trick_winner(1, Play(1, M, 1), Play(1, S, 1), won) == 0


def test_h7_different_suits_equal_prior_counts_go_to_follower() -> None:
    won = ((0, 0, 2), (0, 2, 0))
    assert trick_winner(0, Play(3, E, 1), Play(1, M, 1), won) == 1
    assert trick_winner(1, Play(1, M, 1), Play(3, E, 1), won) == 0


def test_h7_counts_are_those_won_before_the_trick() -> None:
    # Both at 0 won: follower wins although this trick will give the leader's suit to someone.
    zero = ((0, 0, 0), (0, 0, 0))
    assert trick_winner(0, Play(3, S, 1), Play(1, M, 1), zero) == 1


def test_h8_winner_takes_both_plays_by_suit_and_leads_next() -> None:
    state = RoundState.start(deal("SSMMMEEEEESSSS", "MEMSSSMMEEMEME", "SM"), leader=0)
    state = state.play(Play(2, S, 1))  # seat 1 has Suns: must play 3 (not 2) Suns
    assert state.legal_plays() == (Play(3, S, 4),)
    state = state.play(Play(3, S, 4))
    assert state.tricks[-1].winner == 1
    assert state.won == ((0, 0, 0), (5, 0, 0))
    assert state.leader == 1 and state.lead is None and state.to_move == 1
    view = build_view(MatchState(state), 0, fixed_deal=True)
    assert view.won == ((0, 0, 0), (5, 0, 0))  # public to the opponent


def test_h9_round_ends_after_the_trick_in_which_the_leader_emptied_hand() -> None:
    state = parse_round_position("M/SSE EM 5,3,4/3,5,4 0,0,0 0 - 1")
    after_lead = state.play(Play(1, M, 1))
    assert not after_lead.over  # the trick is completed first
    assert after_lead.to_move == 1
    done = after_lead.play(Play(2, S, 1))
    assert done.over and done.hands == (Hand(()), hand("E"))
    # Moon against Sun, 3 won Moons against 3 won Suns: the follower, seat 1, wins.
    assert done.won == ((5, 3, 4), (5, 6, 4))
    # Sun 5-5 and Earth 4-4 score nothing; Moon 6-3 gives seat 1 three. The Earth left in seat
    # 1's hand and the face-down cards score nothing.
    assert done.result is not None and done.result.totals == (0, 3)


def test_h9_round_ends_when_the_follower_plays_last_card() -> None:
    state = parse_round_position("SME/SS EM 4,4,4/3,4,4 0,0,0 0 - 1")
    state = state.play(Play(1, S, 1))
    state = state.play(Play(2, S, 1))
    assert state.over
    assert state.hands == (hand("ME"), Hand(()))


def test_h10_strictly_more_scores_the_opponents_count() -> None:
    result = score_round(((3, 3, 0), (3, 1, 7)), last_follower=0)
    # Sun equal: nothing. Moon 3 > 1: seat 0 scores 1. Earth 7 > 0: seat 1 scores 0.
    assert result.scores == ((0, 1, 0), (0, 0, 0))
    assert result.totals == (1, 0)


def test_h11_higher_total_wins() -> None:
    assert score_round(((5, 0, 0), (1, 2, 0)), last_follower=1).winner == 0


def test_h11_equal_totals_go_to_the_last_follower() -> None:
    # Sun 3-1: seat 0 scores 1; Moon 2-1: seat 1 scores 1. Totals 1-1: the last follower wins.
    for last in (0, 1):
        result = score_round(((3, 1, 0), (1, 2, 0)), last_follower=last)
        assert result.totals == (1, 1) and result.winner == last and result.by_tie_break
    tie = score_round(((3, 3, 0), (3, 3, 0)), last_follower=1)
    assert tie.totals == (0, 0) and tie.winner == 1 and tie.by_tie_break


def test_h11_a_trick_ended_by_h6_does_not_count_for_the_tie_break() -> None:
    # Scores tie 0-0; seat 1 followed the last full trick, seat 0 would have followed the H6 one.
    state = parse_round_position("SS/SSM EE 3,9,4/3,0,4 0,0,0 1 - 1")
    after = state.play(Play(2, S, 1))
    assert after.result is not None
    assert after.result.totals == (0, 0)
    assert after.result.winner == 1 and after.result.by_tie_break
    assert after.last_follower == 1


@pytest.mark.parametrize("lead_suit", [S, M, E])
@pytest.mark.parametrize("lead_count", [1, 2, 3])
def test_h11_first_trick_always_has_a_follow_so_a_last_follower_exists(
    lead_suit: Suit, lead_count: int
) -> None:
    # A 14-card hand holds at least two suits (10 cards a suit), so the H5 fall-back always has
    # a play of another suit: H6 cannot end trick 1 and every finished round has a trick with
    # both plays. Check the worst hands: as many cards of the lead suit as possible.
    others = [s for s in (S, M, E) if s is not lead_suit]
    for other in others:
        for split in range(0, 11):
            cards = [lead_suit] * 10 + [other] * 4
            cards = cards[split:] + cards[:split]
            follower = Hand.from_cards(cards)
            assert follower.follow_plays(lead_suit, lead_count)


def test_h12_match_first_to_two_round_wins_and_round_winner_leads_next() -> None:
    rng = random.Random(5)
    match = MatchState.start(shuffled_deal(rng), first_leader=1)
    assert match.round.leader == 1
    previous_winner = None
    while not match.over:
        if match.needs_deal:
            new_deal = shuffled_deal(rng)
            match = match.next_round(new_deal)
            assert match.round.leader == previous_winner
            assert match.round.hands == new_deal.hands  # a fresh deal of all 30 cards
            continue
        match = match.play(rng.choice(match.round.legal_plays()))
        if match.round.over:
            assert match.round.result is not None
            previous_winner = match.round.result.winner
    assert match.winner is not None and match.round_wins[match.winner] == 2
    assert max(match.round_wins) == 2 and min(match.round_wins) <= 1
    assert match.round_number == sum(match.round_wins)
    with pytest.raises(GameOver):
        match.play(Play(1, S, 1))


def test_h12_next_round_refused_while_round_on() -> None:
    match = MatchState.start(shuffled_deal(random.Random(1)), 0)
    with pytest.raises(GameOver):
        match.next_round(shuffled_deal(random.Random(2)))


def test_h13_views_hide_the_opponents_hand_and_face_down_cards() -> None:
    state = RoundState.start(deal("SSMMMEEEEESSSS", "MEMSSSMMEEMEME", "SM"), leader=0)
    match = MatchState(state)
    seat0 = build_view(match, 0, fixed_deal=True)
    spectator = build_view(match, None, fixed_deal=True)
    assert seat0.hand == hand("SSMMMEEEEESSSS") and seat0.revealed is None
    assert spectator.hand is None and spectator.revealed is None
    assert seat0.hand_sizes == spectator.hand_sizes == (14, 14)
    assert seat0.fixed_deal and spectator.fixed_deal
    text = repr(seat0)
    assert "MEMSSSMMEEMEME" not in text


def test_illegal_play_leaves_state_unchanged() -> None:
    state = RoundState.start(deal("SSMMMEEEEESSSS", "MEMSSSMMEEMEME", "SM"), leader=0)
    before = (state.hands, state.won, state.lead, state.tricks)
    for bad in (Play(2, S, 2), Play(4, S, 1), Play(1, M, 1), Play(1, S, 15)):
        with pytest.raises(IllegalPlay):
            state.play(bad)
    assert (state.hands, state.won, state.lead, state.tricks) == before


def test_malformed_plays_are_illegal_not_crashes() -> None:
    state = RoundState.start(deal("SSMMMEEEEESSSS", "MEMSSSMMEEMEME", "SM"), leader=0)
    for bad in (Play("2", S, 1), Play(2, "S", 1), Play(2, S, "1"), Play(2, S, 99), "2S@1", None):  # type: ignore[arg-type]
        with pytest.raises(IllegalPlay):
            state.play(bad)  # type: ignore[arg-type]


def test_hands_longer_than_the_shared_tables_still_list_their_plays() -> None:
    # Not a hand of this deck (40 cards), but the model must not depend on the tables' size.
    long = hand("SM" * 16 + "EEEE" + "MMMM")
    assert long.size == 40
    assert set(long.plays) >= {Play(1, E, 33), Play(3, M, 37)}
    assert set(long.follow_plays(E, 2)) == {Play(1, E, 33), Play(3, E, 33)}
    assert long.without(Play(3, M, 37)).size == 37
    with pytest.raises(ValueError, match="1 to 3 cards"):
        long.follow_plays(E, 0)
