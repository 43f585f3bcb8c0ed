"""The compiled example bots (clients/c, clients/rust, clients/java): each builds without
warnings (languages.py) and plays whole Hipparchus matches against a second copy of itself; the
winner every bot prints must be the one the server's record gives when replayed through the
rules (hipparchusd.games.hipparchus.record.replay). Matches against the other languages, and
planets at 3-6 seats, are in test_tables.py.

Each language is built once per test session (the ``bots`` fixture), into a temporary directory,
when its toolchain is on the machine; when it is not, its tests are skipped with the missing
tool named (never silently). A failed build is a failure, with the compiler's output.

A scripted peer (no daemon) also feeds every bot, compiled or not, the protocol a byte at a
time, with events arriving while a request waits and a CRLF line, to check what the live daemon
rarely shows: partial reads, queued events, request ids, stale ``to-move`` events, and both
forms of ``legal`` (a ``pick`` with targets, a list).
"""

from __future__ import annotations

import re
import socket
import threading
from pathlib import Path

import attrs
import pytest
from harness import CLIENTS, Endpoint, MatchResult, play_match, run_bot
from languages import LANGUAGES, Bots, require, run_build

from hipparchusd.games.hipparchus.codec import converter
from hipparchusd.games.hipparchus.record import MatchRecord, replay

COMPILED = ("c", "rust", "java")


def check_match(result: MatchResult) -> None:
    """Both bots finished cleanly in the same game, on different seats, and printed the same
    winner and round wins; the record, replayed through the rules, gives that winner after a
    complete match (two round wins, RULINGS H12), with no resignation."""
    info = result.describe()
    for run in (result.first, result.second):
        assert run.returncode == 0, info
        assert run.game_id == result.game_id, info
    assert {result.first.seat, result.second.seat} == {0, 1}, info
    assert result.winner is not None, f"the bots printed no common winner\n{info}"
    assert result.record_winner == result.winner, info

    record = converter.structure(result.record["record"], MatchRecord)
    final = replay(record)
    assert record.resigned is None, info
    assert final.over and final.winner == result.winner, info
    assert final.round_wins[result.winner] == 2, info
    assert result.first.round_wins == result.second.round_wins == final.round_wins, info


@pytest.mark.parametrize("language", COMPILED)
def test_plays_a_copy_of_itself(bots: Bots, daemon: Endpoint, language: str) -> None:
    """Two copies of the same compiled bot play each other: one creates, one joins."""
    command = bots.command(language)
    check_match(play_match(daemon, command, command, seed=37))


@pytest.mark.parametrize("language", COMPILED)
def test_unseeded_self_play_finishes(bots: Bots, daemon: Endpoint, language: str) -> None:
    """Without ``--seed`` (the bot's own randomness, a random deal) a match still completes."""
    command = bots.command(language)
    check_match(play_match(daemon, command, command))


@pytest.mark.parametrize("language", COMPILED)
def test_refused_join_exits_nonzero_with_the_code(
    bots: Bots, daemon: Endpoint, language: str
) -> None:
    """The contract's error path: joining a game that does not exist exits non-zero, naming
    the protocol's error code on stderr, and prints no seat or result."""
    run = run_bot(bots.command(language), daemon, game="g999999", timeout=30)
    assert run.returncode not in (0, None), run.describe()
    assert "unknown-game" in run.stderr, run.describe()
    assert run.game_id is None and run.winner is None and run.outcome is None, run.describe()


def test_rust_library_unit_tests(tmp_path: Path) -> None:
    """The Rust client library's own unit tests (event, payload and legal parsing) pass."""
    require("Rust", "cargo")
    run_build(
        ["cargo", "test", "--offline", "--locked", "--quiet"],
        cwd=CLIENTS / "rust",
        env={"CARGO_TARGET_DIR": str(tmp_path / "target")},
    )


@attrs.frozen
class Peer:
    """Where the scripted peer listens (an ``Endpoint`` for the harness)."""

    host: str
    port: int


