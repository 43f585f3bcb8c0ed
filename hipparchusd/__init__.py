"""hipparchusd: a game engine daemon for card games (the kinds it serves are in
:mod:`hipparchusd.games.registry`)."""

__version__ = "0.1.0"
