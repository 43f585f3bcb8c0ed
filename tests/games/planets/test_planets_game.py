"""PlanetsGame behind the daemon's generic interface: options, start events, legal forms, views
(hidden information), records and restoring (docs/planets.md; protocol/games/planets.md)."""

from __future__ import annotations

import json
import random

import pytest
from planets_positions import cards, full_deal, game, random_move

from hipparchusd.games.base import EVERYONE, BadOption, MoveList, Pick
from hipparchusd.games.planets import Card, Pass, PlanetsGame, Shoot, format_deal
from hipparchusd.games.planets.codec import (
    CODEC,
    dump_record,
    load_payload,
    load_record,
    load_view,
)
from hipparchusd.games.planets.kind import PLANETS, create, restore
from hipparchusd.games.planets.model import cards_of
from hipparchusd.games.planets.views import HandDealt, HandStarted
from hipparchusd.games.registry import find_kind


def test_planets_is_a_built_in_kind() -> None:
    assert find_kind("planets") is PLANETS
    assert PLANETS.seats == "3-6"
    assert [option.key for option in PLANETS.options] == [
        "players", "galaxies", "dealer", "seed", "deal", "exact100",
    ]  # fmt: skip


def test_options_create_the_game_they_say() -> None:
    created = create({"players": "6", "galaxies": "all", "dealer": "5", "exact100": "reset"})
    assert created.seat_count == 6 and created.state.galaxies and created.state.exact100
    assert created.view(None).dealer == 5 and created.view(None).hand_sizes == (10,) * 6
    assert not created.fixed_deal
    assert create({}).seat_count == 4
    assert create({"seed": "42"}).fixed_deal


def test_the_deal_option_fixes_the_first_hand() -> None:
    deal = full_deal(3, "V1,JS,M7")
    text = format_deal(cards_of(hand) for hand in deal)
    created = create({"players": "3", "deal": text.lower(), "dealer": "1"})
    assert created.fixed_deal
    assert created.view(0).hand == cards_of(deal[0])
    assert created.view(0).fixed_deal and created.view(None).fixed_deal


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": "7"}, "players must be 3, 4, 5 or 6"),
        ({"players": "four"}, "players must be"),
        ({"galaxies": "all"}, "six players only"),
        ({"players": "6", "galaxies": "some"}, "galaxies must be all"),
        ({"exact100": "yes"}, "exact100 must be reset"),
        ({"dealer": "4"}, "dealer must be a seat from 0 to 3"),
        ({"dealer": "x"}, "dealer must be an integer"),
        ({"seed": "1.5"}, "seed must be an integer"),
        ({"colour": "red"}, "unknown option"),
        ({"deal": "V1/JS"}, "bad deal: a deal has 4 hands, not 2"),
        ({"players": "3", "deal": "V1,XX//"}, "bad deal: seat 0's hand: 'XX' is not a card"),
        ({"players": "3", "deal": "V1,V1//"}, "bad deal"),
    ],
)
def test_bad_options_are_refused(options: dict[str, str], message: str) -> None:
    with pytest.raises(BadOption, match=message):
        create(options)


def test_start_sends_the_hand_to_each_seat_alone() -> None:
    played = PlanetsGame(players=4, dealer=2, deals=[full_deal(4)])
    events = played.start()
    assert (events[0].audience, events[0].payload) == (
        EVERYONE,
        HandStarted(1, 2, "left", 3, (14, 14, 14, 14)),
    )
    dealt = played.state.hand.dealt
    assert [(e.audience, e.payload) for e in events[1:]] == [
        (seat, HandDealt(1, seat, cards_of(dealt[seat]))) for seat in range(4)
    ]
    assert PLANETS.new_deal(events) and not PLANETS.new_deal(events[1:])


def test_legal_forms() -> None:
    played = game(4, "V1,E1,E2")
    legal = played.legal(0)
    assert isinstance(legal, Pick) and legal.count == 3 and legal.to == (1, 1, 1)
    assert legal.items == tuple(card.name for card in cards_of(played.state.hand.dealt[0]))
    played.play(0, Pass(cards("V1,E1,E2")))
    for seat in range(1, 4):
        played.play(seat, Pass(cards_of(played.state.hand.dealt[seat])[:3]))
    # Seat 0 passed V1 to seat 1, who leads it.
    assert played.legal(1) == MoveList(("V1",))
    described = played.legal(1, describe=True)
    assert isinstance(described, MoveList)
    assert described.described == ({"move": "V1", "card": "V1", "suit": "V", "rank": "1"},)
    assert played.legal(0) == MoveList(())


