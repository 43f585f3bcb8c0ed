"""Planets: the Universal Card Deck game for 3 to 6 players of seed 002 (docs/planets.md)."""

from .game import Move, PlanetsGame
from .model import CARDS, Card, Pass, PassKind, Shoot, cards_of, mask_of, pass_kind
from .notation import (
    NotationError,
    canonical_pass,
    format_card,
    format_cards,
    format_deal,
    format_hand,
    parse_card,
    parse_cards,
    parse_deal,
)
from .record import HandRecord, PlanetsRecord, replay
from .rules import (
    HandResult,
    HandSetup,
    HandState,
    IllegalPlay,
    Phase,
    PlanetsState,
    Tally,
    Trick,
    check_deal,
    cut_dealer,
)

__all__ = [
    "CARDS",
    "Card",
    "HandRecord",
    "HandResult",
    "HandSetup",
    "HandState",
    "IllegalPlay",
    "Move",
    "NotationError",
    "Pass",
    "PassKind",
    "Phase",
    "PlanetsGame",
    "PlanetsRecord",
    "PlanetsState",
    "Shoot",
    "Tally",
    "Trick",
    "canonical_pass",
    "cards_of",
    "check_deal",
    "cut_dealer",
    "format_card",
    "format_cards",
    "format_deal",
    "format_hand",
    "mask_of",
    "parse_card",
    "parse_cards",
    "parse_deal",
    "pass_kind",
    "replay",
]
