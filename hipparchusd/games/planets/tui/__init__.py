"""Planets at a terminal (``hipparchus-play``): :mod:`.screen` (the screen that
:data:`~hipparchusd.games.planets.kind.PLANETS` names as its ``tui``), :mod:`.follow` (the view
followed from events, and why each trick and hand went as it did) and :mod:`.look` (the cards).
Only the terminal client imports these modules; the daemon never does."""
