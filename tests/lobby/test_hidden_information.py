"""Hidden information in what the lobby sends (RULINGS H13, docs/rules.md): a seat's cards go
to the connection holding that seat and to nobody else, in events, answers and errors, until
the rules reveal them (the round's end); a spectator never gets a hand; the record, which holds
every card, is refused until the game is over."""

from __future__ import annotations

import json
import random

from daemon.helpers import DEAL, HAND0, HAND1

from hipparchusd.games.base import MoveList
from hipparchusd.lobby import Result

from .driver import Driver


def started(driver: Driver) -> Result:
    driver.ok("a", f"new hipparchus leader=0 deal={DEAL}")
    driver.ok("w", "watch g1")
    driver.ok("a", "join g1 name=alice")
    return driver.ok("b", "join g1 name=bob")


def test_each_seat_gets_its_own_hand_and_nobody_else_does() -> None:
    driver = Driver()
    start = started(driver)
    hands = [d for d in start.deliveries if d.message.kind == "hand"]
    assert [(d.sessions, d.message.data["seat"]) for d in hands] == [
        ((driver["a"],), 0),
        ((driver["b"],), 1),
    ]
    to_a, to_b, to_w = (b"".join(driver.heard(who, start)) for who in "abw")
    assert f"hand={HAND0}".encode() in to_a and HAND1.encode() not in to_a
    assert f"hand={HAND1}".encode() in to_b and HAND0.encode() not in to_b
    assert b" hand " not in to_w and HAND0.encode() not in to_w and HAND1.encode() not in to_w
    # The private event carries the seq of the public round-started before it, so that no
    # one can tell from a gap that another seat was sent something.
    a_events = driver.events_heard("a", start)
    w_seqs = [seq for seq, _, _ in driver.events_heard("w", start)]
    assert [seq for seq, _, _ in a_events if seq not in w_seqs] == []


def test_answers_show_a_seat_its_own_cards_only() -> None:
    driver = Driver()
    started(driver)
    state_a = driver.answer("a", driver.ok("a", "state g1"))
    state_b = driver.answer("b", driver.ok("b", "state g1"))
    state_w = driver.answer("w", driver.ok("w", "state g1"))
    assert f"view.hand={HAND0}".encode() in state_a and HAND1.encode() not in state_a
    assert f"view.hand={HAND1}".encode() in state_b and HAND0.encode() not in state_b
    assert b"view.hand=-" in state_w and b"view.seat=-" in state_w
    # Seat 1 need not move: it is told no moves (not seat 0's).
    assert driver.answer("b", driver.ok("b", "legal g1")) == b"=\n\n"
    # The spectator cannot ask for moves at all.
    driver.fail("w", "legal g1", "not-seated")


def test_errors_name_nothing_of_the_other_seat() -> None:
    driver = Driver()
    started(driver)
    for who, line, code, other in [
        ("b", "play g1 1E@1", "not-your-turn", HAND0),
        ("a", "play g1 1M@1", "illegal-move", HAND1),
        ("a", "play g1 3S@1", "illegal-move", HAND1),
        ("w", "play g1 1S@1", "not-seated", HAND0),
    ]:
        answer = driver.answer(who, driver.fail(who, line, code))
        assert other.encode() not in answer and b"hand=" not in answer, answer
    driver.fail("w", "record g1", "game-not-over")
    driver.fail("a", "record g1", "game-not-over")


def test_a_resumed_seat_sees_its_own_view_and_the_ousted_connection_no_more() -> None:
    driver = Driver()
    start = started(driver)
    assert start.response is not None
    token = start.response.text[0].split("token=")[1]
    # Another connection takes seat 1 with its token while bob is still connected.
    back = driver.ok("c", f"resume {token}")
    answer = driver.answer("c", back)
    assert f"view.hand={HAND1}".encode() in answer and HAND0.encode() not in answer
    assert b"view.seat=1" in answer
    # Everyone else hears of it, the ousted connection included; the resumer's snapshot
    # already counts the event.
    assert driver.kinds_heard("a", back) == ["resumed"]
    assert driver.kinds_heard("b", back) == ["resumed"]
    assert driver.kinds_heard("c", back) == []
    assert driver.lobby.tables["g1"].seats[1].holder is driver["c"]
    played = driver.ok("a", "play g1 1S@1")
    assert driver.heard("b", played) == []
    assert driver.kinds_heard("c", played) == ["played", "turn", "to-move"]
    driver.fail("b", "legal g1", "not-seated")


def test_a_whole_match_never_sends_a_hand_to_another_connection() -> None:
    driver = Driver()
    driver.ok("a", "new hipparchus seed=5")
    driver.ok("w", "watch g1")
    driver.ok("a", "join g1")
    results = [driver.ok("b", "join g1")]
    table = driver.lobby.tables["g1"]
    rng = random.Random(5)
    while table.game.outcome is None:
        (seat,) = table.game.seats_to_move()
        legal = table.game.legal(seat)
        assert isinstance(legal, MoveList)
        results.append(driver.ok("ab"[seat], f"play g1 {rng.choice(legal.moves)}"))
    holders = {0: driver["a"], 1: driver["b"]}
    for result in results:
        for delivery in result.deliveries:
            if delivery.message.kind == "hand":
                assert delivery.sessions == (holders[delivery.message.data["seat"]],)
            else:
                # Every other event is public: the same line to every follower.
                assert set(delivery.sessions) == {driver["a"], driver["b"], driver["w"]}
                assert "hand" not in delivery.message.data
    # Over now: the record, every card of it, is for everyone.
    driver.ok("w", "format json")
    record = json.loads(driver.answer("w", driver.ok("w", "record g1"))[2:])
    assert record["game"] == "g1"
    assert len(record["record"]["rounds"]) == len(table.game.record_data()["rounds"])
