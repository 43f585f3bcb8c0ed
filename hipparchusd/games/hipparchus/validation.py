"""Checks that a state, view or record built from untrusted input is one the rules can reach.

The rules only ever build reachable states, so nothing here runs during play. It runs on what
comes from outside: a JSON document (:mod:`.codec`) or a position string
(:mod:`hipparchusd.games.hipparchus.notation`). Every failure is an :class:`InvalidState` whose
``field`` names the offending part (e.g. ``round.hands[1]``), so that a client or an operator
can see what to fix.
"""

from __future__ import annotations

from typing import Any, cast

import attrs

from ...codec import InvalidState as InvalidState  # raised here; re-exported
from ...wording import counted
from .model import (
    CARDS_PER_SUIT,
    FACE_DOWN_SIZE,
    HAND_SIZE,
    MAX_PLAY,
    SEATS,
    SUITS,
    Clump,
    Deal,
    Hand,
    Play,
    PlayedCards,
    PublicTrick,
    Suit,
    Trick,
)
from .rules import (
    ROUNDS_TO_WIN,
    MatchState,
    RoundResult,
    RoundState,
    round_ended,
    score_round,
    trick_winner,
)
from .views import NoFollow, View


def _int(value: object, field: str, low: int, high: int | None = None) -> int:
    if type(value) is not int:
        raise InvalidState(field, f"expected an integer, not {type(value).__name__}")
    if value < low or (high is not None and value > high):
        bound = f"{low}..{high}" if high is not None else f">= {low}"
        raise InvalidState(field, f"{value} is out of range ({bound})")
    return value


def _seat(value: object, field: str) -> int:
    return _int(value, field, 0, SEATS - 1)


def _optional_seat(value: object, field: str) -> int | None:
    return None if value is None else _seat(value, field)


def _tuple(value: object, field: str, length: int | None = None) -> tuple[Any, ...]:
    if not isinstance(value, tuple):
        raise InvalidState(field, f"expected a tuple, not {type(value).__name__}")
    if length is not None and len(value) != length:
        raise InvalidState(field, f"expected {counted(length, 'item')}, not {len(value)}")
    return value


def _suit(value: object, field: str) -> Suit:
    if not isinstance(value, Suit):
        raise InvalidState(field, f"expected a suit, not {value!r}")
    return value


def _counts(value: object, field: str) -> tuple[int, int, int]:
    items = _tuple(value, field, 3)
    for suit in SUITS:
        _int(items[suit], f"{field}[{int(suit)}]", 0, CARDS_PER_SUIT)
    return (items[0], items[1], items[2])


def validate_hand(hand: object, field: str, max_size: int = HAND_SIZE) -> Hand:
    """Check that ``hand`` is a :class:`Hand` of at most ``max_size`` cards whose clumps are
    maximal runs (RULINGS H1-H3: size >= 1, no two neighbours of one suit).

    Raises:
        InvalidState: naming ``field``.
    """
    if not isinstance(hand, Hand):
        raise InvalidState(field, f"expected a hand, not {type(hand).__name__}")
    clumps = _tuple(hand.clumps, f"{field}.clumps")
    previous: Suit | None = None
    total = 0
    for index, clump in enumerate(clumps):
        where = f"{field}.clumps[{index}]"
        if not isinstance(clump, Clump):
            raise InvalidState(where, f"expected a clump, not {type(clump).__name__}")
        suit = _suit(clump.suit, f"{where}.suit")
        size = _int(clump.size, f"{where}.size", 1)
        if suit is previous:
            raise InvalidState(where, "two neighbouring clumps of one suit (RULINGS H3)")
        previous = suit
        total += size
    if total > max_size:
        raise InvalidState(field, f"{counted(total, 'card')}, more than {max_size}")
    for suit in SUITS:
        if hand.counts[suit] > CARDS_PER_SUIT:
            raise InvalidState(
                field, f"{counted(hand.counts[suit], 'card')} of {suit.name.title()}: there are 10"
            )
    return hand


def validate_play(play: object, field: str) -> Play:
    """Check that ``play`` is a :class:`Play` of 1-3 cards (RULINGS H2) at a position >= 1.

    Raises:
        InvalidState: naming ``field``.
    """
    if not isinstance(play, Play):
        raise InvalidState(field, f"expected a play, not {type(play).__name__}")
    _int(play.count, f"{field}.count", 1, MAX_PLAY)
    _suit(play.suit, f"{field}.suit")
    _int(play.position, f"{field}.position", 1, HAND_SIZE)
    return play


