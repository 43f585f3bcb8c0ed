"""planets across ``kill -9`` of a real daemon with the SQLite store: killed in the middle of a
pass (some seats have passed, others not) and in the middle of a trick, then restarted on the
same state directory. Every acknowledged pass, play and choice survives; after ``resume`` a seat
sees its own pass and which seats have passed (never what they passed), and the trick in
progress; the games then finish exactly as an uninterrupted replay of the same moves."""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from test_restart import kill, stored_moves

from hipparchusd.games.registry import find_kind

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the daemon tests' helpers
from daemon.client import Client
from daemon.planets_play import SHOOT_DEAL, SHOOT_PASSES, Table, legal_of, open_table

#: tests/conftest.py's ``DaemonProcess``.
DaemonProcess = Any
CARD = re.compile(r"(?<![A-Za-z0-9])[EJMNSV][1-7MSG](?![A-Za-z0-9])")


async def play_until(table: Table, done: Callable[[Table], bool]) -> list[int]:
    """Random legal moves until ``done(table)`` holds after one; return the seats ``to-move``
    names then (the spectator's events are all read, so the referee is up to date)."""
    seats = await table.next_to_move()
    while not done(table):
        assert seats, "the game ended too soon"
        await table.step(seats)
        seats = await table.next_to_move()
    return seats


def mid_pass(table: Table) -> bool:
    """At least two seats have passed this hand, not all."""
    return table.referee.in_pass and len(table.referee.passes) >= 2


def mid_trick(table: Table) -> bool:
    """Past the first trick, with cards on the table."""
    referee = table.referee
    return not referee.in_pass and referee.tricks_done >= 2 and len(referee.trick) >= 2


async def reconnect(table: Table, port: int) -> None:
    """After a restart: every seat resumes on a new JSON connection with its token (which
    loads the game: start-up loads started games lazily), then a new spectator watches; check
    what each resumed view shows against the referee."""
    referee = table.referee
    for seat, token in enumerate(table.tokens):
        client = await Client.connect(port)
        await client.ok("format json")
        reply = await client.ok(f"resume {token}")
        answer = reply.json()
        view = answer["view"]
        assert answer["game"] == table.game and view["seat"] == seat, answer
        table.seats[seat] = client
        if referee.in_pass:
            # The passes made before the kill: who passed (public), what (the passer's alone).
            assert view["passed"] == sorted(referee.passes), (seat, view)
            mine = referee.passes.get(seat)
            assert view["my_pass"] == (None if mine is None else mine), (seat, view)
            assert view["hand"] == sorted(referee.dealt[referee.hand_number][seat], key=_key), (
                "no cards move until every seat has passed"
            )
        else:
            assert sorted(view["hand"], key=_key) == sorted(referee.hands[seat], key=_key)
            trick = view["trick"]
            played = [card for _, card in referee.trick]
            assert (trick["cards"] if trick else []) == played, (seat, view)
            if trick:
                assert trick["leader"] == referee.leader
            assert len(view["tricks"]) == referee.tricks_done
        assert view["totals"] == referee.totals and view["hand_number"] == referee.hand_number
        assert view["to_move"] == referee.to_move()
        # Nothing of another seat: every card named is the seat's own or played this hand.
        own = referee.dealt[referee.hand_number][seat] | {
            card for card, _ in referee.received_by_hand.get(referee.hand_number, {}).get(seat, [])
        }
        for card in CARD.findall(reply.text):
            assert card in own or card in referee.played, (seat, card, reply.text)
    # Started games come back lazily, on a seat's resume (so a spectator watches after it).
    spectator = await Client.connect(port)
    await spectator.ok("format json")
    watched = await spectator.ok(f"watch {table.game}")
    table.spectator = spectator
    # A spectator sees who has passed, and of the cards only those played this hand.
    view = watched.json()["view"]
    assert view["seat"] is None and view["hand"] is None and view["my_pass"] is None, view
    if referee.in_pass:
        assert view["passed"] == sorted(referee.passes), view
    assert set(CARD.findall(watched.text)) <= set(referee.played), watched.text