def test_views_hold_no_other_seats_cards() -> None:
    rng = random.Random(3)
    played = game(5, seed=9)
    for _ in range(200):
        if played.outcome is not None:
            break
        hand = played.state.hand
        for seat in range(5):
            view = played.view(seat)
            held = cards_of(hand.hands[seat])
            assert view.hand == held
            others = set(cards_of(sum(hand.hands) & ~hand.hands[seat]))
            data = json.dumps(played.view_data(seat))
            on_table = {c for t in view.tricks for c in t.cards} | set(
                view.trick.cards if view.trick else ()
            )
            # Another seat's card appears only once played face up (or as the seat's own
            # passed card, which it knows).
            for card in others - on_table - set(view.my_pass or ()):
                assert f'"{card.name}"' not in data
        spectator = played.view(None)
        assert spectator.hand is None and spectator.my_pass is None and spectator.received is None
        played.play(*random_move(played, rng))


def test_events_for_one_seat_name_that_seat_and_public_events_no_hidden_card() -> None:
    rng = random.Random(4)
    played = game(4, seed=1)
    for _ in range(300):
        if played.outcome is not None:
            break
        seat, move = random_move(played, rng)
        for event in played.play(seat, move):
            data = CODEC.dump_payload(event.payload)
            assert load_payload(json.loads(json.dumps(data))) == event.payload
            if event.audience is not EVERYONE:
                assert data["seat"] == event.audience
            else:
                assert data["kind"] not in ("hand", "received")


def test_record_restores_mid_pass_keeping_the_passes_secret() -> None:
    played = game(4, "V1,JS,M7", seed=5)
    played.play_word(0, "V1,JS,M7")
    played.play_word(2, played.legal(2).items[0] + "," + ",".join(played.legal(2).items[1:3]))  # type: ignore[union-attr]
    snapshot = json.loads(json.dumps(played.record_data()))
    back = restore({"seed": "5"}, snapshot)
    assert back.seats_to_move() == frozenset({1, 3})
    for seat in (None, 0, 1, 2, 3):
        assert back.view_data(seat) == played.view_data(seat)
    assert back.view(1).passed == (0, 2) and back.view(1).my_pass is None
    assert back.view(0).my_pass == cards("JS,M7,V1")


def test_record_restores_mid_trick_and_the_game_goes_on_alike() -> None:
    rng = random.Random(8)
    played = game(3, seed=6)
    for _ in range(40):
        played.play(*random_move(played, rng))
    back = restore({"seed": "6"}, json.loads(json.dumps(played.record_data())))
    assert back.view_data(None) == played.view_data(None)
    twin = random.Random(1)
    other = random.Random(1)
    while played.outcome is None:
        seat, move = random_move(played, twin)
        assert random_move(back, other) == (seat, move)
        assert back.play(seat, move) == played.play(seat, move)
    assert back.outcome == played.outcome
    assert back.record() == played.record()


def test_a_finished_record_loads_and_replays_to_its_result() -> None:
    rng = random.Random(2)
    played = game(6, galaxies=True, seed=3)
    while played.outcome is None:
        played.play(*random_move(played, rng))
    document = json.loads(json.dumps(dump_record(played.record())))
    assert document["kind"] == "planets-record" and document["version"] == 1
    record = load_record(document)
    assert record == played.record()
    assert record.winners == played.outcome.winners  # type: ignore[union-attr]


def test_a_tampered_record_is_refused() -> None:
    played = game(4, seed=2)
    data = played.record_data()
    assert isinstance(data, dict)
    data["totals"] = [1, 0, 0, 0]
    with pytest.raises(ValueError, match="totals"):
        restore({}, data)
    data = played.record_data()
    assert isinstance(data, dict)
    data["hands"][0]["passes"][0] = ["V1", "V1", "V2"]  # type: ignore[index]
    with pytest.raises(ValueError, match="does not replay"):
        restore({}, data)


def test_views_load_back() -> None:
    played = game(4, seed=2)
    for seat in (None, 0, 3):
        assert load_view(json.loads(json.dumps(played.view_data(seat)))) == played.view(seat)


def test_fork_is_independent() -> None:
    played = game(4, "V1,E1,E2", seed=2)
    copy = played.fork()
    copy.play(0, Pass(cards("V1,E1,E2")))
    assert played.view(None).passed == () and copy.view(None).passed == (0,)
    copy.resign(1)
    assert played.outcome is None


def test_parse_and_format_moves() -> None:
    played = game(3, seed=2)
    hand = played.state.hand
    four = cards_of(hand.dealt[0])[:4]
    text = ",".join(card.name.lower() for card in reversed(four))
    move = played.parse_move(0, text)
    assert isinstance(move, Pass) and move.cards == tuple(sorted(four))
    assert played.format_move(move) == ",".join(c.name for c in sorted(four))
    assert played.parse_move(0, "Others") is Shoot.OTHERS
    assert played.format_move(Card.JS) == "JS"
    assert played.describe_move(0, move)["to"] == [1, 1, 1, 1]
