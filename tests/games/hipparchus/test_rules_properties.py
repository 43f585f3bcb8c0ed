"""Property tests over random deals and random legal play (hypothesis), checked against a
second, deliberately naive referee written here on flat card lists."""

from __future__ import annotations

import json
import random
from typing import Any

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

from hipparchusd.games.hipparchus import Hand, MatchState, Play, RoundState, Suit
from hipparchusd.games.hipparchus.codec import dump_state, load_state, unstructure
from hipparchusd.games.hipparchus.dealing import shuffled_deal
from hipparchusd.games.hipparchus.notation import (
    format_position,
    format_round_position,
    parse_position,
    parse_round_position,
)
from hipparchusd.games.hipparchus.rules import IllegalPlay
from hipparchusd.games.hipparchus.validation import validate_match
from hipparchusd.games.hipparchus.views import build_view

ENGINE = settings(settings.get_profile("hipparchus-engine"))
SUITS = (Suit.SUN, Suit.MOON, Suit.EARTH)
EVERY_PLAY = [Play(c, s, p) for c in range(1, 4) for s in SUITS for p in range(1, 15)]

# --- The naive referee: flat lists of suits, the rules read literally ------------------------

Cards = list[Suit]
Naive = tuple[int, int, Suit]  # (count, suit, 1-based position)


def naive_is_h2_play(cards: Cards, count: int, suit: Suit, position: int) -> bool:
    """Is taking ``count`` cards of ``suit`` at ``position`` an H2 play? Read from the rule:
    the card there is of the suit and starts its run; the run has >= count cards; a run of 3
    or fewer goes whole."""
    i = position - 1
    if not 0 <= i < len(cards) or cards[i] != suit:
        return False
    if i > 0 and cards[i - 1] == suit:
        return False  # not where the run starts
    run = 0
    while i + run < len(cards) and cards[i + run] == suit:
        run += 1
    return 1 <= count <= 3 and (count == run if run <= 3 else count <= run)


def naive_lead_plays(cards: Cards) -> set[Naive]:
    return {
        (c, s, p)
        for c in range(1, 4)
        for s in SUITS
        for p in range(1, len(cards) + 1)
        if naive_is_h2_play(cards, c, s, p)
    }


def naive_follow_plays(cards: Cards, lead: Naive) -> set[Naive]:
    count, suit, _ = lead
    plays = naive_lead_plays(cards)
    same = {p for p in plays if p[1] == suit and p[0] != count}
    return same or {p for p in plays if p[1] != suit}


def naive_scores(won: list[list[int]]) -> tuple[int, int]:
    totals = [0, 0]
    for suit in range(3):
        if won[0][suit] > won[1][suit]:
            totals[0] += won[1][suit]
        elif won[1][suit] > won[0][suit]:
            totals[1] += won[0][suit]
    return totals[0], totals[1]


@attrs.define
class NaiveRound:
    hands: list[Cards]
    face_down: Cards
    leader: int
    won: list[list[int]] = attrs.field(factory=lambda: [[0, 0, 0], [0, 0, 0]])
    aside: list[int] = attrs.field(factory=lambda: [0, 0, 0])
    lead: Naive | None = None
    last_follower: int | None = None
    over: bool = False

    def legal(self) -> set[Naive]:
        if self.over:
            return set()
        if self.lead is None:
            return naive_lead_plays(self.hands[self.leader])
        return naive_follow_plays(self.hands[1 - self.leader], self.lead)

    def play(self, move: Naive) -> None:
        count, suit, position = move
        seat = self.leader if self.lead is None else 1 - self.leader
        hand = self.hands[seat]
        del hand[position - 1 : position - 1 + count]
        if self.lead is None:
            self.lead = move
            if not self.legal():  # H6
                self.aside[suit] += count
                self.lead = None
                self.over = True
            return
        lead, self.lead = self.lead, None
        follower = seat
        if lead[1] == suit:
            winner = self.leader if lead[0] > count else follower
        else:
            mine, theirs = self.won[self.leader][lead[1]], self.won[follower][suit]
            winner = self.leader if mine < theirs else follower
        self.won[winner][lead[1]] += lead[0]
        self.won[winner][suit] += count
        self.last_follower = follower
        self.leader = winner
        if not self.hands[0] or not self.hands[1]:
            self.over = True


