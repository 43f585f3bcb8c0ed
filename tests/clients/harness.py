"""Run example-client bots against a live daemon and check their matches against the record.

Shared by every client test (``test_*.py`` in this directory). The directory has no
``__init__.py`` on purpose: pytest's default ``prepend`` import mode puts it on ``sys.path``, so a
test here imports the harness as ``from harness import play_match, python_bot, ...``.

The bot contract (every bot in ``clients/<language>/`` follows it, so one harness drives them all):

- Command line: ``<bot> --host HOST --port PORT [--name NAME] [--seed N]
  (--create [--kind KIND] [--option KEY=VALUE ...] | --game ID)``. ``--create`` makes a new
  game (``new <kind> <options>``, ``hipparchus`` by default) and takes a seat in it; ``--game
  ID`` joins that game. ``--seed N`` makes the run reproducible: it seeds the bot's own random
  choices and, with ``--create``, the game's deal (``seed=N`` unless an ``--option`` gives one).
- Standard output: as soon as the bot holds its seat it prints (and flushes) one line
  ``game=<id> seat=<n>``; when the game is over it prints the generic ``game-over`` event's
  fields, ``winners=<seats> scores=<per seat> resigned=<seat or ->`` (a Hipparchus score is the
  round wins), and exits 0. (An older bot's ``winner=<n> round_wins=<a>,<b>`` is read too.)
  Other lines are free, but must not start with ``game=`` or ``winner``.
- Every bot knows no game: it plays by ``to-move``, ``legal`` (a list, or a ``pick``), ``play``
  and ``game-over`` alone, so any bot sits at any table (:func:`play_table`).
- On any protocol error or lost connection it prints the reason to standard error and exits
  non-zero.

Typical use (a Python bot against a second Python bot; four bots at a planets table)::

    result = play_match(daemon, python_bot(), python_bot(), seed=7)
    assert result.winner == result.record_winner
    table = play_table(daemon, [python_bot()] * 4, kind="planets", options=["players=4"], seed=7)
    assert all(run.outcome == table.replayed for run in table.runs)

where ``daemon`` is the ``tests/conftest.py`` fixture (anything with ``host`` and ``port``).
"""

from __future__ import annotations

import re
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any, Protocol

import attrs

REPO = Path(__file__).resolve().parents[2]
CLIENTS = REPO / "clients"

_SEATED = re.compile(r"^game=(\S+) seat=(\d+)\s*$", re.MULTILINE)
_GAME_OVER = re.compile(
    r"^winners=((?:\d+(?:,\d+)*)?) scores=((?:-?\d+(?:,-?\d+)*)?) resigned=(\S+)\s*$", re.MULTILINE
)
_RESULT = re.compile(
    r"^(?:winner=(\d+) round_wins=|winners=(\d+) scores=)(\d+),(\d+)(?: resigned=\S+)?\s*$",
    re.MULTILINE,
)


class Endpoint(Protocol):
    """Where a daemon listens (the ``DaemonProcess`` of tests/conftest.py has these; read-only,
    so that a frozen stand-in such as a scripted peer's address fits too)."""

    @property
    def host(self) -> str:
        """The address to connect to."""
        ...

    @property
    def port(self) -> int:
        """The TCP port."""
        ...


@attrs.frozen
class PrintedOutcome:
    """A ``game-over`` line as a bot printed it: winning seats, scores per seat, and the seat
    that resigned (``None`` for ``-``)."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    resigned: int | None


def _ints(text: str) -> tuple[int, ...]:
    return tuple(int(item) for item in text.split(",")) if text else ()


@attrs.define
class BotRun:
    """One finished bot process: what it printed and what the harness parsed from it.

    ``game_id``/``seat`` come from its ``game=<id> seat=<n>`` line, ``winner``/``round_wins``
    from its ``winner=<n> round_wins=<a>,<b>`` line, or its ``winners=<n> scores=<a>,<b>``
    line (``None`` when the line is missing); ``outcome`` from its last
    ``winners=<seats> scores=<per seat> resigned=<seat or ->`` line, for a game of any size.
    """

    command: list[str]
    returncode: int
    stdout: str
    stderr: str
    game_id: str | None
    seat: int | None
    winner: int | None
    round_wins: tuple[int, int] | None
    outcome: PrintedOutcome | None = None

    def describe(self) -> str:
        """The command, exit status and both outputs, for assertion messages."""
        return (
            f"$ {' '.join(self.command)}\nexit {self.returncode}\n"
            f"--- stdout\n{self.stdout}\n--- stderr\n{self.stderr}"
        )


@attrs.define
class MatchResult:
    """Two bots' runs in one game, the winner they agree on and the winner the record gives."""

    game_id: str
    first: BotRun
    second: BotRun
    record: dict[str, Any]
    record_winner: int | None
    record_round_wins: tuple[int, int]

    @property
    def winner(self) -> int | None:
        """The winner both bots printed, or ``None`` if they disagree or one printed none."""
        if self.first.winner is not None and self.first.winner == self.second.winner:
            return self.first.winner
        return None

    def describe(self) -> str:
        """Both bots' runs, for assertion messages."""
        return f"game {self.game_id}\n{self.first.describe()}\n{self.second.describe()}"


