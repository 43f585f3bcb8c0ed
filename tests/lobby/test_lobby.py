"""The lobby core without sockets: what each command asks to store and sends to whom."""

from __future__ import annotations

import random
from typing import Any

from daemon.helpers import DEAL, HAND0, HAND1

from hipparchusd.games.hipparchus.codec import converter
from hipparchusd.lobby import Lobby, Result, Session
from hipparchusd.protocol import Mode, parse_request
from hipparchusd.records import AddMove, AddSeat, CreateGame, StoredSeat


def run(lobby: Lobby, session: Session, line: str) -> Result:
    request = parse_request(line)
    assert request is not None
    return lobby.handle(session, request)


def ok(lobby: Lobby, session: Session, line: str) -> Result:
    result = run(lobby, session, line)
    assert result.response is not None and result.response.error is None, result.response
    return result


def sent_to(result: Result, session: Session) -> list[bytes]:
    return [d.message.encode(Mode.TEXT) for d in result.deliveries if session in d.sessions]


def test_new_join_and_start_ask_the_store_in_order() -> None:
    lobby = Lobby(clock=lambda: 1234.5)
    a, b = lobby.connect("a"), lobby.connect("b")
    created = ok(lobby, a, f"new hipparchus leader=0 deal={DEAL}")
    assert created.store_calls == [
        CreateGame("g1", "hipparchus", {"leader": "0", "deal": DEAL}, 1234.5)
    ]
    assert created.games == ("g1",)
    joined = ok(lobby, a, "join g1 name=alice")
    (call,) = joined.store_calls
    assert isinstance(call, AddSeat) and call.game_id == "g1"
    seat = call.seat
    assert isinstance(seat, StoredSeat) and seat.seat == 0 and seat.name == "alice"
    assert len(seat.token_hash) == 32  # a SHA-256 digest, never the token
    assert joined.response is not None
    token = joined.response.text[0].split("token=")[1]
    assert token.encode() not in repr(joined.store_calls).encode()
    started = ok(lobby, b, "join g1 name=bob")
    # The seat that starts the game is stored with the deal, in one call.
    (call,) = started.store_calls
    assert isinstance(call, AddSeat) and call.seat.seat == 1
    snapshot: Any = call.snapshot
    assert list(snapshot["rounds"][0]["deal"]["hands"]) == [HAND0, HAND1]
    assert list(snapshot["rounds"][0]["plays"]) == []
    # Seat 0 gets its hand, seat 1 its own; nobody else's.
    to_a, to_b = b"".join(sent_to(started, a)), b"".join(sent_to(started, b))
    assert HAND0.encode() in to_a and HAND1.encode() not in to_a
    assert HAND1.encode() in to_b and HAND0.encode() not in to_b


def test_every_play_is_stored_and_each_round_snapshotted_and_the_end_finished() -> None:
    lobby = Lobby()
    a, b = lobby.connect(), lobby.connect()
    ok(lobby, a, "new hipparchus leader=0 seed=7")
    ok(lobby, a, "join g1")
    ok(lobby, b, "join g1")
    rng = random.Random(3)
    table = lobby.tables["g1"]
    methods: list[str] = []
    deals = 0
    while (game := table.game).outcome is None:
        (seat,) = game.seats_to_move()
        who = (a, b)[seat]
        move = game.format_move(rng.choice(game.legal_moves(seat)))
        round_number = game.view(None).round_number
        result = ok(lobby, who, f"play g1 {move}")
        first = result.store_calls[0]
        assert isinstance(first, AddMove)
        assert (first.game_id, first.seat, first.move) == ("g1", seat, move)
        # A move that deals a new round carries the snapshot with its deal.
        snapshot = first.snapshot
        if table.game.outcome is None and table.game.view(None).round_number > round_number:
            deals += 1
            assert snapshot == converter.unstructure(table.game.record())
        else:
            assert snapshot is None
        methods += [c.call for c in result.store_calls[1:]]
    rounds = len(game.record().rounds)
    assert deals == rounds - 1
    assert methods == ["finish"]
    assert lobby.active_games == 0
    finished = ok(lobby, a, "record g1")
    assert finished.store_calls == []


def test_a_refused_request_changes_nothing_and_sends_nothing() -> None:
    lobby = Lobby()
    a, b, w = lobby.connect(), lobby.connect(), lobby.connect()
    ok(lobby, a, f"new hipparchus leader=0 deal={DEAL}")
    ok(lobby, a, "join g1")
    ok(lobby, b, "join g1")
    ok(lobby, w, "watch g1")
    table = lobby.tables["g1"]
    before = (table.seq, table.game.record(), table.game.view(0), list(table.names))
    for session, line in [
        (b, "play g1 1E@1"),
        (a, "play g1 2S@1"),
        (w, "play g1 1S@1"),
        (a, "join g1"),
        (w, "join g1 1"),
        (a, "new hipparchus leader=9"),
        (a, "resign g2"),
    ]:
        result = run(lobby, session, line)
        assert result.response is not None and result.response.error is not None
        assert result.store_calls == [] and result.deliveries == []
    assert (table.seq, table.game.record(), table.game.view(0), list(table.names)) == before


def test_a_dropped_seat_is_reported_and_the_token_takes_it_back() -> None:
    lobby = Lobby()
    a, b, w = lobby.connect(), lobby.connect(), lobby.connect()
    ok(lobby, a, f"new hipparchus leader=0 deal={DEAL}")
    ok(lobby, a, "join g1")
    joined = ok(lobby, b, "join g1")
    assert joined.response is not None
    token = joined.response.text[0].split("token=")[1]
    ok(lobby, w, "watch g1")
    gone = lobby.disconnect(b)
    assert gone.games == ("g1",)
    assert [d.message.kind for d in gone.deliveries] == ["disconnected"]
    assert set(gone.deliveries[0].sessions) == {a, w}
    assert lobby.is_idle(w) is False
    c = lobby.connect()
    back = ok(lobby, c, f"resume {token}")
    assert back.response is not None
    assert f"view.hand={HAND1}" in back.response.text
    assert [d.message.kind for d in back.deliveries] == ["resumed"]
    assert c not in back.deliveries[0].sessions


def test_a_prepared_move_changes_nothing_until_committed() -> None:
    lobby = Lobby()
    a, b = lobby.connect(), lobby.connect()
    ok(lobby, a, f"new hipparchus leader=0 deal={DEAL}")
    ok(lobby, a, "join g1")
    ok(lobby, b, "join g1")
    table = lobby.tables["g1"]
    before = (table.seq, table.game.record(), table.game.view(0))
    request = parse_request("play g1 1S@1")
    assert request is not None
    prepared = lobby.prepare(a, request)
    assert prepared.store_calls == [AddMove("g1", 0, "1S@1", None)]
    assert prepared.deliveries == []
    assert (table.seq, table.game.record(), table.game.view(0)) == before
    prepared.commit()
    assert [table.game.format_move(p) for p in table.game.record().rounds[0].plays] == ["1S@1"]
    assert [d.message.kind for d in prepared.deliveries] == ["played", "turn", "to-move"]
    assert table.seq == before[0] + 3
    prepared.commit()  # once only
    assert table.seq == before[0] + 3
