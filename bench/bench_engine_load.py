"""Trial: can one client deny the engine to everyone else? (issue 24 items 5-7)

Runs ``hipparchusd`` subprocesses (``--state-dir none``, the default limits, one worker per
pool unless ``--workers``) and prints, per trial:

1. inline: what a ``random`` and a ``heuristic`` move cost in the daemon's own process
   (microseconds per move, the fastest and the median of ``--repeat`` runs, for a first lead
   and a later position of each game): the levels the daemon plays without a worker.
2. cold: seconds from starting the process to its greeting, then the first ``genmove`` of
   100 ms and a second one (warm), each from request to answer.
3. analyze flood: the latency of a table's bot moves (``ismcts``, 100 ms a move; from the
   human's ``play`` to the bot's ``played``, over ``--moves`` moves) from 127.0.0.2, first on a
   quiet daemon, then while 16 connections from 127.0.0.1 each stream an ``analyze`` at the
   longest budget (10 s), asking again as each ends; how many of those were accepted.
4. game flood: the same latency while one connection from 127.0.0.1 starts as many six-seat
   planets games of bots at the longest budget as it may (``--games``, default 300): how many
   it got, in how long.

    .venv/bin/python bench/bench_engine_load.py [--moves 10] [--games 300] [--trials all]

Run it with another checkout's interpreter (its ``.venv/bin/python``) to measure that one: the
daemon is the ``hipparchusd`` that interpreter imports (the inline trial needs this one's).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import TYPE_CHECKING

import trio
from daemons import daemon

if TYPE_CHECKING:
    from hipparchusd.games.base import ServedGame

MAX_BUDGET = "10000ms"


class Line:
    """A minimal line client over a trio socket, keeping the events it reads."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.buffer = bytearray()
        self.events: list[str] = []

    @classmethod
    async def open(cls, port: int, source: str = "127.0.0.1") -> Line:
        sock = trio.socket.socket(trio.socket.AF_INET, trio.socket.SOCK_STREAM)
        await sock.bind((source, 0))
        await sock.connect(("127.0.0.1", port))
        client = cls(trio.SocketStream(sock))
        assert (await client.line()).startswith("* server hello")
        return client

    async def line(self) -> str:
        while b"\n" not in self.buffer:
            data = await self.stream.receive_some(65536)
            if not data:
                raise EOFError
            self.buffer += data
        end = self.buffer.index(b"\n")
        text = self.buffer[:end].decode()
        del self.buffer[: end + 1]
        return text

    async def request(self, text: str) -> list[str]:
        """The lines of the response to ``text`` (events before it kept)."""
        await self.stream.send_all(text.encode() + b"\n")
        while True:
            first = await self.line()
            if first.startswith(("=", "?")):
                break
            self.events.append(first)
        lines = [first]
        while (more := await self.line()) != "":
            lines.append(more)
        return lines

    async def event(self, *words: str) -> str:
        """The next event holding every one of ``words`` (kept ones first)."""
        return await self.event_of(words)

    async def event_of(self, *choices: tuple[str, ...]) -> str:
        """The next event holding every word of one of ``choices`` (kept ones first)."""
        while True:
            line = self.events.pop(0) if self.events else await self.line()
            if any(all(word in line.split() for word in words) for words in choices):
                return line


def field(lines: list[str], key: str) -> str:
    """The value of ``key=`` in the words of ``lines``.

    Raises:
        KeyError: no word gives ``key``.
    """
    for word in " ".join(lines).split():
        if word.startswith(key + "="):
            return word.split("=", 1)[1]
    raise KeyError(key)


async def bot_latency(port: int, moves: int) -> list[float]:
    """Seconds from a person's ``play`` to the ``played`` of the bot that answers it, at a
    Hipparchus table of 127.0.0.2 against ``ismcts`` (100 ms a move)."""
    client = await Line.open(port, "127.0.0.2")
    game = field(await client.request("new hipparchus leader=0"), "game")
    await client.request(f"join {game} 0")
    await client.request(f"bot {game} level=ismcts")
    await client.event("to-move", "seats=0")
    took: list[float] = []
    while len(took) < moves:
        legal = (await client.request(f"legal {game}"))[0].lstrip("= ").split()
        if not legal:
            break
        start = time.perf_counter()
        answer = await client.request(f"play {game} {legal[0]}")
        if not answer[0].startswith("="):
            break
        # The bot moves next unless this play won a trick and the person leads again: then
        # the next thing is the person's own turn, and there is no bot move to time.
        line = await client.event_of(("played", "seat=1"), ("to-move", "seats=0"), ("game-over",))
        if "game-over" in line.split():
            break
        if "played" in line.split():
            took.append(time.perf_counter() - start)
            line = await client.event_of(("to-move", "seats=0"), ("game-over",))
            if "game-over" in line.split():
                break
    return took


def _figures(took: list[float]) -> str:
    if not took:
        return "no move"
    return (
        f"median {statistics.median(took):.2f} s, longest {max(took):.2f} s over {len(took)} moves"
    )