def python_bot() -> list[str]:
    """The command that runs clients/python's bot with this interpreter."""
    return [sys.executable, str(CLIENTS / "python" / "bot.py")]


def bot_arguments(
    daemon: Endpoint, *, game: str | None, name: str | None = None, seed: int | None = None
) -> list[str]:
    """The contract's arguments: ``--create`` when ``game`` is None, else ``--game game``."""
    args = ["--host", daemon.host, "--port", str(daemon.port)]
    args += ["--create"] if game is None else ["--game", game]
    if name is not None:
        args += ["--name", name]
    if seed is not None:
        args += ["--seed", str(seed)]
    return args


class _RunningBot:
    """A bot subprocess whose output is collected by threads (so pipes never fill)."""

    def __init__(self, command: list[str], cwd: Path) -> None:
        self.command = command
        self.process = subprocess.Popen(
            command,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
        )
        self.out: list[str] = []
        self.err: list[str] = []
        self.seated = threading.Event()
        assert self.process.stdout is not None and self.process.stderr is not None
        self._threads = [
            threading.Thread(target=self._pump, args=(self.process.stdout, self.out, True)),
            threading.Thread(target=self._pump, args=(self.process.stderr, self.err, False)),
        ]
        for thread in self._threads:
            thread.daemon = True
            thread.start()

    def _pump(self, stream: IO[str], sink: list[str], watch: bool) -> None:
        for line in stream:
            sink.append(line)
            if watch and _SEATED.match(line):
                self.seated.set()
        if watch:
            self.seated.set()  # end of output: stop anyone waiting for the seat line

    def finish(self, timeout: float) -> BotRun:
        """Wait for the bot (killing it after ``timeout`` seconds) and parse its output."""
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            self.err.append(f"\n[harness: killed after {timeout} s]\n")
        for thread in self._threads:
            thread.join(5)
        stdout, stderr = "".join(self.out), "".join(self.err)
        seated = _SEATED.search(stdout)
        results = _RESULT.findall(stdout)
        last = results[-1] if results else None
        over = _GAME_OVER.findall(stdout)
        outcome = None
        if over:
            winners, scores, resigned = over[-1]
            outcome = PrintedOutcome(
                _ints(winners), _ints(scores), None if resigned == "-" else int(resigned)
            )
        return BotRun(
            command=self.command,
            returncode=self.process.returncode,
            stdout=stdout,
            stderr=stderr,
            game_id=seated.group(1) if seated else None,
            seat=int(seated.group(2)) if seated else None,
            winner=int(last[0] or last[1]) if last else None,
            round_wins=(int(last[2]), int(last[3])) if last else None,
            outcome=outcome,
        )


def run_bot(
    command: Sequence[str],
    daemon: Endpoint,
    *,
    game: str | None = None,
    name: str | None = None,
    seed: int | None = None,
    timeout: float = 120.0,
    cwd: Path = REPO,
    extra: Sequence[str] = (),
) -> BotRun:
    """Run one bot to completion (``--create`` if ``game`` is None) and return its run;
    ``extra`` arguments go last (e.g. ``--kind planets``).

    Someone else must take the other seat for the match to be played (e.g. start this in a
    thread, or use :func:`play_match`).
    """
    full = [*command, *bot_arguments(daemon, game=game, name=name, seed=seed), *extra]
    return _RunningBot(full, cwd).finish(timeout)


def play_match(
    daemon: Endpoint,
    creator: Sequence[str],
    joiner: Sequence[str],
    *,
    seed: int | None = None,
    timeout: float = 120.0,
    cwd: Path = REPO,
) -> MatchResult:
    """Play one match between two bots and fetch the game's record.

    ``creator`` runs with ``--create`` (and ``--seed seed`` if given), ``joiner`` with
    ``--game <the id the creator printed>`` (and ``--seed seed+1``). Both get ``--name``.

    Raises:
        AssertionError: the creator did not print its ``game=`` line (with both outputs).
    """
    first = _RunningBot(
        [*creator, *bot_arguments(daemon, game=None, name="creator", seed=seed)], cwd
    )
    first.seated.wait(timeout)
    seated = _SEATED.search("".join(first.out))
    if seated is None:
        run = first.finish(1.0)
        raise AssertionError(f"the creating bot never printed game=<id> seat=<n>\n{run.describe()}")
    game_id = seated.group(1)
    second_seed = None if seed is None else seed + 1
    second = _RunningBot(
        [*joiner, *bot_arguments(daemon, game=game_id, name="joiner", seed=second_seed)], cwd
    )
    first_run = first.finish(timeout)
    second_run = second.finish(timeout)
    record = fetch_record(daemon, game_id)
    winner, round_wins = replay_outcome(record)
    return MatchResult(game_id, first_run, second_run, record, winner, round_wins)


