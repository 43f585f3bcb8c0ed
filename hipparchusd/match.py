"""``hipparchusd match``: play games between two or more players and measure them (issue 18).

A player is a built-in level of the daemon's engine (``random``, ``heuristic``, ``ismcts``,
``ismcts:200ms``, ``ismcts:5000``), seated with ``bot``, or an external program speaking the
protocol (``cmd:<command line>``, e.g. ``cmd:python clients/python/bot.py``), started once per
game with ``--host H --port P --game ID --name NAME`` appended (or with ``{host}``, ``{port}``,
``{game}`` and ``{name}`` in the command line replaced), as the example bots in clients/ take.

Duplicate deals: deal ``d`` is dealt from ``seed=<base + d>`` and played once per rotation, the
players moved round the seats (seat ``s`` plays player ``(s + r) mod P`` in rotation ``r``), so
that every player holds every hand and the luck of the cards cancels. Games run in parallel
(``--concurrency``), on a daemon started in this process or one given (``--connect``). The
results go to a JSON file after every game; run again with the same file and it resumes,
skipping the games it holds. A progress bar shows the games played, the score and the current
estimate.

The result, for two players: the first player's wins, losses and draws (a game is won by the
player holding a winning seat alone; shared or won by neither, a draw), its score, the Elo
difference with a 95% interval (from the pairs of each deal, :class:`~.matchstats.Pentanomial`,
when there are pairs; else per game), and with ``--sprt`` the log-likelihood ratio and the
decision, which stops the match (:class:`~.matchstats.Sprt`). For every player: its win rate,
and its points per game and per hand (planets: lower is better).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import json
import math
import os
import shlex
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs

from .client import Client, ClientError, int_list
from .engine.types import Level
from .matchstats import Estimate, Pentanomial, Sprt, Trinomial

#: The version of the results file's layout.
RESULTS_VERSION = 1


class MatchError(Exception):
    """The match cannot go on: a bad player, a daemon that refuses, a results file of another
    match (the message says which)."""


@attrs.frozen
class Player:
    """One side of the match: ``spec`` as given; ``level`` for a built-in level, else
    ``command``, an external program's argument list."""

    spec: str
    level: Level | None = None
    command: tuple[str, ...] = ()

    @classmethod
    def parse(cls, text: str) -> Player:
        """``random``, ``heuristic``, ``ismcts[:budget]`` or ``cmd:<command line>``.

        Raises:
            MatchError: anything else, naming what is wrong.
        """
        if text.startswith("cmd:"):
            command = tuple(shlex.split(text[4:]))
            if not command:
                raise MatchError(f"{text!r}: cmd: needs a command line")
            return cls(text, command=command)
        try:
            return cls(text, level=Level.parse(text))
        except ValueError as error:
            raise MatchError(f"player {text!r}: {error} (or cmd:<command line>)") from None


@attrs.frozen
class GameResult:
    """One game played: its ``deal`` and ``rotation``, which player held each seat
    (``players``), the ``winners`` (seats) and ``scores`` (per seat) of its ``game-over``, the
    hands played (planets; ``None`` for a game without hands) and the daemon's game id."""

    deal: int
    rotation: int
    players: tuple[int, ...]
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    hands: int | None
    game: str

    def first_score(self) -> float:
        """The first player's result against the second: 1 (it alone holds a winning seat),
        0 (the second alone does), 1/2 otherwise."""
        holders = {self.players[seat] for seat in self.winners}
        first, second = 0 in holders, 1 in holders
        if first and not second:
            return 1.0
        if second and not first:
            return 0.0
        return 0.5


@attrs.frozen
class Config:
    """What makes two runs the same match (a results file resumes only its own)."""

    kind: str
    players: tuple[str, ...]
    options: tuple[str, ...]
    seed: int
    seats: int


def seats_of(kind: str, options: Sequence[str]) -> int:
    """The seats of a game of ``kind`` made with ``options`` (from the registry).

    Raises:
        MatchError: an unknown kind or bad options.
    """
    from .games.base import BadOption
    from .games.registry import KINDS

    found = KINDS.get(kind)
    if found is None:
        raise MatchError(f"unknown kind {kind!r} ({', '.join(KINDS)})")
    try:
        return found.create(dict(o.split("=", 1) for o in options)).seat_count
    except (BadOption, ValueError) as error:
        raise MatchError(f"options {' '.join(options)}: {error}") from None


