"""Daemons sharing one PostgreSQL store and one Redis bus (issue 28): any daemon serves any game,
with no change to the protocol; a game is owned where it is made, and a client that reconnects
to any daemon resumes its seat with no gap in ``seq``."""

from __future__ import annotations

import trio
from daemon.client import Client, event_fields
from daemon.helpers import DEAL, HAND0, HAND1
from services import Redis

from hipparchusd.games.hipparchus import MatchRecord, replay
from hipparchusd.games.hipparchus.codec import converter

from .helpers import drain_events, play_on, public_seqs, start_node


def _gapless(seqs: list[int]) -> bool:
    return seqs == list(range(seqs[0], seqs[0] + len(seqs)))


async def test_a_match_is_played_through_two_daemons(
    nursery: trio.Nursery, pg_url: str, redis_server: Redis
) -> None:
    a = await start_node(nursery, pg_url, redis_server.url, "a")
    b = await start_node(nursery, pg_url, redis_server.url, "b")
    alice = await Client.connect(a.ports[0])
    bob = await Client.connect(b.ports[0])
    game = (await alice.ok(f"new hipparchus leader=0 deal={DEAL}")).fields()["game"]
    assert game in a.lobby.tables  # owned where it was made
    await alice.ok(f"join {game} 0 name=alice")
    joined = await bob.ok(f"join {game} 1 name=bob")  # forwarded to a
    assert joined.fields()["seat"] == "1" and game not in b.lobby.tables
    played, movers = await play_on(game, {0: alice, 1: bob}, 10_000)
    assert played > 0 and not movers
    record = await bob.ok(f"record {game}")  # through b as well
    assert record.ok
    for client, hand, other in ((alice, HAND0, HAND1), (bob, HAND1, HAND0)):
        seqs = public_seqs(client.events, game)
        assert _gapless(seqs), seqs
        hands = [e for e in client.events if event_fields(e)[2] == "hand"]
        # Each seat is sent its own hands only, through either daemon (RULINGS H13).
        assert hands and all(f"seat={0 if hand == HAND0 else 1}" in e for e in hands)
        assert f"hand={hand}" in hands[0] and f"hand={other}" not in " ".join(hands)
    # The match, as the database holds it, replays exactly to its end.
    stored = await a.store.load_finished(game)
    assert stored is not None
    state = replay(converter.structure(stored.snapshot, MatchRecord))
    assert state.over
    for client in (alice, bob):
        await client.aclose()


async def test_games_lists_every_daemons_games_and_ids_never_collide(
    nursery: trio.Nursery, pg_url: str, redis_server: Redis
) -> None:
    a = await start_node(nursery, pg_url, redis_server.url, "a")
    b = await start_node(nursery, pg_url, redis_server.url, "b")
    ann = await Client.connect(a.ports[0])
    ben = await Client.connect(b.ports[0])
    made = [(await ann.ok("new hipparchus")).fields()["game"] for _ in range(2)]
    made += [(await ben.ok("new planets players=3")).fields()["game"] for _ in range(2)]
    assert len(set(made)) == 4
    for client in (ann, ben):
        listed = (await client.ok("games")).lines
        assert sorted(line.split()[0] for line in listed) == sorted(f"game={g}" for g in made)
        await client.aclose()


async def test_a_seat_resumed_through_a_third_daemon_misses_no_event(
    nursery: trio.Nursery, pg_url: str, redis_server: Redis
) -> None:
    a = await start_node(nursery, pg_url, redis_server.url, "a")
    b = await start_node(nursery, pg_url, redis_server.url, "b")
    c = await start_node(nursery, pg_url, redis_server.url, "c")
    alice = await Client.connect(a.ports[0])
    bob = await Client.connect(b.ports[0])
    game = (await alice.ok(f"new hipparchus leader=0 deal={DEAL}")).fields()["game"]
    await alice.ok(f"join {game} 0 name=alice")
    token = (await bob.ok(f"join {game} 1 name=bob")).fields()["token"]
    _, movers = await play_on(game, {0: alice, 1: bob}, 3)
    last = public_seqs(bob.events, game)[-1]
    await bob.aclose()
    await drain_events(alice)  # its 'disconnected'
    again = await Client.connect(c.ports[0])
    resumed = await again.ok(f"resume {token}")
    seq = int(resumed.fields()["seq"])
    # The state answered counts every event since (the disconnection, the resumption): the
    # seq goes on from where bob left, and the next event follows it with no gap.
    assert seq > last and game in a.lobby.tables and game not in c.lobby.tables
    await play_on(game, {0: alice, 1: again}, 2, movers)
    seqs = public_seqs(again.events, game)
    assert seqs[0] == seq + 1 and _gapless(seqs)
    for client in (alice, again):
        await client.aclose()
