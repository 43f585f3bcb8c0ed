"""planets through a live daemon (docs/planets.md, protocol/games/planets.md): whole games at
3 to 6 seats with a spectator, every event, ``to-move`` and ``legal`` answer checked by an
independent referee (:mod:`.planets_referee`) and every result by replaying the moves through
the rules; the simultaneous pass; and bad input, which gets its documented error, changes
nothing and names no other seat's cards."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import trio

from hipparchusd.client import Pick, can_move
from hipparchusd.games.planets.codec import converter
from hipparchusd.games.planets.record import PlanetsRecord, replay
from hipparchusd.games.registry import find_kind

from .client import Client, event_fields
from .helpers import StartServer
from .planets_play import SHOOT_DEAL, SHOOT_PASSES, Table, legal_of, open_table, payload
from .planets_referee import as_ints, event_of

Connect = Callable[..., Awaitable[Client]]
CARD = re.compile(r"(?<![A-Za-z0-9])[EJMNSV][1-7MSG](?![A-Za-z0-9])")


def replay_moves(options: dict[str, str], moves: list[tuple[int, str]]) -> Any:
    """A fresh planets game made with ``options`` (which fix the deals: ``seed=``), played with
    ``moves`` through the rules, without the daemon: the game object, finished or not."""
    game = find_kind("planets").create(options)
    game.start()
    for seat, word in moves:
        assert seat in game.seats_to_move(), (seat, word)
        canonical, _ = game.play_word(seat, word)
        assert canonical == word
    return game


def check_record(table: Table, record: dict[str, Any], options: dict[str, str]) -> None:
    """The daemon's record is the game the referee followed: replaying the acknowledged moves
    through the rules gives the same record, the same outcome and the referee's totals; and
    the record, restored through the kind, is the same finished game."""
    assert record["kind"] == "planets" and record["game"] == table.game
    assert record["players"] == [f"p{seat}" for seat in range(len(table.seats))]
    fresh = replay_moves(options, table.acked)
    assert fresh.outcome is not None
    assert list(fresh.outcome.scores) == table.referee.totals
    assert tuple(fresh.outcome.winners) == table.referee.winners
    assert fresh.record_data() == record["record"]
    # The record replayed through the rules (docs/planets.md, "Records").
    final = replay(converter.structure(record["record"], PlanetsRecord))
    assert list(final.totals) == table.referee.totals
    assert final.winners == table.referee.winners
    restored = find_kind("planets").restore(options, record["record"])
    assert restored.outcome == fresh.outcome
    assert restored.record_data() == record["record"]


GAMES = [
    # (options, seats, JSON-mode seats, galaxies, exact100)
    ("players=3 seed=31", 3, {1}, False, False),
    ("seed=41 dealer=2", 4, {0, 3}, False, False),
    ("players=5 seed=51 exact100=reset", 5, {4}, False, True),
    ("players=6 seed=61", 6, {2, 5}, False, False),
    ("players=6 galaxies=all seed=62", 6, {0}, True, False),
]


@pytest.mark.parametrize(
    ("options", "players", "json_seats", "galaxies", "exact100"),
    GAMES,
    ids=["3", "4", "5-exact100", "6", "6-galaxies"],
)
async def test_whole_games_agree_with_the_rules(
    start_server: StartServer,
    options: str,
    players: int,
    json_seats: set[int],
    galaxies: bool,
    exact100: bool,
) -> None:
    server = await start_server()
    rng = random.Random(options)
    table = await open_table(
        server.ports[0],
        options,
        players=players,
        rng=rng,
        json_seats=frozenset(json_seats),
        galaxies=galaxies,
        exact100=exact100,
    )
    text_watcher = await Client.connect(server.ports[0])
    await text_watcher.ok(f"watch {table.game}")
    async with trio.open_nursery() as nursery:
        # The text spectator reads as the game goes (the daemon drops a connection that lets
        # its events pile up, PROTOCOL.md section 7).
        nursery.start_soon(text_watcher.events_until, ["game-over"], 30.0)
        await table.play_to_end()
    referee = table.referee
    assert referee.over and referee.winners and referee.hands_played >= 2
    assert max(referee.totals) > 100
    # Every seat and both spectators heard the same game-over.
    for client in table.seats:
        _, kind, data = event_of((await client.events_until(["game-over"]))[-1])
        assert kind == "game-over" and tuple(as_ints(data["winners"])) == referee.winners
        assert as_ints(data["scores"]) == referee.totals
    _, kind, data = event_of(text_watcher.events[-1])
    assert kind == "game-over" and as_ints(data["scores"]) == referee.totals
    # The text spectator saw the very events the JSON one did, in order (same kinds, seqs).
    await text_watcher.ok("name")
    text_events = [event_fields(x)[1:3] for x in text_watcher.events if " server " not in x]
    json_events = [event_fields(x)[1:3] for x in table.public_lines]
    assert len(text_events) > 100 and json_events[-len(text_events) :] == text_events
    record = await table.record()
    check_record(table, record, dict(w.split("=") for w in options.split()))
    assert record["options"] == dict(w.split("=") for w in options.split())
    await text_watcher.aclose()
    await table.aclose()


async def _views(table: Table, extra: list[Client]) -> list[Any]:
    """Every seat's and spectator's JSON ``state`` answer (mode switched for the request)."""
    views = []
    for client in (*table.seats, table.spectator, *extra):
        json_mode = client is table.spectator
        if not json_mode:
            await client.ok("format json")
        views.append((await client.ok(f"state {table.game}")).json())
        if not json_mode:
            await client.ok("format text")
    return views


async def test_the_pass_is_simultaneous_and_secret(start_server: StartServer) -> None:
    server = await start_server()
    rng = random.Random(7)
    table = await open_table(
        server.ports[0], "seed=7", players=4, rng=rng, json_seats=frozenset({1})
    )
    referee = table.referee
    # Every seat must pass, at once.
    assert await table.next_to_move() == [0, 1, 2, 3]
    order = [2, 0, 3, 1]
    passed: dict[int, str] = {}
    for index, seat in enumerate(order):
        legal = legal_of(await table.seats[seat].ok(f"legal {table.game}"))
        referee.check_legal(seat, legal)
        assert isinstance(legal, Pick)
        word = await table.play(seat, ",".join(rng.sample(legal.items, legal.count)))
        passed[seat] = word
        seats = await table.next_to_move()
        if index < 3:
            # The seats that have not passed, and only those, still move.
            assert seats == sorted(set(range(4)) - set(passed)), seats
            # A second pass by the same seat is refused and changes nothing.
            before = await _views(table, [])
            reply = await table.seats[seat].fail(f"play {table.game} {word}", "not-your-turn")
            assert "you have already passed this hand" in reply.text, reply
            assert await _views(table, []) == before, reply
            assert not can_move(legal_of(await table.seats[seat].ok(f"legal {table.game}")))
            # The views tell who passed, never what: only the passer sees its own cards.
            views = await _views(table, [])
            for viewer, view in enumerate(views):
                data = view["view"]
                assert sorted(data["passed"]) == sorted(passed), data
                if viewer == seat:
                    assert data["my_pass"] == word.split(","), data
                elif viewer < 4 and viewer not in passed:
                    assert data["my_pass"] is None, data
                if viewer == 4:
                    assert data["hand"] is None and data["my_pass"] is None, data
                for other, cards in passed.items():
                    if other != viewer:
                        mine = set(data["hand"] or []) | set(data["my_pass"] or [])
                        leaked = set(cards.split(",")) - mine
                        assert not leaked & set(_cards_in(json.dumps(data))), (viewer, data)
        else:
            assert seats == [referee.leader], "the holder of V1 leads once all have passed"
    # Each seat's ``received`` went to it alone, and the ``passed`` events carried no cards.
    for seat, client in enumerate(table.seats):
        await client.ok("name")
        received = [x for x in client.events if event_of(x)[1] == "received"]
        assert len(received) == 1 and as_ints(event_of(received[0])[2]["seat"]) == [seat]
    assert not [x for x in table.public_lines if event_of(x)[1] in ("received", "hand")]
    for line in table.public_lines:
        if event_of(line)[1] == "passed":
            assert not _cards_in(line), line
    await table.aclose()


#: The notation help that refusals of malformed cards end with: fixed example cards, the same
#: whoever holds them.
NOTATION_EXAMPLE = re.compile(r"e\.g\. V1 or JS")


def _cards_in(text: str) -> list[str]:
    return CARD.findall(NOTATION_EXAMPLE.sub("", text))


#: A fixed first deal at four seats (56 cards with the Venus and Saturn Galaxies): seat 0 holds
#: all of Venus, Jupiter 1 and three low Earths; seat 1 the rest of Jupiter and the Earths from
#: 4; seat 2 all of Mars and Neptune 1-5; seat 3 the rest of Neptune and all of Saturn.
FIXED = [
    "V1,V2,V3,V4,V5,V6,V7,VM,VS,VG,J1,E1,E2,E3",
    "J2,J3,J4,J5,J6,J7,JM,JS,E4,E5,E6,E7,EM,ES",
    "M1,M2,M3,M4,M5,M6,M7,MM,MS,N1,N2,N3,N4,N5",
    "N6,N7,NM,NS,S1,S2,S3,S4,S5,S6,S7,SM,SS,SG",
]
#: The left pass of hand 1 (P4): each seat's three cards to the next seat.
PASSES = ["E1,E2,E3", "E4,E5,E6", "N1,N2,N3", "S1,S2,S3"]


async def test_bad_input_changes_nothing_and_names_no_other_card(
    start_server: StartServer,
) -> None:
    server = await start_server()
    deal = "/".join(FIXED)
    table = await open_table(
        server.ports[0],
        f"dealer=3 deal={deal}",
        players=4,
        rng=random.Random(1),
        json_seats=frozenset({2}),
    )
    watcher = await Client.connect(server.ports[0])
    await watcher.ok(f"watch {table.game}")
    game = table.game
    held = [set(hand.split(",")) for hand in FIXED]

    async def refused(seat: int, word: str, code: str, why: str = "") -> None:
        """``seat``'s ``play word`` gets ``code`` (its message matching ``why``), changes no
        view, and names no card but the seat's own, the request's and those on the table."""
        before = await _views(table, [watcher])
        reply = await table.seats[seat].fail(f"play {game} {word}", code)
        message = str(payload(reply).get("message", reply.text))
        assert re.search(why, message, re.IGNORECASE), (word, message)
        table_cards = {card for _, card in table.referee.trick}
        allowed = held[seat] | set(_cards_in(word.upper())) | table_cards
        assert set(_cards_in(message)) <= allowed, (seat, word, message)
        assert await _views(table, [watcher]) == before, (seat, word)

    assert await table.next_to_move() == [0, 1, 2, 3]
    await refused(0, "E1,E2", "illegal-move", "exactly 3")
    await refused(0, "E1,E2,E3,J1", "illegal-move", "exactly 3")
    await refused(0, "E1,E2,J2", "illegal-move", "")  # J2 is seat 1's: not said
    await refused(0, "E1,E1,E2", "illegal-move", "")
    await refused(0, "E1,E2,E3,", "illegal-move", "")
    await refused(0, "E1,E2,ZZ", "illegal-move", "")
    await refused(0, "E1,E2,E\u0661", "illegal-move", "")  # a non-ASCII digit
    await refused(0, "self", "illegal-move", "")  # no shooting choice is pending
    await refused(0, "V1", "illegal-move", "")  # a card play during the pass
    for seat, word in enumerate(PASSES):
        await table.play(seat, word.lower() if seat == 1 else word)  # either case
        if seat < 3:
            await table.next_to_move()
            await refused(seat, PASSES[seat], "not-your-turn", "")
    held = [
        (held[s] - set(PASSES[s].split(","))) | set(PASSES[(s - 1) % 4].split(","))
        for s in range(4)
    ]
    assert await table.next_to_move() == [0]  # seat 0 kept Venus 1
    await refused(0, "VS", "illegal-move", "V1|Venus 1")
    await refused(1, "E1", "not-your-turn", "")
    await refused(0, "S1", "illegal-move", "V1|Venus 1")
    for seat, card in ((0, "V1"), (1, "E1"), (2, "E4"), (3, "N1")):
        await table.play(seat, card)
        held[seat].discard(card)
        await table.next_to_move()
    assert table.referee.leader == 0 and table.referee.tricks_done == 1
    await refused(0, "J1", "illegal-move", "Jupiter")
    await refused(0, "E5", "illegal-move", "")  # not held (seat 2's)
    await refused(0, "others", "illegal-move", "")
    for seat, card in ((0, "S1"), (1, "E2"), (2, "E5")):
        await table.play(seat, card)
        held[seat].discard(card)
        await table.next_to_move()
    await refused(3, "N2", "illegal-move", "follow")
    await refused(3, "N2,S4", "illegal-move", "")
    await table.play(3, "S4")
    await table.next_to_move()
    assert table.referee.leader == 3
    await watcher.aclose()
    await table.aclose()


async def test_a_resignation_ranks_the_seat_last(start_server: StartServer) -> None:
    """P16: the game ends at once; of the other seats, the lowest totals win."""
    server = await start_server()
    table = await open_table(server.ports[0], "players=3 seed=5", players=3, rng=random.Random(5))
    while table.referee.hands_played < 1:
        await table.step(await table.next_to_move())
    seats = await table.next_to_move()
    await table.seats[1].ok(f"resign {table.game}")
    lines = await table.spectator.events_until(["game-over"])
    _, _, data = event_of(lines[-1])
    totals = table.referee.totals
    low = min(totals[0], totals[2])
    assert as_ints(data["winners"]) == [s for s in (0, 2) if totals[s] == low]
    assert as_ints(data["scores"]) == totals and int(data["resigned"]) == 1
    assert seats  # the game was under way
    await table.seats[0].fail(f"play {table.game} self", "game-over")
    await table.aclose()


@pytest.mark.parametrize("choice", ["self", "others"])
async def test_the_shooting_choice_through_the_daemon(
    start_server: StartServer, choice: str
) -> None:
    """P8, P13: the seat that took all eleven point cards alone moves, choosing between
    ``self`` and ``others``; the hand-over adds what the choice says."""
    server = await start_server()
    table = await open_table(
        server.ports[0],
        f"players=3 dealer=1 deal={'/'.join(SHOOT_DEAL)}",
        players=3,
        rng=random.Random(choice),
        json_seats=frozenset({2}),
    )
    referee = table.referee
    seats = await table.next_to_move()
    for seat in (2, 0, 1):
        await table.play(seat, SHOOT_PASSES[seat])
        seats = await table.next_to_move()
    while referee.shooter is None:
        assert not referee.over and referee.hands_played == 0
        await table.step(seats)
        seats = await table.next_to_move()
    assert seats == [0] and referee.tricks_done == 18
    assert set(referee.taken[0]) >= {"M7", "N7", "J1", "JS"}
    legal = legal_of(await table.seats[0].ok(f"legal {table.game}"))
    referee.check_legal(0, legal)
    assert isinstance(legal, list) and sorted(legal) == ["others", "self"]
    await table.seats[1].fail(f"play {table.game} self", "not-your-turn")
    await table.seats[0].fail(f"play {table.game} V1", "illegal-move")
    await table.play(0, choice.upper())
    seats = await table.next_to_move()  # the referee checks the hand-over's points and totals
    assert referee.hands_played == 1 and referee.shoots == 1
    assert referee.totals == ([-23, 0, 0] if choice == "self" else [0, 23, 23])
    await table.aclose()
