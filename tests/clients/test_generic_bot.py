"""clients/python/bot.py knows no game: it reads ``legal`` in both of its forms (PROTOCOL.md,
"legal"), and it plays a game it has never heard of, with a simultaneous choice, from the
generic ``to-move`` and ``game-over`` events alone.

The game, "gifts", lives only in this file and is registered for the test: three seats; first
every seat at once gives two different numbers of 1-6, one to each other seat (a ``pick`` with
targets); then seats 0, 1, 2 in turn take a bonus of 1, 2 or 3 (a list of move words). A seat
scores what it received plus its bonus; the highest score wins, ties share the win.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from types import ModuleType
from typing import ClassVar

import attrs
import pytest
import trio
from daemon.helpers import server_starter
from harness import CLIENTS

from hipparchusd.codec import Codec, make_converter
from hipparchusd.games.base import (
    EVERYONE,
    Event,
    Game,
    GameFinished,
    GameKind,
    IllegalMove,
    NotYourTurn,
    Option,
    Outcome,
    Pick,
)
from hipparchusd.games.registry import register, unregister
from hipparchusd.jsondata import JSON
from hipparchusd.server import Server

SEATS = 3
NUMBERS = tuple(str(n) for n in range(1, 7))
BONUSES = ("b1", "b2", "b3")


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


# The game the bot has never heard of.


@attrs.frozen
class Gave:
    """``seat`` has made its gifts (public: not what it gave)."""

    kind: ClassVar[str] = "gave"
    seat: int


@attrs.frozen
class Received:
    """What ``seat`` received: private to it until the end."""

    kind: ClassVar[str] = "received"
    seat: int
    numbers: tuple[int, ...]


@attrs.frozen
class Bonus:
    """``seat`` took ``bonus``."""

    kind: ClassVar[str] = "bonus"
    seat: int
    bonus: int


@attrs.frozen
class GiftsView:
    """What a seat sees: who has given, its own received numbers, the bonuses taken."""

    seat: int | None
    given: tuple[bool, ...]
    received: tuple[int, ...] | None
    bonuses: tuple[int | None, ...]


@attrs.frozen
class GiftsRecord:
    """Every gift (giver, receiver, number) and bonus, in order; the resigned seat."""

    gifts: tuple[tuple[int, int, int], ...]
    bonuses: tuple[int, ...]
    resigned: int | None


GIFTS_CODEC = Codec(make_converter(), payloads=(Gave, Received, Bonus), record_kind="gifts-record")

Move = tuple[tuple[int, int], ...] | int  # gifts (number, to seat), or a bonus


class GiftsGame(Game[Move, GiftsView, GiftsRecord]):
    """The game of this file's docstring."""

    kind: ClassVar[str] = "gifts"
    codec: ClassVar[Codec] = GIFTS_CODEC

    def __init__(self) -> None:
        self.gifts: dict[int, tuple[tuple[int, int], ...]] = {}
        self.bonuses: list[int] = []
        self.resigned: int | None = None

    @property
    def seat_count(self) -> int:
        return SEATS

    @property
    def fixed_deal(self) -> bool:
        return False

    def scores(self) -> tuple[int, ...]:
        got = [0] * SEATS
        for gifts in self.gifts.values():
            for number, to in gifts:
                got[to] += number
        for seat, bonus in enumerate(self.bonuses):
            got[seat] += bonus
        return tuple(got)

    @property
    def outcome(self) -> Outcome | None:
        scores = self.scores()
        if self.resigned is not None:
            # The resigning seat is ranked last; the best of the others win.
            best = max(s for seat, s in enumerate(scores) if seat != self.resigned)
            winners = tuple(
                seat for seat in range(SEATS) if seat != self.resigned and scores[seat] == best
            )
            return Outcome(winners, scores, self.resigned)
        if len(self.bonuses) < SEATS:
            return None
        return Outcome(tuple(s for s in range(SEATS) if scores[s] == max(scores)), scores)

    def start(self) -> list[Event]:
        return []

    def seats_to_move(self) -> frozenset[int]:
        if self.outcome is not None:
            return frozenset()
        if len(self.gifts) < SEATS:
            return frozenset(range(SEATS)) - frozenset(self.gifts)
        return frozenset((len(self.bonuses),))

    def others(self, seat: int) -> tuple[int, ...]:
        return tuple(s for s in range(SEATS) if s != seat)

    def legal_moves(self, seat: int) -> Sequence[Move] | Pick:
        if seat not in self.seats_to_move():
            return ()
        if len(self.gifts) < SEATS:
            return Pick(2, NUMBERS, self.others(seat))
        return (1, 2, 3)

    def parse_move(self, seat: int, word: str) -> Move:
        if len(self.gifts) < SEATS:
            numbers = word.split(",")
            if len(numbers) != 2 or len(set(numbers)) != 2 or not set(numbers) <= set(NUMBERS):
                raise IllegalMove(f"give two different numbers of 1-6, not {word[:20]!r}")
            return tuple(zip(map(int, numbers), self.others(seat), strict=True))
        if word not in BONUSES:
            raise IllegalMove(f"take a bonus of b1, b2 or b3, not {word[:20]!r}")
        return int(word[1])

    def format_move(self, move: Move) -> str:
        if isinstance(move, int):
            return f"b{move}"
        return ",".join(str(number) for number, _ in move)

    def describe_move(self, seat: int, move: Move) -> dict[str, JSON]:
        return {"move": self.format_move(move)}

    def play(self, seat: int, move: Move) -> list[Event]:
        if self.outcome is not None:
            raise GameFinished("the game is over")
        if seat not in self.seats_to_move():
            raise NotYourTurn("it is not your turn")
        if isinstance(move, int):
            self.bonuses.append(move)
            return [Event(EVERYONE, Bonus(seat, move))]
        self.gifts[seat] = move
        events = [Event(EVERYONE, Gave(seat))]
        if len(self.gifts) == SEATS:
            for to in range(SEATS):
                got = tuple(n for gifts in self.gifts.values() for n, t in gifts if t == to)
                events.append(Event(to, Received(to, got)))
        return events

    def resign(self, seat: int) -> list[Event]:
        if self.outcome is not None:
            raise GameFinished("the game is over")
        self.resigned = seat
        return []

    def view(self, seat: int | None) -> GiftsView:
        done = len(self.gifts) == SEATS
        received = None
        if seat is not None and done:
            received = tuple(n for gifts in self.gifts.values() for n, t in gifts if t == seat)
        bonuses = tuple(self.bonuses[s] if s < len(self.bonuses) else None for s in range(SEATS))
        given = tuple(s in self.gifts for s in range(SEATS))
        return GiftsView(seat, given, received, bonuses)

    def record(self) -> GiftsRecord:
        gifts = tuple(
            (giver, to, number)
            for giver, moves in sorted(self.gifts.items())
            for number, to in moves
        )
        return GiftsRecord(gifts, tuple(self.bonuses), self.resigned)

    def fork(self) -> GiftsGame:
        copy = GiftsGame()
        copy.gifts = dict(self.gifts)
        copy.bonuses = list(self.bonuses)
        copy.resigned = self.resigned
        return copy


def _create(options: Mapping[str, str]) -> GiftsGame:
    GIFTS.check_options(options)
    return GiftsGame()


def _restore(options: Mapping[str, str], snapshot: JSON) -> GiftsGame:
    raise ValueError("the gifts game is never restored: its test keeps games in memory")


def _new_deal(events: Sequence[Event]) -> bool:
    return False


GIFTS = GameKind(
    name="gifts",
    summary="three seats give each other numbers at once, then take a bonus in turn",
    seats="3",
    options=(Option("rounds", "1", "how many rounds (only 1)", "1"),),
    create=_create,
    restore=_restore,
    new_deal=_new_deal,
    codec=GIFTS_CODEC,
)


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
