"""What a lobby call returns, and when its change happens: a request that must be stored is
prepared with its change pending and made only by ``Result.commit`` (after the store recorded
it); a refused request changes nothing, asks nothing of the store and sends nothing
(PROTOCOL.md section 3: "A failed request changes nothing")."""

from __future__ import annotations

import pytest
from daemon.helpers import DEAL

from hipparchusd.lobby import Lobby
from hipparchusd.lobby.tables import Lifecycle

from .driver import Driver, call_names, observable, store_calls


def seated(driver: Driver, *, watch: bool = True) -> Driver:
    """g1 (fixed deal, seat 0 leads) with alice (a) on seat 0, bob (b) on seat 1, and a
    spectator w."""
    driver.ok("a", f"new hipparchus leader=0 deal={DEAL}")
    driver.ok("a", "join g1 name=alice")
    driver.ok("b", "join g1 name=bob")
    if watch:
        driver.ok("w", "watch g1")
    return driver


@pytest.mark.parametrize(
    ("who", "line", "stored"),
    [
        ("c", "new hipparchus", ["create_game"]),
        ("a", "play g1 1S@1", ["add_move"]),
        ("a", "resign g1", ["finish"]),
        ("c", "join g2 name=carol", ["add_seat"]),
    ],
)
def test_a_prepared_change_is_made_only_by_commit(who: str, line: str, stored: list[str]) -> None:
    driver = seated(Driver())
    driver.ok("c", "new hipparchus")  # g2, waiting
    before = observable(driver.lobby)
    prepared = driver.prepare(who, line)
    assert prepared.response is not None and prepared.response.error is None
    assert call_names(prepared)[:1] == stored[:1] and prepared.pending is not None
    # Nothing is sent and nothing changed until the store has recorded the change.
    assert prepared.deliveries == []
    assert observable(driver.lobby) == before
    prepared.commit()
    assert observable(driver.lobby) != before
    after = observable(driver.lobby)
    heard = list(prepared.deliveries)
    prepared.commit()  # a second commit does nothing
    assert observable(driver.lobby) == after and prepared.deliveries == heard


def test_a_change_the_store_refused_is_as_if_never_asked() -> None:
    driver = seated(Driver())
    before = observable(driver.lobby)
    driver.prepare("a", "play g1 1S@1")  # never committed: the store failed
    assert observable(driver.lobby) == before
    # Seat 0 still has its whole hand and the turn: another lead is legal.
    played = driver.ok("a", "play g1 1M@2")
    assert driver.answer("a", played) == b"= 1M@2\n\n"
    seqs = [seq for seq, _, _ in driver.events_heard("w", played)]
    assert seqs[0] == before[0]["g1"][1] + 1  # numbered with no gap


def test_a_game_id_is_used_once_even_by_a_game_the_store_refused() -> None:
    driver = Driver()
    refused = driver.prepare("a", "new hipparchus")
    assert driver.answer("a", refused) == b"= game=g1\n\n"
    assert driver.lobby.tables == {}
    created = driver.ok("a", "new hipparchus")
    assert driver.answer("a", created) == b"= game=g2\n\n"
    assert store_calls(created)[0][1][:2] == ("g2", "hipparchus")


def test_the_seat_that_starts_the_game_is_stored_with_the_deal_then_the_start_is_sent() -> None:
    driver = Driver()
    driver.ok("a", f"new hipparchus leader=0 deal={DEAL}")
    joined = driver.ok("a", "join g1")
    assert call_names(joined) == ["add_seat"] and store_calls(joined)[0][1][2] is None
    prepared = driver.prepare("b", "join g1")
    ((method, args),) = store_calls(prepared)
    snapshot = args[2]
    assert method == "add_seat" and snapshot["rounds"][0]["plays"] == []
    assert driver.lobby.tables["g1"].lifecycle is Lifecycle.WAITING
    prepared.commit()
    assert driver.lobby.tables["g1"].lifecycle is Lifecycle.PLAYING
    assert driver.kinds_heard("b", prepared)[0] == "joined"


