"""``hipparchus-play``: a full-screen terminal client (Textual) for every game the daemon
serves, over the protocol only (PROTOCOL.md).

:mod:`.connection` reads the protocol on asyncio; :mod:`.follow` keeps a view up to date from
events and explains tricks and rounds (pure functions); :mod:`.seats` keeps seat tokens for
resuming; :mod:`.widgets`, :mod:`.game_screen` (what every game's screen shares),
:mod:`.hipparchus_screen`, :mod:`.planets_screen` and :mod:`.lobby` are the screens;
:mod:`.app` is the command line and the application.
"""
