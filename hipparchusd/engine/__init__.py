"""The built-in engine (issue 18): pure and synchronous, no trio. The public interface is
:mod:`hipparchusd.engine.api` (levels, budgets, :func:`~hipparchusd.engine.api.analyze`); the
search is :mod:`hipparchusd.engine.ismcts`; each game's adapter lives in the game's folder and
is listed in :mod:`hipparchusd.engine.adapters`. See docs/engine.md."""
