"""Rounds and matches of Hipparchus as immutable values: the object model's view of
:mod:`.core`, where the rules are (RULINGS H2-H12).

:class:`RoundState` is one round; :class:`MatchState` a best-of-three match. Both are frozen
attrs values: every transition returns a new state, and a refused play raises
:class:`IllegalPlay` and leaves the state as it was (it cannot change it). A round state made
by the rules carries the core's round it shows (:attr:`RoundState.core`); one made by its
constructor (a position string, a JSON document, a test) works it out from its fields when
first asked. Either way the core decides every move.
"""

from __future__ import annotations

import attrs

from . import core
from .core import ROUNDS_TO_WIN, GameOver, IllegalPlay
from .model import (
    NO_CARDS,
    Deal,
    Hand,
    Play,
    Suit,
    SuitCounts,
    Trick,
    move_of,
    play_of_move,
    plays_of,
)

__all__ = [
    "ROUNDS_TO_WIN",
    "GameOver",
    "IllegalPlay",
    "MatchState",
    "RoundResult",
    "RoundState",
    "aside_counts",
    "refusal",
    "result_of",
    "round_ended",
    "score_round",
    "suit_name",
    "trick_winner",
]


def suit_name(suit: Suit, count: int = 1) -> str:
    """The suit's name for people, plural unless ``count`` is 1: ``Sun``, ``2 Moons`` is
    ``suit_name(MOON, 2)`` after the count."""
    name = core.SUIT_NAMES[suit]
    return name if count == 1 else name + "s"


@attrs.frozen(slots=True)
class RoundResult:
    """The scores of a finished round (RULINGS H10, H11).

    ``scores[seat][suit]`` is what ``seat`` scored for ``suit``; ``totals[seat]`` their sum.
    ``by_tie_break`` is true when totals were equal and the last follower won (H11).
    """

    scores: tuple[SuitCounts, SuitCounts]
    totals: tuple[int, int]
    winner: int
    by_tie_break: bool


def result_of(won: core.Won, last_follower: int) -> RoundResult:
    """The :class:`RoundResult` of a finished round from the core's won counts
    (``won[seat * 3 + suit]``) and last follower (:func:`.core.scores`,
    :func:`.core.round_winner`)."""
    each = core.scores(won)
    winner, tie = core.round_winner(won, last_follower)
    return RoundResult(
        scores=((each[0], each[1], each[2]), (each[3], each[4], each[5])),
        totals=(each[0] + each[1] + each[2], each[3] + each[4] + each[5]),
        winner=winner,
        by_tie_break=tie,
    )


def score_round(won: tuple[SuitCounts, SuitCounts], last_follower: int) -> RoundResult:
    """Score a finished round from each seat's won counts by suit (RULINGS H10, H11;
    :func:`.core.scores`, :func:`.core.round_winner`)."""
    return result_of((*won[0], *won[1]), last_follower)


def trick_winner(leader: int, lead: Play, follow: Play, won: tuple[SuitCounts, SuitCounts]) -> int:
    """The seat that wins a trick (RULINGS H7, :func:`.core.trick_winner`); ``won`` is the
    counts before this trick."""
    return core.trick_winner(
        leader,
        lead.count << 2 | lead.suit,
        follow.count << 2 | follow.suit,
        (*won[0], *won[1]),
    )


def round_ended(hands: tuple[Hand, Hand], lead: Play | None, set_aside: SuitCounts) -> bool:
    """Whether a round in this position is over (RULINGS H6, H9; :func:`.core.ended`): play,
    the position notation and the validation of untrusted states all ask it."""
    return core.ended(
        (hands[0].core, hands[1].core), 0 if lead is None else 1, 1 if any(set_aside) else 0
    )


def refusal(round_: core.Round, play: Play) -> str:
    """Why ``play`` is not legal for the seat to move in the core's ``round_``, for that seat to
    read (:func:`.core.why_illegal`); ``""`` when it is legal. A play whose fields are not of
    their types "is not a play".

    Raises:
        GameOver: the round is over.
    """
    if (
        type(play.count) is not int
        or type(play.position) is not int
        or not isinstance(play.suit, Suit)
    ):
        if not round_[6]:
            raise GameOver("the round is over")
        return f"{play} is not a play"
    return core.why_illegal(round_, play.count, play.suit, play.position)


