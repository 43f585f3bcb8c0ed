"""Which seat deals and which pass each hand of a planets game uses (RULINGS P3, P4, P15;
docs/planets.md): the cut for the first dealer, the deal's rotation, and the pass cycle by seat
count, apart from the rules of one hand (:mod:`.core`, whose :func:`.core.pass_cards` takes a
pass's offsets as this module gives them). Seats are 0 to n-1, clockwise; cards are the core's
ints, ``10 * suit + rank``."""

from __future__ import annotations

from collections.abc import Sequence

# P3: the first dealer and the deal's rotation.


def cut_dealer(draws: Sequence[int]) -> int:
    """P3: the seat that deals first, given the card each seat drew: the highest suit (Earth >
    Jupiter > Mars > Neptune > Saturn > Venus), then the highest rank. The deal then rotates
    left each hand (:func:`next_dealer`); play goes clockwise.

    Raises:
        ValueError: no draws, or a card drawn twice.
    """
    if not draws or len(set(draws)) != len(draws):
        raise ValueError("the cut needs one different card per seat")
    # Earth is suit 0 and the highest: compare (-suit, rank).
    return max(range(len(draws)), key=lambda seat: (-(draws[seat] // 10), draws[seat] % 10))


def next_dealer(dealer: int, players: int) -> int:
    """P3: the dealer of the next hand, the seat on the left of ``dealer``."""
    return (dealer + 1) % players


# P4, P15: the pass. Each kind of pass is its name and, for each chosen card in order, the
# seat offset (clockwise, mod n) it goes to: left +1, right -1, across +n/2. In a split pass
# the first cards go left, then across (four players), then right.

Pass = tuple[str, tuple[int, ...]]

#: The pass cycle by seat count: hand ``h`` (1-based) uses ``PASS_CYCLES[n][(h - 1) % len]``,
#: whoever deals (P15: hand 1 uses the first pass of the cycle).
PASS_CYCLES: dict[int, tuple[Pass, ...]] = {
    3: (("left", (1,) * 4), ("right", (-1,) * 4), ("split", (1, 1, -1, -1))),
    4: (
        ("left", (1,) * 3),
        ("right", (-1,) * 3),
        ("across", (2,) * 3),
        ("split", (1, 2, -1)),
    ),
    5: (
        ("left", (1,) * 2),
        ("right", (-1,) * 2),
        ("left2", (2,) * 2),
        ("right2", (-2,) * 2),
        ("none", ()),
    ),
    6: (
        ("left", (1,) * 2),
        ("left2", (2,) * 2),
        ("across", (3,) * 2),
        ("right2", (-2,) * 2),
        ("right", (-1,) * 2),
        ("none", ()),
    ),
}


def pass_of(players: int, number: int) -> Pass:
    """P4, P15: the pass of hand ``number`` (1-based) for ``players`` seats."""
    cycle = PASS_CYCLES[players]
    return cycle[(number - 1) % len(cycle)]
