"""High card as a kind the daemon serves: its ``new`` options, creation and restore."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hipparchusd.codec import InvalidState
from hipparchusd.games.base import BadOption, Event, GameKind, Option, integer_option
from hipparchusd.jsondata import JSON

from .codec import CODEC, HighCardRecord
from .game import MAX_ROUNDS, HighCardGame

OPTIONS = (
    Option("best_of", f"1..{MAX_ROUNDS}", "the number of rounds", "3"),
    Option("seed", "<integer>", "deal reproducibly from this seed"),
)


def create(options: Mapping[str, str]) -> HighCardGame:
    """A game from ``best_of=<1..9>`` and ``seed=<integer>``.

    Raises:
        BadOption: an unknown key, an empty or bad value.
    """
    HIGHCARD.check_options(options)
    best_of = integer_option(options, "best_of")
    if best_of is None:
        best_of = 3
    if not 1 <= best_of <= MAX_ROUNDS:
        raise BadOption(f"best_of must be 1 to {MAX_ROUNDS}, not {best_of}")
    return HighCardGame(best_of=best_of, seed=integer_option(options, "seed"))


def restore(options: Mapping[str, str], snapshot: JSON) -> HighCardGame:
    """The game a snapshot (the JSON data of a :class:`HighCardRecord`) records.

    Raises:
        ValueError: not a valid record, or one that does not replay.
    """
    try:
        record = CODEC.structure(snapshot, HighCardRecord)
    except InvalidState as error:
        raise ValueError(f"not a high card record: {error}") from None
    return HighCardGame.restore(record)


def new_deal(events: Sequence[Event]) -> bool:
    """Never: every card is dealt at the start (stored with the seat that starts the game)."""
    return False


#: The kind, for :func:`hipparchusd.games.registry.register` (or a Lobby's ``kinds``).
HIGHCARD = GameKind(
    name=HighCardGame.kind,
    summary="three players each pick a card at once; the highest card wins the round",
    seats="3",
    options=OPTIONS,
    create=create,
    restore=restore,
    new_deal=new_deal,
    codec=CODEC,
    engine=None,  # the engine does not play high card
)
