"""``hipparchus-play``: a full-screen terminal client (Textual) for every game the daemon
serves, over the protocol only (PROTOCOL.md). This package holds what every game uses; each
game's own screen lives in its folder (``games/<kind>/tui/``), named by its kind's ``tui``.

:mod:`.connection` reads the protocol on asyncio; :mod:`.seats` keeps seat tokens for
resuming; :mod:`.phrases` holds the words every game's explanations share; :mod:`.widgets`,
:mod:`.table` (the seats around the trick), :mod:`.seat_actions` (rules, a computer opponent,
resigning, leaving), :mod:`.game_screen` (what every game's screen shares),
:mod:`.generic_screen` (any game, by the generic contract alone) and :mod:`.lobby` are the
screens; :mod:`.opponents` seats the daemon's engine at the levels the daemon offers;
:mod:`.kinds` finds a kind's screen and rules text; :mod:`.app` is the command line and the
application.
"""
