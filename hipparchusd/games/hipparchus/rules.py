"""The rules of Hipparchus as pure functions over immutable states (RULINGS H2-H12).

:class:`RoundState` is one round; :class:`MatchState` a best-of-three match. Both are frozen
attrs values: every transition returns a new state, and a refused play raises
:class:`IllegalPlay` and leaves the state as it was (it cannot change it).
"""

from __future__ import annotations

from itertools import repeat
from operator import is_

import attrs

from ...wording import counted
from .model import (
    MAX_PLAY,
    NO_CARDS,
    SUITS,
    Deal,
    Hand,
    Play,
    Suit,
    SuitCounts,
    Trick,
    play_of,
)

#: Round wins needed to win the match (RULINGS H12).
ROUNDS_TO_WIN = 2


def suit_name(suit: Suit, count: int = 1) -> str:
    """The suit's name for people, plural unless ``count`` is 1: ``Sun``, ``2 Moons`` is
    ``suit_name(MOON, 2)`` after the count."""
    name = suit.name.title()
    return name if count == 1 else name + "s"


class IllegalPlay(ValueError):
    """A play that the rules do not allow in this state. The message says why, naming only
    what the player who tried it may see."""


class GameOver(ValueError):
    """A play tried after the round (or match) has ended."""


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


def round_ended(hands: tuple[Hand, Hand], lead: Play | None, set_aside: SuitCounts) -> bool:
    """Whether a round in this position is over: no trick is in progress, and either a lead
    found no legal follow and was set aside (RULINGS H6) or a hand is empty (H9, checked after
    the trick in which it emptied). The one statement of the rule: play, the position notation
    and the validation of untrusted states all ask it."""
    if lead is not None:
        return False
    return any(set_aside) or not hands[0].clumps or not hands[1].clumps


def score_round(won: tuple[SuitCounts, SuitCounts], last_follower: int) -> RoundResult:
    """Score a finished round from each seat's won counts by suit.

    RULINGS H10: for each suit, the seat that won strictly more of it scores the number of that
    suit the opponent won. H11: higher total wins; equal totals go to ``last_follower``, the seat
    that followed in the last trick in which both seats played.
    """
    scores: list[list[int]] = [[0, 0, 0], [0, 0, 0]]
    for suit in SUITS:
        a, b = won[0][suit], won[1][suit]
        if a > b:
            scores[0][suit] = b
        elif b > a:
            scores[1][suit] = a
    totals = (sum(scores[0]), sum(scores[1]))
    if totals[0] != totals[1]:
        winner, tie = (0 if totals[0] > totals[1] else 1), False
    else:
        winner, tie = last_follower, True
    return RoundResult(
        scores=(
            (scores[0][0], scores[0][1], scores[0][2]),
            (scores[1][0], scores[1][1], scores[1][2]),
        ),
        totals=totals,
        winner=winner,
        by_tie_break=tie,
    )


