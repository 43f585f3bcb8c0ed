"""The generic events every game sends through the lobby (protocol/PROTOCOL.md section 4):
``to-move`` after the start and after every move, naming the seats that must move now, and
``game-over`` (winners, scores, resigned) once the game has ended, last of all. They are public:
every follower gets the same line, numbered in the game's ``seq``."""

from __future__ import annotations

import json
import random

from daemon.helpers import DEAL

from hipparchusd.games.base import MoveList
from hipparchusd.lobby import Result

from .driver import Driver

#: Round wins that win a Hipparchus match (docs/rules.md: the first to win two rounds).
ROUNDS_TO_WIN = 2


def started(driver: Driver) -> Result:
    driver.ok("a", f"new hipparchus leader=0 deal={DEAL}")
    driver.ok("w", "watch g1")
    driver.ok("a", "join g1 name=alice")
    return driver.ok("b", "join g1 name=bob")


def test_the_start_ends_with_to_move_for_the_leader() -> None:
    driver = Driver()
    start = started(driver)
    assert driver.kinds_heard("a", start) == [
        "joined",
        "round-started",
        "hand",
        "turn",
        "to-move",
    ]
    # Seat 0 leads the first trick (leader=0): it alone must move.
    assert driver.heard("w", start)[-1] == b"* g1 5 to-move seats=0\n"
    driver.ok("b", "format json")
    assert driver.lobby.tables["g1"].seq == 5
    # The same message object goes to every follower: one public event, one seq.
    (delivery,) = [d for d in start.deliveries if d.message.kind == "to-move"]
    assert set(delivery.sessions) == {driver["a"], driver["b"], driver["w"]}
    assert json.loads(delivery.message.encode(driver["b"].mode)[2:]) == {
        "game": "g1",
        "seq": 5,
        "kind": "to-move",
        "data": {"seats": [0]},
    }


def test_seating_and_leaving_send_no_to_move() -> None:
    driver = Driver()
    driver.ok("a", "new hipparchus")
    driver.ok("w", "watch g1")
    assert driver.kinds_heard("w", driver.ok("a", "join g1")) == ["joined"]
    assert driver.kinds_heard("w", driver.ok("a", "leave g1")) == ["left"]
    started_result = driver.ok("a", "join g1")
    assert driver.kinds_heard("w", started_result) == ["joined"]
    full = driver.ok("b", "join g1")
    assert driver.kinds_heard("w", full)[-1] == "to-move"
    assert driver.kinds_heard("w", driver.lobby.disconnect(driver["b"])) == ["disconnected"]


def test_every_move_ends_with_to_move_and_the_match_with_game_over() -> None:
    for seed in range(4):
        driver = Driver()
        driver.ok("a", f"new hipparchus seed={seed}")
        driver.ok("w", "watch g1")
        driver.ok("a", "join g1")
        driver.ok("b", "join g1")
        table = driver.lobby.tables["g1"]
        rng = random.Random(seed)
        seqs: list[int] = []
        while table.game.outcome is None:
            (seat,) = table.game.seats_to_move()
            legal = table.game.legal(seat)
            assert isinstance(legal, MoveList)
            move = rng.choice(legal.moves)
            played = driver.ok("ab"[seat], f"play g1 {move}")
            events = driver.events_heard("w", played)
            seqs += [seq for seq, _, _ in events]
            *before, (_, kind, data) = events
            assert "to-move" not in [k for _, k, _ in before]
            if table.game.outcome is None:
                assert kind == "to-move"
                assert data == {"seats": sorted(table.game.seats_to_move())}
                # The game's own turn event agrees with it.
                turns = [d for _, k, d in before if k == "turn"]
                assert turns and data == {"seats": [turns[-1]["seat"]]}
            else:
                outcome = table.game.outcome
                assert kind == "game-over"
                assert [k for _, k, _ in before][-1] == "match-over"
                match_over = before[-1][2]
                assert data == {
                    "winners": [match_over["winner"]],
                    "scores": match_over["round_wins"],
                    "resigned": None,
                }
                assert data["winners"] == list(outcome.winners)
                # The winner won two rounds (docs/rules.md), the loser fewer.
                (winner,) = outcome.winners
                assert outcome.scores[winner] == ROUNDS_TO_WIN
                assert outcome.scores[1 - winner] < ROUNDS_TO_WIN
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
        assert seqs[-1] == table.seq
        # Once over, nothing more is sent for the game.
        driver.fail("a", "resign g1", "game-over")


def test_a_resignation_ends_with_game_over_naming_the_other_seat() -> None:
    driver = Driver()
    started(driver)
    driver.ok("a", "play g1 1S@1")
    driver.ok("w", "format json")
    resigned = driver.ok("a", "resign g1")
    assert driver.heard("b", resigned) == [
        b"* g1 9 match-over winner=1 round_wins=0,0 resigned=0\n",
        b"* g1 10 game-over winners=1 scores=0,0 resigned=0\n",
    ]
    assert json.loads(driver.heard("w", resigned)[-1][2:]) == {
        "game": "g1",
        "seq": 10,
        "kind": "game-over",
        "data": {"winners": [1], "scores": [0, 0], "resigned": 0},
    }
    state = driver.ok("w", "state g1")
    assert json.loads(driver.answer("w", state)[2:])["status"] == "over"
