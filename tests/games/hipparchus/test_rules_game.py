"""HipparchusGame, the game behind the daemon's generic interface."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from hipparchusd.games.base import GameFinished, IllegalMove, NotYourTurn
from hipparchusd.games.hipparchus import Deal, HipparchusGame, Play, Suit, dealing, replay
from hipparchusd.games.hipparchus.codec import unstructure
from hipparchusd.games.hipparchus.dealing import seeded_deal, shuffled_deal, system_deal
from hipparchusd.games.hipparchus.model import Hand
from hipparchusd.games.hipparchus.views import HandDealt, RoundOver

S, M, E = Suit.SUN, Suit.MOON, Suit.EARTH


def fixed(seat0: str, seat1: str, face_down: str) -> Deal:
    return Deal(
        (
            Hand.from_cards(Suit.from_letter(c) for c in seat0),
            Hand.from_cards(Suit.from_letter(c) for c in seat1),
        ),
        tuple(Suit.from_letter(c) for c in face_down),
    )


DEAL = fixed("SSMMMEEEEESSSS", "MEMSSSMMEEMEME", "SM")


def play_out(game: HipparchusGame, rng: random.Random, plays: int | None = None) -> None:
    done = 0
    while game.outcome is None and (plays is None or done < plays):
        (seat,) = game.seats_to_move()
        game.play(seat, rng.choice(game.legal_moves(seat)))
        done += 1


def test_not_your_turn_changes_nothing() -> None:
    game = HipparchusGame(deals=[DEAL], first_leader=0)
    game.start()
    before = game.state
    with pytest.raises(NotYourTurn) as caught:
        game.play(1, Play(1, M, 1))
    assert caught.value.code == "not-your-turn"
    assert game.state == before
    assert game.legal_moves(1) == ()


def test_illegal_move_changes_nothing_and_leaks_nothing() -> None:
    game = HipparchusGame(deals=[DEAL], first_leader=0)
    game.start()
    game.play(0, Play(2, S, 1))
    before, view = game.state, game.view(1)
    with pytest.raises(IllegalMove) as caught:
        game.play(1, Play(1, M, 1))  # seat 1 holds Suns of another count: must play 3 Suns
    assert caught.value.code == "illegal-move"
    assert "SSMMM" not in str(caught.value)
    assert game.state == before and game.view(1) == view
    with pytest.raises(IllegalMove, match="a play starts with how many cards"):
        game.parse_move(1, "two suns")


def test_game_finished_after_the_match_and_after_resigning() -> None:
    game = HipparchusGame(seed=2)
    game.start()
    play_out(game, random.Random(2))
    assert game.outcome is not None and game.seats_to_move() == frozenset()
    with pytest.raises(GameFinished) as caught:
        game.play(0, Play(1, S, 1))
    assert caught.value.code == "game-over"
    resigned = HipparchusGame(seed=2)
    resigned.start()
    (event,) = resigned.resign(1)
    assert resigned.outcome is not None and resigned.outcome.winners == (0,)
    assert resigned.outcome.resigned == 1
    assert event.payload.winner == 0
    with pytest.raises(GameFinished):
        resigned.resign(0)
    assert resigned.view(0).revealed is not None  # the game is over: cards may be shown


def test_parse_move_accepts_any_position_inside_a_clump_and_prints_canonical() -> None:
    game = HipparchusGame(deals=[DEAL], first_leader=0)
    game.start()
    for text in ("2e@6", "2E@8", "2E@10"):
        move = game.parse_move(0, text)
        assert move == Play(2, E, 6)
        assert game.format_move(move) == "2E@6"
    assert game.describe_move(0, Play(2, E, 6)) == {
        "move": "2E@6",
        "suit": "E",
        "count": 2,
        "position": 6,
        "clump": [6, 7, 8, 9, 10],
    }


def test_explicit_deals_are_used_and_mark_the_game_fixed() -> None:
    game = HipparchusGame(deals=[DEAL], first_leader=1)
    events = game.start()
    assert game.state.round.hands == DEAL.hands and game.state.round.face_down == DEAL.face_down
    assert game.fixed_deal and all(game.view(s).fixed_deal for s in (0, 1, None))
    hands = [e for e in events if isinstance(e.payload, HandDealt)]
    assert [(e.audience, e.payload.hand) for e in hands] == [(0, DEAL.hands[0]), (1, DEAL.hands[1])]
    assert game.seats_to_move() == frozenset({1})


def test_impossible_explicit_deal_is_refused() -> None:
    bad = fixed("SSMMMEEEEESSSS", "MEMSSSMMEEMEME", "SS")
    with pytest.raises(ValueError, match="11 cards of Sun"):
        HipparchusGame(deals=[bad])
    with pytest.raises(ValueError, match="first leader"):
        HipparchusGame(first_leader=2)


def test_seeded_games_are_reproducible_and_fixed() -> None:
    one, two = HipparchusGame(seed=77), HipparchusGame(seed=77)
    assert one.fixed_deal and one.view(None).fixed_deal
    assert one.state == two.state
    rng1, rng2 = random.Random(1), random.Random(1)
    play_out(one, rng1)
    play_out(two, rng2)
    assert one.record() == two.record()
    assert one.record().rounds[0].deal == seeded_deal(77, 1)
    assert HipparchusGame(seed=78).state != one.record().rounds[0]


def test_unseeded_games_deal_from_the_system_random(monkeypatch: pytest.MonkeyPatch) -> None:
    assert isinstance(dealing._SYSTEM_RANDOM, random.SystemRandom)
    calls: list[str] = []

    class Recorder(random.Random):
        def shuffle(self, x: Any) -> None:  # type: ignore[override]
            calls.append("shuffle")
            super().shuffle(x)

    monkeypatch.setattr(dealing, "_SYSTEM_RANDOM", Recorder(5))
    game = HipparchusGame(first_leader=0)
    assert calls == ["shuffle"]
    assert game.state.round.hands == shuffled_deal(random.Random(5)).hands
    assert not game.fixed_deal and not game.view(0).fixed_deal


class ScriptedShuffler(dealing.SystemShuffler):
    """A SystemShuffler whose random numbers are given in advance."""

    def __init__(self, numbers: list[int]) -> None:
        super().__init__()
        self.numbers = numbers
        self.asked: list[int] = []

    def getrandbits(self, k: int, /) -> int:
        self.asked.append(k)
        return self.numbers.pop(0)


def test_system_shuffle_gives_each_order_for_exactly_one_number() -> None:
    # Uniform numbers below n! map one-to-one onto the n! orders: every order equally likely.
    orders = set()
    for number in range(24):
        items = ["a", "b", "c", "d"]
        ScriptedShuffler([number]).shuffle(items)
        assert sorted(items) == ["a", "b", "c", "d"]
        orders.add(tuple(items))
    assert len(orders) == 24
    # A number in the incomplete top part of the range is drawn again.
    bits = math.factorial(4).bit_length() + 64
    top = (1 << bits) - 1
    shuffler = ScriptedShuffler([top, 5 + 24 * 7])
    items = ["a", "b", "c", "d"]
    shuffler.shuffle(items)
    assert shuffler.asked == [bits, bits]
    fifth = ["a", "b", "c", "d"]
    ScriptedShuffler([5]).shuffle(fifth)
    assert items == fifth


def test_system_deal_reads_the_system_randomness_once() -> None:
    assert isinstance(dealing._SYSTEM_RANDOM, dealing.SystemShuffler)
    shuffler = ScriptedShuffler([12345678901234567890])
    deck = list(range(30))
    shuffler.shuffle(deck)
    assert sorted(deck) == list(range(30)) and len(shuffler.asked) == 1


def test_unseeded_first_leader_is_drawn_from_the_system_random(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn: list[int] = []

    class Fake:
        def randrange(self, n: int) -> int:
            drawn.append(n)
            return 1

    monkeypatch.setattr(random, "SystemRandom", Fake)
    game = HipparchusGame(deals=[DEAL])
    assert drawn == [2] and game.state.first_leader == 1


def test_two_unseeded_deals_differ() -> None:
    # 30!/(10!^3) ~ 5.6e12 deals: a collision is (practically) impossible.
    assert system_deal() != system_deal()


def test_replay_of_the_record_gives_the_state_mid_game_and_at_the_end() -> None:
    game = HipparchusGame(seed=12)
    game.start()
    rng = random.Random(12)
    play_out(game, rng, plays=40)
    assert replay(game.record()) == game.state
    play_out(game, rng)
    record = game.record()
    assert replay(record) == game.state
    assert record.winner == game.state.winner and record.fixed_deal


def test_events_to_everyone_never_carry_a_hand_before_the_round_ends() -> None:
    game = HipparchusGame(seed=31)
    events = game.start()
    rng = random.Random(31)
    while game.outcome is None:
        for event in events:
            if isinstance(event.payload, HandDealt):
                assert event.audience == event.payload.seat
            elif not isinstance(event.payload, RoundOver):
                assert event.audience is None
                assert "hand" not in unstructure(event.payload) or isinstance(
                    event.payload, HandDealt
                )
        (seat,) = game.seats_to_move()
        events = game.play(seat, rng.choice(game.legal_moves(seat)))


def test_round_over_reveals_and_next_round_is_led_by_the_round_winner() -> None:
    game = HipparchusGame(seed=8)
    game.start()
    rng = random.Random(8)
    while True:
        (seat,) = game.seats_to_move()
        events = game.play(seat, rng.choice(game.legal_moves(seat)))
        over = [e.payload for e in events if isinstance(e.payload, RoundOver)]
        if over:
            break
    (round_over,) = over
    # Revealed: what was left in the hands and the face-down cards; with the won cards, all 30
    # but the set-aside ones (H6: at most one lead of 1-3 cards).
    revealed = round_over.revealed
    assert len(revealed.face_down) == 2
    cards = sum(h.size for h in revealed.hands) + 2 + sum(map(sum, round_over.won))
    assert 30 - cards in (0, 1, 2, 3)
    if game.outcome is None:
        assert game.state.round_number == 2
        assert game.state.round.leader == round_over.result.winner


def test_impossible_seats_are_refused_without_change() -> None:
    game = HipparchusGame(deals=[DEAL], first_leader=0)
    game.start()
    for seat in (2, -1):
        with pytest.raises(IllegalMove, match="no seat"):
            game.parse_move(seat, "1S@1")
        with pytest.raises(IllegalMove, match="no seat"):
            game.resign(seat)
        with pytest.raises(NotYourTurn):
            game.play(seat, Play(2, S, 1))
        assert game.legal_moves(seat) == ()
    assert game.outcome is None