def trick_winner(leader: int, lead: Play, follow: Play, won: tuple[SuitCounts, SuitCounts]) -> int:
    """The seat that wins a trick (RULINGS H7).

    Same suit: more cards wins (the follow rule H5 makes counts differ). Different suits: each
    seat's count of the suit it just played among the cards it had won before this trick; the
    lower count wins, equal counts go to the follower. ``won`` is the counts before this trick.
    """
    follower = 1 - leader
    if lead.suit is follow.suit:
        return leader if lead.count > follow.count else follower
    if won[leader][lead.suit] < won[follower][follow.suit]:
        return leader
    return follower


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
    # The legal plays, computed once (not part of the value: no init, eq, hash or repr; cattrs
    # and attrs.evolve leave it out). The rules fill it in when they already know it.
    _legal: tuple[Play, ...] | None = attrs.field(
        default=None, init=False, eq=False, hash=False, repr=False
    )

    @classmethod
    def start(cls, deal: Deal, leader: int) -> RoundState:
        """The round dealt as ``deal`` with ``leader`` to lead the first trick (0 or 1)."""
        if leader not in (0, 1):
            raise ValueError(f"leader must be seat 0 or 1, not {leader!r}")
        return cls(hands=deal.hands, face_down=deal.face_down, leader=leader)

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
            lead = self.lead
            if self.result is not None:
                legal = ()
            elif lead is None:
                legal = self.hands[self.leader].plays
            else:
                legal = self.hands[1 - self.leader].follow_plays(lead.suit, lead.count)
            object.__setattr__(self, "_legal", legal)
        return legal

    def why_illegal(self, play: Play) -> str:
        """Why ``play`` is not legal for the seat to move now, for that seat to read; ``""``
        when it is legal.

        The reason names the rule broken, in the order a player checks them: a position
        outside the hand or of another suit (notation), more than three cards, a clump of 1-3
        cards not played whole (RULINGS H2), a follow of the lead's suit at the lead's count or
        of another suit while the lead's suit can be followed (H5), a lead-suit play when only
        other suits may follow (H5's fall-back). It speaks only of the player's own hand and
        of the lead, which is public (H13).

        Raises:
            GameOver: the round is over (nobody is to move).
        """
        if self.result is not None:
            raise GameOver("the round is over")
        legal = self.legal_plays()
        if play in legal:
            return ""
        if (
            type(play.count) is not int
            or type(play.position) is not int
            or not isinstance(play.suit, Suit)
        ):
            return f"{play} is not a play"
        seat = self.leader if self.lead is None else 1 - self.leader
        hand = self.hands[seat]
        try:
            index, _ = hand.clump_index_at(play.position)
        except ValueError:
            return f"position {play.position} is outside your hand of {counted(hand.size, 'card')}"
        clump = hand.clumps[index]
        if clump.suit is not play.suit:
            return (
                f"card {play.position} of your hand is {suit_name(clump.suit)}, "
                f"not {suit_name(play.suit)}"
            )
        if not 1 <= play.count <= MAX_PLAY:
            return f"a play has 1 to {MAX_PLAY} cards, not {play.count}"
        if clump.size <= MAX_PLAY and play.count != clump.size:
            return f"a clump of {clump.size} is played whole"
        lead = self.lead
        if lead is not None:
            led = f"{lead.count} {suit_name(lead.suit, lead.count)}"
            if any(p.suit is lead.suit for p in legal):
                return (
                    f"you must follow {suit_name(lead.suit)} with a count other than "
                    f"{lead.count} (the lead was {led})"
                )
            if play.suit is lead.suit:
                return (
                    f"you must play another suit: no {suit_name(lead.suit)} play of yours has "
                    f"a count other than {lead.count} (the lead was {led})"
                )
        return f"{play} is not a legal play here"

    def play(self, play: Play) -> RoundState:
        """The state after the seat to move makes ``play``.

        Completes the trick after the follow (H7, H8), ends the round after a trick in which a
        hand emptied (H9) or at once when the follower is left with no legal play (H6).

        Raises:
            GameOver: the round is over.
            IllegalPlay: ``play`` is not in :meth:`legal_plays`; the message says why
                (:meth:`why_illegal`).
        """
        if self.result is not None:
            raise GameOver("the round is over")
        legal = self.legal_plays()
        # Listed plays are shared instances (model.play_of): an identity scan finds a listed
        # play without calling Play.__eq__ on every play listed before it.
        if not any(map(is_, legal, repeat(play))):
            if type(play) is not Play:
                raise IllegalPlay(f"{play!r} is not a play")
            play = play_of(play.count, play.suit, play.position)
            if not any(map(is_, legal, repeat(play))) and play not in legal:
                raise IllegalPlay(self.why_illegal(play))
        if self.lead is None:
            return self._after_lead(play)
        return self._after_follow(play)

    def _after_lead(self, lead: Play) -> RoundState:
        leader = self.leader
        hand = self.hands[leader].without(lead)
        hands = (hand, self.hands[1]) if leader == 0 else (self.hands[0], hand)
        follows = hands[1 - leader].follow_plays(lead.suit, lead.count)
        if follows:
            state = RoundState(
                hands,
                self.face_down,
                leader,
                self.won,
                lead,
                self.tricks,
                self.set_aside,
                self.last_follower,
                None,
            )
            object.__setattr__(state, "_legal", follows)
            return state
        # RULINGS H6: no legal follow; the led cards go aside and the round ends now.
        aside = list(self.set_aside)
        aside[lead.suit] += lead.count
        last = self.last_follower
        assert last is not None, "the first trick always has a legal follow (14 > 10 cards)"
        return RoundState(
            hands,
            self.face_down,
            leader,
            self.won,
            None,
            (*self.tricks, Trick(leader, lead, None, None)),
            (aside[0], aside[1], aside[2]),
            last,
            score_round(self.won, last),
        )

    def _after_follow(self, follow: Play) -> RoundState:
        leader, lead = self.leader, self.lead
        assert lead is not None
        follower = 1 - leader
        hand = self.hands[follower].without(follow)
        hands = (self.hands[0], hand) if follower == 1 else (hand, self.hands[1])
        won = self.won
        winner = trick_winner(leader, lead, follow, won)
        gained = list(won[winner])
        gained[lead.suit] += lead.count
        gained[follow.suit] += follow.count
        gained_t: SuitCounts = (gained[0], gained[1], gained[2])
        won = (gained_t, won[1]) if winner == 0 else (won[0], gained_t)
        ended = round_ended(hands, None, self.set_aside)
        return RoundState(
            hands,
            self.face_down,
            winner,
            won,
            None,
            (*self.tricks, Trick(leader, lead, follow, winner)),
            self.set_aside,
            follower,
            score_round(won, follower) if ended else None,
        )


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
        winner = next((s for s in (0, 1) if wins[s] >= ROUNDS_TO_WIN), None)
        return attrs.evolve(self, round=round_, round_wins=(wins[0], wins[1]), winner=winner)

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
