"""The Python bot (clients/python/bot.py) plays planets by the generic contract alone
(``to-move``, ``legal`` as a list or a ``pick``, ``play``, ``game-over``): three to six bot
processes play a whole game against a live daemon while a spectator watches; every bot prints
the result the spectator saw, and the server's record replayed through the rules gives it."""

from __future__ import annotations

import re
import subprocess
import threading
from typing import Any

import pytest
from harness import REPO, Endpoint, python_bot

from hipparchusd.client import Client, int_list
from hipparchusd.games.planets.codec import converter
from hipparchusd.games.planets.record import PlanetsRecord, replay

_SEATED = re.compile(r"^game=(\S+) seat=(\d+)$", re.MULTILINE)
_RESULT = re.compile(r"^winners=([0-9,]+) scores=(-?[0-9,-]+) resigned=-$", re.MULTILINE)


def _start(args: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*python_bot(), *args],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _watch(daemon: Endpoint, game: str, seen: dict[str, Any]) -> None:
    """A JSON spectator: every event of ``game`` until ``game-over``."""
    with Client.connect(daemon.host, daemon.port, json=True, timeout=60) as client:
        client.request("watch", game)
        seen["kinds"] = []
        for event in client.events():
            if event.game != game:
                continue
            seen["kinds"].append(event.kind)
            if event.kind == "game-over":
                seen["over"] = event.data
                return


@pytest.mark.parametrize(
    ("players", "options"),
    [(3, []), (4, []), (5, ["exact100=reset"]), (6, ["galaxies=all"])],
    ids=["3", "4", "5", "6-galaxies"],
)
def test_python_bots_play_a_planets_game_to_its_end(
    daemon: Endpoint, players: int, options: list[str]
) -> None:
    base = ["--host", daemon.host, "--port", str(daemon.port)]
    create = [
        *base,
        "--create",
        "--kind",
        "planets",
        "--option",
        f"players={players}",
        *[arg for option in options for arg in ("--option", option)],
        "--seed",
        str(players),
        "--name",
        "bot0",
    ]
    first = _start(create)
    assert first.stdout is not None
    first_line = first.stdout.readline()
    seated = _SEATED.match(first_line.strip())
    assert seated is not None, first.communicate(timeout=10)
    game = seated.group(1)
    seen: dict[str, Any] = {}
    watcher = threading.Thread(target=_watch, args=(daemon, game, seen))
    watcher.start()
    others = [
        _start(
            [
                *base,
                "--game",
                game,
                "--seed",
                str(100 + n),
                "--name",
                f"bot{n}",
            ]
        )
        for n in range(1, players)
    ]
    outputs = []
    for bot in (first, *others):
        out, err = bot.communicate(timeout=120)
        assert bot.returncode == 0, (out, err)
        outputs.append(first_line + out if bot is first else out)
    watcher.join(30)
    assert "over" in seen, seen
    winners, scores = int_list(seen["over"]["winners"]), int_list(seen["over"]["scores"])
    assert max(scores) > 100 and winners == [s for s in range(players) if scores[s] == min(scores)]
    assert seen["kinds"].count("hand-started") >= 2 and "received" not in seen["kinds"]
    expected = (
        f"winners={','.join(map(str, winners))} scores={','.join(map(str, scores))} resigned=-"
    )
    seats = set()
    for out in outputs:
        (line,) = [m.group(0) for m in _RESULT.finditer(out)]
        assert line == expected, (line, expected)
        match = _SEATED.search(out)
        assert match is not None and match.group(1) == game
        seats.add(int(match.group(2)))
    assert seats == set(range(players))
    with Client.connect(daemon.host, daemon.port, json=True) as client:
        record = client.request_json("record", game)
    assert record["options"]["players"] == str(players)
    final = replay(converter.structure(record["record"], PlanetsRecord))
    assert list(final.totals) == scores and list(final.winners or ()) == winners
