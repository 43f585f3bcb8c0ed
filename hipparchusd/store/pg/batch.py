"""A batch of the PostgreSQL writer's requests in one transaction (:func:`run_batch`: group
commit), and the operations a request may name (:data:`OPERATIONS`). Runs in the writer
process only."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from typing import Any, Final

import psycopg

from ..batching import Request
from .claims import (
    expired,
    load_finished,
    locate,
    locate_token,
    orphans,
    owned_games,
    startup,
)
from .fencing import Fenced, Refused
from .nodes import register_node, release, renew, reserve_ids, retire
from .writes import (
    abandon,
    add_move,
    add_seat,
    create_game,
    drop_game,
    end_game,
    finish,
    insert_moves,
    prune,
    remove_seat,
    snapshot,
    touch,
)

#: The operations a request may name.
OPERATIONS: Final[dict[str, Callable[..., Any]]] = {
    function.__name__: function
    for function in (
        register_node,
        renew,
        retire,
        release,
        reserve_ids,
        create_game,
        add_seat,
        remove_seat,
        snapshot,
        add_move,
        finish,
        abandon,
        end_game,
        touch,
        drop_game,
        prune,
        locate,
        locate_token,
        startup,
        orphans,
        expired,
        owned_games,
        load_finished,
    )
}

#: An answer: (request id, error (a message, or ``(tag, message)``) or None, result).
Answer = tuple[int, str | tuple[str, str] | None, Any]


def _is_plain_move(request: Request) -> bool:
    return request[1] == "add_move" and request[2][3] is None


def _insert_plain_moves(
    conn: psycopg.Connection[Any], batch: Sequence[Request]
) -> list[str | tuple[str, str] | None]:
    """:func:`insert_moves` of the plain ``add_move`` requests ``batch`` (game, seat, move, no
    snapshot, time, node, epoch, fence) of one node, their games active at the latest time."""
    rows = [(args[0], args[1], args[2], args[7], args[8]) for _, _, args in batch]
    owner = (batch[0][2][5], batch[0][2][6])
    return insert_moves(conn, rows, max(args[4] for _, _, args in batch), owner)


def _error(error: Refused) -> str | tuple[str, str]:
    return ("fenced", str(error)) if isinstance(error, Fenced) else str(error)


def run_batch(
    conn: psycopg.Connection[Any], batch: list[Request], where: str
) -> tuple[int, list[Answer]]:
    """Apply ``batch`` in one transaction and commit it: (commits made, the answers).

    A request refused (:class:`Refused`) is left out and only its answer carries the error
    (``("fenced", message)`` for a :class:`Fenced` one). A database error before COMMIT
    rolls the whole batch back (every answer says nothing was stored); one during COMMIT
    leaves its outcome unknown (every answer is ``("uncertain", message)``): the connection
    was lost with the transaction's end in flight.

    Raises:
        psycopg.OperationalError: the connection is lost (after the answers were made: see
            the writer, which reconnects).
    """
    errors: list[str | tuple[str, str] | None] = [None] * len(batch)
    results: list[Any] = [None] * len(batch)
    try:
        start = 0
        while start < len(batch):
            end = start + 1
            if _is_plain_move(batch[start]):
                node = batch[start][2][5:7]
                while (
                    end < len(batch) and _is_plain_move(batch[end]) and batch[end][2][5:7] == node
                ):
                    end += 1
                errors[start:end] = _insert_plain_moves(conn, batch[start:end])
            else:
                _, name, arguments = batch[start]
                try:
                    results[start] = OPERATIONS[name](conn, *arguments)
                except Refused as refused:
                    errors[start] = _error(refused)
            start = end
    except psycopg.Error as error:
        if not conn.closed:
            with contextlib.suppress(psycopg.Error):
                conn.rollback()
        failure = f"writing to {where} failed ({first_line(error)}); nothing was stored"
        return 0, [(request[0], failure, None) for request in batch]
    try:
        conn.commit()
    except psycopg.Error as error:
        unknown = (
            "uncertain",
            f"{where} stopped answering during COMMIT ({first_line(error)}); the change may "
            "have been stored",
        )
        return 0, [(request[0], unknown, None) for request in batch]
    return 1, [
        (request[0], error, result)
        for request, error, result in zip(batch, errors, results, strict=True)
    ]


def first_line(error: BaseException) -> str:
    """The first line of a database error's message (psycopg's may run to several)."""
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
