"""A Hipparchus match as played, for exact replay: :class:`MatchRecord` and :func:`replay`."""

from __future__ import annotations

import attrs

from . import core
from .model import Deal, Play, Trick, move_of, play_of_move
from .rules import GameOver, IllegalPlay, MatchState, RoundState, refusal


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

    The plays go through the rules core (:mod:`.core`); the object model's states are built
    once, for the last round, at the end: a stored record is checked by this replay, and a
    state per play would cost most of it. The errors are those of :meth:`MatchState.play`
    and :meth:`MatchState.next_round`, each play's prefixed with its round and number.

    Raises:
        IllegalPlay, GameOver: the record does not follow the rules.
        ValueError: the record has no rounds, or its first leader is not a seat.
    """
    if not record.rounds:
        raise ValueError("a record with no rounds")
    wins = [0, 0]
    winner = -1
    leader = record.first_leader
    if leader not in (0, 1):
        raise ValueError(f"leader must be seat 0 or 1, not {leader!r}")
    round_: core.Round | None = None
    tricks: list[Trick] = []
    for number, round_record in enumerate(record.rounds, start=1):
        if round_ is not None:  # MatchState.next_round: the previous winner leads (H12)
            if winner >= 0 or round_[6]:
                raise GameOver(
                    "no round to start: " + ("match over" if winner >= 0 else "round on")
                )
            leader = core.round_winner(round_[1], round_[4])[0]
        hands = round_record.deal.hands
        round_ = core.start((hands[0].core, hands[1].core), leader)
        if leader != round_record.leader:
            raise IllegalPlay(f"round {number}: the recorded leader is not the rules' leader")
        tricks = []
        for index, play in enumerate(round_record.plays, start=1):
            legal = round_[6]
            move = move_of(play)
            if winner >= 0 or not legal or move is None or move not in legal:
                raise _refused(round_, play, winner >= 0, f"round {number}, play {index}: ")
            after = core.play(round_, move)
            if round_[3]:  # the follow completed the trick (H7, H8)
                lead = play_of_move(round_[3])
                tricks.append(Trick(round_[2], lead, play_of_move(move), after[2]))
            elif after[5]:  # H6: the lead was set aside
                tricks.append(Trick(round_[2], play_of_move(move), None, None))
            round_ = after
            if not after[6]:  # the round is over: counted (H11, H12)
                wins[core.round_winner(after[1], after[4])[0]] += 1
                winner = core.match_winner(wins)
    assert round_ is not None  # there is a round
    last = record.rounds[-1].deal
    return MatchState(
        RoundState.of(round_, last.face_down, tuple(tricks)),
        len(record.rounds),
        (wins[0], wins[1]),
        record.first_leader,
        None if winner < 0 else winner,
    )


def _refused(
    round_: core.Round, play: Play, match_over: bool, where: str
) -> IllegalPlay | GameOver:
    """The error :meth:`MatchState.play` raises for ``play``, which the rules refuse in
    ``round_``, its message after ``where``."""
    if match_over:
        return GameOver(where + "the match is over")
    if not round_[6]:
        return GameOver(where + "the round is over")
    if type(play) is not Play:
        return IllegalPlay(f"{where}{play!r} is not a play")
    return IllegalPlay(where + refusal(round_, play))