def as_naive(play: Play) -> Naive:
    return (play.count, play.suit, play.position)


def conserved(state: RoundState) -> None:
    for suit in SUITS:
        total = (
            state.hands[0].counts[suit]
            + state.hands[1].counts[suit]
            + state.face_down.count(suit)
            + state.won[0][suit]
            + state.won[1][suit]
            + state.set_aside[suit]
            + (state.lead.count if state.lead is not None and state.lead.suit is suit else 0)
        )
        assert total == 10, (suit, state)


def same_as_naive(state: RoundState, naive: NaiveRound) -> None:
    assert [list(h.cards) for h in state.hands] == naive.hands
    assert [list(w) for w in state.won] == naive.won
    assert list(state.set_aside) == naive.aside
    assert state.over == naive.over
    assert state.last_follower == naive.last_follower
    if not state.over:
        assert state.leader == naive.leader
        assert (None if state.lead is None else as_naive(state.lead)) == naive.lead
    assert {as_naive(p) for p in state.legal_plays()} == naive.legal()


def hide_and_reshuffle(state: RoundState, seat: int, rng: random.Random) -> RoundState:
    """The same state with the cards ``seat`` cannot see (the opponent's hand and the face-down
    cards) dealt again among themselves: what ``seat`` knows is unchanged."""
    other = 1 - seat
    hidden = list(state.hands[other].cards) + list(state.face_down)
    rng.shuffle(hidden)
    size = state.hands[other].size
    hands = list(state.hands)
    hands[other] = Hand.from_cards(hidden[:size])
    return attrs.evolve(state, hands=(hands[0], hands[1]), face_down=tuple(hidden[size:]))


# --- Properties -------------------------------------------------------------------------------


@ENGINE
@given(seed=st.integers(0, 2**32), leader=st.integers(0, 1), choices=st.randoms())
def test_random_rounds_follow_the_rules(seed: int, leader: int, choices: random.Random) -> None:
    deal = shuffled_deal(random.Random(seed))
    state = RoundState.start(deal, leader)
    naive = NaiveRound([list(h.cards) for h in deal.hands], list(deal.face_down), leader)
    while True:
        conserved(state)
        same_as_naive(state, naive)
        legal = state.legal_plays()
        if state.over:
            break
        assert legal, "a round in progress always has a legal play (H6 ends the others)"
        snapshot = attrs.evolve(state)
        for play in EVERY_PLAY:
            if play in legal:
                state.play(play)  # every listed play applies
            else:
                try:
                    state.play(play)
                except IllegalPlay:
                    pass
                else:
                    raise AssertionError(f"{play} accepted but not listed")
        assert state == snapshot  # refused (and accepted) plays changed nothing
        move = choices.choice(legal)
        state = state.play(move)
        naive.play(as_naive(move))
    # The round ended exactly under H6 or H9.
    last = state.tricks[-1]
    if last.follow is None:
        assert state.set_aside == (
            tuple(last.lead.count if s is last.lead.suit else 0 for s in SUITS)
        )
        # The follower still held cards (else H9 had ended the round); the leader may have
        # led its last cards (H6 then, not H9: the trick cannot be completed).
        assert state.hands[1 - last.leader].size
    else:
        assert state.set_aside == (0, 0, 0)
        assert not state.hands[0].clumps or not state.hands[1].clumps
    assert all(t.follow is not None for t in state.tricks[:-1])
    # Scores per H10, winner per H11.
    assert state.result is not None
    totals = naive_scores([list(state.won[0]), list(state.won[1])])
    assert state.result.totals == totals
    if totals[0] != totals[1]:
        assert state.result.winner == (0 if totals[0] > totals[1] else 1)
    else:
        full = [t for t in state.tricks if t.follow is not None]
        assert state.result.winner == 1 - full[-1].leader


def _walk_strings(data: Any) -> list[str]:
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for v in data.values() for s in _walk_strings(v)] + list(map(str, data))
    if isinstance(data, list | tuple):
        return [s for v in data for s in _walk_strings(v)]
    return []


