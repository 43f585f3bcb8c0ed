"""Untrusted input never crashes the loaders: a mutated document or position string is either
accepted as a valid value or refused with the one documented error type."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from hipparchusd.games.hipparchus import HipparchusGame
from hipparchusd.games.hipparchus import codec as ser
from hipparchusd.games.hipparchus.notation import NotationError, format_position, parse_position
from hipparchusd.games.hipparchus.validation import validate_match

ENGINE = settings(settings.get_profile("hipparchus-engine"))

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 40)
    | st.sampled_from(["S", "M", "E", "-", "2E@5", "SSME", "x", ""]),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.sampled_from(["leader", "won", "x"]), children, max_size=3)
    ),
    max_leaves=8,
)


def _states() -> list[Any]:
    rng = random.Random(4)
    game = HipparchusGame(seed=4)
    game.start()
    states = [game.state]
    while game.outcome is None:
        (seat,) = game.seats_to_move()
        game.play(seat, rng.choice(game.legal_moves(seat)))
        states.append(game.state)
    return states


STATES = _states()


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += _paths(value, (*prefix, index))
    return found


@ENGINE
@given(index=st.integers(0, len(STATES) - 1), choice=st.integers(0, 10**6), value=json_values)
def test_mutated_state_documents_are_accepted_valid_or_refused_cleanly(
    index: int, choice: int, value: Any
) -> None:
    document = json.loads(json.dumps(ser.dump_state(STATES[index])))
    paths = _paths(document)
    path = paths[choice % len(paths)]
    if not path:
        document = value
    else:
        target = document
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    try:
        state = ser.load_state(document)
    except ser.InvalidState as error:
        assert str(error)
    else:
        validate_match(state)  # whatever was accepted is a reachable-looking state


@ENGINE
@given(
    index=st.integers(0, len(STATES) - 1),
    at=st.integers(0, 200),
    text=st.text(alphabet="SME-/,@0123 45sX", max_size=3),
    cut=st.integers(0, 3),
)
def test_mutated_positions_parse_or_fail_with_a_position(
    index: int, at: int, text: str, cut: int
) -> None:
    original = format_position(STATES[index])
    at %= len(original) + 1
    mutated = original[:at] + text + original[at + cut :]
    try:
        state = parse_position(mutated)
    except NotationError as error:
        assert 0 <= error.position <= len(mutated)
    else:
        assert format_position(state) == mutated