def validate_cards(cards: object, field: str) -> PlayedCards:
    """Check that ``cards`` is a :class:`PlayedCards` (a play's public form) of 1-3 cards
    (RULINGS H2) of a suit.

    Raises:
        InvalidState: naming ``field``.
    """
    if not isinstance(cards, PlayedCards):
        raise InvalidState(field, f"expected played cards, not {type(cards).__name__}")
    _int(cards.count, f"{field}.count", 1, MAX_PLAY)
    _suit(cards.suit, f"{field}.suit")
    return cards


def validate_public_trick(trick: object, field: str) -> PublicTrick:
    """Check that ``trick`` is a :class:`PublicTrick`: seats 0/1, played cards, a follow and a
    winner both given or (a trick ended by RULINGS H6) both ``None``, and a follow that is not
    the lead's suit and count (H5).

    Raises:
        InvalidState: naming ``field``.
    """
    if not isinstance(trick, PublicTrick):
        raise InvalidState(field, f"expected a trick, not {type(trick).__name__}")
    _seat(trick.leader, f"{field}.leader")
    lead = validate_cards(trick.lead, f"{field}.lead")
    winner = _optional_seat(trick.winner, f"{field}.winner")
    if trick.follow is None:
        if winner is not None:
            raise InvalidState(f"{field}.winner", "a trick without a follow has no winner (H6)")
    else:
        follow = validate_cards(trick.follow, f"{field}.follow")
        if winner is None:
            raise InvalidState(f"{field}.winner", "a trick with a follow has a winner (H7)")
        if follow == lead:
            raise InvalidState(f"{field}.follow", "same suit and count as the lead (H5)")
    return trick


def hand_before(hand: Hand, play: Play) -> Hand:
    """The hand ``play`` was made from, given the ``hand`` left after it: its cards put back
    at the play's position. Only meaningful when ``play.position <= hand.size + 1``."""
    cards = list(hand.cards)
    at = play.position - 1
    cards[at:at] = [play.suit] * play.count
    return Hand.from_cards(cards)


def _cards_held(state: Deal | RoundState, field: str) -> tuple[tuple[Hand, ...], tuple[Suit, ...]]:
    """``state``'s two hands and its face-down cards, each checked (RULINGS H12 sizes).

    Raises:
        InvalidState: naming ``field``'s offending part.
    """
    hands = _tuple(state.hands, f"{field}.hands", SEATS)
    for seat, hand in enumerate(hands):
        validate_hand(hand, f"{field}.hands[{seat}]")
    face_down = _tuple(state.face_down, f"{field}.face_down", FACE_DOWN_SIZE)
    for index, card in enumerate(face_down):
        _suit(card, f"{field}.face_down[{index}]")
    return hands, face_down


def validate_deal(deal: object, field: str = "deal") -> Deal:
    """Check that ``deal`` is a possible deal (RULINGS H12): two 14-card hands, 2 face-down
    cards, 10 cards of each suit.

    Raises:
        InvalidState: naming ``field``.
    """
    if not isinstance(deal, Deal):
        raise InvalidState(field, f"expected a deal, not {type(deal).__name__}")
    _cards_held(deal, field)
    try:
        deal.validated()
    except ValueError as error:
        raise InvalidState(field, str(error)) from None
    return deal


