"""The daemon's figures for Prometheus (issue 26), kept with the standard client library
(prometheus-client) in a registry of the daemon's own.

What is measured, by whom:

- On the request path the server adds to plain counts (:class:`Histogram`, dictionaries of
  integers): a request's latency by command, an error answer by code, a store call's latency,
  a move acknowledged, a game ended. Nothing there takes a lock or builds a metric object:
  those counts become metric families only when Prometheus scrapes (:class:`_Collector`), so
  that what a request costs rises by a few additions (bench/bench_requests.py, issue 26).
- What is rare (a refused connection, a limit met, a connection opened) goes straight into
  the library's :class:`prometheus_client.Counter`.
- What is a level now (connections open, games by status, engine searches, restarts) is
  read from the server when scraped (:class:`Levels`, which the server makes).

Labels carry only words from fixed sets: a transport, a game kind and status, a command of
the protocol (any other word is ``other``), an error code, a limit's option name, a store
call, how a game ended. Never a player's name, a token, a card, a game id or a seat: and
no figure is kept per seat or per game, so no timing of one seat's decisions (which could
hint at its hand) is exported either.

The clocks (issue 27) end games by a flag, a claim or an abort: those are ``how`` values of
``hipparchusd_games_ended_total`` (``timeout``, ``claim``, ``abort``), and :func:`ending` is the
one place that names how an :class:`~hipparchusd.games.base.Outcome` ended.
"""

from __future__ import annotations

import bisect
import collections
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Final

import attrs
from prometheus_client import CollectorRegistry, Counter
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector

from .games.base import Outcome
from .lobby.timing import ABSENT, TIMEOUT
from .records import AddMove, EndGame, Finish, StoreCommand

#: Upper bounds (seconds) of the request latency buckets: most requests take tens of
#: microseconds; a durable move waits for its commit (milliseconds); a genmove for its search.
REQUEST_BUCKETS: Final = (
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
    2.5, 5.0, 10.0,
)  # fmt: skip
#: Upper bounds (seconds) of the store call latency buckets: a commit syncs to the disk.
STORE_BUCKETS: Final = (
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
)  # fmt: skip
#: Upper bounds of the group-commit batch size buckets (store calls per commit).
BATCH_BUCKETS: Final = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)
#: Why the server moves for a seat (the timing record's ``by``, issue 27): a flag that the
#: server's move answers (RULINGS T2, a planets seat out of time by default) or an absent
#: seat the engine plays for (T4).
SERVER_MOVE_REASONS: Final = frozenset({TIMEOUT, ABSENT})
#: The command label of a request whose command the server does not have.
OTHER_COMMAND: Final = "other"


def ending(outcome: Outcome | None) -> str:
    """How a game ended, as ``hipparchusd_games_ended_total`` labels it: ``played`` (by its
    rules), ``resigned``, ``abandoned`` (RULINGS H14), ``operator`` (``hipparchusd admin
    end``), or by the clocks or an absence (issue 27): ``timeout`` (a flag that resigned the
    seat, T2), ``claim`` (a resignation claimed over an absent seat, T4) or ``abort`` (T5)."""
    if outcome is None:
        return "played"
    if outcome.operator:
        return "operator"
    if outcome.abandoned:
        return "abandoned"
    if outcome.aborted:
        return "abort"
    # A flag and a claim are resignations too (``resigned`` names the seat): said first.
    if outcome.timeout is not None:
        return "timeout"
    if outcome.claimed:
        return "claim"
    if outcome.resigned is not None:
        return "resigned"
    return "played"


class Histogram:
    """Counts of observations by bucket, and their sum, kept as plain numbers (see the
    module's docstring): ``counts[i]`` is how many were at most ``bounds[i]`` and above the
    bound before it; the last count is of those above every bound."""

    __slots__ = ("bounds", "counts", "total")

    def __init__(self, bounds: Sequence[float]) -> None:
        self.bounds = tuple(bounds)
        self.counts = [0] * (len(self.bounds) + 1)
        self.total = 0.0

    def observe(self, value: float) -> None:
        """Count ``value`` (in the histogram's unit)."""
        self.counts[bisect.bisect_left(self.bounds, value)] += 1
        self.total += value

    def buckets(self) -> list[tuple[str, float]]:
        """The cumulative buckets as Prometheus writes them: ``(le, count)``, ``+Inf`` last."""
        found: list[tuple[str, float]] = []
        running = 0
        for bound, count in zip((*self.bounds, float("inf")), self.counts, strict=True):
            running += count
            found.append(("+Inf" if bound == float("inf") else f"{bound:g}", running))
        return found


