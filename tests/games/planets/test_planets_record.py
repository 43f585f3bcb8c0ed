"""The replay of a record through the rules core (games/planets/record.py): it reaches the
state the game reached, and refuses a play the rules refuse with the object model's own
reason (RULINGS P5, P6, P11), naming the hand."""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st
from planets_positions import random_move
from test_planets_properties import new_game, tables

from hipparchusd.games.planets import Phase, replay
from hipparchusd.games.planets.core import IllegalPlay
from hipparchusd.games.planets.model import CARDS


@given(table=tables, seed=st.integers(0, 2**32), moves=st.integers(0, 1500), exact=st.booleans())
def test_the_replay_reaches_the_games_state(
    table: tuple[int, bool], seed: int, moves: int, exact: bool
) -> None:
    played = new_game(table, seed, exact)
    rng = random.Random(seed)
    for _ in range(moves):
        if played.outcome is not None:
            break
        played.play(*random_move(played, rng))
    # The whole state: totals, every hand's result, the hand in progress with its tricks.
    assert replay(played.record()) == played.state


@given(table=tables, seed=st.integers(0, 2**32), moves=st.integers(1, 600), exact=st.booleans())
def test_a_refused_play_is_refused_for_the_rules_reason(
    table: tuple[int, bool], seed: int, moves: int, exact: bool
) -> None:
    played = new_game(table, seed, exact)
    rng = random.Random(seed)
    for _ in range(moves):
        if played.outcome is not None:
            break
        played.play(*random_move(played, rng))
    record = played.record()
    number = len(record.hands)
    last = record.hands[-1]
    # Replace a play of the last hand (or add one) with a card the rules refuse there.
    at = rng.randrange(len(last.plays) + 1)
    before = replay(attrs.evolve(record, hands=(*record.hands[:-1], attrs.evolve(
        last, plays=last.plays[:at], choice=None))))  # fmt: skip
    refused = [card for card in CARDS if card not in before.hand.legal_cards()]
    card = rng.choice(refused)
    if before.hand.phase is Phase.PASS:
        reason = "plays before every seat has passed"  # the record's order, not a card's
    else:
        with pytest.raises(IllegalPlay) as refusal:
            before.play(card)  # the object model's own refusal
        reason = str(refusal.value)
    tampered = attrs.evolve(last, plays=(*last.plays[:at], card, *last.plays[at + 1 :]))
    with pytest.raises(ValueError) as got:
        replay(attrs.evolve(record, hands=(*record.hands[:-1], tampered)))
    assert str(got.value) == f"hand {number}: {reason}"