def fetch_record(daemon: Endpoint, game_id: str) -> dict[str, Any]:
    """The daemon's JSON answer to ``record <game_id>`` (raises the client's error if refused)."""
    from hipparchusd.client import Client

    with Client.connect(daemon.host, daemon.port, json=True) as client:
        return client.request_json("record", game_id)


def replay_outcome(record: dict[str, Any]) -> tuple[int | None, tuple[int, int]]:
    """Replay a ``record`` answer (JSON) through the rules (hipparchusd.games.hipparchus.replay)
    and return (the match winner, the round wins) they give; after a resignation, which the
    plays cannot show, the winner is the seat that did not resign.

    Raises:
        IllegalPlay, GameOver: the record's plays break the rules.
    """
    from hipparchusd.games.hipparchus.codec import converter
    from hipparchusd.games.hipparchus.record import MatchRecord, replay

    match_record = converter.structure(record["record"], MatchRecord)
    state = replay(match_record)
    if match_record.resigned is not None:
        return 1 - match_record.resigned, state.round_wins
    return state.winner, state.round_wins


# --- tables of any size and game ------------------------------------------------------------


@attrs.define
class TableResult:
    """Every bot's run at one table, and the outcome the server's record gives when replayed
    through the game's rules (:func:`replay_result`)."""

    game_id: str
    kind: str
    runs: list[BotRun]
    record: dict[str, Any]
    replayed: PrintedOutcome

    def describe(self) -> str:
        """Every bot's run, for assertion messages."""
        runs = "\n".join(run.describe() for run in self.runs)
        return f"{self.kind} game {self.game_id}: the record gives {self.replayed}\n{runs}"


def play_table(
    daemon: Endpoint,
    bots: Sequence[Sequence[str]],
    *,
    kind: str,
    options: Sequence[str] = (),
    seed: int | None = None,
    timeout: float = 120.0,
    cwd: Path = REPO,
) -> TableResult:
    """Play one game of ``kind`` between ``bots`` (one command per seat) and replay its record.

    The first bot creates the game (``--create --kind kind --option o ...``, ``--seed seed``);
    once it has printed its seat the others join (``--game``, ``--seed seed+i``), each taking
    the lowest free seat. Every bot is named ``b<i>`` after its place in ``bots``.

    Raises:
        AssertionError: the creator did not print its ``game=`` line (with its output).
    """
    extra = ["--kind", kind]
    for option in options:
        extra += ["--option", option]
    first = _RunningBot(
        [*bots[0], *bot_arguments(daemon, game=None, name="b0", seed=seed), *extra], cwd
    )
    first.seated.wait(timeout)
    seated = _SEATED.search("".join(first.out))
    if seated is None:
        run = first.finish(1.0)
        raise AssertionError(f"the creating bot never printed game=<id> seat=<n>\n{run.describe()}")
    game_id = seated.group(1)
    others = [
        _RunningBot(
            [
                *command,
                *bot_arguments(
                    daemon, game=game_id, name=f"b{i}", seed=None if seed is None else seed + i
                ),
            ],
            cwd,
        )
        for i, command in enumerate(bots[1:], start=1)
    ]
    runs = [bot.finish(timeout) for bot in (first, *others)]
    record = fetch_record(daemon, game_id)
    return TableResult(game_id, kind, runs, record, replay_result(record))


def replay_result(record: dict[str, Any]) -> PrintedOutcome:
    """Replay a ``record`` answer (JSON) through the rules of its game and return the outcome
    they give: Hipparchus (hipparchusd.games.hipparchus.record.replay: the match winner, the
    round wins as scores; after a resignation, which the plays cannot show, the other seat
    wins) or planets (hipparchusd.games.planets.record.replay: the lowest totals win once a
    total passes 100, RULINGS P9).

    Raises:
        ValueError: a game kind this harness cannot replay.
        IllegalPlay, IllegalMove, GameOver: the record's moves break the rules.
    """
    if record["kind"] == "hipparchus":
        winner, round_wins = replay_outcome(record)
        resigned = record["record"].get("resigned")
        return PrintedOutcome(() if winner is None else (winner,), round_wins, resigned)
    if record["kind"] == "planets":
        from hipparchusd.games.planets.codec import converter
        from hipparchusd.games.planets.record import PlanetsRecord, replay

        planets_record = converter.structure(record["record"], PlanetsRecord)
        final = replay(planets_record)
        return PrintedOutcome(
            tuple(final.winners or ()), tuple(final.totals), planets_record.resigned
        )
    raise ValueError(f"no replay for game kind {record['kind']!r}")