def validate_round(state: object, field: str = "round") -> RoundState:
    """Check that ``state`` is a round the rules can reach.

    Checked: field types and ranges; valid hands of at most 14 cards; 2 face-down cards; the 30
    cards conserved (per suit: hands + face down + won + set aside + the lead in progress =
    10); the lead in progress is a legal H2 play of the leader's hand before it and the follower
    can answer it (else H6 would have ended the round); the round is over exactly when H6 or H9
    says, and then ``result`` is what H10/H11 give; ``last_follower`` is known exactly when a
    trick was completed. When ``tricks`` is not empty (it may be: a position string carries no
    history), the tricks must account for every card won, set aside and played (H7, H8).

    Raises:
        InvalidState: naming the offending field.
    """
    if not isinstance(state, RoundState):
        raise InvalidState(field, f"expected a round state, not {type(state).__name__}")
    hands, face_down = _cards_held(state, field)
    leader = _seat(state.leader, f"{field}.leader")
    won = _tuple(state.won, f"{field}.won", SEATS)
    for seat in range(SEATS):
        _counts(won[seat], f"{field}.won[{seat}]")
    set_aside = _counts(state.set_aside, f"{field}.set_aside")
    last_follower = _optional_seat(state.last_follower, f"{field}.last_follower")
    lead = None if state.lead is None else validate_play(state.lead, f"{field}.lead")

    # Conservation of the 30 cards.
    for suit in SUITS:
        total = (
            hands[0].counts[suit]
            + hands[1].counts[suit]
            + face_down.count(suit)
            + won[0][suit]
            + won[1][suit]
            + set_aside[suit]
            + (lead.count if lead is not None and lead.suit is suit else 0)
        )
        if total != CARDS_PER_SUIT:
            raise InvalidState(
                field,
                f"{counted(total, 'card')} of {suit.name.title()} in hands, face down, won, "
                f"set aside and the lead; there are {CARDS_PER_SUIT}",
            )

    follower = 1 - leader
    if lead is not None:
        leader_hand = hands[leader]
        if lead.position > leader_hand.size + 1:
            raise InvalidState(f"{field}.lead", "position outside the leader's hand before it")
        before = hand_before(leader_hand, lead)
        if before.size > HAND_SIZE or lead not in before.plays:
            raise InvalidState(
                f"{field}.lead",
                f"{lead} is not a play of the leader's hand before it ({before}; RULINGS H2)",
            )
        if not hands[follower].follow_plays(lead.suit, lead.count):
            raise InvalidState(
                f"{field}.lead", "the follower has no legal play: the round would have ended (H6)"
            )

    completed = sum(won[0]) + sum(won[1]) > 0
    if completed != (last_follower is not None):
        raise InvalidState(
            f"{field}.last_follower",
            "must be given exactly when a trick has been completed (cards were won; H11)",
        )
    aside_total = sum(set_aside)
    if aside_total:
        if lead is not None:
            raise InvalidState(f"{field}.lead", "no lead after cards were set aside (H6)")
        if sum(1 for n in set_aside if n) != 1 or aside_total > MAX_PLAY:
            raise InvalidState(f"{field}.set_aside", "not the cards of one lead (H6)")
        if last_follower is None:
            raise InvalidState(f"{field}.set_aside", "H6 cannot end the first trick")
    if lead is not None and not hands[follower].clumps:
        raise InvalidState(f"{field}.hands[{follower}]", "the follower has no cards to follow")
    over = round_ended((hands[0], hands[1]), lead, set_aside)
    if over:
        if last_follower is None:
            raise InvalidState(f"{field}.last_follower", "a finished round has a last follower")
        expected = score_round((won[0], won[1]), last_follower)
        if state.result != expected:
            raise InvalidState(f"{field}.result", f"should be {expected} (RULINGS H10, H11)")
    elif state.result is not None:
        raise InvalidState(f"{field}.result", "the round is not over (RULINGS H6, H9)")
    if state.result is not None and not isinstance(state.result, RoundResult):
        raise InvalidState(f"{field}.result", "expected a round result")

    tricks = _tuple(state.tricks, f"{field}.tricks")
    if tricks:
        _validate_tricks(state, tricks, f"{field}.tricks")
    return state


