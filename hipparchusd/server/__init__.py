"""The trio server: :func:`serve` runs a daemon on listeners (its own or systemd's), and
:func:`run` is the whole process: store, signals, serve."""

from .run import open_store, run, run_async, serve
from .shell import Connection, Sequencer, Server

__all__ = [
    "Connection",
    "Sequencer",
    "Server",
    "open_store",
    "run",
    "run_async",
    "serve",
]
