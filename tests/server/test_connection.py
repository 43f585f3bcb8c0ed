"""A connection's outbound queue (PROTOCOL.md section 7): messages queued together, one piece
or several, count one by one against its limit, whether they are sent at once or wait for
the writer task."""

from __future__ import annotations

from collections.abc import Iterable

import trio

from hipparchusd.lobby import Session
from hipparchusd.protocol import LineError
from hipparchusd.server.connection import Connection


class Socket(Connection):
    """A transport that takes ``room`` bytes at once, and the rest only through the writer."""

    transport = "test"

    def __init__(self, queue_size: int, room: int) -> None:
        super().__init__(Session(1, "test"), queue_size, [])
        self.room = room
        self.sent = b""

    async def receive_requests(self) -> Iterable[str | LineError] | None:
        return None

    def send_now(self, data: bytes) -> int:
        taken = data[: self.room]
        self.sent += taken
        return len(taken)

    async def send(self, data: bytes) -> None:
        self.sent += data


async def test_messages_queued_in_one_piece_count_one_by_one() -> None:
    conn = Socket(queue_size=4, room=0)
    conn.enqueue(b"a\nb\n", 2)
    conn.enqueue(b"c\n")
    conn.flush()  # the transport takes nothing: all three wait for the writer
    assert conn.backed_up and not conn.overflowed
    conn.enqueue(b"d\ne\n", 2)  # five messages would wait: the connection is closed
    assert conn.overflowed


async def test_the_writer_sends_the_backlog_and_frees_the_queue() -> None:
    conn = Socket(queue_size=4, room=2)
    conn.enqueue(b"a\nb\n", 2)
    conn.enqueue(b"c\n")
    conn.flush()  # the transport takes "a\n" at once: the rest waits for the writer
    assert conn.sent == b"a\n" and conn.backed_up
    async with trio.open_nursery() as nursery:
        nursery.start_soon(conn.write_backlog)
        with trio.fail_after(1):
            await conn.wait_drained()
        assert conn.sent == b"a\nb\nc\n" and not conn.backed_up
        conn.room = 100
        conn.enqueue(b"d\ne\n", 2)
        conn.enqueue(b"f\ng\n", 2)  # four wait at most: the queue has room for them
        conn.flush()
        assert conn.sent == b"a\nb\nc\nd\ne\nf\ng\n" and not conn.overflowed
        conn.close()
