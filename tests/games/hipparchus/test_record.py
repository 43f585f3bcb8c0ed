"""The record's replay (hipparchusd/games/hipparchus/record.py) plays through the rules core and
builds the object model's state once, at the end: it must give the state, and refuse with the
errors, that playing the record through :class:`MatchState` one play at a time does."""

from __future__ import annotations

import random

import attrs
import pytest

from hipparchusd.games.hipparchus import HipparchusGame, MatchRecord, MatchState
from hipparchusd.games.hipparchus.model import SUITS, Play
from hipparchusd.games.hipparchus.record import replay
from hipparchusd.games.hipparchus.rules import GameOver, IllegalPlay


def play_by_play(record: MatchRecord) -> MatchState:
    """The record played through the object model, a :class:`MatchState` per play."""
    state: MatchState | None = None
    for number, round_record in enumerate(record.rounds, start=1):
        if state is None:
            state = MatchState.start(round_record.deal, record.first_leader)
        else:
            state = state.next_round(round_record.deal)
        if state.round.leader != round_record.leader:
            raise IllegalPlay(f"round {number}: the recorded leader is not the rules' leader")
        for index, play in enumerate(round_record.plays, start=1):
            try:
                state = state.play(play)
            except (IllegalPlay, GameOver) as error:
                raise type(error)(f"round {number}, play {index}: {error}") from None
    if state is None:
        raise ValueError("a record with no rounds")
    return state


def outcome(replayer: object, record: MatchRecord) -> tuple[object, ...]:
    """The final state (with its core and legal plays) or the error's type and message."""
    assert callable(replayer)
    try:
        state = replayer(record)
    except (IllegalPlay, GameOver, ValueError) as error:
        return type(error).__name__, str(error)
    return "ok", state, state.round.core, state.round.legal_plays(), state.round.tricks


def random_record(seed: int) -> MatchRecord:
    """A whole match of uniformly random legal plays."""
    rng = random.Random(seed)
    game = HipparchusGame(seed=seed, first_leader=seed % 2)
    game.start()
    while game.outcome is None:
        seat = next(iter(game.seats_to_move()))
        game.play_word(seat, rng.choice([game.format_move(m) for m in game.legal_moves(seat)]))
    return game.record()


def variants(record: MatchRecord, rng: random.Random) -> list[MatchRecord]:
    """The record, cut short in every round at every play, with a play changed into an
    illegal or malformed one, with plays or a round too many, with a wrong leader."""
    rounds = record.rounds
    found = [
        record,
        attrs.evolve(record, rounds=()),
        attrs.evolve(record, first_leader=2),
        attrs.evolve(record, first_leader=1 - record.first_leader),
        attrs.evolve(record, rounds=(*rounds, rounds[-1])),
    ]
    for k, round_record in enumerate(rounds):
        before, after = rounds[:k], rounds[k + 1 :]
        for cut in range(len(round_record.plays) + 1):
            short = attrs.evolve(round_record, plays=round_record.plays[:cut])
            found.append(attrs.evolve(record, rounds=(*before, short)))
            found.append(attrs.evolve(record, rounds=(*before, short, *after)))
        for _ in range(10):
            plays: list[object] = list(round_record.plays)
            index = rng.randrange(len(plays))
            plays[index] = rng.choice(
                [
                    Play(rng.randint(0, 4), SUITS[rng.randrange(3)], rng.randint(0, 16)),
                    "1S@1",
                    Play(1.0, SUITS[0], 1),  # type: ignore[arg-type]
                ]
            )
            changed = attrs.evolve(round_record, plays=tuple(plays))
            found.append(attrs.evolve(record, rounds=(*before, changed, *after)))
        longer = attrs.evolve(round_record, plays=(*round_record.plays, round_record.plays[0]))
        found.append(attrs.evolve(record, rounds=(*before, longer, *after)))
        other = attrs.evolve(round_record, leader=1 - round_record.leader)
        found.append(attrs.evolve(record, rounds=(*before, other, *after)))
    return found


@pytest.mark.parametrize("seed", range(6))
def test_replay_is_the_object_models_play_by_play(seed: int) -> None:
    rng = random.Random(seed)
    cases = variants(random_record(seed), rng)
    kinds = set()
    for record in cases:
        expected = outcome(play_by_play, record)
        assert outcome(replay, record) == expected, record
        kinds.add(expected[0])
    assert kinds == {"ok", "IllegalPlay", "GameOver", "ValueError"}
