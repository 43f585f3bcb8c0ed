"""clients/python/bot.py knows no game: it reads ``legal`` in both of its forms (PROTOCOL.md,
"legal"), and it plays a game it has never heard of, with a simultaneous choice, from the
generic ``to-move`` and ``game-over`` events alone.

The game, "gifts" (tests/gifts/), lives only in the tests and is registered for the test: three
seats; first every seat at once gives two different numbers of 1-6, one to each other seat (a
``pick`` with targets); then seats 0, 1, 2 in turn take a bonus of 1, 2 or 3 (a list of move
words). A seat scores what it received plus its bonus; the highest score wins, ties share the
win.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import AsyncIterator, Iterator
from types import ModuleType

import pytest
import trio
from daemon.helpers import server_starter
from gifts import GIFTS, SEATS, GiftsGame
from harness import CLIENTS

from hipparchusd.games.base import (
    GameKind,
)
from hipparchusd.games.registry import register, unregister
from hipparchusd.server import Server


def load_bot() -> ModuleType:
    """clients/python/bot.py as a module (it imports ``hipparchus_client`` from its folder)."""
    folder = str(CLIENTS / "python")
    if folder not in sys.path:
        sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location("generic_bot", CLIENTS / "python" / "bot.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


bot = load_bot()


# The bot's reading of ``legal`` (PROTOCOL.md: the list form, and ``pick <n> <item>...
# [to=<seats>]`` whose move is n distinct items joined by ",").


def test_a_list_answer_is_its_move_words() -> None:
    assert bot.parse_legal(["1S@1", "2S@1", "1M@3"]) == ["1S@1", "2S@1", "1M@3"]
    assert bot.parse_legal([]) == []
    rng = random.Random(1)
    assert {bot.choose(["1S@1", "2S@1"], rng) for _ in range(50)} == {"1S@1", "2S@1"}


def test_a_pick_answer_gives_n_distinct_items_joined_by_commas() -> None:
    legal = bot.parse_legal(["pick", "3", "V1", "S2", "M5", "J1", "E9", "to=1,2,3"])
    assert legal == bot.Pick(3, ["V1", "S2", "M5", "J1", "E9"], ["1", "2", "3"])
    rng = random.Random(2)
    seen = set()
    for _ in range(200):
        move = bot.choose(legal, rng)
        chosen = move.split(",")
        assert len(chosen) == 3 and len(set(chosen)) == 3
        assert set(chosen) <= {"V1", "S2", "M5", "J1", "E9"}
        seen.add(frozenset(chosen))
    assert len(seen) == 10  # every 3 of the 5, at random


def test_a_pick_without_targets_and_malformed_picks() -> None:
    assert bot.parse_legal(["pick", "1", "keep", "shoot"]) == bot.Pick(1, ["keep", "shoot"], None)
    for bad in ("pick", "pick x a b", "pick 3 a b", "pick 2 a b c to=1"):
        with pytest.raises(bot.ProtocolViolation):
            bot.parse_legal(bad.split())


@pytest.fixture
def gifts_kind() -> Iterator[GameKind]:
    register(GIFTS)
    try:
        yield GIFTS
    finally:
        unregister(GIFTS.name)


@pytest.fixture
async def server(gifts_kind: GameKind, nursery: trio.Nursery) -> AsyncIterator[Server]:
    """An in-process daemon (memory store) that serves the gifts game too."""
    with server_starter(nursery, grace_period=0.5) as start:
        yield await start()


async def run_bot(server: Server, *args: str) -> str:
    """Run the bot against ``server`` with ``args``; its standard output (it must exit 0)."""
    command = [sys.executable, str(CLIENTS / "python" / "bot.py"), "--port"]
    command += [str(server.ports[0]), *args]
    done = await trio.run_process(command, capture_stdout=True, capture_stderr=True, check=False)
    assert done.returncode == 0, done.stderr.decode()
    output: str = done.stdout.decode()
    return output


async def test_three_bots_play_a_game_they_do_not_know(server: Server) -> None:
    outputs: list[str] = []

    async def play(*args: str) -> None:
        outputs.append(await run_bot(server, *args))

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(play, "--create", "--kind", "gifts", "-o", "rounds=1")
            while "g1" not in server.lobby.tables:
                await trio.sleep(0.02)
            for seed in ("2", "3"):
                nursery.start_soon(play, "--game", "g1", "--seed", seed)
    lines = [[line for line in out.splitlines() if line.startswith("winners=")] for out in outputs]
    assert all(len(found) == 1 for found in lines), outputs
    # Every bot saw the same end, and it is the one the game's rules give for what was played.
    (result,) = {found[0] for found in lines}
    game = server.lobby.tables["g1"].game
    assert isinstance(game, GiftsGame)
    record = game.record()
    assert len(record.gifts) == 6 and len(record.bonuses) == 3
    scores = [0, 0, 0]
    for giver, to, number in record.gifts:
        assert to != giver and 1 <= number <= 6
        scores[to] += number
    for seat, bonus in enumerate(record.bonuses):
        scores[seat] += bonus
    winners = [seat for seat in range(SEATS) if scores[seat] == max(scores)]
    expected = f"winners={','.join(map(str, winners))} scores={','.join(map(str, scores))}"
    assert result == f"{expected} resigned=-"
    seats = sorted(out.split("seat=")[1].split()[0] for out in outputs)
    assert seats == ["0", "1", "2"]