def _key(card: str) -> tuple[int, int]:
    return "EJMNSV".index(card[0]), "1234567MSG".index(card[1])


def options_of(text: str) -> dict[str, str]:
    """``key=value`` words as a dict."""
    return dict(word.split("=", 1) for word in text.split())


async def test_sigkill_mid_pass_and_mid_trick(
    daemon_factory: Callable[..., DaemonProcess], tmp_path: Path
) -> None:
    state_dir = tmp_path / "state"
    daemon = daemon_factory("--state-dir", str(state_dir))
    rng = random.Random(1202)
    four_options, three_options = "seed=404 dealer=1", "players=3 seed=303"
    four = await open_table(daemon.port, four_options, players=4, rng=rng)
    three = await open_table(daemon.port, three_options, players=3, rng=rng)
    tables = [four, three]
    # A third game stops with a shooting choice pending (a deal where seat 0 takes every point).
    shoot_options = f"players=3 dealer=1 deal={'/'.join(SHOOT_DEAL)}"
    shoot = await open_table(daemon.port, shoot_options, players=3, rng=rng)
    assert await shoot.next_to_move() == [0, 1, 2]
    for seat in (1, 0):
        await shoot.play(seat, SHOOT_PASSES[seat])
        await shoot.next_to_move()
    await shoot.play(2, SHOOT_PASSES[2])
    shoot_seats = await play_until(shoot, lambda t: t.referee.shooter is not None)
    assert shoot_seats == [0]

    # Kill 1: four-seat game in hand 1's pass (two seats passed), three-seat game mid-trick.
    next_seats = {
        four.game: await play_until(four, mid_pass),
        three.game: await play_until(three, mid_trick),
    }
    assert len(four.referee.passes) == 2 and three.referee.trick
    kill(daemon, state_dir)
    for table in (*tables, shoot):
        assert stored_moves(state_dir, table.game) == table.acked

    # Restart: the passes already made and the trick in progress are there.
    daemon = daemon_factory("--state-dir", str(state_dir))
    for table in tables:
        await reconnect(table, daemon.port)
        await table.step(next_seats[table.game])
    # The choice is still pending, for the shooter alone.
    await reconnect(shoot, daemon.port)
    legal = legal_of(await shoot.seats[0].ok(f"legal {shoot.game}"))
    assert isinstance(legal, list) and sorted(legal) == ["others", "self"]
    for seat in (1, 2):
        assert legal_of(await shoot.seats[seat].ok(f"legal {shoot.game}")) == []
    await shoot.play(0, "others")
    assert await shoot.next_to_move() == [0, 1, 2]  # hand 2's pass; the hand-over checked
    assert shoot.referee.totals == [0, 23, 23]
    await shoot.aclose()
    # Kill 2: the four-seat game mid-trick, the three-seat one in hand 2's pass.
    next_seats = {
        four.game: await play_until(four, mid_trick),
        three.game: await play_until(three, lambda t: t.referee.hand_number == 2 and mid_pass(t)),
    }
    kill(daemon, state_dir)
    for table in tables:
        assert stored_moves(state_dir, table.game) == table.acked

    # Finish both games on a third daemon; each is the uninterrupted game of the same moves.
    daemon = daemon_factory("--state-dir", str(state_dir))
    for table, options in ((four, four_options), (three, three_options)):
        await reconnect(table, daemon.port)
        await table.step(next_seats[table.game])
        await table.play_to_end()
        record = await table.record()
        fresh = find_kind("planets").create(options_of(options))
        fresh.start()
        for seat, word in table.acked:
            assert fresh.play_word(seat, word)[0] == word
        assert fresh.record_data() == record["record"]
        assert fresh.outcome is not None
        assert list(fresh.outcome.scores) == table.referee.totals
        assert fresh.outcome.winners == table.referee.winners
        await table.aclose()
