"""The rules of Hipparchus, once, on small ints and tuples (seeds 000, 001; RULINGS H1-H14).

Everything that plays Hipparchus plays it through this module: the daemon's game
(:mod:`.game`), the object model of states, hands and plays (:mod:`.model`, :mod:`.rules`),
replay and validation, and the engine's playouts. The object model is a view over these values,
as python-chess's moves and squares are a view over its bitboards.

Representation
--------------
- A *suit* is 0 (Sun), 1 (Moon) or 2 (Earth): the values of :class:`.model.Suit`.
- A *clump* (H2) is one int, ``size << 2 | suit`` (size >= 1). A clump below :data:`TEARABLE`
  (16) holds 1 to 3 cards and is played whole; from 16 up it holds 4 or more and may give 1, 2
  or 3 of them.
- A *hand* (H1) is the tuple of its clumps, left to right; neighbours never share a suit (H3).
  Cards of one suit are identical, so the clumps are the whole of a hand's order.
- A *move* is one int, ``position << 4 | count << 2 | suit``: ``count`` (1-3) cards of ``suit``
  from the clump whose first card is at 1-based ``position`` in the hand (a
  :class:`.model.Play`'s three fields). A whole clump of 1-3 cards at ``position`` is the move
  ``position << 4 | clump``. Its low four bits, ``move & 15 == count << 2 | suit``, are the
  move's *public form* (H13: count and suit, no position).
- *Won counts* (H8) are six ints, ``won[seat * 3 + suit]``.
- A *round* is the tuple ``(hands, won, leader, lead, last_follower, aside, legal)``:
  ``hands`` each seat's hand; ``leader`` the seat that leads the trick in progress (or the next
  one); ``lead`` the move led to the trick in progress, 0 before the lead; ``last_follower``
  the follower of the last trick both seats played (H11), -1 before the first; ``aside`` the
  lead set aside under H6 (0 if none); ``legal`` the moves of the seat to move, in the order
  players see them (left to right, fewest cards first within a clump), empty once the round is
  over. The rules work ``legal`` out with each move (after a lead they must, to see whether H6
  ends the round), so asking for it costs nothing.

Every function is pure: it returns new values and never changes its arguments.
:func:`random_finish` copies what it is given into lists of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ...wording import counted

# H12 (seed 000, "Components, Setting"): 30 cards, 10 of each suit; 14 to each seat, 2 face
# down; two seats.
SUITS = 3
CARDS_PER_SUIT = 10
HAND_SIZE = 14
FACE_DOWN_SIZE = 2
SEATS = 2
#: H12: round wins that win the match.
ROUNDS_TO_WIN = 2
#: H2: the most cards one move takes.
MAX_PLAY = 3
#: H2: clumps from this value up hold 4 cards or more and may be torn.
TEARABLE = 16
#: Suit names, by suit, for messages people read.
SUIT_NAMES = ("Sun", "Moon", "Earth")
#: Suit letters, by suit, for every notation.
SUIT_LETTERS = "SME"

Hand = tuple[int, ...]
Move = int
Won = tuple[int, int, int, int, int, int]
Round = tuple[tuple[Hand, Hand], Won, int, int, int, int, tuple[Move, ...]]

NO_WON: Won = (0, 0, 0, 0, 0, 0)
# The counts (<< 2) a torn clump may give other than the lead's, by the lead's count << 2 (H5).
_OTHER_COUNTS: tuple[tuple[int, int], ...] = ((0, 0), (8, 12), (4, 12), (4, 8))


class IllegalPlay(ValueError):
    """A move the rules do not allow in this round. The message says why, naming only what the
    player who tried it may see (H13)."""


class GameOver(ValueError):
    """A move tried after the round (or match) has ended."""


# H1-H3: hands, clumps and the moves they allow.


def hand_of(cards: Iterable[int]) -> Hand:
    """H1, H2: the hand whose cards, left to right, are ``cards`` (suits): its maximal runs."""
    clumps: list[int] = []
    run_suit = -1
    run = 0
    for suit in cards:
        if suit == run_suit:
            run += 1
        else:
            if run:
                clumps.append(run << 2 | run_suit)
            run_suit, run = int(suit), 1
    if run:
        clumps.append(run << 2 | run_suit)
    return tuple(clumps)


def cards_of(hand: Hand) -> tuple[int, ...]:
    """H1: the cards (suits) of ``hand``, left to right."""
    return tuple([c & 3 for c in hand for _ in range(c >> 2)])


def size_of(hand: Hand) -> int:
    """The number of cards in ``hand``."""
    return sum([c >> 2 for c in hand])


def counts_of(hand: Hand) -> tuple[int, int, int]:
    """The cards of each suit in ``hand``: (Sun, Moon, Earth)."""
    counts = [0, 0, 0]
    for c in hand:
        counts[c & 3] += c >> 2
    return (counts[0], counts[1], counts[2])


def clump_at(hand: Hand, position: int) -> tuple[int, int]:
    """The clump holding the card at 1-based ``position``: (its index, its first position);
    (-1, 0) when ``position`` is outside the hand."""
    start = 1
    for index, c in enumerate(hand):
        end = start + (c >> 2)
        if position < end:
            return (index, start) if position >= start else (-1, 0)
        start = end
    return -1, 0


def lead_moves(hand: Hand) -> tuple[Move, ...]:
    """H2, H4: every move of ``hand``, left to right, fewest cards first within a clump: a
    clump of 1-3 cards whole, a clump of 4 or more as 1, 2 or 3 of its cards."""
    moves: list[int] = []
    position = 1
    try:
        for c in hand:
            moves += _CLUMP_MOVES[position][c]
            position += c >> 2
    except IndexError:  # a hand longer than the deck deals: no table
        moves, position = [], 1
        for c in hand:
            moves += _clump_moves(position, c)
            position += c >> 2
    return tuple(moves)


def follow_moves(hand: Hand, lead: Move) -> tuple[Move, ...]:
    """H5: the moves of ``hand`` that may follow ``lead``, in the order of :func:`lead_moves`:
    the moves of the lead's suit whose count differs from the lead's, if there is any;
    otherwise every move of the other suits (never one of the lead's suit at the lead's count:
    the H5 fall-back decision). Empty when there is no legal follow (H6)."""
    led = lead & 15
    suit = lead & 3
    moves: list[int] = []
    position = 1
    for c in hand:
        if c & 3 == suit:
            if c < 16:  # TEARABLE, without a global lookup per clump
                if c != led:
                    moves.append(position << 4 | c)
            else:
                base = position << 4 | suit
                first, second = _OTHER_COUNTS[led >> 2]
                moves += (base | first, base | second)
        position += c >> 2
    if moves:
        return tuple(moves)
    position = 1
    try:
        for c in hand:
            if c & 3 != suit:
                moves += _CLUMP_MOVES[position][c]
            position += c >> 2
    except IndexError:  # a hand longer than the deck deals: no table
        moves, position = [], 1
        for c in hand:
            if c & 3 != suit:
                moves += _clump_moves(position, c)
            position += c >> 2
    return tuple(moves)


def _clump_moves(position: int, clump: int) -> tuple[Move, ...]:
    """H2: the moves of one clump whose first card is at ``position``."""
    if clump < TEARABLE:
        return (position << 4 | clump,)
    base = position << 4 | clump & 3
    return (base | 4, base | 8, base | 12)


# _CLUMP_MOVES[position][clump]: _clump_moves() for every clump and position of a dealt hand.
_CLUMP_MOVES = tuple(
    tuple(_clump_moves(position, c) if c >= 4 and c & 3 < 3 else () for c in range(44))
    for position in range(HAND_SIZE + 1)
)


def remove(hand: Hand, move: Move) -> Hand:
    """H2, H3: ``hand`` after ``move`` (one of its moves) leaves it: a torn clump keeps the
    rest in place; when a whole clump leaves, neighbours of one suit merge into one clump."""
    position = move >> 4
    index = 0
    start = 1
    for c in hand:
        start += c >> 2
        if position < start:
            break
        index += 1
    c = hand[index]
    if c >> 2 > move >> 2 & 3:
        return (*hand[:index], c - (move & 12), *hand[index + 1 :])
    if 0 < index < len(hand) - 1:
        before, after = hand[index - 1], hand[index + 1]
        if before & 3 == after & 3:
            return (*hand[: index - 1], before + (after & ~3), *hand[index + 2 :])
    return hand[:index] + hand[index + 1 :]


# H6-H11: tricks, the end of a round, scores.


def trick_winner(leader: int, lead: Move, follow: Move, won: Sequence[int]) -> int:
    """H7: the seat that wins the trick of ``lead`` (by ``leader``) and ``follow``. Same suit:
    more cards wins (H5 makes the counts differ). Different suits: each seat's count of the
    suit it played among the cards it won before this trick (``won``); the lower count wins,
    equal counts go to the follower."""
    follower = 1 - leader
    if (lead ^ follow) & 3 == 0:
        return leader if lead & 12 > follow & 12 else follower
    if won[leader * 3 + (lead & 3)] < won[follower * 3 + (follow & 3)]:
        return leader
    return follower


def scores(won: Sequence[int]) -> Won:
    """H10: what each seat scores for each suit, ``scores[seat * 3 + suit]``: the seat that won
    strictly more cards of a suit scores the number of that suit its opponent won; equal
    counts score nothing."""
    result = [0, 0, 0, 0, 0, 0]
    for suit in range(SUITS):
        a, b = won[suit], won[3 + suit]
        if a > b:
            result[suit] = b
        elif b > a:
            result[3 + suit] = a
    return (result[0], result[1], result[2], result[3], result[4], result[5])


def round_winner(won: Sequence[int], last_follower: int) -> tuple[int, bool]:
    """H10, H11: the winner of a finished round and whether the tie-break decided it: higher
    total wins; equal totals go to ``last_follower``, who followed in the last trick both
    seats played (one always exists: the first trick always has a legal follow, since 14 cards
    hold at least two suits)."""
    # scores(), summed per seat without building them: the engine's playouts end here.
    a0, a1, a2, b0, b1, b2 = won
    first = (b0 if a0 > b0 else 0) + (b1 if a1 > b1 else 0) + (b2 if a2 > b2 else 0)
    second = (a0 if b0 > a0 else 0) + (a1 if b1 > a1 else 0) + (a2 if b2 > a2 else 0)
    if first != second:
        return (0 if first > second else 1), False
    return last_follower, True


def ended(hands: tuple[Hand, Hand], lead: Move, aside: Move) -> bool:
    """H6, H9: whether a round in this position is over: no trick is in progress, and either a
    lead found no legal follow and was set aside (H6) or a hand is empty (H9, after the trick
    in which it emptied, also when the leader emptied its own)."""
    return not lead and (bool(aside) or not hands[0] or not hands[1])


def start(hands: tuple[Hand, Hand], leader: int) -> Round:
    """H4, H12: the round dealt as ``hands``, ``leader`` to lead its first trick."""
    return (hands, NO_WON, leader, 0, -1, 0, lead_moves(hands[leader]))


def to_move(round_: Round) -> int:
    """The seat that must move now, -1 once the round is over."""
    if not round_[6]:
        return -1
    return round_[2] if not round_[3] else 1 - round_[2]


def play(round_: Round, move: Move) -> Round:
    """The round after the seat to move makes ``move`` (H2-H9): a lead waits for the follow, or
    is set aside at once when the follower has no legal play (H6, also when the leader led its
    last cards: H6 before H9); a follow completes the trick: its winner (H7) takes both plays
    (H8) and leads next, and the round ends once a hand is empty (H9).

    Raises:
        GameOver: the round is over.
        IllegalPlay: ``move`` is not legal now; the message says why (:func:`why_illegal`).
    """
    hands, won, leader, lead, last_follower, _, legal = round_
    if move not in legal:
        if not legal:
            raise GameOver("the round is over")
        raise IllegalPlay(why_illegal(round_, move >> 2 & 3, move & 3, move >> 4))
    if not lead:
        hand = remove(hands[leader], move)
        hands = (hand, hands[1]) if leader == 0 else (hands[0], hand)
        follows = follow_moves(hands[1 - leader], move)
        if follows:
            return (hands, won, leader, move, last_follower, 0, follows)
        return (hands, won, leader, 0, last_follower, move, ())  # H6: set aside, over
    follower = 1 - leader
    hand = remove(hands[follower], move)
    hands = (hands[0], hand) if follower == 1 else (hand, hands[1])
    # H7 (trick_winner(), inlined: one call less on every trick), then H8.
    if (lead ^ move) & 3 == 0:
        winner = leader if lead & 12 > move & 12 else follower
    elif won[leader * 3 + (lead & 3)] < won[follower * 3 + (move & 3)]:
        winner = leader
    else:
        winner = follower
    gained = list(won)
    gained[winner * 3 + (lead & 3)] += lead >> 2 & 3
    gained[winner * 3 + (move & 3)] += move >> 2 & 3
    if not hands[0] or not hands[1]:  # H9
        return (hands, tuple(gained), winner, 0, follower, 0, ())  # type: ignore[return-value]
    return (hands, tuple(gained), winner, 0, follower, 0, lead_moves(hands[winner]))  # type: ignore[return-value]


def why_illegal(round_: Round, count: int, suit: int, position: int) -> str:
    """Why taking ``count`` cards of ``suit`` at ``position`` is not legal for the seat to move,
    for that seat to read; ``""`` when it is legal.

    The reason names the rule broken, in the order a player checks them: a position outside
    the hand or of another suit (notation), more than three cards, a clump of 1-3 cards not
    played whole (H2), a follow of the lead's suit at the lead's count or of another suit while
    the lead's suit can be followed (H5), a lead-suit play when only other suits may follow
    (H5's fall-back). It speaks only of the player's own hand and of the lead, which is public
    (H13).

    Raises:
        GameOver: the round is over.
    """
    hands, _, leader, lead, _, _, legal = round_
    if not legal:
        raise GameOver("the round is over")
    if 1 <= count <= MAX_PLAY and position >= 1 and position << 4 | count << 2 | suit in legal:
        return ""
    hand = hands[leader if not lead else 1 - leader]
    index, _ = clump_at(hand, position)
    if index < 0:
        return f"position {position} is outside your hand of {counted(size_of(hand), 'card')}"
    clump = hand[index]
    if clump & 3 != suit:
        return f"card {position} of your hand is {SUIT_NAMES[clump & 3]}, not {SUIT_NAMES[suit]}"
    if not 1 <= count <= MAX_PLAY:
        return f"a play has 1 to {MAX_PLAY} cards, not {count}"
    if clump < TEARABLE and count != clump >> 2:
        return f"a clump of {clump >> 2} is played whole"
    if lead:
        led_count, led_suit = lead >> 2 & 3, lead & 3
        name = SUIT_NAMES[led_suit]
        led = f"{led_count} {name if led_count == 1 else name + 's'}"
        if any(move & 3 == led_suit for move in legal):
            return (
                f"you must follow {name} with a count other than {led_count} (the lead was {led})"
            )
        if suit == led_suit:
            return (
                f"you must play another suit: no {name} play of yours has a count other than "
                f"{led_count} (the lead was {led})"
            )
    return f"{count}{SUIT_LETTERS[suit]}@{position} is not a legal play here"


# H12: the deal and the match.


def deal(cards: Sequence[int]) -> tuple[tuple[Hand, Hand], tuple[int, ...]]:
    """H12: the 30 ``cards`` (suits) of a shuffled deck dealt: cards 1-14 to seat 0, 15-28 to
    seat 1, the last 2 face down. Returns (hands, face-down cards)."""
    return (
        (hand_of(cards[:HAND_SIZE]), hand_of(cards[HAND_SIZE : 2 * HAND_SIZE])),
        tuple(cards[2 * HAND_SIZE :]),
    )


def match_winner(round_wins: Sequence[int]) -> int:
    """H12: the seat with :data:`ROUNDS_TO_WIN` round wins, -1 while there is none. Each later
    round is led by the previous round's winner (:func:`round_winner`)."""
    for seat in range(SEATS):
        if round_wins[seat] >= ROUNDS_TO_WIN:
            return seat
    return -1


# H13: information. A seat sees its own hand (in order), the opponent's hand size, both seats'
# won counts, the trick in progress and the finished tricks, every move in its public form,
# ``move & 15`` (count and suit): where in a hand a move came from is hidden. The face-down
# cards and the opponent's hand are revealed once the round is over. The views and events that
# say so are built in :mod:`.views` from these values.
#
# H14 (abandoned games) is not a rule of play: the lobby ends a game that stays adjourned past
# the server's expiry (hipparchusd/lobby/housekeeping.py); nothing here is involved.


def public(move: Move) -> int:
    """H13: the public form of ``move``, ``count << 2 | suit`` (its position left out)."""
    return move & 15


# The engine's playouts.


def random_finish(round_: Round, rand: Callable[[], float]) -> int:
    """The winner of ``round_`` played on to its end with uniformly random legal moves
    (``rand()`` in [0, 1) draws each), by the rules above (H2-H11): what a playout needs, and
    the cheapest way to it.

    It works on lists of its own (``round_`` is unchanged), with a move taken as (clump index,
    count) and every option counted, not listed: a playout allocates almost nothing. Moves are
    drawn in the order of :func:`lead_moves` and :func:`follow_moves`.
    """
    (first, second), won_t, leader, lead, last_follower, _, legal = round_
    if not legal:
        return round_winner(won_t, last_follower)[0]
    hands = [list(first), list(second)]
    won = list(won_t)
    lead_count = lead >> 2 & 3
    lead_suit = lead & 3
    # The literal 16 is TEARABLE: a global lookup per card costs a tenth of the playout.
    while True:
        if not lead_count:
            hand = hands[leader]
            if max(hand) < 16:  # no clump to tear (the common case): one option per clump
                index = int(rand() * len(hand))
                c = hand[index]
                lead_count = c >> 2
            else:
                n = 0
                for c in hand:
                    n += 1 if c < 16 else 3
                r = int(rand() * n)
                for index, c in enumerate(hand):  # noqa: B007  (index is read after the break)
                    if c < 16:
                        if not r:
                            lead_count = c >> 2
                            break
                        r -= 1
                    elif r < 3:
                        lead_count = r + 1
                        break
                    else:
                        r -= 3
            lead_suit = c & 3
            # remove() on a list, inlined (H2, H3): a call per move is a tenth of the playout.
            if c >> 2 > lead_count:
                hand[index] = c - (lead_count << 2)
            else:
                del hand[index]
                if 0 < index < len(hand) and hand[index - 1] & 3 == hand[index] & 3:
                    hand[index - 1] += hand[index] & ~3
                    del hand[index]
        follower = 1 - leader
        hand = hands[follower]
        # H5: the lead suit's moves of another count: a whole clump of another count (a clump
        # other than the lead's own value, ``led``), or a torn clump's three counts less the
        # lead's.
        led = lead_count << 2 | lead_suit
        n = 0
        for c in hand:
            if c & 3 == lead_suit:
                if c >= 16:
                    n += 2
                elif c != led:
                    n += 1
        if n:
            r = int(rand() * n)
            for index, c in enumerate(hand):  # noqa: B007  (index is read after the break)
                if c & 3 == lead_suit:
                    if c >= 16:
                        if r < 2:
                            count = r + 1 if r + 1 < lead_count else r + 2
                            break
                        r -= 2
                    elif c != led:
                        if not r:
                            count = c >> 2
                            break
                        r -= 1
        else:
            for c in hand:
                if c & 3 != lead_suit:
                    n += 1 if c < 16 else 3
            if not n:  # H6: the lead is set aside, the round ends now
                return round_winner(won, last_follower)[0]
            r = int(rand() * n)
            for index, c in enumerate(hand):  # noqa: B007  (index is read after the break)
                if c & 3 != lead_suit:
                    if c < 16:
                        if not r:
                            count = c >> 2
                            break
                        r -= 1
                    elif r < 3:
                        count = r + 1
                        break
                    else:
                        r -= 3
        follow_suit = c & 3
        if c >> 2 > count:
            hand[index] = c - (count << 2)
        else:
            del hand[index]
            if 0 < index < len(hand) and hand[index - 1] & 3 == hand[index] & 3:
                hand[index - 1] += hand[index] & ~3
                del hand[index]
        # H7, H8.
        if lead_suit == follow_suit:
            winner = leader if lead_count > count else follower
        elif won[leader * 3 + lead_suit] < won[follower * 3 + follow_suit]:
            winner = leader
        else:
            winner = follower
        won[winner * 3 + lead_suit] += lead_count
        won[winner * 3 + follow_suit] += count
        last_follower = follower
        leader = winner
        lead_count = 0
        if not hands[0] or not hands[1]:  # H9
            return round_winner(won, last_follower)[0]