def _validate_tricks(state: RoundState, tricks: tuple[Any, ...], field: str) -> None:
    """The finished tricks, replayed from nothing won, must give the state's won counts, set
    aside cards, leader, last follower and cards played per seat (RULINGS H6-H8)."""
    won = [[0, 0, 0], [0, 0, 0]]
    aside = [0, 0, 0]
    played = [0, 0]
    last_follower: int | None = None
    leader: int | None = None
    for number, trick in enumerate(tricks):
        where = f"{field}[{number}]"
        if not isinstance(trick, Trick):
            raise InvalidState(where, f"expected a trick, not {type(trick).__name__}")
        trick_leader = _seat(trick.leader, f"{where}.leader")
        if leader is not None and trick_leader != leader:
            raise InvalidState(f"{where}.leader", f"seat {leader} should lead (RULINGS H8)")
        lead = validate_play(trick.lead, f"{where}.lead")
        played[trick_leader] += lead.count
        if trick.follow is None:
            if number != len(tricks) - 1 or trick.winner is not None:
                raise InvalidState(where, "only the last trick may lack a follow (H6)")
            aside[lead.suit] += lead.count
            leader = trick_leader
            continue
        follow = validate_play(trick.follow, f"{where}.follow")
        follower = 1 - trick_leader
        played[follower] += follow.count
        if lead.suit is follow.suit and lead.count == follow.count:
            raise InvalidState(f"{where}.follow", "same suit and count as the lead (H5)")
        counts = ((won[0][0], won[0][1], won[0][2]), (won[1][0], won[1][1], won[1][2]))
        winner = trick_winner(trick_leader, lead, follow, counts)
        if trick.winner != winner:
            raise InvalidState(f"{where}.winner", f"seat {winner} won this trick (RULINGS H7)")
        won[winner][lead.suit] += lead.count
        won[winner][follow.suit] += follow.count
        last_follower = follower
        leader = winner
    if leader is not None and state.lead is None and state.leader != leader:
        raise InvalidState(f"{field}", f"leave seat {leader} to lead, not {state.leader}")
    if leader is not None and state.lead is not None and state.leader != leader:
        raise InvalidState(f"{field}", f"leave seat {leader} to lead, not {state.leader}")
    if tuple(map(tuple, won)) != state.won:
        raise InvalidState(field, f"give won counts {won}, not {list(map(list, state.won))}")
    if tuple(aside) != state.set_aside:
        raise InvalidState(field, f"set aside {aside}, not {list(state.set_aside)}")
    if last_follower != state.last_follower:
        raise InvalidState(field, f"end with seat {last_follower} following last")
    in_progress = state.lead.count if state.lead is not None else 0
    for seat in range(SEATS):
        expected = HAND_SIZE - played[seat] - (in_progress if seat == state.leader else 0)
        if state.hands[seat].size != expected:
            raise InvalidState(
                field, f"leave seat {seat} {counted(expected, 'card')}, not its hand's count"
            )


def validate_match(state: object, field: str = "") -> MatchState:
    """Check that ``state`` is a match the rules can reach: a valid round (see
    :func:`validate_round`), round wins that count the finished rounds, a winner exactly when a
    seat has two round wins (RULINGS H12).

    Raises:
        InvalidState: naming the offending field.
    """
    prefix = f"{field}." if field else ""
    if not isinstance(state, MatchState):
        raise InvalidState(field, f"expected a match state, not {type(state).__name__}")
    round_ = validate_round(state.round, f"{prefix}round")
    number = _int(state.round_number, f"{prefix}round_number", 1, 2 * ROUNDS_TO_WIN - 1)
    wins = _tuple(state.round_wins, f"{prefix}round_wins", SEATS)
    for seat in range(SEATS):
        _int(wins[seat], f"{prefix}round_wins[{seat}]", 0, ROUNDS_TO_WIN)
    first = _seat(state.first_leader, f"{prefix}first_leader")
    winner = _optional_seat(state.winner, f"{prefix}winner")
    finished = number - 1 + (1 if round_.result is not None else 0)
    if sum(wins) != finished:
        raise InvalidState(
            f"{prefix}round_wins", f"{sum(wins)} round wins after {finished} finished rounds"
        )
    expected_winner = next((s for s in range(SEATS) if wins[s] >= ROUNDS_TO_WIN), None)
    if winner != expected_winner:
        raise InvalidState(f"{prefix}winner", f"should be {expected_winner} (RULINGS H12)")
    if round_.result is not None and wins[round_.result.winner] == 0:
        raise InvalidState(f"{prefix}round_wins", "the last round's winner has no round win")
    if number == 1 and round_.tricks and round_.tricks[0].leader != first:
        raise InvalidState(f"{prefix}first_leader", "the first trick was led by the other seat")
    return state