@attrs.frozen
class Levels:
    """What the daemon holds when scraped, read from the server (``Server.metric_levels``).

    Attributes:
        connections: open client connections by transport (``tcp``, ``websocket``).
        games: loaded games by (kind, status: ``waiting``, ``playing``, ``over``).
        searches_running: engine searches running in a worker now.
        searches_queued: engine searches waiting for a worker.
        worker_restarts: engine workers that died or were killed, since start.
        writer_restarts: store writer processes started to replace a dead one, since start.
        maintenance: whether new games are refused (``hipparchusd admin maintenance on``).
        draining: whether a drain is under way.
    """

    connections: Mapping[str, int]
    games: Mapping[tuple[str, str], int]
    searches_running: int
    searches_queued: int
    worker_restarts: int
    writer_restarts: int
    maintenance: bool
    draining: bool


class Metrics:
    """The daemon's metrics: the counts the server adds to, and the registry that exposes
    them with the :class:`Levels` that ``levels()`` reads at each scrape.

    Args:
        commands: the protocol's commands (each its own ``command`` label).
        levels: what the daemon holds now (called at each scrape, on the server's thread).
    """

    def __init__(self, commands: Iterable[str], levels: Callable[[], Levels]) -> None:
        self.levels = levels
        #: Latency of the requests (seconds) by command, :data:`OTHER_COMMAND` for the rest.
        self.requests: dict[str, Histogram] = {
            command: Histogram(REQUEST_BUCKETS) for command in (*commands, OTHER_COMMAND)
        }
        self._other = self.requests[OTHER_COMMAND]
        #: Error answers by code.
        self.errors: collections.Counter[str] = collections.Counter()
        #: Store calls' latency (seconds, until committed) by call.
        self.store_calls: dict[str, Histogram] = {}
        #: Group-commit batch sizes (store calls per commit).
        self.batches = Histogram(BATCH_BUCKETS)
        #: Moves acknowledged (recorded by the store, if it keeps anything, and answered).
        self.moves = 0
        #: Games ended, by (kind, how: :func:`ending`).
        self.ended: collections.Counter[tuple[str, str]] = collections.Counter()
        #: Moves the server made for a seat, by reason (:data:`SERVER_MOVE_REASONS`).
        self.server_moves: collections.Counter[str] = collections.Counter()
        self.registry = CollectorRegistry(auto_describe=False)
        self.refusals = Counter(
            "hipparchusd_refusals",
            "Requests and connections refused by a server limit, by the limit's option name",
            ["limit"],
            registry=self.registry,
        )
        self.connections_opened = Counter(
            "hipparchusd_connections_opened",
            "Client connections opened (sessions), by transport",
            ["transport"],
            registry=self.registry,
        )
        self.registry.register(_Collector(self))

    # -- what the request path adds (cheap: see the module) ---------------------------------

    def answered(self, command: str, seconds: float, error: str | None, limit: str | None) -> None:
        """A request of ``command`` was answered ``seconds`` after its line was read, with the
        error code ``error`` (``None``: success), for the server ``limit`` (a ``limit``
        refusal's option name, if known)."""
        self.requests.get(command, self._other).observe(seconds)
        if error is not None:
            self.errors[error] += 1
            if limit is not None:
                self.refusals.labels(limit).inc()

    def failed(self, error: str) -> None:
        """A line was answered with the error code ``error`` before it was a request (it did
        not parse, or was too long)."""
        self.errors[error] += 1

    def stored(self, call: str, seconds: float) -> None:
        """The store call ``call`` (``add_move``...) returned after ``seconds``."""
        timings = self.store_calls.get(call)
        if timings is None:
            timings = self.store_calls[call] = Histogram(STORE_BUCKETS)
        timings.observe(seconds)

    def committed(self, batch: int) -> None:
        """The store committed ``batch`` calls together (group commit)."""
        self.batches.observe(batch)

    def carried_out(
        self,
        commands: Sequence[StoreCommand],
        outcome: Callable[[str], tuple[str, Outcome | None] | None],
    ) -> None:
        """A result with the store ``commands`` was carried out (recorded, then answered):
        count its moves and the games it ended; ``outcome(game_id)`` gives a loaded game's
        (kind, outcome). (An adjourned game ended as abandoned is not loaded: the server
        counts it with :meth:`game_ended`.)"""
        for command in commands:
            call = type(command)
            if call is AddMove:
                self.moves += 1
                timing = command.timing if isinstance(command, AddMove) else None
                # Only a timed game's moves, or the server's for a seat, carry a timing.
                if isinstance(timing, dict):
                    by = timing.get("by")
                    if by in SERVER_MOVE_REASONS:
                        self.server_moves[str(by)] += 1
            elif call is Finish or call is EndGame:
                found = outcome(command.game_id)
                if found is not None:
                    self.game_ended(found[0], ending(found[1]))

    def game_ended(self, kind: str, how: str) -> None:
        """A game of ``kind`` ended ``how`` (:func:`ending`)."""
        self.ended[(kind, how)] += 1

    def refused(self, limit: str) -> None:
        """A connection or request met the server limit ``limit`` (its option's name)."""
        self.refusals.labels(limit).inc()

    def opened(self, transport: str) -> None:
        """A client connection was opened over ``transport``."""
        self.connections_opened.labels(transport).inc()


