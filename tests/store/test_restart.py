"""A real daemon killed with SIGKILL and restarted on the same state directory: no game in
progress and no acknowledged move is lost, seats resume with their tokens, and every match
finishes exactly as an uninterrupted replay of the same deals and moves."""

from __future__ import annotations

import fcntl
import os
import random
import signal
import sqlite3
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import trio

from hipparchusd.games.hipparchus import HipparchusGame, MatchRecord, replay
from hipparchusd.games.hipparchus.codec import converter
from hipparchusd.games.hipparchus.notation import format_play, parse_hand
from hipparchusd.store.startup import DB_NAME, LOCK_NAME

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the daemon tests' client
from daemon.client import Client, event_fields

Moves = list[tuple[int, str]]
#: tests/conftest.py's ``DaemonProcess``.
DaemonProcess = Any


@attrs.define
class Match:
    """One game as its two players see it: their connections, tokens and what was
    acknowledged."""

    game: str
    tokens: list[str]
    clients: list[Client]
    acked: Moves = attrs.field(factory=list)
    hands: dict[tuple[int, int], str] = attrs.field(factory=dict)  # (round, seat) -> hand

    async def reconnect(self, port: int) -> None:
        """New connections after a restart, each resuming its seat with its token."""
        self.clients = []
        for seat, token in enumerate(self.tokens):
            client = await Client.connect(port)
            state = (await client.ok(f"resume {token}")).fields()
            assert state["game"] == self.game and state["view.seat"] == str(seat)
            self.clients.append(client)

    def note_hands(self, lines: list[str]) -> None:
        for line in lines:
            _, _, kind, fields = event_fields(line)
            if kind == "hand":
                self.hands[int(fields["round_number"]), int(fields["seat"])] = fields["hand"]

    async def to_move(self) -> int | None:
        """The seat to move (asking seat 0's view), ``None`` once the match is over."""
        fields = (await self.clients[0].ok(f"state {self.game}")).fields()
        self.note_hands(self.clients[0].events)
        if fields["status"] == "over" or fields["view.to_move"] == "-":
            return None
        return int(fields["view.to_move"])

    async def play_one(self, rng: random.Random) -> dict[str, str] | None:
        """Make one random legal move; return the mover's state fields after it (``None`` when
        the match was over)."""
        seat = await self.to_move()
        if seat is None:
            return None
        client = self.clients[seat]
        moves = (await client.ok(f"legal {self.game}")).text.split()
        move = rng.choice(moves)
        reply = await client.ok(f"play {self.game} {move}")
        self.acked.append((seat, reply.text))
        return (await client.ok(f"state {self.game}")).fields()

    async def play_until(
        self, rng: random.Random, done: Callable[[Match, dict[str, str]], bool]
    ) -> None:
        """Make random legal moves until ``done(self, fields)`` holds for the mover's state
        fields after one (the match must not end first)."""
        while True:
            after = await self.play_one(rng)
            assert after is not None
            if done(self, after):
                return

    async def close(self) -> None:
        for client in self.clients:
            await client.aclose()


async def new_match(port: int, options: str = "") -> Match:
    a, b = await Client.connect(port), await Client.connect(port)
    game = (await a.ok(f"new hipparchus {options}".strip())).fields()["game"]
    tokens = [
        (await a.ok(f"join {game} 0 name=ann")).fields()["token"],
        (await b.ok(f"join {game} 1 name=bob")).fields()["token"],
    ]
    match = Match(game, tokens, [a, b])
    await match.to_move()  # reads seat 0's first hand
    return match


def stored_moves(state_dir: Path, game: str) -> Moves:
    """The moves the store holds for an unfinished ``game``, read with plain sqlite3."""
    conn = sqlite3.connect(state_dir / DB_NAME)
    try:
        rows = conn.execute(
            "SELECT seat, move FROM moves WHERE game_id = ? ORDER BY id", (game,)
        ).fetchall()
    finally:
        conn.close()
    return [(seat, move) for seat, move in rows]


def record_moves(record: MatchRecord) -> list[str]:
    """Every play of ``record``, in order, in canonical notation."""
    return [format_play(play) for round_ in record.rounds for play in round_.plays]


def uninterrupted(record: MatchRecord, moves: Moves) -> MatchRecord:
    """The record of a game dealt ``record``'s deals, in which ``moves`` are made in one go."""
    game = HipparchusGame(first_leader=record.first_leader, deals=[r.deal for r in record.rounds])
    game.start()
    for seat, text in moves:
        game.play(seat, game.parse_move(seat, text))
    return game.record()


def kill(daemon: DaemonProcess, state_dir: Path) -> None:
    """SIGKILL ``daemon`` and wait until its writer process has ended too.

    The writer outlives the daemon by the time it takes to finish the batch it holds, so a
    move still in flight may commit after the kill; it gives up the state directory's lock as
    it exits. Only then is the store final and safe to read, which is also what a restarting
    daemon waits for.
    """
    daemon.process.send_signal(signal.SIGKILL)
    daemon.process.wait(10)
    assert daemon.process.returncode == -signal.SIGKILL
    fd = os.open(state_dir / LOCK_NAME, os.O_RDWR)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                assert time.monotonic() < deadline, "the writer outlived its daemon by 10 s"
                time.sleep(0.01)
    finally:
        os.close(fd)  # and the lock with it


def kill_keeps_acked(daemon: DaemonProcess, state_dir: Path, matches: list[Match]) -> None:
    """SIGKILL ``daemon``; assert the store holds exactly each match's acknowledged moves."""
    kill(daemon, state_dir)
    for match in matches:
        assert stored_moves(state_dir, match.game) == match.acked


