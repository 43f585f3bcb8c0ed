"""The built-in engine (issue 18): pure and synchronous, no trio, and it knows no game.

- :mod:`~hipparchusd.engine.types`: the levels, budgets and analyses that the daemon's lobby and
  server speak in;
- :mod:`~hipparchusd.engine.position`: what a game implements (its adapter, positions,
  information sets and determinizations) and how its kind names its adapter;
- :mod:`~hipparchusd.engine.ismcts`: the search; :mod:`~hipparchusd.engine.analysis`: one seat's
  move at a level; :mod:`~hipparchusd.engine.worker`: the worker process that runs them.

Each game's adapter lives in the game's folder (``hipparchusd/games/<kind>/``), named by its
``GameKind.engine``. See docs/engine.md.
"""

#: The module the daemon runs as an engine worker process (``python -m``), named here so that
#: the daemon need not import the worker, which imports the search.
WORKER_MODULE = f"{__name__}.worker"