class _Collector(Collector):
    """The metric families of a :class:`Metrics`' counts and levels, made at each scrape."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[Metric]:
        """Every family, from the counts as they are now."""
        metrics = self.metrics
        levels = metrics.levels()
        connections = GaugeMetricFamily(
            "hipparchusd_connections", "Client connections open now", labels=["transport"]
        )
        for transport in ("tcp", "websocket"):
            connections.add_metric([transport], levels.connections.get(transport, 0))
        yield connections
        games = GaugeMetricFamily(
            "hipparchusd_games",
            "Games loaded now (adjourned ones are in the store only), by kind and status",
            labels=["kind", "status"],
        )
        for (kind, status), count in sorted(levels.games.items()):
            games.add_metric([kind, status], count)
        yield games
        ended = CounterMetricFamily(
            "hipparchusd_games_ended",
            "Games ended, by kind and how (played, resigned, abandoned, operator, timeout, "
            "claim, abort)",
            labels=["kind", "how"],
        )
        for (kind, how), count in sorted(metrics.ended.items()):
            ended.add_metric([kind, how], count)
        yield ended
        yield CounterMetricFamily(
            "hipparchusd_moves", "Moves acknowledged (durable, then answered)", value=metrics.moves
        )
        server_moves = CounterMetricFamily(
            "hipparchusd_server_moves",
            "Moves the server made for a seat, by reason (timeout: a flag; absent: an absent seat)",
            labels=["by"],
        )
        for by in sorted(SERVER_MOVE_REASONS):
            server_moves.add_metric([by], metrics.server_moves[by])
        yield server_moves
        requests = HistogramMetricFamily(
            "hipparchusd_request_duration_seconds",
            "Time from a request line to its answer (a durable move's includes its commit)",
            labels=["command"],
        )
        for command, timings in metrics.requests.items():
            if any(timings.counts):
                requests.add_metric([command], timings.buckets(), timings.total)
        yield requests
        errors = CounterMetricFamily(
            "hipparchusd_error_answers", "Error answers, by error code", labels=["code"]
        )
        for code, count in sorted(metrics.errors.items()):
            errors.add_metric([code], count)
        yield errors
        store = HistogramMetricFamily(
            "hipparchusd_store_commit_duration_seconds",
            "Time for a store call to be recorded (committed to disk), by call",
            labels=["call"],
        )
        for call, timings in sorted(metrics.store_calls.items()):
            store.add_metric([call], timings.buckets(), timings.total)
        yield store
        yield HistogramMetricFamily(
            "hipparchusd_store_commit_batch_size",
            "Store calls committed together (group commit), per commit",
            buckets=metrics.batches.buckets(),
            sum_value=metrics.batches.total,
        )
        yield CounterMetricFamily(
            "hipparchusd_store_writer_restarts",
            "Store writer processes started to replace one that died",
            value=levels.writer_restarts,
        )
        searches = GaugeMetricFamily(
            "hipparchusd_engine_searches",
            "Engine searches now, running in a worker or queued for one",
            labels=["state"],
        )
        searches.add_metric(["running"], levels.searches_running)
        searches.add_metric(["queued"], levels.searches_queued)
        yield searches
        yield CounterMetricFamily(
            "hipparchusd_engine_worker_restarts",
            "Engine worker processes that died or were killed (replaced when next needed)",
            value=levels.worker_restarts,
        )
        yield GaugeMetricFamily(
            "hipparchusd_maintenance",
            "1 while new games are refused (maintenance or a drain)",
            value=int(levels.maintenance),
        )
        yield GaugeMetricFamily(
            "hipparchusd_draining", "1 while a drain is under way", value=int(levels.draining)
        )
