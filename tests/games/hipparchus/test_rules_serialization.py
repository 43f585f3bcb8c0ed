"""Serialization: identity round trips of every reachable value through JSON; strict validation
of untrusted input; the versioned envelope and its migrations."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from hipparchusd.codec import migrate
from hipparchusd.games.hipparchus import HipparchusGame, MatchRecord, MatchState, RoundState
from hipparchusd.games.hipparchus import codec as ser
from hipparchusd.games.hipparchus.codec import InvalidState, UnsupportedVersion
from hipparchusd.games.hipparchus.model import PlayedCards, PublicTrick, Suit
from hipparchusd.games.hipparchus.notation import format_cards
from hipparchusd.games.hipparchus.views import Played, View


def through_json(data: Any) -> Any:
    return json.loads(json.dumps(data))


def played_game(seed: int = 3) -> tuple[HipparchusGame, list[Any], list[MatchState]]:
    rng = random.Random(seed)
    game = HipparchusGame(seed=seed, first_leader=0)
    payloads = [e.payload for e in game.start()]
    states = [game.state]
    while game.outcome is None:
        (seat,) = game.seats_to_move()
        payloads += [e.payload for e in game.play(seat, rng.choice(game.legal_moves(seat)))]
        states.append(game.state)
    return game, payloads, states


GAME, PAYLOADS, STATES = played_game()


def state_document() -> dict[str, Any]:
    # A mid-round state with tricks, a lead in progress and won cards.
    state = next(s for s in STATES if s.round.lead is not None and len(s.round.tricks) > 2)
    return through_json(ser.dump_state(state))


def test_every_reachable_state_round_trips_exactly() -> None:
    for state in STATES:
        document = ser.dump_state(state)
        assert through_json(document) == document  # plain JSON data, lists not tuples
        assert ser.load_state(through_json(document)) == state
        assert ser.load_round(through_json(ser.unstructure(state.round))) == state.round


def test_every_view_round_trips_exactly() -> None:
    rng = random.Random(9)
    game = HipparchusGame(seed=4)
    game.start()
    while True:
        for seat in (0, 1, None):
            view = game.view(seat)
            assert ser.load_view(through_json(ser.unstructure(view))) == view
        if game.outcome is not None:
            break
        (seat,) = game.seats_to_move()
        game.play(seat, rng.choice(game.legal_moves(seat)))


def test_every_event_payload_round_trips_exactly() -> None:
    kinds = {type(p).kind for p in PAYLOADS}
    assert kinds >= {"round-started", "hand", "turn", "played", "trick", "round-over"}
    assert "match-over" in kinds
    for payload in PAYLOADS:
        data = through_json(ser.dump_payload(payload))
        assert data["kind"] == type(payload).kind
        assert ser.load_payload(data) == payload


def test_match_record_round_trips_and_replays() -> None:
    record = GAME.record()
    loaded = ser.load_record(through_json(ser.dump_record(record)))
    assert loaded == record
    assert isinstance(loaded, MatchRecord)


def test_wire_forms_are_notation_strings_and_arrays() -> None:
    data = ser.unstructure(STATES[0])
    assert data["round"]["hands"][0] == str(STATES[0].round.hands[0])
    assert data["round"]["won"] == [[0, 0, 0], [0, 0, 0]]
    assert all(card in ("S", "M", "E") for card in data["round"]["face_down"])
    assert ser.unstructure(STATES[1].round.lead) == str(STATES[1].round.lead)


def test_views_and_events_carry_no_hand_position() -> None:
    # RULINGS H13: a position would show the player's hand order to the opponent and to
    # spectators; views and events give each play as count and suit, for everyone.
    record = GAME.record()
    plays = [p for r in record.rounds for p in r.plays]
    played = [p for p in PAYLOADS if isinstance(p, Played)]
    assert [p.play for p in played] == [PlayedCards(p.count, p.suit) for p in plays]
    assert [ser.dump_payload(p)["play"] for p in played] == [format_cards(p) for p in plays]
    for payload in PAYLOADS:
        assert "@" not in json.dumps(ser.dump_payload(payload)), payload
    rng = random.Random(5)
    game = HipparchusGame(seed=6)
    game.start()
    lead_seen = tricks_seen = False
    while game.outcome is None:
        for seat in (0, 1, None):
            view = game.view(seat)
            assert "@" not in json.dumps(ser.unstructure(view)), view
            round_ = game.state.round
            lead = round_.lead
            assert view.lead == (None if lead is None else PlayedCards(lead.count, lead.suit))
            assert view.tricks == tuple(PublicTrick.of(t) for t in round_.tricks)
            lead_seen |= view.lead is not None
            tricks_seen |= bool(view.tricks)
        (seat,) = game.seats_to_move()
        game.play(seat, rng.choice(game.legal_moves(seat)))
    assert lead_seen and tricks_seen


def test_public_plays_and_tricks_are_strict_on_input() -> None:
    assert ser.structure("2E", PlayedCards) == PlayedCards(2, Suit.EARTH)
    trick = {"leader": 0, "lead": "1S", "follow": "2S", "winner": 1}
    assert ser.structure(trick, PublicTrick) == PublicTrick(
        0, PlayedCards(1, Suit.SUN), PlayedCards(2, Suit.SUN), 1
    )
    for bad, what in [
        ("2e", "not canonical"),
        ("2E@5", "played cards name no place in a hand"),
        ("4E", "1, 2 or 3 cards, not 4"),
        (2, "not int"),
        (["2", "E"], "not list"),
    ]:
        with pytest.raises(InvalidState, match=what):
            ser.structure(bad, PlayedCards)


def mutate(path: list[Any], value: Any) -> dict[str, Any]:
    document = state_document()
    target = document
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return document


R = ["data", "round"]


@pytest.mark.parametrize(
    ("path", "value", "field", "what"),
    [
        ([*R, "leader"], "1", "$.data.round.leader", "expected an integer"),
        ([*R, "leader"], True, "$.data.round.leader", "expected an integer"),
        ([*R, "leader"], 1.0, "$.data.round.leader", "expected an integer"),
        ([*R, "leader"], 2, "$.data.round.leader", "out of range"),
        ([*R, "last_follower"], -1, "$.data.round.last_follower", "out of range"),
        (["data", "round_wins", 0], "0", "$.data.round_wins[0]", "expected an integer"),
        ([*R, "won", 0, 1], -1, "$.data.round.won[0][1]", "out of range"),
        ([*R, "won", 0], [1, 2], "$.data.round.won[0]", "3 items"),
        ([*R, "won", 0], "123", "$.data.round.won[0]", "expected an array"),
        ([*R, "face_down", 0], "X", "$.data.round.face_down[0]", "unknown suit"),
        ([*R, "face_down", 0], "s", "$.data.round.face_down[0]", "unknown suit"),
        ([*R, "face_down", 0], 0, "$.data.round.face_down[0]", "unknown suit"),
        ([*R, "hands", 0], "SSQ", "$.data.round.hands[0]", "'Q' is not a suit"),
        ([*R, "hands", 0], "", "$.data.round.hands[0]", "and - when it has none"),
        ([*R, "hands", 0], "S" * 15, "$.data.round.hands[0]", "at most 14 suit letters, not 15"),
        ([*R, "hands", 0], "S" * 11, "$.data.round.hands[0]", "11 cards of Sun"),
        ([*R, "hands", 0], ["S"], "$.data.round.hands[0]", "a hand is a string"),
        ([*R, "lead"], "2e@1", "$.data.round.lead", "not canonical"),
        ([*R, "lead"], "9E@1", "$.data.round.lead", "1, 2 or 3 cards, not 9"),
        ([*R, "extra"], 1, "$.data.round", "unknown fields extra"),
        ([*R, "won"], KeyError, "$.data.round", "without won"),
        (["data", "round_number"], 4, "$.data.round_number", "out of range"),
        (["data", "winner"], 0, "$.data.winner", "should be None"),
        (["data", "first_leader"], None, "$.data.first_leader", "expected an integer"),
    ],
)
def test_untrusted_input_is_validated_not_coerced(
    path: list[Any], value: Any, field: str, what: str
) -> None:
    with pytest.raises(InvalidState) as caught:
        ser.load_state(mutate(path, value))
    assert caught.value.field == field
    assert what in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_card_total_must_be_thirty() -> None:
    document = state_document()
    won = document["data"]["round"]["won"][0]
    won[0] += 1
    with pytest.raises(InvalidState, match=r"cards of Sun .* there are 10"):
        ser.load_state(document)


def test_lead_must_be_a_legal_play_of_the_leaders_previous_hand() -> None:
    document = state_document()
    round_ = document["data"]["round"]
    leader_hand = round_["hands"][round_["leader"]]
    round_["lead"] = f"{round_['lead'][0]}{round_['lead'][1]}@{len(leader_hand) + 5}"
    with pytest.raises(InvalidState) as caught:
        ser.load_state(document)
    assert caught.value.field == "$.data.round.lead"


def test_tricks_must_account_for_the_won_cards() -> None:
    document = state_document()
    trick = document["data"]["round"]["tricks"][0]
    trick["winner"] = 1 - trick["winner"]
    with pytest.raises(InvalidState, match="RULINGS H7"):
        ser.load_state(document)


def test_unknown_newer_version_is_refused_with_a_clear_error() -> None:
    document = state_document()
    document["version"] = ser.SCHEMA_VERSION + 1
    with pytest.raises(UnsupportedVersion, match="newer than this program reads"):
        ser.load_state(document)


@pytest.mark.parametrize(
    "document",
    [
        [],
        {"version": "1", "kind": "hipparchus-match", "data": {}},
        {"version": 0, "kind": "hipparchus-match", "data": {}},
        {"version": 1, "kind": "hipparchus-match"},
        {"version": 1, "kind": "hipparchus-match", "data": {}, "more": 1},
        {"version": 1, "kind": "hipparchus-record", "data": {}},
    ],
)
def test_bad_envelopes_are_refused(document: Any) -> None:
    with pytest.raises(InvalidState):
        ser.load_state(document)


def test_migrations_run_in_order_from_old_versions() -> None:
    def one_to_two(document: dict[str, Any]) -> dict[str, Any]:
        data = dict(document["data"])
        data["renamed"] = data.pop("old")
        return {**document, "data": data}

    def two_to_three(document: dict[str, Any]) -> dict[str, Any]:
        return {**document, "data": {**document["data"], "added": True}}

    old = {"version": 1, "kind": "k", "data": {"old": 5}}
    steps = {("k", 1): one_to_two, ("k", 2): two_to_three}
    migrated = migrate(old, 3, migrations=steps)
    assert migrated == {"version": 3, "kind": "k", "data": {"renamed": 5, "added": True}}
    assert old == {"version": 1, "kind": "k", "data": {"old": 5}}  # input untouched
    with pytest.raises(UnsupportedVersion, match="no migration of k from schema version 2"):
        migrate(old, 3, migrations={("k", 1): one_to_two})
    # Migrations are keyed by (kind, version): another kind's step is never applied.
    with pytest.raises(UnsupportedVersion, match="no migration of k from schema version 1"):
        migrate(old, 3, migrations={("other", 1): one_to_two, ("other", 2): two_to_three})
    assert migrate(copy.deepcopy(old), 1, migrations=steps) == old  # current version: unchanged


def test_a_migration_may_rename_the_kind_and_the_next_step_follows_the_new_name() -> None:
    def rename(document: dict[str, Any]) -> dict[str, Any]:
        return {**document, "kind": "new"}

    def mark(document: dict[str, Any]) -> dict[str, Any]:
        return {**document, "data": {"marked": True}}

    old = {"version": 1, "kind": "old", "data": {}}
    steps = {("old", 1): rename, ("new", 2): mark, ("old", 2): rename}
    assert migrate(old, 3, migrations=steps) == {
        "version": 3,
        "kind": "new",
        "data": {"marked": True},
    }


def test_record_that_does_not_replay_is_refused() -> None:
    document = through_json(ser.dump_record(GAME.record()))
    plays = document["data"]["rounds"][0]["plays"]
    plays[1] = plays[0]
    with pytest.raises(InvalidState, match="does not replay"):
        ser.load_record(document)
    document = through_json(ser.dump_record(GAME.record()))
    document["data"]["rounds"][0]["deal"]["face_down"] = ["S", "S"]
    with pytest.raises(InvalidState) as caught:
        ser.load_record(document)
    assert caught.value.field.startswith("$.data.rounds[0].deal")


def test_unknown_payload_kind_is_refused() -> None:
    with pytest.raises(InvalidState, match="unknown event kind"):
        ser.load_payload({"kind": "hand-peek", "seat": 0})


def test_view_with_bool_as_int_is_refused() -> None:
    data = through_json(ser.unstructure(GAME.view(0)))
    data["fixed_deal"] = 1
    with pytest.raises(InvalidState) as caught:
        ser.load_view(data)
    assert caught.value.field == "$.fixed_deal"
    assert isinstance(ser.load_view(through_json(ser.unstructure(GAME.view(None)))), View)


def test_round_state_defaults_are_not_used_for_missing_wire_fields() -> None:
    data = through_json(ser.unstructure(STATES[0].round))
    del data["tricks"]
    with pytest.raises(InvalidState, match="without tricks"):
        ser.load_round(data)
    assert isinstance(ser.load_round(through_json(ser.unstructure(STATES[0].round))), RoundState)


@pytest.mark.parametrize(
    ("key", "value", "field"),
    [
        ("seat", 2, "$.seat"),
        ("hand", None, "$.hand"),
        ("hand_sizes", [3, 14], "$.hand"),
        ("won", [[0, 11, 0], [0, 0, 0]], "$.won[0][1]"),
        ("won", [[0, 6, 0], [0, 5, 0]], "$.won"),
        ("round_number", 0, "$.round_number"),
        ("round_wins", [3, 0], "$.round_wins[0]"),
        ("to_move", -1, "$.to_move"),
        ("lead", "2S@1", "$.lead"),  # public plays have no position (H13)
        (
            "tricks",
            [{"leader": 0, "lead": "1S", "follow": "1M@3", "winner": 1}],
            "$.tricks[0].follow",
        ),
        (
            "tricks",
            [
                {"leader": 0, "lead": "1S", "follow": None, "winner": None},
                {"leader": 0, "lead": "1S", "follow": "2S", "winner": 1},
            ],
            "$.tricks[0]",
        ),
    ],
)
def test_bad_views_are_refused(key: str, value: Any, field: str) -> None:
    data = through_json(ser.unstructure(GAME.view(0)))
    data[key] = value
    with pytest.raises(InvalidState) as caught:
        ser.load_view(data)
    assert caught.value.field == field


def test_spectator_view_with_a_hand_is_refused() -> None:
    data = through_json(ser.unstructure(GAME.view(None)))
    data["hand"] = "SSM"
    with pytest.raises(InvalidState, match="spectator has no hand"):
        ser.load_view(data)


@pytest.mark.parametrize(
    ("kind", "key", "value", "field"),
    [
        ("played", "seat", 2, "$.seat"),
        ("played", "hand_size", 15, "$.hand_size"),
        ("played", "play", "4S@1", "$.play"),
        ("played", "play", "2S@1", "$.play"),  # public plays have no position (H13)
        ("played", "play", "4S", "$.play"),
        ("turn", "lead", "1S@1", "$.lead"),
        (
            "trick",
            "trick",
            {"leader": 0, "lead": "1S@1", "follow": "2S", "winner": 1},
            "$.trick.lead",
        ),
        (
            "trick",
            "trick",
            {"leader": 0, "lead": "1S", "follow": None, "winner": None},
            "$.trick.follow",
        ),
        (
            "trick",
            "trick",
            {"leader": 0, "lead": "1S", "follow": "2S", "winner": None},
            "$.trick.winner",
        ),
        (
            "trick",
            "trick",
            {"leader": 0, "lead": "1S", "follow": "1S", "winner": 1},
            "$.trick.follow",
        ),
        (
            "trick",
            "trick",
            {"leader": 2, "lead": "1S", "follow": "2S", "winner": 1},
            "$.trick.leader",
        ),
        ("round-started", "round_number", 0, "$.round_number"),
        ("trick", "won", [[0, 0, 0], [0, 0, -1]], "$.won[1][2]"),
        ("hand", "hand", "S" * 11, "$.hand"),
    ],
)
def test_bad_payloads_are_refused(kind: str, key: str, value: Any, field: str) -> None:
    payload = next(p for p in PAYLOADS if type(p).kind == kind)
    data = through_json(ser.dump_payload(payload))
    data[key] = value
    with pytest.raises(InvalidState) as caught:
        ser.load_payload(data)
    assert caught.value.field == field
