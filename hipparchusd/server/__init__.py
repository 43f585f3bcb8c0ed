"""The trio server: :func:`serve` runs a daemon on listeners (its own or systemd's), and
:func:`run` is the whole process: store, signals, serve.

One job per module: :mod:`.lifecycle` (the :class:`Server`: listeners, connections' tasks,
restore, shutdown), :mod:`.sweeps` (the periodic sweeps: idle connections, abandoned and
unfollowed games, expired adjourned games), :mod:`.pipeline` (a request from its line to its
answer and events), :mod:`.sequencer` (each game's order of requests), :mod:`.connection` (a
connection's outbound queue whatever its transport, and the TCP transport), :mod:`.webfront`
(the web listener: the page over HTTP, the WebSocket handshake), :mod:`.websocket` (the
WebSocket transport: the same sessions over another I/O), :mod:`.engines` (the searches
results ask for: bot seats, ``genmove``, ``analyze`` streams), :mod:`.workers` (the engine's
worker processes they run on), :mod:`.storage` (the lobby's store commands as store calls),
the operator's side (issue 26): :mod:`.scrape` (the Prometheus metrics listener),
:mod:`.admin` (the admin channel), :mod:`.drain` (draining before a restart) and
:mod:`.bounded` (their accept loop), and :mod:`.run` (the process: store, signals,
systemd)."""

from .connection import Connection
from .lifecycle import Server
from .pipeline import Pipeline
from .run import open_store, run, run_async, serve
from .sequencer import Sequencer

__all__ = [
    "Connection",
    "Pipeline",
    "Sequencer",
    "Server",
    "open_store",
    "run",
    "run_async",
    "serve",
]
