"""How a daemon's PostgreSQL store (:mod:`.store`) starts: the node name a daemon takes
without ``--node``, and the writer process (:mod:`.writer`) it starts for the database."""

from __future__ import annotations

import os
import socket
from typing import Final

from ..spawn import Writer, spawn_writer
from .url import URL_VARIABLE, describe

#: Seconds the writer may take to connect, check and migrate the layout, and say it is ready.
WRITER_START_TIMEOUT: Final = 60.0


async def start_writer(url: str, node: str) -> Writer:
    """Start the PostgreSQL writer process (:mod:`.writer`) for ``url``, on behalf of
    ``node``: it connects, checks and migrates the layout.

    Raises:
        StoreError: it could not start, the database cannot be reached or used (the message
            says why), or it is not hipparchusd's or is newer.
    """
    return await spawn_writer(
        "hipparchusd.store.pg.writer",
        ["--name", node],
        what=f"the store's writer process for {describe(url)}",
        timeout=WRITER_START_TIMEOUT,
        env={URL_VARIABLE: url},
    )


def default_node_name() -> str:
    """A node name for a daemon started without ``--node``: the host's name and the process
    id, which no other live daemon has."""
    return f"{socket.gethostname()}-{os.getpid()}"
