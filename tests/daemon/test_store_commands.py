"""What the lobby asks of a store, as values: the commands the shell turns into store calls,
the needs (a finished or adjourned game only the store holds) it fulfils, and the accept
loop's policy on errors (as ``trio.serve_listeners``)."""

from __future__ import annotations

import errno
import logging
import subprocess
import sys
from typing import Any

import pytest
import trio

from hipparchusd.lobby import Lobby, NeedsStoredGame, NeedsStoredToken, token_digest
from hipparchusd.protocol import parse_request
from hipparchusd.records import (
    AddMove,
    AddSeat,
    CreateGame,
    DropGame,
    Finish,
    RemoveSeat,
    Snapshot,
    StoreCommand,
    StoredGame,
    StoredSeat,
)
from hipparchusd.server import Server
from hipparchusd.server.lifecycle import ACCEPT_RETRY_DELAY
from hipparchusd.server.storage import describe, execute
from hipparchusd.settings import Settings
from hipparchusd.store.base import MemoryStore


class RecordingStore(MemoryStore):
    """Records each call it gets, with its arguments."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    async def create_game(self, *args: Any) -> None:
        self.calls.append(("create_game", *args))

    async def add_seat(self, *args: Any) -> None:
        self.calls.append(("add_seat", *args))

    async def remove_seat(self, *args: Any) -> None:
        self.calls.append(("remove_seat", *args))

    async def add_move(self, *args: Any) -> None:
        self.calls.append(("add_move", *args))

    async def snapshot(self, *args: Any) -> None:
        self.calls.append(("snapshot", *args))

    async def finish(self, *args: Any) -> None:
        self.calls.append(("finish", *args))

    async def drop_game(self, *args: Any) -> None:
        self.calls.append(("drop_game", *args))


SEAT = StoredSeat(1, "bob", bytes(32))


@pytest.mark.parametrize(
    ("command", "call"),
    [
        (
            CreateGame("g1", "hipparchus", {"seed": "3"}, 5.0),
            ("g1", "hipparchus", {"seed": "3"}, 5.0),
        ),
        (AddSeat("g1", SEAT, {"rounds": []}), ("g1", SEAT, {"rounds": []})),
        (RemoveSeat("g1", 1), ("g1", 1)),
        (AddMove("g1", 0, "1S@1"), ("g1", 0, "1S@1", None)),
        (Snapshot("g1", {"rounds": []}), ("g1", {"rounds": []})),
        (Finish("g1", {"rounds": []}), ("g1", {"rounds": []})),
        (DropGame("g1"), ("g1",)),
    ],
)
async def test_each_command_is_the_store_call_it_names(
    command: StoreCommand, call: tuple[Any, ...]
) -> None:
    store = RecordingStore()
    await execute(store, command)
    assert store.calls == [(command.call, *call)]
    # A log line names the call and the game, nothing of a seat's token or a hand.
    assert describe(command) == f"{command.call} g1"


def test_an_unknown_game_asks_for_the_stored_record_and_nothing_else() -> None:
    lobby = Lobby()
    session = lobby.connect()
    request = parse_request("record g9")
    assert request is not None
    result = lobby.prepare(session, request)
    assert result.response is not None and result.response.error is not None
    assert result.response.error.code == "unknown-game"
    assert result.store_calls == [] and result.deliveries == []
    need = result.needs
    assert isinstance(need, NeedsStoredGame) and need.game_id == "g9"
    # The store's finished game gives the answer: its players by seat and its record.
    stored = StoredGame("g9", "hipparchus", {}, 1.0, (SEAT,), {"rounds": []}, (), True)
    answer = need.answer(stored).response
    assert answer is not None and answer.error is None
    assert answer.data == {
        "game": "g9",
        "kind": "hipparchus",
        "options": {},
        "players": [None, "bob"],
        "record": {"rounds": []},
    }


def test_an_unknown_token_asks_for_the_stored_game_then_prepares_again() -> None:
    lobby = Lobby()
    session = lobby.connect()
    request = parse_request("resume 0123abcd")
    assert request is not None
    result = lobby.prepare(session, request)
    assert result.response is not None and result.response.error is not None
    assert result.response.error.code == "bad-token"
    need = result.needs
    assert isinstance(need, NeedsStoredToken)
    assert need.token_hash == token_digest("0123abcd")  # the digest only, never the token
    # Nothing was loaded meanwhile: preparing again refuses the same way.
    again = need.retry()
    assert again.response is not None and again.response.error is not None
    assert again.response.error.code == "bad-token"


def test_a_known_game_or_token_needs_nothing_from_the_store() -> None:
    lobby = Lobby()
    a, b = lobby.connect(), lobby.connect()
    for session, line in [(a, "new hipparchus"), (a, "join g1"), (b, "join g1")]:
        request = parse_request(line)
        assert request is not None
        lobby.handle(session, request)
    request = parse_request("state g1")
    assert request is not None
    assert lobby.prepare(a, request).needs is None


def test_the_lobby_imports_no_store() -> None:
    script = (
        "import sys, hipparchusd.lobby\n"
        "print(sorted(m for m in sys.modules if m.startswith('hipparchusd.store')))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


class FailingListener(trio.abc.Listener[trio.SocketStream]):
    """A listener whose ``accept`` raises each of ``errors`` in turn."""

    def __init__(self, errors: list[OSError]) -> None:
        self.errors = errors

    async def accept(self) -> trio.SocketStream:
        await trio.lowlevel.checkpoint()
        raise self.errors.pop(0)

    async def aclose(self) -> None:
        pass


async def test_accept_retries_only_when_the_system_is_out_of_resources(
    caplog: pytest.LogCaptureFixture, autojump_clock: trio.testing.MockClock
) -> None:
    caplog.set_level(logging.INFO, logger="hipparchusd.server")
    out_of = [OSError(code, "out") for code in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS)]
    listener = FailingListener([*out_of, OSError(errno.EBADF, "bad file descriptor")])
    server = Server(Settings(), MemoryStore())
    started = trio.current_time()
    async with trio.open_nursery() as nursery:
        with pytest.raises(OSError) as caught:
            await server._accept(listener, nursery)
    assert caught.value.errno == errno.EBADF  # raised, not retried
    assert trio.current_time() - started == pytest.approx(3 * ACCEPT_RETRY_DELAY)
    # One line for the streak of three failures.
    logged = [r.getMessage() for r in caplog.records if "accept" in r.getMessage()]
    assert logged == ["accept failed: EMFILE (Too many open files); retrying every 0.1 s"]
