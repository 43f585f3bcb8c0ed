"""Hipparchus: the two-player trick-taking game of Sun, Moon and Earth (seeds 000, 001)."""

from .game import HipparchusGame
from .model import Clump, Deal, Hand, Play, PlayedCards, PublicTrick, Suit, Trick
from .notation import (
    NotationError,
    format_deal,
    format_position,
    format_round_position,
    parse_deal,
    parse_position,
    parse_round_position,
)
from .record import MatchRecord, RoundRecord, replay
from .rules import GameOver, IllegalPlay, MatchState, RoundResult, RoundState
from .validation import InvalidState

__all__ = [
    "Clump",
    "Deal",
    "GameOver",
    "Hand",
    "HipparchusGame",
    "IllegalPlay",
    "InvalidState",
    "MatchRecord",
    "MatchState",
    "NotationError",
    "Play",
    "PlayedCards",
    "PublicTrick",
    "RoundRecord",
    "RoundResult",
    "RoundState",
    "Suit",
    "Trick",
    "format_deal",
    "format_position",
    "format_round_position",
    "parse_deal",
    "parse_position",
    "parse_round_position",
    "replay",
]
