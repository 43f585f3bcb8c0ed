"""Words for messages people read: a count with its noun in the right number, a list of words.

Every error and log message that states a count of things goes through :func:`counted`, so that
no one reads "1 cards" or "the server holds 1 games" (issue 17, "Also").
"""

from __future__ import annotations

from collections.abc import Sequence


def counted(count: float, noun: str, plural: str | None = None) -> str:
    """``count`` and ``noun``, the noun singular for exactly 1 (and -1), plural otherwise.

    ``plural`` defaults to ``noun + "s"``; give it for an irregular noun (``"passes"``). Zero is
    plural in English ("0 cards"). A float count (days) is written with ``:g``: ``1.5 days``.

    >>> counted(1, "card"), counted(0, "card"), counted(3, "pass", "passes")
    ('1 card', '0 cards', '3 passes')
    """
    word = noun if abs(count) == 1 else (plural if plural is not None else noun + "s")
    return f"{count:g} {word}" if isinstance(count, float) else f"{count} {word}"


def listed(words: Sequence[str], last: str = "and") -> str:
    """``words`` as a sentence lists them, ``last`` before the last one.

    >>> listed(["a"]), listed(["a", "b"]), listed(["a", "b", "c"], "or")
    ('a', 'a and b', 'a, b or c')
    """
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"
