"""The states the rules make are immutable values (the daemon's fork() shares them): each equals
the same state made by the classes' own constructors, answers the same legal cards and the same
plays, and refuses any change. (The rules build their states field by field for speed, and
carry each state's legal cards with it; these tests hold that to the constructors and to the
rules as computed from the fields.)"""

from __future__ import annotations

import random

import attrs
import pytest

from hipparchusd.games.planets import HandSetup, HandState, Phase, Shoot, Tally, Trick
from hipparchusd.games.planets.model import PASS_CYCLES, cards_of
from hipparchusd.games.planets.rules import shuffled_deal


def random_hand(players: int, number: int, seed: int) -> list[HandState]:
    """Every state of hand ``number`` (of ``players`` seats) played by random legal moves."""
    rng = random.Random(seed)
    state = HandState.start(number, number % players, shuffled_deal(rng, players, players == 6))
    states = [state]
    if state.phase is Phase.PASS:
        for seat in range(players):
            chosen = rng.sample(cards_of(state.dealt[seat]), state.kind.count)
            state = state.pass_cards(seat, chosen)
            states.append(state)
    while state.phase is Phase.PLAY:
        state = state.play(rng.choice(state.legal_cards()))
        states.append(state)
    if state.phase is Phase.CHOICE:
        assert state.shooter is not None
        states.append(state.choose(state.shooter, Shoot.OTHERS))
    assert states[-1].phase is Phase.OVER
    return states


def rebuilt(state: HandState) -> HandState:
    """``state`` made again by the constructors, part by part."""
    tally = state.tally
    tricks = tuple(Trick(*attrs.astuple(trick, recurse=False)) for trick in tally.tricks)
    return HandState(
        HandSetup(*attrs.astuple(state.setup, recurse=False)),
        Tally(
            tally.phase,
            tally.leader,
            tricks,
            tally.taken,
            tally.broken,
            tally.shooter,
            tally.choice,
        ),
        state.hands,
        state.trick,
    )


HANDS = [
    (players, number)
    for players, cycle in PASS_CYCLES.items()
    for number in range(1, len(cycle) + 1)
]


@pytest.mark.parametrize(("players", "number"), HANDS)
def test_states_made_by_the_rules_equal_the_same_states_made_by_the_constructors(
    players: int, number: int
) -> None:
    for state in random_hand(players, number, seed=100 * players + number):
        again = rebuilt(state)
        assert again == state
        assert hash(again) == hash(state)
        assert repr(again) == repr(state)
        # The legal cards the rules gave the state are those of the rules (P5, P6, P10-P12).
        assert again.legal_cards() == state.legal_cards()
        for card in state.legal_cards():
            assert again.play(card) == state.play(card)
        if state.phase is Phase.PLAY:
            held = cards_of(state.hands[state.player])
            assert set(state.legal_cards()) <= set(held)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_states_made_by_the_rules_refuse_any_change(players: int) -> None:
    for state in random_hand(players, 1, seed=players)[::7]:
        parts: list[object] = [state, state.setup, state.tally, *state.tricks]
        for part in parts:
            for field in attrs.fields(type(part)):
                with pytest.raises(attrs.exceptions.FrozenInstanceError):
                    setattr(part, field.name, None)
