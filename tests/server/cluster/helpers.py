"""Daemons sharing one PostgreSQL store and one Redis bus, for the cluster tests: in this
process (:func:`start_node`, each a :class:`Server` with its own store, node and bus, as
``hipparchusd --store ... --node ... --bus ...`` runs one) or as processes
(:func:`node_args`), and the small client moves they share."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import trio
from daemon.client import Client, event_fields
from daemon.helpers import DEAL

from hipparchusd.server import Server, serve
from hipparchusd.server.run import open_service
from hipparchusd.settings import Settings


async def start_node(
    nursery: trio.Nursery, store: str, bus: str | None, node: str, **options: Any
) -> Server:
    """A daemon in ``nursery`` on 127.0.0.1 port 0, node ``node`` of the cluster on ``store``
    (a PostgreSQL URL) with ``bus`` (a Redis URL); shut down when the nursery is cancelled,
    or by ``server.shutdown()``."""
    settings = Settings(
        **{
            "port": 0,
            "grace_period": 0.5,
            "store": store,
            "node": node,
            "bus": bus,
            "node_lease": 2.0,
            "engine_workers": 1,
            **options,
        }
    )

    async def run(task_status: trio.TaskStatus[Server]) -> None:
        async with open_service(settings) as (shared, cluster):
            await serve(settings, shared, cluster=cluster, task_status=task_status)

    server: Server = await nursery.start(run)
    return server


#: Seconds a cluster daemon process may take to greet: it starts its store's writer process,
#: which connects to PostgreSQL and checks the layout, then joins the bus; on a loaded
#: machine that takes far longer than a daemon alone (the wait ends at the greeting).
START_WAIT = 90.0


def node_args(store: str, bus: str | None, node: str, *args: str) -> list[str]:
    """The command-line arguments of a daemon process, node ``node`` of the cluster on
    ``store`` with ``bus``, for the ``daemon_factory`` fixture."""
    extra = ["--config", "", "--store", store, "--node", node, "--node-lease", "2",
             "--engine-workers", "1", "--grace-period", "0.5"]  # fmt: skip
    if bus is not None:
        extra += ["--bus", bus]
    return [*extra, *args]


async def a_match_on(port: int) -> tuple[str, dict[int, Client], list[str]]:
    """A match of the fixed deal made through ``port`` and both seats joined through it, each
    on its own connection: the game, the seats' clients and their tokens."""
    alice = await Client.connect(port)
    bob = await Client.connect(port)
    game = (await alice.ok(f"new hipparchus leader=0 deal={DEAL}")).fields()["game"]
    tokens = [(await alice.ok(f"join {game} 0 name=alice")).fields()["token"]]
    tokens.append((await bob.ok(f"join {game} 1 name=bob")).fields()["token"])
    return game, {0: alice, 1: bob}, tokens


async def to_move(client: Client, timeout: float = 20.0) -> tuple[list[str], set[int]]:
    """The events up to the next ``to-move`` or ``game-over``, and the seats to move then
    (none once the game is over)."""
    events = await client.events_until(["to-move", "game-over"], timeout=timeout)
    _, _, kind, fields = event_fields(events[-1])
    if kind == "game-over":
        return events, set()
    return events, {int(seat) for seat in str(fields["seats"]).split(",")}


async def _all_to_move(clients: Iterable[Client]) -> set[int]:
    """Every client reads its events up to the next ``to-move``; the seats to move then."""
    movers: set[int] = set()
    for client in clients:
        movers = (await to_move(client))[1]
    return movers


def public_seqs(events: Sequence[str], game: str) -> list[int]:
    """The ``seq`` of each event of ``game`` that counts in it (the public ones: a seat's own
    event repeats the seq before it)."""
    seqs: list[int] = []
    for line in events:
        found, seq, _, _ = event_fields(line)
        if found == game and (not seqs or seq != seqs[-1]):
            seqs.append(seq)
    return seqs


async def play_on(
    game: str, seats: dict[int, Client], moves: int, movers: set[int] | None = None
) -> tuple[int, set[int]]:
    """Play up to ``moves`` moves of ``game`` (its first legal move each time), each seat
    through its own client, every client reading its events up to the next ``to-move``; how
    many were played (fewer when the game ends) and the seats to move then. ``movers``: the
    seats to move now, when every client has read its events up to that ``to-move`` already
    (an earlier call's answer); by default the clients read up to the next one first."""
    played = 0
    if movers is None:
        movers = await _all_to_move(seats.values())
    while movers and played < moves:
        client = seats[min(movers)]
        legal = await client.ok(f"legal {game}")
        await client.ok(f"play {game} {legal.lines[0].split()[0]}")
        played += 1
        movers = await _all_to_move(seats.values())
    return played, movers


async def drain_events(client: Client, quiet: float = 0.3) -> list[str]:
    """The events that come before ``quiet`` seconds pass with none."""
    events: list[str] = []
    while True:
        try:
            events.append(await client.next_event(timeout=quiet))
        except trio.TooSlowError:
            return events