async def test_sigkill_mid_trick_and_between_rounds(
    daemon_factory: Callable[..., DaemonProcess], tmp_path: Path
) -> None:
    state_dir = tmp_path / "state"
    rng = random.Random(2026)
    daemon = daemon_factory("--state-dir", str(state_dir))
    unfixed = await new_match(daemon.port)
    seeded = await new_match(daemon.port, "seed=77 leader=1")
    matches = [unfixed, seeded]

    # Mid-trick: each game stops right after a lead, with a lead on the table.
    for match in matches:
        await match.play_until(
            rng, lambda m, after: len(m.acked) >= 5 and after["view.lead"] != "-"
        )
    kill_keeps_acked(daemon, state_dir, matches)

    # Between rounds: each game stops right after the play that ended round 1.
    daemon = daemon_factory("--state-dir", str(state_dir))
    for match in matches:
        await match.reconnect(daemon.port)
        await match.play_until(rng, lambda _, after: after["view.round_number"] == "2")
        await match.to_move()  # reads the new hand of seat 0
    kill_keeps_acked(daemon, state_dir, matches)

    # Finish both matches on a third daemon.
    daemon = daemon_factory("--state-dir", str(state_dir))
    for match in matches:
        await match.reconnect(daemon.port)
        while await match.play_one(rng) is not None:
            pass
        await match.close()
        record = await fetch_record(daemon.port, match.game)
        assert match.acked == list(zip(seats_of(record), record_moves(record), strict=True))
        expected = uninterrupted(record, match.acked)
        assert attrs.evolve(record, fixed_deal=True) == expected
        assert record.winner is not None and max(replay(record).round_wins) == 2
        # The deals seen before each crash are the deals recorded: nothing was re-dealt.
        assert (1, 0) in match.hands and (2, 0) in match.hands
        for (number, seat), hand in match.hands.items():
            assert record.rounds[number - 1].deal.hands[seat] == parse_hand(hand)
    assert (await fetch_record(daemon.port, unfixed.game)).fixed_deal is False
    assert (await fetch_record(daemon.port, seeded.game)).fixed_deal is True
    daemon.stop()

    # After a clean stop, a new daemon serves the finished games' records from the store.
    daemon = daemon_factory("--state-dir", str(state_dir))
    for match in matches:
        record = await fetch_record(daemon.port, match.game)
        assert record_moves(record) == [move for _, move in match.acked]


async def fetch_record(port: int, game: str) -> MatchRecord:
    """The record the daemon answers to ``record <game>`` (JSON mode)."""
    client = await Client.connect(port)
    try:
        await client.ok("format json")
        data = (await client.ok(f"record {game}")).json()
    finally:
        await client.aclose()
    assert data["game"] == game and data["kind"] == "hipparchus"
    assert data["players"] == ["ann", "bob"]
    return converter.structure(data["record"], MatchRecord)


def seats_of(record: MatchRecord) -> list[int]:
    """The seat that made each play of ``record``, by replaying it."""
    seats = []
    game = HipparchusGame(first_leader=record.first_leader, deals=[r.deal for r in record.rounds])
    game.start()
    for round_ in record.rounds:
        for play in round_.plays:
            (seat,) = game.seats_to_move()
            seats.append(seat)
            game.play(seat, play)
    return seats


async def test_fifty_games_interleaved_across_a_kill_all_resume(
    daemon_factory: Callable[..., DaemonProcess], tmp_path: Path
) -> None:
    state_dir = tmp_path / "state"
    # 100 connections from loopback: over the default per-address limit, so trusted here.
    daemon = daemon_factory("--state-dir", str(state_dir), "--trusted-addresses", "127.0.0.1")
    matches = [
        await new_match(daemon.port, "seed=5" if number % 5 == 0 else "") for number in range(50)
    ]
    in_flight: dict[str, tuple[int, str] | None] = {}

    async def keep_playing(match: Match, rng: random.Random) -> None:
        """Play until the daemon dies under us, noting the move whose answer never came."""
        try:
            while True:
                seat = await match.to_move()
                assert seat is not None, "a match ended before the kill"
                client = match.clients[seat]
                move = rng.choice((await client.ok(f"legal {match.game}")).text.split())
                in_flight[match.game] = (seat, move)
                reply = await client.ok(f"play {match.game} {move}")
                in_flight[match.game] = None
                match.acked.append((seat, reply.text))
        except (EOFError, trio.BrokenResourceError, trio.ClosedResourceError):
            return

    async with trio.open_nursery() as nursery:
        for number, match in enumerate(matches):
            nursery.start_soon(keep_playing, match, random.Random(number))
        while sum(len(m.acked) for m in matches) < 400:  # all 50 under way, none near its end
            await trio.sleep(0.01)
        kill(daemon, state_dir)
    assert all(m.acked for m in matches)

    # Every acknowledged move is in the store; at most the one in flight beyond them.
    for match in matches:
        stored = stored_moves(state_dir, match.game)
        assert stored[: len(match.acked)] == match.acked
        assert stored[len(match.acked) :] in ([], [in_flight.get(match.game)])
        match.acked = stored

    daemon = daemon_factory(
        "--state-dir", str(state_dir), "--trusted-addresses", "127.0.0.1"
    )  # as above
    for match in matches:
        await match.reconnect(daemon.port)

    async def finish(match: Match, rng: random.Random) -> None:
        while await match.play_one(rng) is not None:
            pass
        await match.close()

    async with trio.open_nursery() as nursery:
        for number, match in enumerate(matches):
            nursery.start_soon(finish, match, random.Random(100 + number))
    for match in matches:
        record = await fetch_record(daemon.port, match.game)
        assert match.acked == list(zip(seats_of(record), record_moves(record), strict=True))
        assert attrs.evolve(record, fixed_deal=True) == uninterrupted(record, match.acked)