def test_requests_that_change_nothing_ask_nothing_of_the_store() -> None:
    driver = seated(Driver())
    for who, line in [
        ("a", "state g1"),
        ("w", "state g1"),
        ("a", "legal g1"),
        ("b", "legal g1"),
        ("w", "games"),
        ("w", "kinds"),
        ("w", "help new"),
        ("a", "format json"),
        ("x", "watch g1"),
        ("x", "unwatch g1"),
    ]:
        result = driver.ok(who, line)
        assert result.store_calls == [] and result.pending is None, line
        assert result.deliveries == [], line


@pytest.mark.parametrize(
    ("who", "line", "code"),
    [
        ("a", "frobnicate", "unknown-command"),
        ("a", "state g1 extra", "syntax"),
        ("a", "format yaml", "syntax"),
        ("x", "join g1 7", "syntax"),
        ("a", "new chess", "unknown-kind"),
        ("a", "new hipparchus leader=2", "bad-option"),
        ("a", "new hipparchus colour=red", "bad-option"),
        ("a", "new hipparchus deal=SSS/MMM/EE", "bad-option"),
        ("x", "join g2 name=" + "n" * 33, "bad-option"),
        ("a", "state g9", "unknown-game"),
        ("w", "play g1 1S@1", "not-seated"),
        ("w", "legal g1", "not-seated"),
        ("a", "join g2", "already-seated"),
        ("a", "watch g1", "already-seated"),
        ("x", "join g1", "seat-taken"),
        ("x", "join g2 0", "seat-taken"),
        ("b", "play g1 1E@1", "not-your-turn"),
        ("a", "play g1 2S@1", "illegal-move"),
        ("a", "play g1 1S@99", "illegal-move"),
        ("a", "play g1 lots", "illegal-move"),
        ("a", "record g1", "game-not-over"),
        ("a", "play g2 1S@1", "not-started"),
        ("a", "resign g2", "not-started"),
        ("x", "leave g1", "not-following"),
        ("x", "unwatch g1", "not-following"),
        ("x", "resume 0123456789abcdef0123456789abcdef", "bad-token"),
    ],
)
def test_a_refused_request_changes_nothing_and_sends_nothing(
    who: str, line: str, code: str
) -> None:
    driver = seated(Driver())
    driver.ok("a", "new hipparchus")  # g2, waiting, alice on seat 0
    driver.ok("a", "join g2 0")
    driver["x"]
    before = observable(driver.lobby)
    result = driver.fail(who, line, code)
    assert result.store_calls == [] and result.deliveries == [] and result.pending is None
    assert observable(driver.lobby) == before


def test_refusals_of_a_finished_game_and_of_a_stopping_server() -> None:
    driver = seated(Driver(Lobby(max_games=2)))
    driver.ok("b", "resign g1")
    driver.ok("c", "new hipparchus")
    driver.ok("c", "new hipparchus")
    before = observable(driver.lobby)
    driver.fail("a", "play g1 1S@1", "game-over")
    driver.fail("b", "resign g1", "game-over")
    driver.fail("c", "new hipparchus", "limit")
    assert observable(driver.lobby) == before
    driver.lobby.begin_shutdown(5)
    before = observable(driver.lobby)
    driver.fail("c", "new hipparchus", "shutting-down")
    assert observable(driver.lobby) == before


def test_a_play_while_the_server_stops_is_refused() -> None:
    driver = seated(Driver())
    shutdown = driver.lobby.begin_shutdown(2.5)
    assert [d.message.encode(driver["w"].mode) for d in shutdown.deliveries] == [
        b"* server shutdown grace=2.5\n"
    ]
    before = observable(driver.lobby)
    driver.fail("a", "play g1 1S@1", "shutting-down")
    assert observable(driver.lobby) == before


def test_the_failure_response_echoes_the_request_id_in_both_modes() -> None:
    driver = seated(Driver())
    failed = driver.fail("b", "42 play g1 1E@1", "not-your-turn")
    assert driver.answer("b", failed) == b"?42 not-your-turn it is not your turn\n\n"
    driver.ok("b", "format json")
    failed = driver.fail("b", "43 play g1 1E@1", "not-your-turn")
    assert (
        driver.answer("b", failed)
        == b'?43 {"code": "not-your-turn", "message": "it is not your turn"}\n\n'
    )
