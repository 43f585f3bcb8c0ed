"""Hidden information in planets over real TCP: hands of random legal moves with connections
poking at the game on every move (views, ``legal``, refused moves naming cards the poker holds
and cards it does not), a seat dropped and resumed in the middle of a pass, and a spectator who
comes late. Every byte each connection received is then checked against the truth the referee
followed (:mod:`.planets_streams`): no seat's stream nor a spectator's names another seat's
cards or pass before it may."""

from __future__ import annotations

import random

import pytest
import trio
from daemon.client import Client
from daemon.helpers import StartServer
from daemon.planets_play import Table, open_table, payload
from daemon.planets_referee import deck

from .planets_streams import CARD, check_planets_stream


async def _poke(
    table: Table,
    client: Client,
    seat: int | None,
    rng: random.Random,
    echoes: dict[str, set[str]],
    number: int,
) -> None:
    """One request that must leak nothing: a view, ``legal``, or a move that is refused (a card
    of another seat, a card out of play, a pass of the wrong size, a shooting choice)."""
    game = table.game
    referee = table.referee
    everything = sorted(deck(referee.players, referee.galaxies))
    choice = rng.randrange(6)
    if choice == 0:
        await client.ok(f"state {game}")
        return
    if choice == 1:
        await client.request(f"legal {game}")
        return
    if choice == 2 and seat is not None and referee.hands:
        others = sorted(set(everything) - referee.hands[seat] - {c for _, c in referee.trick})
        word = rng.choice(others)
    elif choice == 3:
        word = "EG"  # not in play at four seats
    elif choice == 4 and seat is not None and referee.hands and referee.in_pass:
        word = ",".join(sorted(referee.hands[seat])[: len(referee.offsets) + 1])
    elif referee.shooter is None:
        word = "self"  # no shooting choice is pending
    else:
        word = "JG"  # not in play at four seats
    request_id = str(number)
    echoes[request_id] = set(CARD.findall(word))
    reply = await client.request(f"{request_id} play {game} {word}")
    assert not reply.ok, (seat, word, reply)


async def test_no_planets_stream_carries_another_seats_cards_or_pass(
    start_server: StartServer,
) -> None:
    server = await start_server()
    port = server.ports[0]
    rng = random.Random(2026)
    watcher = await Client.connect(port)  # text spectator
    table = await open_table(port, "seed=314", players=4, rng=rng, json_seats=frozenset({1, 3}))
    await watcher.ok(f"watch {table.game}")
    referee = table.referee
    streams: dict[int, list[Client]] = {seat: [client] for seat, client in enumerate(table.seats)}
    echoes: dict[str, set[str]] = {}
    late: Client | None = None
    resumed = False
    number = 1000
    with trio.fail_after(60):
        # Up to the middle of hand 3's pass: two seats have passed, two have not.
        while not (referee.hand_number == 3 and referee.in_pass and len(referee.passes) == 2):
            seats = await table.next_to_move()
            assert seats, "the game ended too soon"
            if referee.hand_number == 2 and referee.in_pass and late is None:
                late = await Client.connect(port)
                await late.ok("format json")
                await late.ok(f"watch {table.game}")
            text_seats = [s for s in (0, 2) if s in referee.passes]
            if referee.hand_number == 2 and referee.in_pass and text_seats and not resumed:
                # A (text-mode) seat that has passed drops; a new connection resumes it in the
                # middle of the pass: its view shows its own pass.
                dropped = text_seats[0]
                await table.seats[dropped].aclose()
                client = await Client.connect(port)
                view = payload(await client.ok(f"resume {table.tokens[dropped]}"))
                table.seats[dropped] = client
                streams[dropped].append(client)
                resumed = True
                mine = sorted(view["view.my_pass"].split(","))
                assert mine == sorted(referee.passes[dropped]), view
                assert str(dropped) in view["view.passed"].split(","), view
            for _ in range(2):
                which = rng.randrange(len(table.seats) + 3)
                number += 1
                if which < len(table.seats):
                    await _poke(table, table.seats[which], which, rng, echoes, number)
                elif which == len(table.seats):
                    await _poke(table, watcher, None, rng, echoes, number)
                elif late is not None:
                    await _poke(table, late, None, rng, echoes, number)
                else:
                    await _poke(table, table.spectator, None, rng, echoes, number)
            await table.step(seats)
        await table.seats[0].ok(f"resign {table.game}")
        for client in (*table.seats, watcher, table.spectator, *([late] if late else [])):
            await client.ok("name")  # everything sent before this answer has arrived
    assert resumed and late is not None
    for seat, clients in streams.items():
        received = b"".join(bytes(c.received) for c in clients)
        tally = check_planets_stream(received, referee, seat, echoes)
        assert tally.hands == [1, 2, 3], tally
        assert tally.received == [1, 2], tally
        assert tally.cards > 100 and tally.passed_events >= 8, tally
    # The check has teeth: a line naming a card seat 1 holds in hand 3 (and seat 0 never
    # saw) fails seat 0's check; so does the cards of another seat's pass in a view.
    stream = b"".join(bytes(c.received) for c in streams[0])
    end = stream.index(b" game-over ")
    end = stream.rindex(b"\n", 0, end) + 1  # the start of the game-over line
    hidden = sorted(referee.dealt[3][1] - referee.dealt[3][0])[0]
    secret = ",".join(referee.passes[sorted(set(referee.passes) - {0})[0]])
    for fake in (f"=9 view.hand={hidden}\n\n", f"=9 view.my_pass={secret}\n\n"):
        with pytest.raises(AssertionError, match="may not know"):
            check_planets_stream(stream[:end] + fake.encode() + stream[end:], referee, 0)
    for spectator in (watcher, table.spectator, late):
        tally = check_planets_stream(bytes(spectator.received), referee, None, echoes)
        assert tally.hands == [] and tally.received == [] and tally.cards > 50, tally
    await watcher.aclose()
    await late.aclose()
    await table.aclose()


@pytest.mark.parametrize("players", [3, 5, 6])
async def test_a_pass_stays_secret_at_every_table_size(
    start_server: StartServer, players: int
) -> None:
    """One whole hand (with its pass) at 3, 5 and 6 seats: the same checks."""
    server = await start_server()
    rng = random.Random(players)
    table = await open_table(
        server.ports[0],
        f"players={players} seed={players * 11}",
        players=players,
        rng=rng,
        json_seats=frozenset({0}),
    )
    referee = table.referee
    with trio.fail_after(30):
        while referee.hands_played < 1:
            await table.step(await table.next_to_move())
        await table.seats[1].ok(f"resign {table.game}")
        for client in (*table.seats, table.spectator):
            await client.ok("name")
    for seat, client in enumerate(table.seats):
        tally = check_planets_stream(bytes(client.received), referee, seat)
        assert tally.hands[:1] == [1] and tally.received == [1], tally
    tally = check_planets_stream(bytes(table.spectator.received), referee, None)
    assert tally.cards >= len(deck(players)), tally
    await table.aclose()
