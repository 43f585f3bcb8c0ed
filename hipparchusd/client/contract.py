"""The contract every game keeps on the wire (PROTOCOL.md, "legal"), for programs that know
no game's rules: a ``legal`` answer as a list of move words or a :class:`Pick`, a random legal
move, and the seat and score lists of ``to-move`` and ``game-over``."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from .errors import ProtocolViolation
from .messages import Response, split_list


@dataclass(frozen=True)
class Pick:
    """A ``legal`` answer that describes a choice instead of listing moves: the move is
    ``count`` distinct words of ``items`` joined by ``,`` (any such choice is legal; planets'
    pass). ``to``, when not ``None``, gives the seat the i-th chosen item goes to."""

    count: int
    items: tuple[str, ...]
    to: tuple[int, ...] | None = None

    def move(self, chosen: list[str] | tuple[str, ...]) -> str:
        """The move word for the ``chosen`` items (in the order they are meant for ``to``).

        Raises ``ValueError`` unless ``chosen`` holds exactly ``count`` distinct items of
        ``items``.
        """
        if len(chosen) != self.count or len(set(chosen)) != self.count:
            raise ValueError(f"choose {self.count} distinct items, not {list(chosen)!r}")
        unknown = [item for item in chosen if item not in self.items]
        if unknown:
            raise ValueError(f"not among the items: {unknown!r}")
        return ",".join(chosen)


#: What ``legal`` answers: the list of legal move words (empty when the seat need not move),
#: or a :class:`Pick`.
Legal = list[str] | Pick


def parse_legal(response: Response) -> Legal:
    """A ``legal`` answer, text or JSON, as a list of move words or a :class:`Pick`.

    Text: ``= 1S@1 1M@2 ...`` or ``= pick <n> <item> ... [to=<seat>,...]``. JSON:
    ``{"moves": [{"move": ...}, ...]}`` or ``{"pick": n, "of": [...], "to": [...] | null}``.
    Raises :class:`ProtocolViolation` for an answer that is neither.
    """
    if response.json is not None:
        obj = response.json
        try:
            if "pick" in obj:
                targets = obj.get("to")
                return Pick(
                    int(obj["pick"]),
                    tuple(str(item) for item in obj["of"]),
                    None if targets is None else tuple(int(seat) for seat in targets),
                )
            return [str(move["move"]) for move in obj["moves"]]
        except (KeyError, TypeError, ValueError) as exc:
            raise ProtocolViolation(f"bad legal answer {obj!r}: {exc}") from None
    words = response.words()
    if not words or words[0] != "pick":
        return words
    try:
        count = int(words[1])
        items = words[2:]
        to: tuple[int, ...] | None = None
        if items and items[-1].startswith("to="):
            to = tuple(int(seat) for seat in split_list(items.pop()[3:]))
        return Pick(count, tuple(items), to)
    except (IndexError, ValueError) as exc:
        raise ProtocolViolation(f"bad pick answer {response.lines!r}: {exc}") from None


def can_move(legal: Legal) -> bool:
    """True when ``legal`` offers a move (a non-empty list, or a pick with enough items)."""
    if isinstance(legal, Pick):
        return 0 < legal.count <= len(legal.items)
    return bool(legal)


def random_move(legal: Legal, rng: random.Random) -> str:
    """A uniformly random legal move word from ``legal`` (for a pick: ``count`` distinct items
    in random order). Raises ``ValueError`` when there is none (see :func:`can_move`)."""
    if not can_move(legal):
        raise ValueError("no legal move")
    if isinstance(legal, Pick):
        return legal.move(rng.sample(legal.items, legal.count))
    return rng.choice(legal)


def int_list(value: Any) -> list[int]:
    """A list of integers from an event field: a JSON list, or a text list (``0,2``; ``-`` is
    empty). Seats in ``to-move`` and ``game-over``, scores..."""
    if isinstance(value, list):
        return [int(x) for x in value]
    if value is None:
        return []
    return [int(x) for x in split_list(str(value))]
