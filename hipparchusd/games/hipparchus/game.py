"""Hipparchus behind the daemon's game interface (:class:`hipparchusd.games.base.Game`)."""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import ClassVar

from ...codec import Codec
from ...jsondata import JSON
from ..base import EVERYONE, Event, Game, GameFinished, IllegalMove, NotYourTurn, Outcome
from . import core
from .codec import CODEC
from .dealing import seeded_deal, system_deal
from .model import (
    SEATS,
    Deal,
    Hand,
    Play,
    PublicTrick,
    Trick,
    cards_of_move,
    move_of,
    play_of_move,
    plays_of,
)
from .notation import NotationError, format_play, parse_move
from .record import MatchRecord, RoundRecord, replay
from .rules import (
    GameOver,
    IllegalPlay,
    MatchState,
    RoundState,
    aside_counts,
    refusal,
    result_of,
)
from .views import (
    HandDealt,
    MatchOver,
    NoFollow,
    Played,
    Revealed,
    RoundOver,
    RoundStarted,
    TrickWon,
    Turn,
    View,
    build_view,
)

# Asked on every request that moves: made once.
_NOBODY: frozenset[int] = frozenset()
_ONE_SEAT = tuple(frozenset((seat,)) for seat in range(SEATS))

# The ``played`` and ``turn`` events that every play sends, made once for each value (events
# and their payloads are immutable values, so sharing them is invisible to their readers;
# there are a few hundred such values in all). Keyed by plain ints, which hash in C: a move's
# public form is the core's ``count << 2 | suit`` (RULINGS H13), 0 for no lead.


@functools.cache
def _played_event(seat: int, public: int, hand_size: int) -> Event:
    """``seat`` played the cards ``public`` (the core's public form) and holds ``hand_size``."""
    return Event(EVERYONE, Played(seat, cards_of_move(public), hand_size))


@functools.cache
def _turn_event(seat: int, lead: int) -> Event:
    """``seat`` to play, following ``lead`` (a public form) or leading (0)."""
    return Event(EVERYONE, Turn(seat, cards_of_move(lead) if lead else None))


def _check_seat(seat: object) -> None:
    if type(seat) is not int or not 0 <= seat < SEATS:
        raise IllegalMove(f"no seat {seat!r} at this table (seats 0 and 1)")


