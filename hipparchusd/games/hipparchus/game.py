"""Hipparchus behind the daemon's game interface (:class:`hipparchusd.games.base.Game`)."""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import ClassVar

from ...codec import Codec
from ...jsondata import JSON
from ..base import EVERYONE, Event, Game, GameFinished, IllegalMove, NotYourTurn, Outcome
from .codec import CODEC
from .dealing import seeded_deal, system_deal
from .model import SEATS, Deal, Play, PublicTrick, Suit, cards_of
from .notation import NotationError, format_play, parse_play
from .record import MatchRecord, RoundRecord, replay
from .rules import GameOver, IllegalPlay, MatchState
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
# there are a few hundred such values in all). Keyed by plain ints, which hash in C.


@functools.cache
def _played_event(seat: int, count: int, suit: Suit, hand_size: int) -> Event:
    """``seat`` played ``count`` cards of ``suit`` and holds ``hand_size`` cards now."""
    return Event(EVERYONE, Played(seat, cards_of(count, suit), hand_size))


@functools.cache
def _turn_event(seat: int, lead: tuple[int, Suit] | None) -> Event:
    """``seat`` to play, following ``lead`` (its count and suit) or leading (``None``)."""
    return Event(EVERYONE, Turn(seat, None if lead is None else cards_of(*lead)))


def _check_seat(seat: object) -> None:
    if type(seat) is not int or not 0 <= seat < SEATS:
        raise IllegalMove(f"no seat {seat!r} at this table (seats 0 and 1)")


