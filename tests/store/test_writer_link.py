"""The link to a writer process knows no database: any child that speaks the frames (requests
in, ``(transactions, answers)`` out) serves it, the calls of one scheduling round go in one
batch, and a refusal fails its own call alone."""

from __future__ import annotations

import socket
import subprocess
import sys
from typing import Any

import pytest
import trio

from hipparchusd.store.base import StoreError
from hipparchusd.store.frames import FrameReader
from hipparchusd.store.writer_link import Writer, WriterLink

#: A writer with no database: it answers each batch it reads with one transaction, each
#: request's answer its operation's name and arguments, or a refusal for ``refuse``.
_ECHO_WRITER = """
import socket, sys
from hipparchusd.store.frames import FrameReader, encode
sock = socket.socket(fileno=int(sys.argv[1]))
sock.sendall(encode(("ready", {"kind": "echo"})))
frames = FrameReader()
while data := sock.recv(65536):
    for batch in frames.feed(data):
        answers = [
            (i, f"{op} refused", None) if op == "refuse" else (i, None, [op, *args])
            for i, op, args in batch
        ]
        sock.sendall(encode((1, answers)))
"""


async def _start_echo() -> Writer:
    ours, theirs = socket.socketpair()
    process = subprocess.Popen(
        [sys.executable, "-c", _ECHO_WRITER, str(theirs.fileno())], pass_fds=(theirs.fileno(),)
    )
    theirs.close()
    ours.setblocking(False)
    frames = FrameReader()
    messages: list[Any] = []
    with trio.fail_after(30):  # generous: a Python start on a loaded machine
        while not messages:
            await trio.lowlevel.wait_readable(ours)
            messages = frames.feed(ours.recv(65536))
    status, settings = messages[0]
    assert status == "ready"
    return process, ours, settings


async def test_calls_of_one_round_go_in_one_batch_to_any_writer(nursery: trio.Nursery) -> None:
    link = WriterLink(await _start_echo(), start=_start_echo, where="echo", max_pending=16)
    link.start(nursery)
    assert link.settings == {"kind": "echo"}
    results: dict[int, object] = {}

    async def call(number: int) -> None:
        results[number] = await link.call("put", (f"g{number}", number))

    async with trio.open_nursery() as callers:
        for number in range(5):
            callers.start_soon(call, number)
    assert results == {n: ["put", f"g{n}", n] for n in range(5)}
    assert (link.transactions, link.requests) == (1, 5)
    with pytest.raises(StoreError, match="refuse refused"):
        await link.call("refuse", ("g1",))
    assert await link.call("put", ("g2",)) == ["put", "g2"]  # the refusal failed alone
    assert link.take_uncertain() == set()
    await link.aclose()
    assert link.process.returncode == 0
    with pytest.raises(StoreError, match="closed"):
        await link.call("put", ("g3",))
