"""A game kind's ``new`` options: their help (:class:`Option`), the refusal of a bad one
(:class:`BadOption`) and the reading of an integer one (:func:`integer_option`). Each game's
``kind.py`` declares its options with these; :mod:`.base` hands them on to the daemon."""

from __future__ import annotations

import re
from collections.abc import Mapping

import attrs


class BadOption(ValueError):
    """A ``new`` option that is unknown or has a bad value; the message names it (and cuts
    any echoed value short)."""


@attrs.frozen
class Option:
    """One ``new`` option of a game kind: ``key``, its ``values`` as shown in help
    (``0|1|random``, ``<integer>``), what it does, and its default in words."""

    key: str
    values: str
    summary: str
    default: str = ""

    @property
    def usage(self) -> str:
        """``key=values  summary (default: ...)``, one line of ``help new``."""
        default = f" (default {self.default})" if self.default else ""
        return f"{self.key}={self.values}  {self.summary}{default}"


_INTEGER = re.compile(r"-?[0-9]{1,19}")


def integer_option(options: Mapping[str, str], key: str) -> int | None:
    """The integer value of option ``key``, or ``None`` when it is not given.

    Raises:
        BadOption: not an integer of at most 19 digits (the message cuts the value short).
    """
    text = options.get(key)
    if text is None:
        return None
    if _INTEGER.fullmatch(text) is None:
        raise BadOption(f"{key} must be an integer of at most 19 digits, not {text[:20]!r}")
    return int(text)
