"""Bots of every language play a game none of them has heard of (issue 17: "plays any game the
daemon serves ... by the generic contract alone").

The game is "gifts" (tests/gifts/), which lives only in the tests and is registered
for the test: three seats first give each other two different numbers at once (a ``pick`` with
targets, like planets' pass), then take a bonus in turn (a list of move words). No bot has a
line of code for it; each must finish the game and print the outcome that the game's own rules
give for what was played.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import trio
from daemon.helpers import server_starter
from gifts import GIFTS, SEATS, GiftsGame
from languages import Bots

from hipparchusd.games.base import GameKind
from hipparchusd.games.registry import register, unregister
from hipparchusd.server import Server


@pytest.fixture
def gifts() -> Iterator[GameKind]:
    """The gifts game served for the test's duration."""
    register(GIFTS)
    try:
        yield GIFTS
    finally:
        unregister(GIFTS.name)


@pytest.fixture
async def gifts_server(gifts: GameKind, nursery: trio.Nursery) -> AsyncIterator[Server]:
    """An in-process daemon (memory store) that serves gifts too: a daemon in a subprocess
    would not see a kind registered here."""
    with server_starter(nursery, grace_period=0.5) as start:
        yield await start()


TABLES = [("python", "javascript", "shell"), ("c", "rust", "java")]


@pytest.mark.parametrize("languages", TABLES, ids=["-".join(t) for t in TABLES])
async def test_bots_of_three_languages_play_gifts(
    gifts_server: Server, bots: Bots, languages: tuple[str, str, str]
) -> None:
    commands = [bots.command(language) for language in languages]  # built before the game
    port = str(gifts_server.ports[0])
    outputs: dict[int, str] = {}

    async def play(place: int, *args: str) -> None:
        command = [*commands[place], "--port", port, "--name", f"b{place}", *args]
        done = await trio.run_process(
            command, capture_stdout=True, capture_stderr=True, check=False
        )
        assert done.returncode == 0, (command, done.stderr.decode())
        outputs[place] = done.stdout.decode()

    game_id: str | None = None
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            before = set(gifts_server.lobby.tables)
            # gifts has no seed option: the creator gets no --seed (it would add seed=N).
            nursery.start_soon(play, 0, "--create", "--kind", "gifts", "--option", "rounds=1")
            while game_id is None:
                await trio.sleep(0.02)
                new = set(gifts_server.lobby.tables) - before
                game_id = next(iter(new), None)
            for place in (1, 2):
                nursery.start_soon(play, place, "--game", game_id, "--seed", str(place))

    game = gifts_server.lobby.tables[game_id].game
    assert isinstance(game, GiftsGame)
    record = game.record()
    assert len(record.gifts) == 6 and len(record.bonuses) == 3 and record.resigned is None
    scores = [0] * SEATS
    for giver, to, number in record.gifts:
        assert to != giver and 1 <= number <= 6
        scores[to] += number
    for seat, bonus in enumerate(record.bonuses):
        assert 1 <= bonus <= 3
        scores[seat] += bonus
    winners = [seat for seat in range(SEATS) if scores[seat] == max(scores)]
    expected = f"winners={','.join(map(str, winners))} scores={','.join(map(str, scores))}"
    seats = set()
    for place, out in outputs.items():
        lines = [line for line in out.splitlines() if line.startswith("winners=")]
        assert lines == [f"{expected} resigned=-"], (languages[place], out)
        seated = [line for line in out.splitlines() if line.startswith("game=")]
        assert len(seated) == 1 and seated[0].startswith(f"game={game_id} seat="), out
        seats.add(int(seated[0].split("seat=")[1]))
    assert seats == {0, 1, 2}
