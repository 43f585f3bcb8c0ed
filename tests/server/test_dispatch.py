"""``Pipeline.dispatch``: a result's events reach each recipient's connection in order, in the
connection's output mode, a seat's private event only that seat's (PROTOCOL.md section 4); and
each event counts as one message against a connection's queue limit, so that a connection that
reaches its limit part-way through a run of events for the same recipients is closed (section
7) while the others get everything. The pipeline queues such a run as one piece per connection:
these tests see only what each connection is sent.

The expected lines are written out from the protocol's rules (text fields, JSON objects), not
taken from the code's own encoding."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from hipparchusd.lobby import Delivery, EventMessage, Lobby, Result, Session
from hipparchusd.protocol import LineError, Mode
from hipparchusd.server.connection import Connection
from hipparchusd.server.pipeline import Pipeline
from hipparchusd.store.base import MemoryStore


class Recorder(Connection):
    """A transport that takes everything at once and keeps it."""

    transport = "test"

    def __init__(self, session: Session, queue_size: int, dirty: list[Connection]) -> None:
        super().__init__(session, queue_size, dirty)
        self.sent = b""

    async def receive_requests(self) -> Iterable[str | LineError] | None:
        return None

    def send_now(self, data: bytes) -> int:
        self.sent += data
        return len(data)

    async def send(self, data: bytes) -> None:  # pragma: no cover - send_now takes it all
        self.sent += data


# A move's events in g1 as the lobby addresses them: public ones (seq 4, 5, then 6-8) to every
# follower, and seat 0's own hand, which carries the seq of the public event before it, to the
# connection holding seat 0 only. Each as (seq, kind, data, text line, private).
EVENTS: list[tuple[int, str, dict[str, Any], str, bool]] = [
    (4, "played", {"seat": 1, "play": "1S"}, "* g1 4 played seat=1 play=1S", False),
    (5, "turn", {"seat": 0, "lead": "1S"}, "* g1 5 turn seat=0 lead=1S", False),
    (5, "hand", {"seat": 0, "hand": "SMEE"}, "* g1 5 hand seat=0 hand=SMEE", True),
    (6, "to-move", {"seats": [0]}, "* g1 6 to-move seats=0", False),
    (7, "joined", {"seat": 2, "name": "cy"}, "* g1 7 joined seat=2 name=cy", False),
    (8, "resumed", {"seat": 1}, "* g1 8 resumed seat=1", False),
]
PUBLIC = [e for e in EVENTS if not e[4]]


def text_lines(events: list[tuple[int, str, dict[str, Any], str, bool]]) -> bytes:
    return b"".join(f"{line}\n".encode() for _, _, _, line, _ in events)


def json_objects(events: list[tuple[int, str, dict[str, Any], str, bool]]) -> list[Any]:
    return [
        {"game": "g1", "seq": seq, "kind": kind, "data": data} for seq, kind, data, _, _ in events
    ]


def parse_json_events(sent: bytes) -> list[Any]:
    """Each ``* {json}`` line of ``sent`` as its object; every line must be one."""
    assert sent.endswith(b"\n")
    objects = []
    for line in sent.decode().split("\n")[:-1]:
        assert line.startswith("* "), line
        objects.append(json.loads(line[2:]))
    return objects


async def test_each_follower_gets_its_events_in_order_and_a_full_queue_closes_its_own() -> None:
    connections: dict[int, Connection] = {}
    pipeline = Pipeline(Lobby(clock=lambda: 1000.0), MemoryStore(), connections)

    def connect(number: int, mode: Mode, queue_size: int) -> Recorder:
        session = Session(number, f"peer{number}")
        session.mode = mode
        conn = Recorder(session, queue_size, pipeline.dirty)
        connections[number] = conn
        return conn

    # The holder of seat 0 (text) gets all six; the others the five public ones. 'exact' has
    # room for exactly those five, 'short' for three: it reaches its limit in the middle of
    # the run of seq 6-8, after the run of seq 4-5 is queued.
    holder = connect(1, Mode.TEXT, 256)
    watcher = connect(2, Mode.JSON, 256)
    exact = connect(3, Mode.TEXT, len(PUBLIC))
    short = connect(4, Mode.TEXT, 3)
    # A follower whose connection is already gone is skipped.
    gone = Session(5, "peer5")
    followers = (holder.session, watcher.session, exact.session, short.session, gone)
    mine = (holder.session,)

    deliveries = [
        Delivery(mine if private else followers, EventMessage("g1", seq, kind, data))
        for seq, kind, data, _, private in EVENTS
    ]
    pipeline.dispatch(Result(deliveries=deliveries))
    pipeline.flush()

    assert holder.sent == text_lines(EVENTS)
    assert parse_json_events(watcher.sent) == json_objects(PUBLIC)
    assert exact.sent == text_lines(PUBLIC)
    for conn in (holder, watcher, exact):
        assert not conn.overflowed and not conn.cancel_scope.cancel_called
    # Over its limit: closed, and sent nothing more.
    assert short.overflowed and short.cancel_scope.cancel_called
    assert short.sent == b""
    assert b"hand" not in watcher.sent + exact.sent


async def test_a_private_event_between_public_ones_keeps_every_followers_order() -> None:
    """The same message objects, delivered twice over, to followers in both modes: a
    connection gets each in its own mode, the private one only for its holder."""
    connections: dict[int, Connection] = {}
    pipeline = Pipeline(Lobby(clock=lambda: 1000.0), MemoryStore(), connections)
    sessions = []
    for number, mode in enumerate((Mode.JSON, Mode.TEXT, Mode.JSON), 1):
        session = Session(number, f"peer{number}")
        session.mode = mode
        connections[number] = Recorder(session, 256, pipeline.dirty)
        sessions.append(session)
    followers = tuple(sessions)
    holder = sessions[0]  # JSON mode: its private event comes in JSON too
    deliveries = [
        Delivery((holder,) if private else followers, EventMessage("g1", seq, kind, data))
        for seq, kind, data, _, private in EVENTS
    ]
    pipeline.dispatch(Result(deliveries=deliveries))
    pipeline.dispatch(Result(deliveries=deliveries))
    pipeline.flush()
    sent = {number: conn.sent for number, conn in connections.items()}  # type: ignore[attr-defined]
    assert parse_json_events(sent[1]) == json_objects(EVENTS) * 2
    assert sent[2] == text_lines(PUBLIC) * 2
    assert parse_json_events(sent[3]) == json_objects(PUBLIC) * 2
