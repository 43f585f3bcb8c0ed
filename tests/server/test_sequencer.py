"""The Sequencer: the requests on one game are carried out one at a time, in the order they
took their tickets; requests on other games do not wait for them (the server's module
docstring: "every follower sees a game's events in seq order even while a store call is in
flight"). Tested through its public methods only: ticket, busy, idle, release, Ticket.wait."""

from __future__ import annotations

import random

import trio
import trio.testing

from hipparchusd.server.sequencer import Sequencer


def test_a_request_on_no_game_takes_no_ticket() -> None:
    sequencer = Sequencer()
    assert sequencer.ticket(()) == ([], None)
    sequencer.release((), None)  # nothing to release, no error
    assert not sequencer.busy("g1")


async def test_the_first_request_on_a_game_waits_for_nothing() -> None:
    sequencer = Sequencer()
    waits, done = sequencer.ticket(("g1",))
    assert waits == [] and done is not None
    assert sequencer.busy("g1") and not sequencer.busy("g2")
    assert not sequencer.idle(("g2", "g1")) and sequencer.idle(("g2",)) and sequencer.idle(())
    sequencer.release(("g1",), done)
    assert not sequencer.busy("g1") and sequencer.idle(("g1", "g2"))
    # A released ticket is waited for at once, without a checkpoint.
    with trio.testing.assert_no_checkpoints():
        await done.wait()


async def test_each_request_waits_for_the_one_before_it_on_the_same_game() -> None:
    sequencer = Sequencer()
    _, first = sequencer.ticket(("g1",))
    waits2, second = sequencer.ticket(("g1",))
    waits3, third = sequencer.ticket(("g1",))
    assert waits2 == [first] and waits3 == [second]
    assert first is not None and second is not None and third is not None
    # Releasing an older ticket leaves the game busy while a later one is out.
    sequencer.release(("g1",), first)
    assert sequencer.busy("g1")
    sequencer.release(("g1",), second)
    assert sequencer.busy("g1")
    sequencer.release(("g1",), third)
    assert not sequencer.busy("g1")


async def test_a_request_on_two_games_waits_for_the_last_one_on_each() -> None:
    sequencer = Sequencer()
    _, on_g1 = sequencer.ticket(("g1",))
    _, on_g2 = sequencer.ticket(("g2",))
    waits, both = sequencer.ticket(("g1", "g2"))
    assert waits == [on_g1, on_g2]
    waits_g2, after = sequencer.ticket(("g2",))
    assert waits_g2 == [both]
    for games, ticket in [(("g1",), on_g1), (("g2",), on_g2), (("g1", "g2"), both)]:
        sequencer.release(games, ticket)
    assert not sequencer.busy("g1") and sequencer.busy("g2")
    sequencer.release(("g2",), after)
    assert not sequencer.busy("g2")


async def test_requests_are_carried_out_in_ticket_order_per_game_whatever_their_delays() -> None:
    """Many requests, each taking its ticket on arrival, then taking a random time to be
    carried out (a store call): per game they finish in arrival order, and a game's requests
    never overlap; other games go on meanwhile."""
    sequencer = Sequencer()
    rng = random.Random(4)
    arrived: dict[str, list[int]] = {"g1": [], "g2": [], "g3": []}
    finished: dict[str, list[int]] = {"g1": [], "g2": [], "g3": []}
    running: dict[str, int] = {"g1": 0, "g2": 0, "g3": 0}
    overlaps: list[str] = []

    async def request(number: int, game: str, delay: float) -> None:
        waits, done = sequencer.ticket((game,))  # no checkpoint since arrival
        arrived[game].append(number)
        try:
            for ticket in waits:
                await ticket.wait()
            running[game] += 1
            if running[game] > 1:
                overlaps.append(game)
            await trio.sleep(delay)
            finished[game].append(number)
            running[game] -= 1
        finally:
            sequencer.release((game,), done)

    async with trio.open_nursery() as nursery:
        for number in range(60):
            game = rng.choice(list(arrived))
            nursery.start_soon(request, number, game, rng.choice([0, 0.001, 0.003]))
            if rng.random() < 0.3:
                await trio.sleep(0)
    assert overlaps == []
    assert finished == arrived
    assert not any(map(sequencer.busy, arrived))


async def test_another_game_is_not_held_up_by_a_slow_one() -> None:
    sequencer = Sequencer()
    _, slow = sequencer.ticket(("g1",))
    waits, quick = sequencer.ticket(("g2",))
    assert waits == []
    with trio.testing.assert_no_checkpoints():
        for ticket in waits:
            await ticket.wait()
    sequencer.release(("g2",), quick)
    assert sequencer.busy("g1") and not sequencer.busy("g2")
    sequencer.release(("g1",), slow)


async def test_a_waiter_wakes_when_the_ticket_before_it_is_released() -> None:
    sequencer = Sequencer()
    _, first = sequencer.ticket(("g1",))
    waits, second = sequencer.ticket(("g1",))
    woke = trio.Event()

    async def waiter() -> None:
        for ticket in waits:
            await ticket.wait()
        woke.set()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(waiter)
        await trio.testing.wait_all_tasks_blocked()
        assert not woke.is_set()
        sequencer.release(("g1",), first)
        with trio.fail_after(1):
            await woke.wait()
    sequencer.release(("g1",), second)