async def _analyst(port: int, accepted: list[int]) -> None:
    """One connection streaming analyses at the longest budget, asking again as each ends."""
    client = await Line.open(port)
    game = field(await client.request("new hipparchus leader=0"), "game")
    await client.request(f"join {game} 0")
    await client.request(f"bot {game} level=random")
    await client.event("to-move", "seats=0")
    while True:
        answer = await client.request(f"analyze {game} {MAX_BUDGET} interval=5000")
        if not answer[0].startswith("="):
            await trio.sleep(1)
            continue
        accepted[0] += 1
        await client.event("analysis", "final=true")


async def trial_analyze_flood(port: int, moves: int) -> None:
    quiet = await bot_latency(port, moves)
    accepted = [0]
    async with trio.open_nursery() as nursery:
        for _ in range(16):
            nursery.start_soon(_analyst, port, accepted)
        await trio.sleep(2)
        loaded = await bot_latency(port, moves)
        nursery.cancel_scope.cancel()
    print(
        f"analyze flood: a table's bot moves, quiet: {_figures(quiet)}; while 16 connections "
        f"of one address stream analyses at {MAX_BUDGET} ({accepted[0]} accepted): "
        f"{_figures(loaded)}"
    )


async def trial_game_flood(port: int, moves: int, games: int) -> None:
    client = await Line.open(port)
    started, refusal = 0, ""
    start = time.perf_counter()
    for _ in range(games):
        answer = await client.request("new planets players=6")
        if not answer[0].startswith("="):
            refusal = answer[0]
            break
        game = field(answer, "game")
        for _ in range(6):
            answer = await client.request(f"bot {game} level=ismcts:{MAX_BUDGET}")
            if not answer[0].startswith("="):
                refusal = answer[0]
                break
        else:
            started += 1
            continue
        break
    took = time.perf_counter() - start
    loaded = await bot_latency(port, moves)
    print(
        f"game flood: one connection started {started} six-seat planets games of bots at "
        f"{MAX_BUDGET} in {took:.1f} s (then: {refusal[:90] or 'no refusal'}); a table's bot "
        f"moves meanwhile: {_figures(loaded)}"
    )


async def trial_cold(port: int, greeted: float) -> None:
    client = await Line.open(port)
    game = field(await client.request("new hipparchus leader=0"), "game")
    await client.request(f"join {game} 0")
    await client.request(f"bot {game} level=random")
    await client.event("to-move", "seats=0")
    times = []
    for _ in range(2):
        start = time.perf_counter()
        await client.request(f"genmove {game} 100ms play=false")
        times.append(time.perf_counter() - start)
    print(
        f"cold start: greeted {greeted:.2f} s after the process started; first genmove of "
        f"100 ms answered in {times[0]:.2f} s, the next in {times[1]:.2f} s"
    )


def _first_legal(game: ServedGame, seat: int) -> str:
    from hipparchusd.games.base import MoveList

    legal = game.legal(seat)
    if isinstance(legal, MoveList):
        return legal.moves[0]
    return ",".join(legal.items[: legal.count])


def trial_inline(repeat: int) -> None:
    from hipparchusd.games.registry import find_kind
    from hipparchusd.server.inline import InlineEngine

    inline = InlineEngine()
    kinds = (("hipparchus", {"seed": "4"}), ("planets", {"players": "4", "seed": "4"}))
    for kind, options in kinds:
        game = find_kind(kind).create(options)
        game.start()
        positions = []
        for plays in (0, 6):
            for _ in range(plays):
                seat = min(game.seats_to_move())
                game.play_word(seat, _first_legal(game, seat))
            seat = min(game.seats_to_move())
            positions.append(game.view_data(seat))
        for level in ("random", "heuristic"):
            figures = []
            for name, view in zip(("first move", "7th move"), positions, strict=True):
                inline.move(kind, view, level, 1)  # the adapter loaded
                runs = []
                for number in range(repeat):
                    start = time.perf_counter()
                    inline.move(kind, view, level, number)
                    runs.append((time.perf_counter() - start) * 1e6)
                figures.append(f"{name} {min(runs):.0f}/{statistics.median(runs):.0f} us")
            print(f"inline: {kind} {level}: {', '.join(figures)} (fastest/median)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=10)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--trials", default="inline,cold,analyze,games")
    args = parser.parse_args()
    trials = set(args.trials.split(","))
    workers = ("--engine-workers", str(args.workers))
    print(f"daemon: the hipparchusd of {sys.executable}")
    if "inline" in trials:
        trial_inline(args.repeat)
    if "cold" in trials:
        with daemon(*workers) as running:
            trio.run(trial_cold, running.port, running.greeted)
    if "analyze" in trials:
        with daemon(*workers) as running:
            trio.run(trial_analyze_flood, running.port, args.moves)
    if "games" in trials:
        with daemon(*workers, "--max-games", str(args.games + 10)) as running:
            trio.run(trial_game_flood, running.port, args.moves, args.games)


if __name__ == "__main__":
    main()
