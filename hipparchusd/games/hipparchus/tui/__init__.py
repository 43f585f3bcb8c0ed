"""Hipparchus at a terminal (``hipparchus-play``): :mod:`.screen` (the screen that
:data:`~hipparchusd.games.hipparchus.kind.HIPPARCHUS` names as its ``tui``), :mod:`.follow`
(the view followed from events, and why each trick and round went as it did) and :mod:`.look`
(suits, clumps and their labels). Only the terminal client imports these modules; the daemon
never does."""