class HipparchusGame(Game[Play, View, MatchRecord]):
    """A Hipparchus match for two seats, with its dealer.

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
        self._current_deal = self._deal(1)
        self._state = MatchState.start(self._current_deal, first_leader)
        # Tuples, so that fork() shares them: a play makes a new one.
        self._rounds: tuple[RoundRecord, ...] = ()
        self._plays: tuple[Play, ...] = ()
        self._resigned: int | None = None
        # seats_to_move()'s answer and the rules state it is for (None: not worked out yet).
        self._seats: frozenset[int] = _NOBODY
        self._seats_state: MatchState | None = None

    def _deal(self, round_number: int) -> Deal:
        if round_number <= len(self._deals):
            return self._deals[round_number - 1]
        if self._seed is not None:
            return seeded_deal(self._seed, round_number)
        return system_deal()

    @property
    def state(self) -> MatchState:
        """The full match state (every card: never send it to a seat)."""
        return self._state

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
        if state.round.over:
            game._rounds, game._plays = record.rounds, ()
            game._current_deal = last.deal
            if state.needs_deal:  # the match goes on: deal the next round, as a play would
                game._current_deal = game._deal(state.round_number + 1)
                state = state.next_round(game._current_deal)
        else:
            game._rounds, game._plays = record.rounds[:-1], last.plays
            game._current_deal = last.deal
        game._state = state
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
        state = self._state
        round_ = state.round
        events = [
            Event(EVERYONE, RoundStarted(state.round_number, round_.leader, state.round_wins))
        ]
        events += [
            Event(seat, HandDealt(state.round_number, seat, round_.hands[seat]))
            for seat in range(SEATS)
        ]
        events.append(Event(EVERYONE, Turn(round_.leader, None)))
        return events

    def seats_to_move(self) -> frozenset[int]:
        """The one seat that must play, or none when the match is over."""
        if self._resigned is not None:
            return _NOBODY
        state = self._state
        if state is not self._seats_state:
            # Worked out once per rules state, which is immutable (the answer depends on it
            # and on the resignation alone): the daemon asks several times per move.
            seat = None if state.winner is not None else state.round.to_move
            self._seats = _NOBODY if seat is None else _ONE_SEAT[seat]
            self._seats_state = state
        return self._seats

    def legal_moves(self, seat: int) -> tuple[Play, ...]:
        """``seat``'s legal plays now (RULINGS H2-H5), empty when it need not play."""
        if seat not in self.seats_to_move():
            return ()
        return self._state.round.legal_plays()

    def decisions_left(self, seat: int) -> int:
        """At most the cards ``seat`` holds: each of its plays this round takes one or more."""
        _check_seat(seat)
        return self._state.round.hands[seat].size

    def parse_move(self, seat: int, text: str) -> Play:
        """Parse ``text`` as a play from ``seat``'s hand, canonical position.

        Raises:
            IllegalMove: bad notation, a position that does not fit the seat's hand, or no
                such seat.
        """
        _check_seat(seat)
        try:
            return parse_play(text, self._state.round.hands[seat])
        except NotationError as error:
            raise IllegalMove(str(error)) from None

    #: Canonical play notation, e.g. ``2E@5``: :func:`~.notation.format_play` itself (every
    #: ``legal`` answer formats each legal play with it; a method around it would double
    #: the calls).
    format_move = staticmethod(format_play)

    def describe_move(self, seat: int, move: Play) -> dict[str, JSON]:
        """The play with its suit letter, count and the 1-based hand positions of its clump."""
        hand = self._state.round.hands[seat]
        index, start = hand.clump_index_at(move.position)
        size = hand.clumps[index].size
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
        before = self._state
        try:
            after = before.play(move)
        except (IllegalPlay, GameOver) as error:
            raise IllegalMove(str(error)) from None
        self._state = after
        self._plays += (move,)
        round_ = after.round
        # Public forms only (RULINGS H13): the player got the canonical move in its answer.
        events = [_played_event(seat, move.count, move.suit, round_.hands[seat].size)]
        if len(round_.tricks) > len(before.round.tricks):
            number = len(round_.tricks)
            trick = PublicTrick.of(round_.tricks[-1])
            if trick.winner is None:
                events.append(Event(EVERYONE, NoFollow(number, trick, round_.set_aside)))
            else:
                events.append(Event(EVERYONE, TrickWon(number, trick, round_.won)))
        if round_.result is not None:
            events.extend(self._end_round())
        else:
            lead = round_.lead
            shown = None if lead is None else (lead.count, lead.suit)
            events.append(_turn_event(round_.to_move or 0, shown))
        return events

    def _end_round(self) -> list[Event]:
        state = self._state
        round_ = state.round
        assert round_.result is not None
        self._rounds += (self._current_round_record(),)
        self._plays = ()
        events = [
            Event(
                EVERYONE,
                RoundOver(
                    state.round_number,
                    round_.result,
                    round_.won,
                    state.round_wins,
                    Revealed(round_.hands, round_.face_down),
                ),
            )
        ]
        if state.winner is not None:
            events.append(Event(EVERYONE, MatchOver(state.winner, state.round_wins, None)))
            return events
        self._current_deal = self._deal(state.round_number + 1)
        self._state = state.next_round(self._current_deal)
        return events + self._round_started()

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
        state = self._state
        return [Event(EVERYONE, MatchOver(1 - seat, state.round_wins, seat))]

    def view(self, seat: int | None) -> View:
        """What ``seat`` (``None``: a spectator) may see now (RULINGS H13)."""
        return build_view(self._state, seat, fixed_deal=self.fixed_deal, resigned=self._resigned)

    @property
    def outcome(self) -> Outcome | None:
        """The winner once the match is over (two round wins, or a resignation)."""
        if self._resigned is not None:
            return Outcome((1 - self._resigned,), self._state.round_wins, self._resigned)
        if self._state.winner is not None:
            return Outcome((self._state.winner,), self._state.round_wins)
        return None

    def record(self) -> MatchRecord:
        """Every deal and play so far, for exact replay. Reveals every card."""
        rounds = list(self._rounds)
        if self._plays or not self._state.round.over:
            rounds.append(self._current_round_record())
        outcome = self.outcome
        return MatchRecord(
            first_leader=self._state.first_leader,
            rounds=tuple(rounds),
            winner=outcome.winners[0] if outcome else None,
            resigned=self._resigned,
            fixed_deal=self.fixed_deal,
        )

    def fork(self) -> HipparchusGame:
        """An independent copy (:meth:`hipparchusd.games.base.Game.fork`). Cheap: the rules
        state and the recorded rounds and plays are immutable, so the copy shares them."""
        copy = object.__new__(HipparchusGame)
        copy.__dict__.update(self.__dict__)
        return copy

    def _current_round_record(self) -> RoundRecord:
        first_lead = self._state.round.tricks[0].leader if self._state.round.tricks else None
        leader = self._state.round.leader if first_lead is None else first_lead
        return RoundRecord(self._current_deal, leader, self._plays)
