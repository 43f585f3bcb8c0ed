"""The PostgreSQL store's writer process: the daemon's only database connection, with group
commit (psycopg 3, synchronous: its async API runs on asyncio only, and a blocking client
belongs off the trio thread anyway, for the reasons :mod:`hipparchusd.store.writer` gives).

:class:`~.store.PostgresStore` starts this module as a child process
(``python -m hipparchusd.store.pg.writer --fd N --name NODE``, the database's URL in its
environment, :data:`URL_VARIABLE`, so that no password shows in ``ps``) and talks to it over a
Unix socket pair, in the frames of :mod:`hipparchusd.store.frames`, exactly as SQLite's writer
does (that module's docstring gives the conversation; the link is
:class:`~hipparchusd.store.writer_link.WriterLink`). At start it connects, checks the layout
and migrates it (:mod:`.schema`), then says ``("ready", settings)`` (the server's version,
``synchronous_commit``, the layout version and the cluster's id) or ``("failed", message)``
and exits 1.

Durability. The session's ``synchronous_commit`` is ``on`` whatever the server's default: a
COMMIT returns once the server has flushed its write-ahead log (and, where the operator has
set up synchronous replication, once the standbys have it too). ``off`` would acknowledge
moves a server crash can lose; this program never asks for it.

The connection lost. A batch that fails with the connection (PostgreSQL restarted, the network
down) is answered as failed, nothing stored, when the failure came before COMMIT, and as
uncertain when it came during COMMIT (the server may have committed it). The next batch
connects again, once, before it is tried; while the server is away every batch fails at once
with the reason, and the daemon answers ``? internal ... nothing was changed``.

Locks. ``lock_timeout`` bounds the wait for a row another daemon holds (a claim meeting a
write), and ``idle_in_transaction_session_timeout`` ends the transaction of a writer that was
stopped in the middle of one (SIGSTOP), so that its row locks do not hold the others up.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import socket
import time
from typing import Any, Final

import psycopg

from ..batching import batches
from ..frames import encode
from . import schema
from .batch import Answer, first_line, run_batch
from .url import URL_VARIABLE, describe

#: Seconds a connection attempt may take (an unreachable server fails the batch after it).
CONNECT_TIMEOUT: Final = 3
#: What the writer's session sets: never ``synchronous_commit = off`` (see the module).
SESSION_SETTINGS: Final = {
    "synchronous_commit": "on",
    "lock_timeout": "2s",
    "idle_in_transaction_session_timeout": "5s",
}


def connect(url: str, name: str) -> psycopg.Connection[Any]:
    """A connection to ``url`` with this writer's session settings, not in a transaction.

    Raises:
        psycopg.Error: the server cannot be reached or refuses the connection.
    """
    options = " ".join(f"-c {key}={value}" for key, value in SESSION_SETTINGS.items())
    conn = psycopg.connect(
        url,
        connect_timeout=CONNECT_TIMEOUT,
        application_name=f"hipparchusd {name}"[:63],
        options=options,
    )
    return conn


def open_checked(url: str, name: str) -> tuple[psycopg.Connection[Any], dict[str, object]]:
    """Connect, check and migrate the layout; the connection and the settings to report.

    Raises:
        schema.SchemaError: the database is not hipparchusd's, or is newer.
        psycopg.Error: unreachable, refused, or a migration failed.
    """
    where = describe(url)
    conn = connect(url, name)
    try:
        found = schema.migrate(conn, where)
        with conn.cursor() as cur:
            cur.execute("SHOW synchronous_commit")
            row = cur.fetchone()
            synchronous = row[0] if row else "?"
            cur.execute("SELECT value FROM meta WHERE key = 'cluster_id'")
            row = cur.fetchone()
            cluster = row[0] if row else "?"
        conn.commit()
    except BaseException:
        conn.close()
        raise
    settings: dict[str, object] = {
        "server_version": conn.info.server_version,
        "synchronous_commit": synchronous,
        "schema_version": schema.latest_version(),
        "migrated_from": found,
        "cluster_id": cluster,
    }
    return conn, settings


def serve(sock: socket.socket, url: str, name: str) -> None:
    """Connect to ``url``, check and migrate it, say ``ready``, then commit batches and answer
    them until the input ends, connecting again after the connection is lost."""
    where = describe(url)
    try:
        conn: psycopg.Connection[Any] | None
        conn, settings = open_checked(url, name)
    except schema.SchemaError as error:
        sock.sendall(encode(("failed", str(error))))
        raise SystemExit(1) from None
    except psycopg.Error as error:
        message = f"cannot use {where}: {first_line(error)}"
        sock.sendall(encode(("failed", message)))
        raise SystemExit(1) from None
    try:
        sock.sendall(encode(("ready", settings)))
        for batch in batches(sock):
            if conn is None or conn.closed:
                conn = _reconnect(url, name)
            if conn is None:
                failure = f"{where} cannot be reached; nothing was stored"
                answers: list[Answer] = [(request[0], failure, None) for request in batch]
                result: tuple[int, list[Answer]] = (0, answers)
            else:
                result = run_batch(conn, batch, where)
            with contextlib.suppress(OSError):  # the parent is gone: the rest still commits
                sock.sendall(encode(result))
    finally:
        if conn is not None:
            conn.close()


def _reconnect(url: str, name: str) -> psycopg.Connection[Any] | None:
    """A new connection after the last was lost, or ``None`` when the server cannot be
    reached now (the batch fails; the next one tries again)."""
    try:
        return connect(url, name)
    except psycopg.Error:
        time.sleep(0.05)  # the caller answers at once; this keeps a dead server from a spin
        return None


def main(argv: list[str] | None = None) -> None:
    """``python -m hipparchusd.store.pg.writer --fd N --name NODE``: serve the parent on the
    inherited socket ``N``, on the database :data:`URL_VARIABLE` names."""
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_IGN)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fd", type=int, required=True, help="the socket to the daemon")
    parser.add_argument("--name", default="hipparchusd", help="the node's name, for the server")
    args = parser.parse_args(argv)
    with socket.socket(fileno=args.fd) as sock:
        sock.setblocking(True)
        serve(sock, os.environ.get(URL_VARIABLE, ""), args.name)


if __name__ == "__main__":
    main()
