"""Properties of random games (hypothesis): card conservation, 23 points a hand, one trick per
card held, exact replay, and serialization round-trips at any point."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from planets_positions import random_move

from hipparchusd.games.planets import Phase, PlanetsGame, replay
from hipparchusd.games.planets.codec import dump_record, load_record, load_view
from hipparchusd.games.planets.kind import restore
from hipparchusd.games.planets.model import HAND_POINTS, deck_mask, hand_size, mask_of
from hipparchusd.games.planets.views import HandOver, TrickTaken

settings.load_profile("planets-engine")

tables = st.sampled_from([(3, False), (4, False), (5, False), (6, False), (6, True)])


def new_game(table: tuple[int, bool], seed: int, exact100: bool) -> PlanetsGame:
    players, galaxies = table
    played = PlanetsGame(players=players, galaxies=galaxies, seed=seed, exact100=exact100)
    played.start()
    return played


def check_cards(played: PlanetsGame) -> None:
    """Every card of the deck is in exactly one place: a hand, the trick, a finished trick."""
    hand = played.state.hand
    places = [*hand.hands, mask_of(hand.trick), *(mask_of(t.cards) for t in hand.tricks)]
    union = 0
    for place in places:
        assert union & place == 0
        union |= place
    assert sum(p.bit_count() for p in places) == union.bit_count()
    assert union == deck_mask(played.seat_count, played.state.galaxies)
    if hand.phase is Phase.PASS:
        assert hand.hands == hand.dealt


@given(table=tables, seed=st.integers(0, 2**32), moves=st.integers(0, 600), exact=st.booleans())
def test_every_card_in_exactly_one_place(
    table: tuple[int, bool], seed: int, moves: int, exact: bool
) -> None:
    played = new_game(table, seed, exact)
    rng = random.Random(seed)
    check_cards(played)
    for _ in range(moves):
        if played.outcome is not None:
            break
        played.play(*random_move(played, rng))
        check_cards(played)


@given(table=tables, seed=st.integers(0, 2**32))
def test_each_hand_gives_23_points_in_one_trick_per_card_held(
    table: tuple[int, bool], seed: int
) -> None:
    played = new_game(table, seed, False)
    rng = random.Random(seed)
    players, galaxies = table
    tricks = 0
    hands = 0
    while played.outcome is None and hands < 3:
        seat, move = random_move(played, rng)
        for event in played.play(seat, move):
            payload = event.payload
            if isinstance(payload, TrickTaken):
                tricks += 1
            if isinstance(payload, HandOver):
                hands += 1
                assert sum(payload.points) == HAND_POINTS  # before shooting (P7)
                assert tricks == hand_size(players, galaxies)
                tricks = 0
                if payload.shooter is None:
                    assert payload.added == payload.points
                else:
                    assert payload.points[payload.shooter] == HAND_POINTS


@given(table=tables, seed=st.integers(0, 2**32), moves=st.integers(0, 1500), exact=st.booleans())
def test_a_record_replays_and_round_trips_at_any_point(
    table: tuple[int, bool], seed: int, moves: int, exact: bool
) -> None:
    played = new_game(table, seed, exact)
    rng = random.Random(seed)
    for _ in range(moves):
        if played.outcome is not None:
            break
        played.play(*random_move(played, rng))
    record = played.record()
    state = replay(record)
    assert state.totals == played.state.totals and state.winners == played.state.winners
    assert state.hand == played.state.hand
    assert load_record(json.loads(json.dumps(dump_record(record)))) == record
    back = restore({"seed": str(seed)}, json.loads(json.dumps(played.record_data())))
    assert back.outcome == played.outcome
    for seat in (None, *range(played.seat_count)):
        data = played.view_data(seat)
        assert back.view_data(seat) == data
        assert load_view(json.loads(json.dumps(data))) == played.view(seat)
    if played.outcome is None:
        seat, move = random_move(played, random.Random(seed + 1))
        assert back.play(seat, move) == played.play(seat, move)