class HipparchusGame(Game[Play, View, MatchRecord]):
    """A Hipparchus match for two seats, with its dealer. It plays on the core's round
    (:mod:`.core`); :attr:`state`, the object model's :class:`MatchState`, is a view of it.

    Args:
        first_leader: the seat that leads the first round; drawn at random when ``None``
            (RULINGS H12).
        seed: deal every round reproducibly from this seed (marks the game fixed, H13).
        deals: explicit deals for the first rounds, in order (marks the game fixed); later rounds
            use ``seed`` if given, else the system's randomness.

    Raises:
        ValueError: a bad ``first_leader`` or an impossible deal.
    """

    kind: ClassVar[str] = "hipparchus"
    codec: ClassVar[Codec] = CODEC

    def __init__(
        self,
        *,
        first_leader: int | None = None,
        seed: int | None = None,
        deals: Sequence[Deal] = (),
    ) -> None:
        self._seed = seed
        self._deals = tuple(d.validated() for d in deals)
        self._fixed = seed is not None or bool(self._deals)
        if first_leader is None:
            chooser = random.Random(f"hipparchus/{seed}/leader") if seed is not None else None
            first_leader = (chooser or random.SystemRandom()).randrange(SEATS)
        if first_leader not in (0, 1):
            raise ValueError(f"first leader must be seat 0 or 1, not {first_leader!r}")
        self._first_leader = first_leader
        self._round_number = 1
        self._round_wins = (0, 0)
        self._winner: int | None = None
        self._start_round(self._deal(1), first_leader)
        # Tuples, so that fork() shares them: a play makes a new one.
        self._rounds: tuple[RoundRecord, ...] = ()
        self._plays: tuple[Play, ...] = ()
        self._resigned: int | None = None

    def _start_round(self, deal: Deal, leader: int) -> None:
        self._current_deal = deal
        self._round_leader = leader
        hands = deal.hands
        self._round = core.start((hands[0].core, hands[1].core), leader)
        # The round's finished tricks, which the core does not keep (views and records do).
        self._tricks: tuple[Trick, ...] = ()
        # legal_moves()'s answer and the core round it is for.
        self._legal: tuple[Play, ...] = ()
        self._legal_round: core.Round | None = None

    def _deal(self, round_number: int) -> Deal:
        if round_number <= len(self._deals):
            return self._deals[round_number - 1]
        if self._seed is not None:
            return seeded_deal(self._seed, round_number)
        return system_deal()

    @property
    def state(self) -> MatchState:
        """The full match state (every card: never send it to a seat): the object model's view
        of the core's round and the match around it."""
        round_ = RoundState.of(self._round, self._current_deal.face_down, self._tricks)
        return MatchState(
            round_, self._round_number, self._round_wins, self._first_leader, self._winner
        )

    @property
    def seat_count(self) -> int:
        """Always 2."""
        return SEATS

    @property
    def fixed_deal(self) -> bool:
        """True when a seed or explicit deals were given (or, for a restored game, when the
        original game was fixed)."""
        return self._fixed

    @classmethod
    def restore(cls, record: MatchRecord, *, seed: int | None = None) -> HipparchusGame:
        """Rebuild a game from its record, e.g. after a restart: the same first leader, the
        recorded deal of every recorded round, every recorded play made again through the rules
        (and the resignation, if any). Rounds after the recorded ones are dealt from ``seed``
        (give the seed the game was created with, if any), else from the system's randomness.

        ``fixed_deal`` is as recorded: a game dealt from the system's randomness stays unfixed,
        although the server knows its recorded deals (RULINGS H13 is about what a game's
        creator can know). The game is started; call :meth:`view` for its position.

        Raises:
            ValueError: the record does not follow the rules (its leaders, plays or outcome).
        """
        game = cls(
            first_leader=record.first_leader,
            seed=seed,
            deals=[round_record.deal for round_record in record.rounds],
        )
        game._fixed = record.fixed_deal
        try:
            state = replay(record)
        except (IllegalPlay, GameOver, ValueError) as error:
            raise ValueError(f"the record does not follow the rules: {error}") from None
        last = record.rounds[-1]
        game._round_number = state.round_number
        game._round_wins = state.round_wins
        game._winner = state.winner
        game._start_round(last.deal, last.leader)
        game._round = state.round.core
        game._tricks = state.round.tricks
        if state.round.over:
            game._rounds, game._plays = record.rounds, ()
            if state.needs_deal:  # the match goes on: deal the next round, as a play would
                game._next_round(state.round.core)
        else:
            game._rounds, game._plays = record.rounds[:-1], last.plays
        if record.resigned is not None:
            game.resign(record.resigned)
        outcome = game.outcome
        if (outcome.winners[0] if outcome else None) != record.winner:
            raise ValueError("the record's winner is not the one its plays give")
        return game

    def start(self) -> list[Event]:
        """Events for the first round's deal and first turn."""
        return self._round_started()

    def _round_started(self) -> list[Event]:
        number = self._round_number
        leader = self._round_leader
        hands = self._current_deal.hands
        events = [Event(EVERYONE, RoundStarted(number, leader, self._round_wins))]
        events += [Event(seat, HandDealt(number, seat, hands[seat])) for seat in range(SEATS)]
        events.append(Event(EVERYONE, Turn(leader, None)))
        return events

    def seats_to_move(self) -> frozenset[int]:
        """The one seat that must play, or none when the match is over."""
        if self._resigned is not None or self._winner is not None:
            return _NOBODY
        seat = core.to_move(self._round)
        return _NOBODY if seat < 0 else _ONE_SEAT[seat]

    def legal_moves(self, seat: int) -> tuple[Play, ...]:
        """``seat``'s legal plays now (RULINGS H2-H5), empty when it need not play."""
        if seat not in self.seats_to_move():
            return ()
        round_ = self._round
        if round_ is not self._legal_round:
            # Worked out once per core round, which is immutable: the daemon asks for the
            # list on each ``legal`` and checks a ``play`` against it.
            self._legal = plays_of(round_[6])
            self._legal_round = round_
        return self._legal

    def decisions_left(self, seat: int) -> int:
        """At most the cards ``seat`` holds: each of its plays this round takes one or more."""
        _check_seat(seat)
        return core.size_of(self._round[0][seat])

    def parse_move(self, seat: int, text: str) -> Play:
        """Parse ``text`` as a play from ``seat``'s hand, canonical position.

        Raises:
            IllegalMove: bad notation, a position that does not fit the seat's hand, or no
                such seat.
        """
        _check_seat(seat)
        try:
            return play_of_move(parse_move(text, self._round[0][seat]))
        except NotationError as error:
            raise IllegalMove(str(error)) from None

    #: Canonical play notation, e.g. ``2E@5``: :func:`~.notation.format_play` itself (every
    #: ``legal`` answer formats each legal play with it; a method around it would double
    #: the calls).
    format_move = staticmethod(format_play)

    def describe_move(self, seat: int, move: Play) -> dict[str, JSON]:
        """The play with its suit letter, count and the 1-based hand positions of its clump."""
        hand = self._round[0][seat]
        index, start = core.clump_at(hand, move.position)
        size = hand[index] >> 2
        return {
            "move": format_play(move),
            "suit": move.suit.letter,
            "count": move.count,
            "position": move.position,
            "clump": list(range(start, start + size)),
        }

    def play(self, seat: int, move: Play) -> list[Event]:
        """Make ``seat``'s play; return the events: the play, a finished trick, a finished round
        (and the next deal) or match, and the next turn.

        Raises:
            GameFinished: the match is over.
            NotYourTurn: the other seat must play.
            IllegalMove: ``move`` breaks RULINGS H2-H5.
        """
        if self.outcome is not None:
            raise GameFinished("the match is over")
        if seat not in self.seats_to_move():
            raise NotYourTurn("it is not your turn")
        before = self._round
        code = move_of(move)
        if code is None or code not in before[6]:
            if type(move) is not Play:
                raise IllegalMove(f"{move!r} is not a play")
            raise IllegalMove(refusal(before, move))
        after = self._round = core.play(before, code)
        play = play_of_move(code)
        self._plays += (play,)
        # Public forms only (RULINGS H13): the player got the canonical move in its answer.
        events = [_played_event(seat, code & 15, core.size_of(after[0][seat]))]
        leader, lead = before[2], before[3]
        if lead:  # the follow completed the trick (H7, H8)
            self._tricks += (Trick(leader, play_of_move(lead), play, after[2]),)
            trick = PublicTrick(leader, cards_of_move(lead), cards_of_move(code), after[2])
            won = after[1]
            events.append(
                Event(
                    EVERYONE,
                    TrickWon(len(self._tricks), trick, (won[:3], won[3:])),
                )
            )
        elif after[5]:  # H6: no legal follow, the lead is set aside
            self._tricks += (Trick(leader, play, None, None),)
            trick = PublicTrick(leader, cards_of_move(code), None, None)
            aside = aside_counts(code)
            events.append(Event(EVERYONE, NoFollow(len(self._tricks), trick, aside)))
        if not after[6]:
            events.extend(self._end_round())
        else:
            lead = after[3]
            events.append(_turn_event(core.to_move(after), lead & 15))
        return events

    def _end_round(self) -> list[Event]:
        round_ = self._round
        won = round_[1]
        winner, _ = core.round_winner(won, round_[4])
        wins = list(self._round_wins)
        wins[winner] += 1
        self._round_wins = (wins[0], wins[1])
        match_winner = core.match_winner(wins)
        self._winner = None if match_winner < 0 else match_winner
        self._rounds += (self._current_round_record(),)
        self._plays = ()
        hands = round_[0]
        events = [
            Event(
                EVERYONE,
                RoundOver(
                    self._round_number,
                    result_of(won, round_[4]),
                    (won[:3], won[3:]),
                    self._round_wins,
                    Revealed((Hand.of(hands[0]), Hand.of(hands[1])), self._current_deal.face_down),
                ),
            )
        ]
        if self._winner is not None:
            events.append(Event(EVERYONE, MatchOver(self._winner, self._round_wins, None)))
            return events
        self._next_round(round_)
        return events + self._round_started()

    def _next_round(self, finished: core.Round) -> None:
        """Deal the next round, led by the winner of the ``finished`` one (H12)."""
        winner, _ = core.round_winner(finished[1], finished[4])
        self._round_number += 1
        self._start_round(self._deal(self._round_number), winner)

    def resign(self, seat: int) -> list[Event]:
        """``seat`` resigns the match; the other seat wins it.

        Raises:
            GameFinished: the match is over.
            IllegalMove: no such seat.
        """
        if self.outcome is not None:
            raise GameFinished("the match is over")
        _check_seat(seat)
        self._resigned = seat
        return [Event(EVERYONE, MatchOver(1 - seat, self._round_wins, seat))]

    def view(self, seat: int | None) -> View:
        """What ``seat`` (``None``: a spectator) may see now (RULINGS H13)."""
        return build_view(self.state, seat, fixed_deal=self.fixed_deal, resigned=self._resigned)

    @property
    def outcome(self) -> Outcome | None:
        """The winner once the match is over (two round wins, or a resignation)."""
        if self._resigned is not None:
            return Outcome((1 - self._resigned,), self._round_wins, self._resigned)
        if self._winner is not None:
            return Outcome((self._winner,), self._round_wins)
        return None

    def record(self) -> MatchRecord:
        """Every deal and play so far, for exact replay. Reveals every card."""
        rounds = list(self._rounds)
        if self._plays or self._round[6]:
            rounds.append(self._current_round_record())
        outcome = self.outcome
        return MatchRecord(
            first_leader=self._first_leader,
            rounds=tuple(rounds),
            winner=outcome.winners[0] if outcome else None,
            resigned=self._resigned,
            fixed_deal=self.fixed_deal,
        )

    def fork(self) -> HipparchusGame:
        """An independent copy (:meth:`hipparchusd.games.base.Game.fork`). Cheap: the core's
        round and the recorded rounds and plays are immutable, so the copy shares them."""
        copy = object.__new__(HipparchusGame)
        copy.__dict__.update(self.__dict__)
        return copy

    def _current_round_record(self) -> RoundRecord:
        return RoundRecord(self._current_deal, self._round_leader, self._plays)