def seating(seats: int, players: int, rotation: int) -> tuple[int, ...]:
    """The player of each seat in ``rotation``: seat ``s`` plays ``(s + rotation) mod players``."""
    return tuple((seat + rotation) % players for seat in range(seats))


# -- statistics -------------------------------------------------------------------------------


def counts(results: Sequence[GameResult]) -> tuple[Trinomial, Pentanomial]:
    """The first player's games against the second, per game and per complete pair of a
    deal's two rotations."""
    wins = losses = draws = 0
    by_deal: dict[int, dict[int, float]] = {}
    for result in results:
        score = result.first_score()
        wins += score == 1.0
        losses += score == 0.0
        draws += score == 0.5
        by_deal.setdefault(result.deal, {})[result.rotation] = score
    penta = [0] * 5  # ll, ld, wl+dd split below, wd, ww
    wl = dd = 0
    for rotations in by_deal.values():
        if len(rotations) != 2:
            continue
        a, b = rotations.values()
        total = a + b
        if total == 1.0:
            if a == 0.5:
                dd += 1
            else:
                wl += 1
        else:
            penta[int(total * 2)] += 1
    return Trinomial(wins, losses, draws), Pentanomial(
        penta[0], penta[1], wl, dd, penta[3], penta[4]
    )


def estimate(results: Sequence[GameResult]) -> tuple[Estimate | None, Trinomial, Pentanomial]:
    """The Elo estimate (from pairs when there are any, else per game; ``None`` with no
    games) and the counts."""
    tri, penta = counts(results)
    if penta.pairs >= 2:
        return penta.estimate(), tri, penta
    if tri.games:
        return tri.estimate(), tri, penta
    return None, tri, penta


def per_player(results: Sequence[GameResult], players: int) -> list[dict[str, float | None]]:
    """Each player's win rate (a shared win counts as a share), points per game (the mean
    score of its seats) and points per hand (``None`` without hands)."""
    table: list[dict[str, float | None]] = []
    for player in range(players):
        won = points = hands = 0.0
        games = 0
        for result in results:
            seats = [s for s, p in enumerate(result.players) if p == player]
            if not seats:
                continue
            games += 1
            holders = {result.players[w] for w in result.winners}
            if player in holders:
                won += 1 / len(holders)
            mine = sum(result.scores[s] for s in seats) / len(seats)
            points += mine
            if result.hands:
                hands += result.hands
        table.append(
            {
                "games": games,
                "win_rate": won / games if games else None,
                "points_per_game": points / games if games else None,
                "points_per_hand": (points / hands) if hands else None,
            }
        )
    return table


def summary(results: Sequence[GameResult], players: int, sprt: Sprt | None) -> dict[str, Any]:
    """The match's figures, as the results file and the closing report give them."""
    out: dict[str, Any] = {"games": len(results), "players": per_player(results, players)}
    if players == 2:
        found, tri, penta = estimate(results)
        out["first"] = {"wins": tri.wins, "losses": tri.losses, "draws": tri.draws}
        out["pentanomial"] = [penta.ll, penta.ld, penta.wl, penta.dd, penta.wd, penta.ww]
        if found is not None:
            out["score"] = found.score
            out["elo"] = _finite(found.elo)
            out["elo_95"] = [_finite(found.elo_low), _finite(found.elo_high)]
            out["los"] = found.los
        if sprt is not None:
            llr = sprt.llr(penta if penta.pairs >= 2 else tri)
            out["sprt"] = {
                "elo0": sprt.elo0,
                "elo1": sprt.elo1,
                "alpha": sprt.alpha,
                "beta": sprt.beta,
                "llr": llr,
                "lower": sprt.lower,
                "upper": sprt.upper,
                "decision": sprt.decision(llr),
            }
    return out


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


# -- the results file ------------------------------------------------------------------------


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


