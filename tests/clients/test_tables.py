"""Bots of different languages at one table (issue 17, "Bots in six languages play any game").

Every example bot (clients/<language>/) knows no game: it plays by ``to-move``, ``legal`` (a
list of moves, or a ``pick`` of n items), ``play`` and ``game-over`` alone. Here they sit
together: Hipparchus matches between two languages, and planets at 3, 4, 5 and 6 seats with
every language at every table size. Each game is seeded and played once; every bot must print
the outcome that the server's ``record``, replayed through the game's rules, gives.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from harness import Endpoint, TableResult, play_table
from languages import LANGUAGES, Bots


def check_table(result: TableResult, seats: int) -> None:
    """Every bot finished cleanly in the same game, one per seat, and printed the outcome the
    replayed record gives; nobody resigned."""
    info = result.describe()
    assert len(result.runs) == seats, info
    for run in result.runs:
        assert run.returncode == 0, info
        assert run.game_id == result.game_id, info
        assert run.outcome == result.replayed, info
    assert sorted(run.seat for run in result.runs if run.seat is not None) == list(range(seats))
    assert result.replayed.resigned is None, info
    assert len(result.replayed.scores) == seats, info


def planets_winners(scores: Sequence[int]) -> tuple[int, ...]:
    """The seats with the lowest total (RULINGS P9: the game ends once a total passes 100)."""
    return tuple(seat for seat, score in enumerate(scores) if score == min(scores))


# Two tables of each size from 3 to 5 seat every language at that size; six seats take all six.
PLANETS_TABLES: list[tuple[tuple[str, ...], tuple[str, ...]]] = [
    (("python", "javascript", "shell"), ()),
    (("c", "rust", "java"), ("dealer=1",)),
    (("python", "javascript", "shell", "c"), ()),
    (("rust", "java", "python", "javascript"), ()),
    (("python", "javascript", "shell", "c", "rust"), ("exact100=reset",)),
    (("java", "rust", "c", "shell", "javascript"), ()),
    (LANGUAGES, ("galaxies=all",)),
]


@pytest.mark.parametrize(
    ("languages", "options"),
    PLANETS_TABLES,
    ids=[f"{len(langs)}-{'-'.join(langs)}" for langs, _ in PLANETS_TABLES],
)
def test_planets_table(
    daemon: Endpoint, bots: Bots, languages: tuple[str, ...], options: tuple[str, ...]
) -> None:
    seats = len(languages)
    commands = [bots.command(language) for language in languages]
    result = play_table(
        daemon,
        commands,
        kind="planets",
        options=(f"players={seats}", *options),
        seed=300 + seats,
    )
    check_table(result, seats)
    replayed = result.replayed
    assert max(replayed.scores) > 100, result.describe()
    assert replayed.winners == planets_winners(replayed.scores), result.describe()
    assert result.record["options"]["players"] == str(seats)
    for option in options:
        key, _, value = option.partition("=")
        assert result.record["options"][key] == value, result.record["options"]


# Each language creates a Hipparchus match that the next one joins, around the ring.
HIPPARCHUS_PAIRS = [
    (LANGUAGES[i], LANGUAGES[(i + 1) % len(LANGUAGES)]) for i in range(len(LANGUAGES))
]


@pytest.mark.parametrize(
    ("creator", "joiner"), HIPPARCHUS_PAIRS, ids=[f"{a}-{b}" for a, b in HIPPARCHUS_PAIRS]
)
def test_hipparchus_match(daemon: Endpoint, bots: Bots, creator: str, joiner: str) -> None:
    result = play_table(
        daemon, [bots.command(creator), bots.command(joiner)], kind="hipparchus", seed=41
    )
    check_table(result, 2)
    replayed = result.replayed
    # First to two round wins (RULINGS H12), and the winner is the seat that has them.
    assert len(replayed.winners) == 1 and replayed.scores[replayed.winners[0]] == 2, replayed
    assert max(replayed.scores) == 2 and sum(replayed.scores) in (2, 3), replayed