@ENGINE
@given(seed=st.integers(0, 2**32), choices=st.randoms(), hider=st.randoms())
def test_views_never_contain_hidden_cards(
    seed: int, choices: random.Random, hider: random.Random
) -> None:
    match = MatchState.start(shuffled_deal(random.Random(seed)), 0)
    while not match.round.over:
        for seat in (0, 1, None):
            view = build_view(match, seat, fixed_deal=False)
            data = unstructure(view)
            if seat is None:
                assert view.hand is None and data["hand"] is None
            else:
                assert view.hand == match.round.hands[seat]
            assert view.revealed is None and data["revealed"] is None
            # Re-dealing what this viewer cannot see changes nothing in what it sees.
            for viewer_seat in (0, 1) if seat is None else (seat,):
                other = attrs.evolve(
                    match, round=hide_and_reshuffle(match.round, viewer_seat, hider)
                )
                if seat is None:
                    other = attrs.evolve(
                        other, round=hide_and_reshuffle(other.round, 1 - viewer_seat, hider)
                    )
                assert build_view(other, seat, fixed_deal=False) == view
                assert unstructure(build_view(other, seat, fixed_deal=False)) == data
        match = match.play(choices.choice(match.round.legal_plays()))
    # Revealed once the round is over.
    view = build_view(match, 0, fixed_deal=False)
    assert view.revealed is not None
    assert view.revealed.hands == match.round.hands
    assert view.revealed.face_down == match.round.face_down


@ENGINE
@given(seed=st.integers(0, 2**32), choices=st.randoms())
def test_serialization_and_notation_round_trip(seed: int, choices: random.Random) -> None:
    rng = random.Random(seed)
    match = MatchState.start(shuffled_deal(rng), rng.randrange(2))
    while True:
        validate_match(match)
        document = dump_state(match)
        wire = json.loads(json.dumps(document))
        assert wire == document  # already plain JSON data
        assert load_state(wire) == match
        text = format_position(match)
        parsed = parse_position(text)
        assert format_position(parsed) == text
        # A position carries no history: equal up to the finished tricks.
        assert parsed == attrs.evolve(match, round=attrs.evolve(match.round, tricks=()))
        round_text = format_round_position(match.round)
        assert text.startswith(round_text + " ")
        assert parse_round_position(round_text) == parsed.round
        # Play continues the same from the parsed position.
        if not match.round.over:
            assert parsed.round.legal_plays() == match.round.legal_plays()
        if match.over:
            break
        if match.needs_deal:
            match = match.next_round(shuffled_deal(rng))
        else:
            match = match.play(choices.choice(match.round.legal_plays()))


@ENGINE
@given(
    # Up to 40 cards: beyond any real hand, so the engine's fall-back paths are checked too.
    cards=st.lists(st.sampled_from(SUITS), min_size=0, max_size=40),
    lead_count=st.integers(1, 3),
    lead_suit=st.sampled_from(SUITS),
)
def test_legal_plays_equal_naive_enumeration_on_any_hand(
    cards: list[Suit], lead_count: int, lead_suit: Suit
) -> None:
    hand = Hand.from_cards(cards)
    assert hand.cards == tuple(cards)
    assert {as_naive(p) for p in hand.plays} == naive_lead_plays(cards)
    assert len(hand.plays) == len(set(hand.plays))
    lead = (lead_count, lead_suit, 1)
    assert {as_naive(p) for p in hand.follow_plays(lead_suit, lead_count)} == naive_follow_plays(
        cards, lead
    )
    for play in hand.plays:
        rest = list(cards)
        del rest[play.position - 1 : play.position - 1 + play.count]
        after = hand.without(play)
        assert after.cards == tuple(rest)
        assert after == Hand.from_cards(rest)  # clumps merged (H3)
        assert after.validated() is after


@ENGINE
@given(
    cards=st.permutations([s for s in SUITS for _ in range(10)]),
    lead_count=st.integers(1, 3),
    lead_suit=st.sampled_from(SUITS),
)
def test_h11_any_dealt_hand_can_follow_any_lead(
    cards: list[Suit], lead_count: int, lead_suit: Suit
) -> None:
    # Why H6 cannot end trick 1 (so a last follower always exists for H11): 14 cards hold at
    # least two suits, and the H5 fall-back offers every clump of the other suits.
    hand = Hand.from_cards(cards[:14])
    assert len(set(hand.cards)) >= 2
    assert hand.follow_plays(lead_suit, lead_count)
    assert naive_follow_plays(list(hand.cards), (lead_count, lead_suit, 1))
