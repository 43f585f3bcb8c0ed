"""The results file of a match: every game played and the figures, rewritten after each game,
so that a run stopped halfway resumes where it stopped (and refuses another match's file)."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path

import attrs

from .config import Config, GameResult, MatchError
from .scoring import summary
from .stats import Sprt

#: The version of the results file's layout.
RESULTS_VERSION = 1


def load_results(path: Path, config: Config) -> list[GameResult]:
    """The games a results file holds for this match (none when the file does not exist).

    Raises:
        MatchError: the file is unreadable or holds another match.
    """
    if not path.exists():
        return []
    try:
        data = json.loads(path.read_text())
        stored = Config(
            data["config"]["kind"],
            tuple(data["config"]["players"]),
            tuple(data["config"]["options"]),
            int(data["config"]["seed"]),
            int(data["config"]["seats"]),
        )
        games = [
            GameResult(
                g["deal"],
                g["rotation"],
                tuple(g["players"]),
                tuple(g["winners"]),
                tuple(g["scores"]),
                g.get("hands"),
                g["game"],
            )
            for g in data["games"]
        ]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise MatchError(f"{path}: not a results file of this program ({error})") from None
    if stored != config:
        raise MatchError(
            f"{path} holds another match ({stored}); give another --output to start this one"
        )
    return games


def save_results(
    path: Path, config: Config, results: Sequence[GameResult], sprt: Sprt | None
) -> None:
    """Write the results file (to a temporary file renamed over it: an interrupted write
    leaves the previous one)."""
    data = {
        "version": RESULTS_VERSION,
        "config": attrs.asdict(config),
        "games": [attrs.asdict(r) for r in sorted(results, key=lambda r: (r.deal, r.rotation))],
        "summary": summary(results, len(config.players), sprt),
    }
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(data, indent=1) + "\n")
    os.replace(temporary, path)