def validate_view(view: object, field: str = "") -> Any:
    """Check that ``view`` (a :class:`~hipparchusd.games.hipparchus.views.View`) is consistent:
    seats 0/1 (``seat`` may be ``None``: a spectator, who has no hand, RULINGS H13), the own
    hand's size in ``hand_sizes``, hands of at most 14 cards, counts 0-10 with at most 10 of a
    suit won in all, round number 1-3 and round wins 0-2, plays in their public form
    (:class:`PlayedCards`: the lead and every finished trick, only the last of which may lack a
    follow, H6).

    Raises:
        InvalidState: naming the offending field.
    """
    prefix = f"{field}." if field else ""
    if not isinstance(view, View):
        raise InvalidState(field, f"expected a view, not {type(view).__name__}")
    seat = _optional_seat(view.seat, f"{prefix}seat")
    sizes = _tuple(view.hand_sizes, f"{prefix}hand_sizes", SEATS)
    for index, size in enumerate(sizes):
        _int(size, f"{prefix}hand_sizes[{index}]", 0, HAND_SIZE)
    if seat is None:
        if view.hand is not None:
            raise InvalidState(f"{prefix}hand", "a spectator has no hand (RULINGS H13)")
    else:
        hand = validate_hand(view.hand, f"{prefix}hand")
        if hand.size != sizes[seat]:
            raise InvalidState(
                f"{prefix}hand", f"{counted(hand.size, 'card')}, but hand_sizes says {sizes[seat]}"
            )
    won = _tuple(view.won, f"{prefix}won", SEATS)
    for index in range(SEATS):
        _counts(won[index], f"{prefix}won[{index}]")
    aside = _counts(view.set_aside, f"{prefix}set_aside")
    for suit in SUITS:
        if won[0][suit] + won[1][suit] + aside[suit] > CARDS_PER_SUIT:
            raise InvalidState(f"{prefix}won", f"more than 10 cards of {suit.name.title()}")
    _seat(view.leader, f"{prefix}leader")
    if view.lead is not None:
        validate_cards(view.lead, f"{prefix}lead")
    _optional_seat(view.to_move, f"{prefix}to_move")
    _int(view.round_number, f"{prefix}round_number", 1, 2 * ROUNDS_TO_WIN - 1)
    wins = _tuple(view.round_wins, f"{prefix}round_wins", SEATS)
    for index in range(SEATS):
        _int(wins[index], f"{prefix}round_wins[{index}]", 0, ROUNDS_TO_WIN)
    _optional_seat(view.winner, f"{prefix}winner")
    _optional_seat(view.resigned, f"{prefix}resigned")
    if view.revealed is not None:
        for index, hand in enumerate(_tuple(view.revealed.hands, f"{prefix}revealed.hands", 2)):
            validate_hand(hand, f"{prefix}revealed.hands[{index}]")
    tricks = _tuple(view.tricks, f"{prefix}tricks")
    for number, trick in enumerate(tricks):
        validate_public_trick(trick, f"{prefix}tricks[{number}]")
        if trick.follow is None and number != len(tricks) - 1:
            raise InvalidState(
                f"{prefix}tricks[{number}]", "only the last trick may lack a follow (H6)"
            )
    return view


#: Payload fields that hold a seat, and their ranges for the other integer fields.
_SEAT_FIELDS = frozenset({"seat", "leader", "winner", "resigned"})
_RANGES = {
    "round_number": (1, 2 * ROUNDS_TO_WIN - 1),
    "hand_size": (0, HAND_SIZE),
    "number": (1, 28),
}


def validate_payload(payload: object) -> Any:
    """Check the fields of an event payload (:mod:`~hipparchusd.games.hipparchus.views`):
    seats 0/1 (or ``None`` where allowed), hand sizes 0-14, round numbers 1-3, trick numbers
    1-28, per-suit counts 0-10, round wins 0-2, hands as in :func:`validate_hand`, plays in
    their public form (:func:`validate_cards`; RULINGS H13) and tricks as in
    :func:`validate_public_trick` (a ``trick`` event's has a follow, a ``no-follow``'s none).

    Raises:
        InvalidState: naming the offending field.
    """
    if not attrs.has(type(payload)):
        raise InvalidState("", f"expected an event payload, not {type(payload).__name__}")
    for attribute in attrs.fields(cast(Any, type(payload))):
        name = attribute.name
        value = getattr(payload, name)
        if name in _SEAT_FIELDS:
            _optional_seat(value, name)
        elif name in _RANGES:
            _int(value, name, *_RANGES[name])
        elif name in ("won",):
            for index, counts in enumerate(_tuple(value, name, SEATS)):
                _counts(counts, f"{name}[{index}]")
        elif name == "set_aside":
            _counts(value, name)
        elif name == "round_wins":
            for index, wins in enumerate(_tuple(value, name, SEATS)):
                _int(wins, f"{name}[{index}]", 0, ROUNDS_TO_WIN)
        elif name == "hand":
            validate_hand(value, name)
        elif name in ("play", "lead") and value is not None:
            validate_cards(value, name)
        elif name == "trick":
            trick = validate_public_trick(value, name)
            if (trick.follow is None) != isinstance(payload, NoFollow):
                kind = "no-follow" if isinstance(payload, NoFollow) else "trick"
                has = "has one" if trick.follow is not None else "has none"
                raise InvalidState(f"{name}.follow", f"a {kind} event's trick {has}")
    return payload
