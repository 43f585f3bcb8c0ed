"""The daemons' bus: Redis pub/sub between the daemons sharing a store (issue 28), as
lichess's lila and lila-ws talk (:class:`RedisBus`).

Each daemon subscribes to its own channel, ``hipparchusd:<cluster>:<node>`` (``cluster``: the
database's own id, so that two clusters may share one Redis), and publishes to another's. What
a daemon posts for another (:meth:`RedisBus.post`) waits in that node's outbox until the
sending task's next round, which publishes each node's items as one message: a JSON object
``{"f": <sender>, "e": <sender's epoch>, "m": [<item>, ...]}``, each item a JSON array whose
first element names its kind (:mod:`.wire`). Redis keeps the order of one connection's
publications, so a node receives another's items in the order they were posted. PUBLISH
answers how many subscribers got the message: 0 means the node is not listening (gone, or not
subscribed yet), which the bus reports (``on_unreachable``).

Why not a Redis client library: the first one tried for trio (coredis, on anyio) cost about
0.8 ms of CPU per command round trip on the development machine, against about 0.13 ms for
the same commands written to a trio socket; forwarding a request costs two publications and
two receptions, and issue 28 bounds what forwarding may add. So the bus speaks RESP itself,
through hiredis (Redis's own parser and command packer) over trio sockets: a publishing
connection and a subscribed one.

Failures. The bus is lost when either connection fails (Redis restarted, the network cut):
pub/sub keeps no message for a subscriber that is away, so everything in flight between the
daemons is gone. ``on_lost`` is called, every outbox is dropped, and the bus connects again
(backoff from 0.1 s to 2 s) until it is stopped; ``on_up`` is called once it is subscribed
again. An outbox past :data:`MAX_OUTBOX` items (a node that stopped reading) counts as lost.
Redis pub/sub is fire and forget: what needs an answer (a forwarded request) times out on the
sender's side (:mod:`.forwarding`).
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable
from typing import Any, Final, cast
from urllib.parse import urlsplit

import hiredis
import trio

from ...jsondata import JSON

#: Items one outbox may hold before the bus counts itself lost (a stuck peer).
MAX_OUTBOX: Final = 100_000
#: Seconds before connecting again after the bus was lost, the first time; doubled up to
#: :data:`MAX_BACKOFF`.
FIRST_BACKOFF: Final = 0.1
MAX_BACKOFF: Final = 2.0
#: Seconds a connection to Redis may take.
CONNECT_TIMEOUT: Final = 5.0
#: The environment variable that holds the bus's password (never the URL: logs show that).
PASSWORD_VARIABLE: Final = "HIPPARCHUSD_BUS_PASSWORD"
_READ_SIZE: Final = 1 << 16

log = logging.getLogger("hipparchusd.cluster")

#: What a message from another node gives the bus's owner: the sender, its epoch, the items.
Receive = Callable[[str, int, list[JSON]], None]


class BusError(Exception):
    """Redis answered an error, or closed the connection."""


def _pack(*words: str | bytes) -> bytes:
    """One command in RESP (hiredis's packer: its type stubs want a one-element tuple)."""
    packed: bytes = hiredis.pack_command(cast(Any, words))
    return packed


def channel(cluster: str, node: str) -> str:
    """The channel ``node`` of ``cluster`` listens on."""
    return f"hipparchusd:{cluster}:{node}"


class _Connection:
    """One connection to Redis: commands written, replies parsed by hiredis."""

    def __init__(self, sock: trio.socket.SocketType) -> None:
        self.sock = sock
        self.reader = hiredis.Reader()

    @classmethod
    async def open(cls, host: str, port: int, password: str | None) -> _Connection:
        with trio.fail_after(CONNECT_TIMEOUT):
            stream = await trio.open_tcp_stream(host, port)
        connection = cls(stream.socket)
        # The stream's socket is used directly (fewer layers per write); the stream object
        # is dropped without closing it.
        if password is not None:
            await connection.command("AUTH", password)
        return connection

    async def send(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            sent = await self.sock.send(view)
            view = view[sent:]

    async def reply(self) -> object:
        """The next reply (a ``hiredis.ReplyError`` is raised as :class:`BusError`)."""
        while True:
            found = self.reader.gets()
            if found is not False:
                if isinstance(found, hiredis.ReplyError):
                    raise BusError(str(found))
                return found
            data = await self.sock.recv(_READ_SIZE)
            if not data:
                raise BusError("Redis closed the connection")
            self.reader.feed(data)

    async def command(self, *words: str | bytes) -> object:
        await self.send(_pack(*words))
        return await self.reply()

    def close(self) -> None:
        self.sock.close()


class RedisBus:
    """The bus of one node (see the module). :meth:`run` connects and keeps it up until
    cancelled; :meth:`post` queues an item for another node.

    Args:
        url: ``redis://host:port[/db]`` (the database number does not matter: pub/sub spans
            them all).
        cluster: the cluster's id, which names the channels.
        node: this node's name.
        epoch: this node's epoch now (its store's registration), sent with every message: read
            at each sending, so that a node registered anew speaks under its new epoch from
            its first message on (its old epoch's sessions are gone at the others).
        receive: called, in the bus's reading task, with each message's sender, its epoch and
            its items; it must not block.
        on_lost: called once each time the bus is lost (see the module).
        on_unreachable: called with a node whose channel nobody listened on.
    """

    def __init__(
        self,
        url: str,
        *,
        cluster: str,
        node: str,
        epoch: Callable[[], int],
        receive: Receive,
        on_lost: Callable[[], None],
        on_unreachable: Callable[[str], None],
    ) -> None:
        parts = urlsplit(url)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 6379
        self.where = f"redis://{self.host}:{self.port}"
        self.cluster = cluster
        self.node = node
        self._epoch = epoch
        self._password = os.environ.get(PASSWORD_VARIABLE) or None
        self._receive = receive
        self._on_lost = on_lost
        self._on_unreachable = on_unreachable
        self._outboxes: dict[str, list[JSON]] = {}
        self._queued = 0
        self._wakeup = trio.Event()
        #: Set while both connections are up and this node's channel is subscribed.
        self.up = False
        self._up = trio.Event()
        self._lost: trio.CancelScope | None = None
        self._why = ""
        self.published = 0
        self.received = 0

    async def wait_up(self) -> None:
        """Return once the bus is up."""
        await self._up.wait()

    def post(self, node: str, item: JSON) -> bool:
        """Queue ``item`` for ``node``, published at the sending task's next round; False (and
        nothing queued) while the bus is down."""
        if not self.up:
            return False
        outbox = self._outboxes.get(node)
        if outbox is None:
            outbox = self._outboxes[node] = []
        outbox.append(item)
        self._queued += 1
        if self._queued > MAX_OUTBOX:
            log.error("bus %s: %d items wait to be sent: counting the bus lost", self.where,
                      self._queued)  # fmt: skip
            if self._lost is not None:
                self._lost.cancel()
            return True
        self._wakeup.set()
        return True

    async def run(self) -> None:
        """Connect, subscribe and serve until cancelled, connecting again whenever the bus is
        lost (see the module)."""
        backoff = FIRST_BACKOFF
        while True:
            try:
                await self._serve()
            except (OSError, BusError, trio.TooSlowError, hiredis.ProtocolError) as error:
                if self.up or backoff == FIRST_BACKOFF:
                    log.error("bus %s lost: %s", self.where, error or type(error).__name__)
            was_up = self.up
            self._down()
            if was_up:
                backoff = FIRST_BACKOFF
            await trio.sleep(backoff)
            backoff = min(backoff * 2, MAX_BACKOFF)

    def _down(self) -> None:
        if self.up:
            self.up = False
            self._up = trio.Event()
            self._on_lost()
        self._outboxes.clear()
        self._queued = 0

    async def _serve(self) -> None:
        subscriber = await _Connection.open(self.host, self.port, self._password)
        try:
            publisher = await _Connection.open(self.host, self.port, self._password)
            try:
                mine = channel(self.cluster, self.node)
                await subscriber.send(_pack("SUBSCRIBE", mine))
                confirmed = await subscriber.reply()
                if not isinstance(confirmed, list) or confirmed[:1] != [b"subscribe"]:
                    raise BusError(f"SUBSCRIBE answered {confirmed!r}")
                self._why = "the bus was counted lost"
                with trio.CancelScope() as self._lost:
                    async with trio.open_nursery() as nursery:
                        nursery.start_soon(self._read, subscriber, nursery.cancel_scope)
                        nursery.start_soon(self._publish, publisher, nursery.cancel_scope)
                        self.up = True
                        self._up.set()
                        log.info("bus %s up: node %s listens on %s", self.where, self.node, mine)
                raise BusError(self._why)
            finally:
                publisher.close()
        finally:
            subscriber.close()
            self._lost = None

    async def _read(self, connection: _Connection, scope: trio.CancelScope) -> None:
        """Hand each message on this node's channel to ``receive``."""
        receive = self._receive
        try:
            while True:
                message = await connection.reply()
                if not isinstance(message, list) or len(message) != 3 or message[0] != b"message":
                    continue
                self.received += 1
                try:
                    body = json.loads(message[2])
                    sender, epoch, items = body["f"], body["e"], body["m"]
                except (ValueError, KeyError, TypeError):
                    log.error("bus %s: a message that is not the bus's was ignored", self.where)
                    continue
                try:
                    receive(str(sender), int(epoch), items)
                except Exception:  # a bug: the other messages still go through
                    log.exception("bus %s: handling a message from %s failed", self.where, sender)
        except (OSError, BusError, hiredis.ProtocolError) as error:
            self._why = f"reading: {error or type(error).__name__}"
        finally:
            scope.cancel()

    async def _publish(self, connection: _Connection, scope: trio.CancelScope) -> None:
        """Publish each node's outbox as one message whenever something was posted."""
        try:
            while True:
                await self._wakeup.wait()
                self._wakeup = trio.Event()
                # Let the tasks that are ready post theirs too: one message per node per round.
                await trio.lowlevel.checkpoint()
                outboxes, self._outboxes, self._queued = self._outboxes, {}, 0
                nodes = list(outboxes)
                packed = b"".join(
                    _pack(
                        "PUBLISH",
                        channel(self.cluster, node),
                        json.dumps(
                            {"f": self.node, "e": self._epoch(), "m": outboxes[node]},
                            separators=(",", ":"),
                        ),
                    )
                    for node in nodes
                )
                await connection.send(packed)
                for node in nodes:
                    receivers = await connection.reply()
                    self.published += 1
                    if receivers == 0:
                        self._on_unreachable(node)
        except (OSError, BusError, hiredis.ProtocolError) as error:
            self._why = f"publishing: {error or type(error).__name__}"
        finally:
            scope.cancel()
