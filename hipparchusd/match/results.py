"""The results file of a match: every game played and the figures, rewritten after each game,
so that a run stopped halfway resumes where it stopped (and refuses another match's file)."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path

import attrs

from ..wording import listed
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
            str(data["config"].get("tc", "")),
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
                g.get("flagged"),
                tuple(g.get("timeouts", ())),
            )
            for g in data["games"]
        ]
    except OSError as error:
        raise MatchError(f"{path} cannot be read: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise MatchError(
            f"{path} is not a results file of this program: it is not JSON "
            f"({error.msg}, line {error.lineno})"
        ) from None
    except KeyError as error:
        raise MatchError(
            f"{path} is not a results file of this program: it has no {error.args[0]!r} field"
        ) from None
    except (ValueError, TypeError):
        raise MatchError(
            f"{path} is not a results file of this program: its fields are not a match's"
        ) from None
    if stored != config:
        raise MatchError(
            f"{path} holds another match ({'; '.join(differences(stored, config))}): "
            "give another --output to start this one"
        )
    return games


def differences(stored: Config, config: Config) -> list[str]:
    """How the match a results file holds (``stored``) differs from this one (``config``), in
    words: ``its players are heuristic and random, not random and heuristic``."""
    found = []
    if stored.kind != config.kind:
        found.append(f"its game is {stored.kind}, not {config.kind}")
    if stored.players != config.players:
        found.append(f"its players are {listed(stored.players)}, not {listed(config.players)}")
    if stored.options != config.options:
        were, are = (listed(c.options) or "none" for c in (stored, config))
        found.append(f"its options are {were}, not {are}")
    if stored.seed != config.seed:
        found.append(f"its seed is {stored.seed}, not {config.seed}")
    if stored.seats != config.seats:
        found.append(f"it has {stored.seats} seats, not {config.seats}")
    return found


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
