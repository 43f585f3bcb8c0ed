"""``hipparchusd match``: play games between two or more players and measure them (issue 18).

A player is a built-in level of the daemon's engine (``random``, ``heuristic``, ``ismcts``,
``ismcts:200ms``, ``ismcts:5000``), seated with ``bot``, or an external program speaking the
protocol (``cmd:<command line>``, e.g. ``cmd:python clients/python/bot.py``), started once per
game with ``--host H --port P --game ID --name NAME`` appended (or with ``{host}``, ``{port}``,
``{game}`` and ``{name}`` in the command line replaced), as the example bots in clients/ take.

Duplicate deals: deal ``d`` is dealt from ``seed=<base + d>`` and played once per rotation, the
players moved round the seats (seat ``s`` plays player ``(s + r) mod P`` in rotation ``r``), so
that every player holds every hand and the luck of the cards cancels. Games run in parallel
(``--concurrency``), on a daemon started in this process or one given (``--connect``). The
results go to a JSON file after every game; run again with the same file and it resumes,
skipping the games it holds. A progress bar shows the games played, the score and the current
estimate.

The result, for two players: the first player's wins, losses and draws (a game is won by the
player holding a winning seat alone; shared or won by neither, a draw), its score, the Elo
difference with a 95% interval (from the pairs of each deal, :class:`~.stats.Pentanomial`,
when there are pairs; else per game), and with ``--sprt`` the log-likelihood ratio and the
decision, which stops the match (:class:`~.stats.Sprt`). For every player: its win rate,
and its points per game and per hand (lower is better in a game of penalty points).

The parts: :mod:`.config` (the players, the match's settings, each game's result),
:mod:`.runner` (playing the games on a daemon, :mod:`.daemon` one started in this process),
:mod:`.results` (the results file), :mod:`.scoring` (the figures and the report, from
:mod:`.stats`) and :mod:`.cli` (the command line).
"""

from .cli import main

__all__ = ["main"]