def aside_counts(aside: core.Move) -> SuitCounts:
    """The cards of the core's set-aside lead ``aside`` (0: none) by suit (RULINGS H6)."""
    if not aside:
        return NO_CARDS
    counts = [0, 0, 0]
    counts[aside & 3] = aside >> 2 & 3
    return (counts[0], counts[1], counts[2])


@attrs.frozen(slots=True)
class RoundState:
    """One round of Hipparchus in progress or finished.

    Fields:
        hands: each seat's hand now.
        face_down: the two unseen cards (RULINGS H13 hides them until the round is over).
        won: each seat's won cards by suit (RULINGS H8: public).
        leader: the seat leading the trick in progress (or that would lead the next one).
        lead: the lead of the trick in progress, ``None`` before the lead.
        tricks: the finished tricks, in order.
        set_aside: cards set aside by RULINGS H6, by suit (they count for nobody).
        last_follower: the follower of the last trick in which both seats played (RULINGS H11),
            ``None`` before the first such trick.
        result: the scores once the round is over (H9), else ``None``.
    """

    hands: tuple[Hand, Hand]
    face_down: tuple[Suit, ...]
    leader: int
    won: tuple[SuitCounts, SuitCounts] = (NO_CARDS, NO_CARDS)
    lead: Play | None = None
    tricks: tuple[Trick, ...] = ()
    set_aside: SuitCounts = NO_CARDS
    last_follower: int | None = None
    result: RoundResult | None = None
    # The core's round and the legal plays, worked out once (not part of the value: no init,
    # eq, hash or repr; cattrs and attrs.evolve leave them out).
    _core: core.Round | None = attrs.field(
        default=None, init=False, eq=False, hash=False, repr=False
    )
    _legal: tuple[Play, ...] | None = attrs.field(
        default=None, init=False, eq=False, hash=False, repr=False
    )

    @classmethod
    def start(cls, deal: Deal, leader: int) -> RoundState:
        """The round dealt as ``deal`` with ``leader`` to lead the first trick (0 or 1)."""
        if leader not in (0, 1):
            raise ValueError(f"leader must be seat 0 or 1, not {leader!r}")
        hands = deal.hands
        round_ = core.start((hands[0].core, hands[1].core), leader)
        return cls.of(round_, deal.face_down, (), hands)

    @classmethod
    def of(
        cls,
        round_: core.Round,
        face_down: tuple[Suit, ...],
        tricks: tuple[Trick, ...],
        hands: tuple[Hand, Hand] | None = None,
    ) -> RoundState:
        """The view of the core's ``round_``, with the face-down cards and finished tricks
        (which the core does not keep) and, if given, ``hands`` (views of its hands)."""
        (first, second), won, leader, lead, last_follower, aside, legal = round_
        state = cls(
            (Hand.of(first), Hand.of(second)) if hands is None else hands,
            face_down,
            leader,
            (won[:3], won[3:]),
            play_of_move(lead) if lead else None,
            tricks,
            aside_counts(aside),
            None if last_follower < 0 else last_follower,
            None if legal else result_of(won, last_follower),
        )
        object.__setattr__(state, "_core", round_)
        return state

    @property
    def core(self) -> core.Round:
        """The core's round this state shows (:mod:`.core`, "Representation")."""
        round_ = self._core
        if round_ is None:
            hands = (self.hands[0].core, self.hands[1].core)
            won = (*self.won[0], *self.won[1])
            lead = 0 if self.lead is None else move_of(self.lead) or 0
            aside = next((n << 2 | suit for suit, n in enumerate(self.set_aside) if n), 0)
            last = -1 if self.last_follower is None else self.last_follower
            if self.result is not None:
                legal: tuple[core.Move, ...] = ()
            elif lead:
                legal = core.follow_moves(hands[1 - self.leader], lead)
            else:
                legal = core.lead_moves(hands[self.leader])
            round_ = (hands, won, self.leader, lead, last, aside, legal)
            object.__setattr__(self, "_core", round_)
        assert round_ is not None
        return round_

    @property
    def over(self) -> bool:
        """True once the round has ended (RULINGS H6 or H9)."""
        return self.result is not None

    @property
    def to_move(self) -> int | None:
        """The seat that must play now, or ``None`` when the round is over."""
        if self.result is not None:
            return None
        return self.leader if self.lead is None else 1 - self.leader

    def legal_plays(self) -> tuple[Play, ...]:
        """The plays of the seat to move (H4 for the leader, H5 for the follower); empty when
        the round is over. Never empty for a round in progress (an H6 position ends the round
        at once, so it is never a state waiting for a move)."""
        legal = self._legal
        if legal is None:
            legal = () if self.result is not None else plays_of(self.core[6])
            object.__setattr__(self, "_legal", legal)
        return legal

    def why_illegal(self, play: Play) -> str:
        """Why ``play`` is not legal for the seat to move now, for that seat to read; ``""``
        when it is legal (:func:`.core.why_illegal`: the rule broken, in the order a player
        checks them, speaking only of the player's own hand and of the lead, H13).

        Raises:
            GameOver: the round is over (nobody is to move).
        """
        if self.result is not None:
            raise GameOver("the round is over")
        return refusal(self.core, play)

    def play(self, play: Play) -> RoundState:
        """The state after the seat to move makes ``play`` (:func:`.core.play`).

        Completes the trick after the follow (H7, H8), ends the round after a trick in which a
        hand emptied (H9) or at once when the follower is left with no legal play (H6).

        Raises:
            GameOver: the round is over.
            IllegalPlay: ``play`` is not in :meth:`legal_plays`; the message says why
                (:meth:`why_illegal`).
        """
        if self.result is not None:
            raise GameOver("the round is over")
        round_ = self.core
        move = move_of(play)
        if move is None or move not in round_[6]:
            if type(play) is not Play:
                raise IllegalPlay(f"{play!r} is not a play")
            raise IllegalPlay(refusal(round_, play))
        after = core.play(round_, move)
        leader, lead = round_[2], round_[3]
        tricks = self.tricks
        if lead:  # the follow completed the trick
            tricks = (*tricks, Trick(leader, play_of_move(lead), play_of_move(move), after[2]))
        elif after[5]:  # RULINGS H6: the lead was set aside
            tricks = (*tricks, Trick(leader, play_of_move(move), None, None))
        # The seat that did not move keeps its hand (and the view of it).
        moved = leader if not lead else 1 - leader
        hand = Hand.of(after[0][moved])
        hands = (hand, self.hands[1]) if moved == 0 else (self.hands[0], hand)
        return RoundState.of(after, self.face_down, tricks, hands)


