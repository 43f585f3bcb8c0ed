"""High card, a game kind that lives only under ``tests/``: the proof that a game is one folder
(issue 13, item 8). It is built on :mod:`hipparchusd.games.base` and :mod:`hipparchusd.codec`
alone, and served once registered with :func:`hipparchusd.games.registry.register`; nothing in
``hipparchusd/`` knows it. Rules: :mod:`.game`; wire values: :mod:`.codec`; the kind:
:mod:`.kind`."""