# -- playing -------------------------------------------------------------------------------


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
                winners, scores = self._wait_over(client)
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
    def _wait_over(client: Client) -> tuple[tuple[int, ...], tuple[int, ...]]:
        while True:
            event = client.next_event()
            if event.kind == "game-over":
                winners = tuple(int_list(event.data["winners"]))
                scores = tuple(int_list(event.data["scores"]))
                return winners, scores


def schedule(deals: int, rotations: int, done: set[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """The (deal, rotation) games still to play, a deal's rotations together."""
    for deal in range(deals):
        for rotation in range(rotations):
            if (deal, rotation) not in done:
                yield deal, rotation


def describe(results: Sequence[GameResult], players: int, sprt: Sprt | None) -> str:
    """A one-line state of the match, for the progress bar."""
    if players != 2:
        rates = per_player(results, players)
        return " ".join(
            f"p{i} {r['win_rate']:.0%}" if r["win_rate"] is not None else f"p{i} -"
            for i, r in enumerate(rates)
        )
    found, tri, penta = estimate(results)
    text = f"+{tri.wins} -{tri.losses} ={tri.draws}"
    if found is not None:
        if math.isfinite(found.error):
            text += f" score {found.score:.3f} Elo {found.elo + 0.0:+.0f} ±{found.error:.0f}"
        else:
            text += f" score {found.score:.3f}"
    if sprt is not None:
        text += f" LLR {sprt.llr(penta if penta.pairs >= 2 else tri):+.2f}"
    return text


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


@contextlib.contextmanager
def local_daemon(workers: int, max_games: int) -> Iterator[tuple[str, int]]:
    """A daemon in a thread of this process (memory store, a free loopback port), for the
    block; its engine's workers are processes as ever."""
    import trio

    from .server import Server, serve
    from .settings import Settings
    from .store.base import MemoryStore

    settings = Settings(
        port=0,
        max_games=max_games,
        grace_period=0.5,
        engine_workers=workers,
        idle_timeout=0,
        abandon_timeout=0,
        adjourn_timeout=0,
        log_level="warning",
    )
    started = threading.Event()
    holder: dict[str, Any] = {}

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            server: Server = await nursery.start(serve, settings, MemoryStore())
            holder["server"] = server
            holder["token"] = trio.lowlevel.current_trio_token()
            started.set()
            await server.stopped.wait()

    def target() -> None:
        try:
            trio.run(main)
        except BaseException as error:  # reported to the waiting thread
            holder["error"] = error
            started.set()

    thread = threading.Thread(target=target, name="hipparchusd-match-daemon", daemon=True)
    thread.start()
    started.wait()
    if "error" in holder:
        raise MatchError(f"the daemon did not start: {holder['error']}")
    server = holder["server"]
    try:
        yield "127.0.0.1", server.ports[0]
    finally:
        trio.from_thread.run_sync(server.shutdown, trio_token=holder["token"])
        thread.join(30)


def build_parser() -> argparse.ArgumentParser:
    """The options of ``hipparchusd match``."""
    parser = argparse.ArgumentParser(
        prog="hipparchusd match",
        description="Play games between players (built-in levels or protocol bots) with "
        "duplicate deals and report win rates, points, Elo with a 95% interval, and SPRT.",
    )
    add = parser.add_argument
    add(
        "players",
        nargs="+",
        metavar="PLAYER",
        help="random, heuristic, ismcts, ismcts:<budget> (200ms, 5000 playouts), or "
        "cmd:<command line> (a bot taking --host --port --game --name); two or more",
    )
    add("--kind", default="hipparchus", help="the game kind (default hipparchus)")
    add(
        "--option",
        "-o",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an option of 'new' (not seed=: deals come from --seed); repeatable",
    )
    add("--games", type=int, default=100, help="games to play, rounded up to whole deals")
    add("--concurrency", type=int, default=4, help="games played at once (default 4)")
    add("--seed", type=int, default=1, help="deal d is dealt from seed=SEED+d (default 1)")
    add("--output", default="match.json", help="the results file; resumes it (default match.json)")
    add("--connect", metavar="HOST:PORT", help="play on this daemon instead of starting one")
    add(
        "--engine-workers",
        type=int,
        default=0,
        help="the started daemon's engine worker processes (0: one per core less one)",
    )
    add("--sprt", nargs="+", metavar="KEY=VALUE", help="elo0=0 elo1=20 alpha=0.05 beta=0.05")
    add("--timeout", type=float, default=600.0, help="seconds a game may take (default 600)")
    add("--bot-logs", metavar="DIR", help="keep each external bot's output in DIR")
    add("--quiet", action="store_true", help="no progress bar")
    return parser


def _elo_text(elo: float | None) -> str:
    """An Elo difference with its sign (``inf`` for a score of 0 or 1, which has none)."""
    if elo is None:
        return "inf"
    return f"{elo + 0.0:+.1f}"  # + 0.0: no "-0.0"


def report(results: Sequence[GameResult], players: Sequence[Player], sprt: Sprt | None) -> str:
    """The closing report, a few lines."""
    figures = summary(results, len(players), sprt)
    lines = [f"{figures['games']} games"]
    for index, (player, row) in enumerate(zip(players, figures["players"], strict=True)):
        rate = row["win_rate"]
        text = f"p{index} {player.spec}: win rate {rate:.1%}" if rate is not None else ""
        if row["points_per_hand"] is not None:
            text += f", {row['points_per_hand']:.2f} points per hand"
        elif row["points_per_game"] is not None:
            text += f", {row['points_per_game']:.2f} points per game"
        lines.append(text)
    if "elo" in figures:
        elo, (low, high) = figures["elo"], figures["elo_95"]
        lines.append(
            f"p0 vs p1: score {figures['score']:.3f}, Elo {_elo_text(elo)} "
            f"[{_elo_text(low)}, {_elo_text(high)}] (95%), LOS {figures['los']:.1%}"
        )
    if "sprt" in figures:
        s = figures["sprt"]
        lines.append(
            f"SPRT elo0={s['elo0']:g} elo1={s['elo1']:g}: LLR {s['llr']:.2f} "
            f"[{s['lower']:.2f}, {s['upper']:.2f}] {s['decision'] or 'undecided'}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str]) -> int:
    """``hipparchusd match ...``; the exit status (0 done, 1 the match failed, 2 bad options)."""
    parser = build_parser()
    args = parser.parse_args(list(argv))
    try:
        players = tuple(Player.parse(text) for text in args.players)
        if len(players) < 2:
            raise MatchError("a match needs two players or more")
        if any(o.startswith("seed=") for o in args.option):
            raise MatchError("deals come from --seed, not -o seed=")
        if args.games < 1 or args.concurrency < 1:
            raise MatchError("--games and --concurrency are at least 1")
        sprt = Sprt.parse(args.sprt) if args.sprt else None
        seats = seats_of(args.kind, args.option)
    except (MatchError, ValueError) as error:
        parser.error(str(error))
    config = Config(args.kind, tuple(args.players), tuple(args.option), args.seed, seats)
    deals = math.ceil(args.games / len(players))
    output = Path(args.output)
    log_dir = Path(args.bot_logs) if args.bot_logs else None
    if log_dir is not None:
        log_dir.mkdir(parents=True, exist_ok=True)
    daemon: contextlib.AbstractContextManager[tuple[str, int]]
    if args.connect:
        host, _, port = args.connect.rpartition(":")
        if not host or not port.isdigit():
            parser.error("--connect takes HOST:PORT")
        daemon = contextlib.nullcontext((host, int(port)))
    else:
        daemon = local_daemon(args.engine_workers, max(1000, 4 * args.concurrency))
    try:
        with daemon as (host, port):
            runner = Runner(host, port, config, players, args.timeout, log_dir)
            results = run_match(
                runner, deals, args.concurrency, output, sprt, progress=not args.quiet
            )
    except MatchError as error:
        print(f"hipparchusd match: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"interrupted; {output} keeps the games played: run again to resume", file=sys.stderr)
        return 130
    print(report(results, players, sprt))
    print(f"results: {output}")
    return 0