@attrs.frozen(slots=True)
class MatchState:
    """A best-of-three match (RULINGS H12).

    Fields:
        round: the round being played, or the last one once the match is over.
        round_number: 1 for the first round.
        round_wins: rounds won by each seat.
        first_leader: the seat that led the first round.
        winner: the match winner once a seat has two round wins, else ``None``.
    """

    round: RoundState
    round_number: int = 1
    round_wins: tuple[int, int] = (0, 0)
    first_leader: int = 0
    winner: int | None = None

    @classmethod
    def start(cls, deal: Deal, first_leader: int) -> MatchState:
        """A new match whose first round is ``deal``, led by ``first_leader``."""
        return cls(round=RoundState.start(deal, first_leader), first_leader=first_leader)

    @property
    def over(self) -> bool:
        """True once a seat has won the match."""
        return self.winner is not None

    @property
    def needs_deal(self) -> bool:
        """True when the round is over and the match is not: :meth:`next_round` comes next."""
        return self.round.over and self.winner is None

    def play(self, play: Play) -> MatchState:
        """The match after the seat to move in the current round makes ``play``; a round that
        ends is counted (H11, H12). Raises as :meth:`RoundState.play`; also :class:`GameOver`
        when the match is over or waits for the next deal."""
        if self.winner is not None:
            raise GameOver("the match is over")
        round_ = self.round.play(play)
        if round_.result is None:
            return MatchState(
                round_, self.round_number, self.round_wins, self.first_leader, self.winner
            )
        wins = list(self.round_wins)
        wins[round_.result.winner] += 1
        winner = core.match_winner(wins)
        return attrs.evolve(
            self,
            round=round_,
            round_wins=(wins[0], wins[1]),
            winner=None if winner < 0 else winner,
        )

    def next_round(self, deal: Deal) -> MatchState:
        """Start the next round with ``deal``, led by the previous round's winner (H12).

        Raises:
            GameOver: the current round is not over, or the match is.
        """
        if not self.needs_deal:
            raise GameOver("no round to start: " + ("match over" if self.over else "round on"))
        result = self.round.result
        assert result is not None
        return attrs.evolve(
            self,
            round=RoundState.start(deal, result.winner),
            round_number=self.round_number + 1,
        )
