"""Whether an opponent's hand agrees with the plays a seat saw it make this round (RULINGS
H1-H5), for the engine's Hipparchus determinizations (:mod:`.engine_information`).

Undoing the opponent's plays one by one, the played cards put back as part of a clump that could
give them (H2), every follow in another suit than the lead's must leave a hand with no lead-suit
play of another count (H5). A hand agrees when some such history leads back to a hand it could
have been dealt.
"""

from __future__ import annotations

#: An opponent's play as the seat saw it: (count, suit, lead count, lead suit); the last two
#: are 0 and -1 for a lead, else the lead the play followed.
Seen = tuple[int, int, int, int]


def _off_suit_allowed(cards: tuple[int, ...], suit: int, count: int) -> bool:
    """Whether a hand of these cards may follow a lead of ``count`` ``suit`` with another suit
    (RULINGS H5): every clump of ``suit`` in it must be exactly ``count`` cards (a clump of 1-3
    goes whole, one of 4 or more gives any count)."""
    run = 0
    for card in (*cards, -1):
        if card == suit:
            run += 1
        elif run:
            if run != count:
                return False
            run = 0
    return True


def predecessors(cards: tuple[int, ...], seen: Seen) -> list[tuple[int, ...]]:
    """Every hand (cards left to right) from which the opponent's play ``seen`` was legal and
    left ``cards`` (RULINGS H1-H5): the played cards put back as part of one clump that could
    give them (H2), and, for a follow in another suit, no lead-suit play of another count (H5).
    """
    count, suit, lead_count, lead_suit = seen
    found: list[tuple[int, ...]] = []
    size = len(cards)
    block = (suit,) * count
    for gap in range(size + 1):
        # Inserting into or next to a run of the suit gives one hand: insert at its start.
        if gap and cards[gap - 1] == suit:
            continue
        end = gap
        while end < size and cards[end] == suit:
            end += 1
        clump = count + end - gap
        if clump != count and clump < 4:  # H2: a clump of 1-3 cards is played whole
            continue
        before = cards[:gap] + block + cards[gap:]
        if (
            lead_suit >= 0
            and suit != lead_suit
            and not _off_suit_allowed(before, lead_suit, lead_count)
        ):
            continue
        found.append(before)
    return found


class _OutOfBudget(Exception):
    """A history search took more steps than :data:`HISTORY_BUDGET`."""


#: Predecessor steps one history search may take. A hand that fits is found in a few dozen
#: steps; proving that one does not can take thousands (every way to put the cards back), so
#: a search over budget counts as no fit: the sampler stays sound (it accepts only hands with
#: a witness) and a move's time bounded, at the cost of rarely passing over a hand that fits.
#: When no hand passes, the sampler searches again with ten times the budget.
HISTORY_BUDGET = 50
#: The budget beyond which a sampler that finds no hand judges the view impossible: more
#: steps than there are ways to put a round's plays back.
MAX_HISTORY_BUDGET = 50_000_000


class HistoryCheck:
    """Whether an opponent's current hand agrees with the plays the seat saw it make this
    round: some hand it could have been dealt leads, play by legal play, to it.

    Remembers the hands already decided, for the whole search.
    """

    def __init__(self, seen: tuple[Seen, ...], budget: int | None = None) -> None:
        self.seen = seen
        self.budget = HISTORY_BUDGET if budget is None else budget
        self._steps = 0
        self._failed: set[tuple[int, tuple[int, ...]]] = set()

    def history(self, cards: tuple[int, ...]) -> list[tuple[int, ...]] | None:
        """A witness: the hands before each seen play, the dealt hand first, then ``cards``;
        ``None`` when no history fits (or none was found within the budget)."""
        self._steps = 0
        try:
            path = self._back(cards, len(self.seen) - 1)
        except _OutOfBudget:
            return None
        return None if path is None else [*path, cards]

    def _back(self, cards: tuple[int, ...], depth: int) -> list[tuple[int, ...]] | None:
        if depth < 0:
            return []
        if (depth, cards) in self._failed:
            return None
        self._steps += 1
        if self._steps > self.budget:
            raise _OutOfBudget
        for before in predecessors(cards, self.seen[depth]):
            path = self._back(before, depth - 1)
            if path is not None:
                path.append(before)
                return path
        # Only a search that ran to its end proves there is no history: an exception out of
        # the loop above leaves this hand undecided.
        self._failed.add((depth, cards))
        return None
