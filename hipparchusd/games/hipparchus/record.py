"""A Hipparchus match as played, for exact replay: :class:`MatchRecord` and :func:`replay`."""

from __future__ import annotations

import attrs

from .model import Deal, Play
from .rules import GameOver, IllegalPlay, MatchState


@attrs.frozen(slots=True)
class RoundRecord:
    """One round as played: its deal, who led first, and every play in order."""

    deal: Deal
    leader: int
    plays: tuple[Play, ...]


@attrs.frozen(slots=True)
class MatchRecord:
    """A whole match for exact replay (:func:`replay`): the first leader, each round's record,
    how it ended, and whether its deals were fixed at creation."""

    first_leader: int
    rounds: tuple[RoundRecord, ...]
    winner: int | None
    resigned: int | None
    fixed_deal: bool


def replay(record: MatchRecord) -> MatchState:
    """Replay ``record`` through the rules and return the final match state.

    Raises:
        IllegalPlay, GameOver: the record does not follow the rules.
    """
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
