"""Hipparchus: the two-player trick-taking game of Sun, Moon and Earth (seeds 000, 001)."""

from .game import HipparchusGame, MatchRecord, RoundRecord, replay
from .model import Clump, Deal, Hand, Play, Suit, Trick
from .rules import GameOver, IllegalPlay, MatchState, RoundResult, RoundState

__all__ = [
    "Clump",
    "Deal",
    "GameOver",
    "Hand",
    "HipparchusGame",
    "IllegalPlay",
    "MatchRecord",
    "MatchState",
    "Play",
    "RoundRecord",
    "RoundResult",
    "RoundState",
    "Suit",
    "Trick",
    "replay",
]