class ScriptedPeer:
    """A one-connection stand-in for the daemon that plays a fixed script, one byte per send.

    Each step expects one request (a regex over the command after its id) and answers it with
    lines to send, in which ``{id}`` is the request's id; ``{0}`` is the request's first
    captured group. Anything unexpected is recorded in ``errors`` and ends the script.
    """

    def __init__(self, greeting: str, steps: list[tuple[str, str]]) -> None:
        self.greeting = greeting
        self.steps = steps
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(60)
        self.endpoint = Peer("127.0.0.1", self.listener.getsockname()[1])
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _send(self, conn: socket.socket, text: str) -> None:
        for byte in text.encode():
            conn.sendall(bytes([byte]))  # with TCP_NODELAY: the bot reads fragments

    def _serve(self) -> None:
        try:
            conn, _ = self.listener.accept()
        except OSError as exc:
            self.errors.append(f"no connection: {exc}")
            return
        with conn, conn.makefile("rb") as reader:
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            conn.settimeout(60)
            self._send(conn, self.greeting)
            for pattern, answer in self.steps:
                raw = reader.readline()
                line = raw.decode("utf-8", "replace")
                self.requests.append(line)
                request = re.fullmatch(r"([1-9][0-9]{0,8}) (.*)\n", line)
                if request is None:
                    self.errors.append(f"not '<id> <command>' and LF: {line!r}")
                    return
                command = re.fullmatch(pattern, request.group(2))
                if command is None:
                    self.errors.append(f"expected /{pattern}/, got {line!r}")
                    return
                self._send(conn, answer.format(*command.groups(), id=request.group(1)))


GREETING = "* server hello name=hipparchusd version=0.1.0 protocol=1\n"

CARDS = "E1|J3|M7|V2"

SCRIPT = [
    # --seed 5 adds seed=5 after the --option words.
    (r"new planets players=3 seed=5", "={id} game=g7\n\n"),
    (
        r"join g7 name=peer",
        # The join's answer, then the game starts; the pass is simultaneous, but seat 0 has
        # already passed when this seat gets its first to-move. One line ends in CRLF.
        "={id} seat=1 token=0123abcd\n\n"
        "* g7 2 joined seat=1 name=peer\r\n"
        "* g7 3 hand-started hand_number=1 dealer=2 pass_name=split pass_count=2 "
        "hand_sizes=4,4,4\n"
        "* g7 3 hand hand_number=1 seat=1 hand=E1,J3,M7,V2\n"
        "* g7 4 passed seat=0\n"
        "* g7 5 to-move seats=0\n"  # not this seat: nothing to do
        "* g7 6 to-move seats=1,2\n",
    ),
    (
        r"legal g7",
        # An event arrives while the request waits: the bot must keep it for later. The answer
        # is a choice: two distinct cards, the first to seat 2, the second to seat 0.
        f"* g7 7 disconnected seat=0\n={{id}} pick 2 {CARDS.replace('|', ' ')} to=2,0\n\n",
    ),
    (
        rf"play g7 ((?P<first>{CARDS}),(?!(?P=first)$)(?:{CARDS}))",
        "={id} {0}\n\n"
        "* g7 8 passed seat=1\n"
        "* g7 9 to-move seats=1,2\n",  # a stale to-move: legal will say there is nothing to do
    ),
    # An empty answer, its id echoed with leading zeros (PROTOCOL.md: ids are echoed as sent).
    (r"legal g7", "=00{id}\n\n* g7 10 passed seat=2\n* g7 11 to-move seats=1\n"),
    # The list form (here a choice of two words, as planets' shooting choice).
    (r"legal g7", "={id} self others\n\n"),
    (
        r"play g7 (self|others)",
        # Seat 0 resigned while this one chose: the play loses the race, which is not an error
        # for the bot (the request changed nothing). The resigning seat ranks last (P16).
        "* g7 12 game-over winners=1 scores=-23,0,45 resigned=0\n"
        "?{id} game-over the game is over\n\n",
    ),
    (r"quit", "={id}\n\n"),
]


@pytest.mark.parametrize("language", LANGUAGES)
def test_scripted_peer_byte_by_byte(bots: Bots, language: str) -> None:
    """Against a scripted peer that sends one byte at a time, the bot creates a game with its
    --kind and --option words, sends one well-formed request per line with fresh ids, keeps the
    events that arrive while it waits, skips another seat's to-move and a stale one (an empty
    ``legal``), answers a ``pick`` with two distinct items joined by ``,`` and a list with one
    of its words, takes a play refused with ``game-over`` (a resignation won the race) in its
    stride, and prints the ``game-over`` fields."""
    peer = ScriptedPeer(GREETING, SCRIPT)
    run = run_bot(
        bots.command(language),
        peer.endpoint,
        seed=5,
        name="peer",
        timeout=60,
        extra=["--kind", "planets", "--option", "players=3"],
    )
    peer.thread.join(10)
    peer.listener.close()
    info = f"{run.describe()}\npeer saw: {peer.requests}"
    assert peer.errors == [], info
    assert len(peer.requests) == len(SCRIPT), info
    ids = [int(line.split()[0]) for line in peer.requests]
    assert len(set(ids)) == len(ids), info
    assert run.returncode == 0, info
    assert (run.game_id, run.seat) == ("g7", 1), info
    assert run.outcome is not None, info
    assert (run.outcome.winners, run.outcome.scores) == ((1,), (-23, 0, 45)), info
    assert run.outcome.resigned == 0, info
