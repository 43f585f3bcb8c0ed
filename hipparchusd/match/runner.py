"""Playing a match's games on a daemon: one game per (deal, rotation), built-in levels seated
with ``bot`` and external programs started to take their seats, ``concurrency`` games at once,
the results file saved after each and a progress bar, until done or the SPRT decides."""

from __future__ import annotations

import concurrent.futures
import contextlib
import shlex
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

from ..client import Client, ClientError, int_list
from .config import Config, GameResult, MatchError, Player, seating
from .results import load_results, save_results
from .scoring import describe, summary
from .stats import Sprt


@attrs.define
class Runner:
    """Plays the games of one match on the daemon at ``host``:``port``."""

    host: str
    port: int
    config: Config
    players: tuple[Player, ...]
    timeout: float = 600.0
    log_dir: Path | None = None
    stopping: threading.Event = attrs.field(factory=threading.Event)

    def play(self, deal: int, rotation: int) -> GameResult:
        """Play deal ``deal`` in ``rotation`` to its end.

        Raises:
            MatchError: the daemon refused a request, a bot did not take its seat, or the game
                did not end within the timeout.
        """
        config = self.config
        holders = seating(config.seats, len(self.players), rotation)
        processes: list[subprocess.Popen[bytes]] = []
        try:
            with Client.connect(self.host, self.port, timeout=self.timeout) as client:
                options = [*config.options, f"seed={config.seed + deal}"]
                if config.tc:
                    options.append(f"clock={config.tc}")
                game = client.new_game(config.kind, **dict(o.split("=", 1) for o in options))
                client.request("watch", game)
                for seat, index in enumerate(holders):
                    player = self.players[index]
                    name = f"p{index}"
                    if player.level is not None:
                        level = f"level={player.level}"
                        client.request("bot", game, str(seat), level, f"name={name}")
                    else:
                        processes.append(self._start(player, game, name, seat))
                        self._wait_joined(client, seat)
                winners, scores, flagged = self._wait_over(client)
                client.set_format("json")
                record = client.request("record", game).json or {}
        except (ClientError, OSError) as error:
            raise MatchError(f"deal {deal} rotation {rotation}: {error}") from error
        finally:
            for process in processes:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(10)
                if process.poll() is None:
                    process.kill()
                    process.wait()
        hands = record.get("record", {}).get("hands") if isinstance(record, dict) else None
        return GameResult(
            deal,
            rotation,
            holders,
            winners,
            scores,
            len(hands) if isinstance(hands, list) else None,
            game,
            flagged,
            _timeouts(record, config.seats) if config.tc else (),
        )

    def _start(self, player: Player, game: str, name: str, seat: int) -> subprocess.Popen[bytes]:
        values = {"host": self.host, "port": str(self.port), "game": game, "name": name}
        command = list(player.command)
        if any("{game}" in word for word in command):
            command = [word.format(**values) for word in command]
        else:
            command += ["--host", self.host, "--port", str(self.port), "--game", game]
            command += ["--name", name]
        with contextlib.ExitStack() as stack:
            log: Any = subprocess.DEVNULL
            if self.log_dir is not None:
                log = stack.enter_context((self.log_dir / f"{game}-seat{seat}.log").open("wb"))
            try:
                return subprocess.Popen(
                    command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT
                )
            except OSError as error:
                raise MatchError(f"cannot start {shlex.join(command)}: {error}") from None

    @staticmethod
    def _wait_joined(client: Client, seat: int) -> None:
        """Wait for the ``joined`` event of ``seat`` (an external bot took it), so that the
        next bot, which joins the first free seat, takes the next one."""
        while True:
            event = client.next_event()
            if event.kind == "joined" and int(str(event.data["seat"])) == seat:
                return

    @staticmethod
    def _wait_over(client: Client) -> tuple[tuple[int, ...], tuple[int, ...], int | None]:
        """The ``game-over``'s winners, scores, and the seat whose time ran out, if that ended
        the game (its ``timeout``)."""
        while True:
            event = client.next_event()
            if event.kind == "game-over":
                winners = tuple(int_list(event.data["winners"]))
                scores = tuple(int_list(event.data["scores"]))
                timeout = event.data.get("timeout")
                flagged = None if timeout in (None, "-") else int(str(timeout))
                return winners, scores, flagged


def _timeouts(record: Any, seats: int) -> tuple[int, ...]:
    """For each seat, the decisions the server made for it out of time (``by: timeout`` in the
    record's timing), a flag that ended the game included."""
    counts = [0] * seats
    timing = record.get("timing") if isinstance(record, dict) else None
    decisions = timing.get("decisions") if isinstance(timing, dict) else None
    for decision in decisions if isinstance(decisions, list) else ():
        seat = decision.get("seat") if isinstance(decision, dict) else None
        if decision.get("by") == "timeout" and isinstance(seat, int) and 0 <= seat < seats:
            counts[seat] += 1
    return tuple(counts)


def schedule(deals: int, rotations: int, done: set[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """The (deal, rotation) games still to play, a deal's rotations together."""
    for deal in range(deals):
        for rotation in range(rotations):
            if (deal, rotation) not in done:
                yield deal, rotation


def run_match(
    runner: Runner,
    deals: int,
    concurrency: int,
    output: Path,
    sprt: Sprt | None,
    *,
    progress: bool = True,
) -> list[GameResult]:
    """Play the match's missing games, ``concurrency`` at once, saving ``output`` after each;
    stop early on an SPRT decision. Returns every game's result (resumed ones included)."""
    config = runner.config
    results = load_results(output, config)
    rotations = len(runner.players)
    done = {(r.deal, r.rotation) for r in results}
    todo = list(schedule(deals, rotations, done))
    total = deals * rotations
    lock = threading.Lock()

    def decided() -> bool:
        if sprt is None or len(runner.players) != 2:
            return False
        return summary(results, 2, sprt)["sprt"]["decision"] is not None

    bar: Any = None
    task: Any = None
    context: contextlib.AbstractContextManager[Any] = contextlib.nullcontext()
    if progress:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        bar = Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), transient=False
        )
        context = bar
    with context:
        if bar is not None:
            task = bar.add_task(
                describe(results, rotations, sprt), total=total, completed=len(results)
            )
        pending = iter(todo)
        with concurrent.futures.ThreadPoolExecutor(max_workers=concurrency) as pool:
            running: set[concurrent.futures.Future[GameResult]] = set()
            for job in pending:
                if decided():
                    break
                running.add(pool.submit(runner.play, *job))
                if len(running) < concurrency:
                    continue
                finished, running = concurrent.futures.wait(
                    running, return_when=concurrent.futures.FIRST_COMPLETED
                )
                _collect(finished, results, lock, output, config, sprt, bar, task, rotations)
            finished, _ = concurrent.futures.wait(running)
            _collect(finished, results, lock, output, config, sprt, bar, task, rotations)
    return results


def _collect(
    finished: set[concurrent.futures.Future[GameResult]],
    results: list[GameResult],
    lock: threading.Lock,
    output: Path,
    config: Config,
    sprt: Sprt | None,
    bar: Any,
    task: Any,
    players: int,
) -> None:
    for future in finished:
        result = future.result()  # a failed game stops the match (MatchError)
        with lock:
            results.append(result)
            save_results(output, config, results, sprt)
        if bar is not None:
            bar.update(task, advance=1, description=describe(results, players, sprt))
