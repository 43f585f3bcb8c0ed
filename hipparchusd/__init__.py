"""hipparchusd: a game engine daemon for the card game Hipparchus."""

__version__ = "0.1.0"
