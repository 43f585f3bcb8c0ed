"""A game with a simultaneous move through the lobby: high card (tests/tinygame), three seats
that pick a card each, at once. ``to-move`` names every seat still to pick; a pick is public
only as "seat N picked" until the last one is in; the card goes to nobody but the picker's own
answer. The kind is handed to the Lobby directly: no registry involved."""

from __future__ import annotations

import json

from tinygame.kind import HIGHCARD

from hipparchusd.lobby import Lobby, Result

from .driver import Driver, call_names, observable

#: The hands come from the seed; the tests read them from each seat's own ``dealt`` event.
SEED = "0"


def started(driver: Driver) -> tuple[Result, dict[int, list[int]]]:
    driver.ok("a", f"new highcard best_of=3 seed={SEED}")
    driver.ok("w", "watch g1")
    driver.ok("a", "join g1")
    driver.ok("b", "join g1")
    start = driver.ok("c", "join g1")
    hands = {}
    for seat, who in enumerate("abc"):
        dealt = [data for _, kind, data in driver.events_heard(who, start) if kind == "dealt"]
        assert [d["seat"] for d in dealt] == [seat]
        hands[seat] = list(dealt[0]["hand"])
    return start, hands


def highcard_driver() -> Driver:
    return Driver(Lobby(kinds={"highcard": HIGHCARD}, clock=lambda: 1000.0))


def test_all_three_seats_must_move_at_once_and_see_only_their_own_hand() -> None:
    driver = highcard_driver()
    start, hands = started(driver)
    assert sorted(card for hand in hands.values() for card in hand) == list(range(1, 10))
    assert "dealt" not in driver.kinds_heard("w", start)
    for who in "abcw":
        assert driver.heard(who, start)[-1] == b"* g1 4 to-move seats=0,1,2\n"
    dealt = [d for d in start.deliveries if d.message.kind == "dealt"]
    assert [d.sessions for d in dealt] == [(driver[w],) for w in "abc"]


def test_a_pick_is_public_but_its_card_is_not() -> None:
    driver = highcard_driver()
    _, hands = started(driver)
    card = hands[1][0]
    picked = driver.ok("b", f"play g1 {card}")
    assert driver.answer("b", picked) == f"= {card}\n\n".encode()
    for who in "abcw":
        assert driver.heard(who, picked) == [
            b"* g1 5 picked seat=1\n",
            b"* g1 6 to-move seats=0,2\n",
        ]
    # The views tell who picked, and only the picker which card.
    for who, seat in (("a", 0), ("c", 2), ("w", None)):
        driver.ok(who, "format json")
        view = json.loads(driver.answer(who, driver.ok(who, "state g1"))[2:])["view"]
        assert view["picked"] == [False, True, False] and view["own_pick"] is None
        assert view["hand"] == (None if seat is None else hands[seat])
    driver.ok("b", "format json")
    view_b = json.loads(driver.answer("b", driver.ok("b", "state g1"))[2:])["view"]
    assert view_b["own_pick"] == card and card not in view_b["hand"]


def test_a_second_pick_in_the_round_is_refused_and_changes_nothing() -> None:
    driver = highcard_driver()
    _, hands = started(driver)
    driver.ok("b", f"play g1 {hands[1][0]}")
    before = observable(driver.lobby)
    driver.fail("b", f"play g1 {hands[1][1]}", "not-your-turn")
    driver.fail("a", f"play g1 {hands[1][1]}", "illegal-move")  # not a's card
    assert driver.answer("b", driver.ok("b", "legal g1")) == b"=\n\n"
    assert observable(driver.lobby) == before


def test_the_last_pick_reveals_the_round_and_the_next_round_starts_for_all() -> None:
    driver = highcard_driver()
    _, hands = started(driver)
    cards = {seat: max(hand) for seat, hand in hands.items()}
    driver.ok("c", f"play g1 {cards[2]}")
    driver.ok("a", f"play g1 {cards[0]}")
    prepared = driver.prepare("b", f"play g1 {cards[1]}")
    assert call_names(prepared) == ["add_move"] and prepared.deliveries == []
    prepared.commit()
    winner = max(cards, key=cards.__getitem__)
    wins = [int(seat == winner) for seat in range(3)]
    expected_cards = ",".join(str(cards[seat]) for seat in range(3))
    assert driver.heard("w", prepared) == [
        b"* g1 9 picked seat=1\n",
        f"* g1 10 revealed round_number=1 cards={expected_cards} winner={winner} "
        f"wins={','.join(map(str, wins))}\n".encode(),
        b"* g1 11 to-move seats=0,1,2\n",
    ]


def test_resigning_in_a_three_seat_game_ranks_the_seat_last() -> None:
    driver = highcard_driver()
    _, hands = started(driver)
    # Round 1: every seat plays its highest card; the 9 wins.
    highest = {seat: max(hand) for seat, hand in hands.items()}
    winner = max(highest, key=highest.__getitem__)
    for who, seat in zip("abc", range(3), strict=True):
        driver.ok(who, f"play g1 {highest[seat]}")
    resigner = "abc"[winner]
    resigned = driver.ok(resigner, "resign g1")
    # The other two have no round win each: they share the win (ties share).
    others = [seat for seat in range(3) if seat != winner]
    scores = ",".join(str(int(seat == winner)) for seat in range(3))
    assert driver.heard("w", resigned) == [
        f"* g1 12 game-over winners={','.join(map(str, others))} scores={scores} "
        f"resigned={winner}\n".encode()
    ]
    assert call_names(resigned) == ["finish"]
    driver.fail("a", f"play g1 {hands[0][0]}", "game-over")
    record = driver.ok("w", "record g1")
    assert driver.answer("w", record).startswith(b"= game=g1\nkind=highcard\n")
