"""The compiled example bots (clients/c, clients/rust, clients/java): each builds without
warnings and plays whole matches against a live daemon, against the Python bot and against a
second copy of itself; the winner every bot prints must be the one the server's record gives
when replayed through the rules (hipparchusd.games.hipparchus.replay).

Each language is built once per test session, into a temporary directory, when its toolchain is
on the machine; when it is not, its tests are skipped with the missing tool named (never
silently). A failed build is a failure, with the compiler's output.

A scripted peer (no daemon) also feeds each bot the protocol a byte at a time, with events
arriving while a request waits and a CRLF line, to check what the live daemon rarely shows:
partial reads, queued events and the request ids.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path

import attrs
import pytest
from harness import CLIENTS, Endpoint, MatchResult, play_match, python_bot, run_bot

from hipparchusd.games.hipparchus.codec import converter
from hipparchusd.games.hipparchus.record import MatchRecord, replay

BUILD_TIMEOUT = 600.0

C_FLAGS = "-std=c99 -Wall -Wextra -pedantic -Werror -O2"
"""The C client must build without a warning (issue 4): warnings are errors here and in CI."""


@attrs.frozen
class CompiledBot:
    """A built bot: its language and the command that runs it (the harness adds arguments)."""

    language: str
    command: list[str]


def _require(language: str, *tools: str) -> None:
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"{language} client not tested: {', '.join(missing)} not found on PATH")


def _build(command: list[str], *, cwd: Path, env: dict[str, str] | None = None) -> None:
    """Run a build command; a non-zero exit fails the test with the build's output."""
    done = subprocess.run(
        command,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT,
    )
    if done.returncode != 0:
        pytest.fail(
            f"build failed: {' '.join(command)} (exit {done.returncode})\n"
            f"{done.stdout}\n{done.stderr}"
        )


def build_c(out: Path) -> list[str]:
    """``make`` with warnings as errors, objects and binary in ``out``."""
    cc = os.environ.get("CC", "cc")
    _require("C", cc, "make")
    _build(["make", f"BUILD={out}", f"CC={cc}", f"CFLAGS={C_FLAGS}"], cwd=CLIENTS / "c")
    return [str(out / "hipparchus-bot")]


def build_rust(out: Path) -> list[str]:
    """``cargo build --offline --locked`` (std only: nothing to download), target in ``out``."""
    _require("Rust", "cargo")
    _build(
        ["cargo", "build", "--offline", "--locked", "--quiet"],
        cwd=CLIENTS / "rust",
        env={"CARGO_TARGET_DIR": str(out)},
    )
    return [str(out / "debug" / "hipparchus-bot")]


def build_java(out: Path) -> list[str]:
    """Plain ``javac`` with every lint as an error, classes in ``out``."""
    _require("Java", "javac", "java")
    sources = sorted(str(path) for path in (CLIENTS / "java").glob("*.java"))
    _build(["javac", "-Xlint:all", "-Werror", "-d", str(out), *sources], cwd=CLIENTS / "java")
    return ["java", "-cp", str(out), "RandomBot"]


BUILDERS: dict[str, Callable[[Path], list[str]]] = {
    "c": build_c,
    "rust": build_rust,
    "java": build_java,
}


@pytest.fixture(scope="session", params=sorted(BUILDERS))
def compiled_bot(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> CompiledBot:
    """Each compiled bot in turn, built once per session (or its tests skipped, with why)."""
    language: str = request.param
    command = BUILDERS[language](tmp_path_factory.mktemp(f"build-{language}"))
    return CompiledBot(language, command)


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


def test_plays_the_python_bot_as_creator(compiled_bot: CompiledBot, daemon: Endpoint) -> None:
    """The compiled bot creates the game (``--create``) and the Python bot joins it."""
    check_match(play_match(daemon, compiled_bot.command, python_bot(), seed=11))


def test_plays_the_python_bot_as_joiner(compiled_bot: CompiledBot, daemon: Endpoint) -> None:
    """The Python bot creates the game and the compiled bot joins it (``--game``)."""
    check_match(play_match(daemon, python_bot(), compiled_bot.command, seed=23))


def test_plays_a_copy_of_itself(compiled_bot: CompiledBot, daemon: Endpoint) -> None:
    """Two copies of the same compiled bot play each other: one creates, one joins."""
    check_match(play_match(daemon, compiled_bot.command, compiled_bot.command, seed=37))


def test_unseeded_self_play_finishes(compiled_bot: CompiledBot, daemon: Endpoint) -> None:
    """Without ``--seed`` (the bot's own randomness, a random deal) a match still completes."""
    check_match(play_match(daemon, compiled_bot.command, compiled_bot.command))


def test_refused_join_exits_nonzero_with_the_code(
    compiled_bot: CompiledBot, daemon: Endpoint
) -> None:
    """The contract's error path: joining a game that does not exist exits non-zero, naming
    the protocol's error code on stderr, and prints no seat or result."""
    run = run_bot(compiled_bot.command, daemon, game="g999999", timeout=30)
    assert run.returncode not in (0, None), run.describe()
    assert "unknown-game" in run.stderr, run.describe()
    assert run.game_id is None and run.winner is None, run.describe()


def test_rust_library_unit_tests(tmp_path: Path) -> None:
    """The Rust client library's own unit tests (event and payload parsing) pass."""
    _require("Rust", "cargo")
    _build(
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

SCRIPT = [
    (r"new hipparchus seed=5", "={id} game=g7\n\n"),
    (
        r"join g7 name=peer",
        # The join's answer, then the game starts; seat 0 moves first. One line ends in CRLF.
        "={id} seat=1 token=0123abcd\n\n"
        "* g7 2 joined seat=1 name=peer\r\n"
        "* g7 3 round-started round_number=1 leader=0 round_wins=0,0\n"
        "* g7 3 hand round_number=1 seat=1 hand=SSMEEMSEMMSEES\n"
        "* g7 4 turn seat=0 lead=-\n"
        # Events show plays as count and suit, never a hand position (RULINGS H13).
        "* g7 5 played seat=0 play=2S hand_size=12\n"
        "* g7 6 turn seat=1 lead=2S\n",
    ),
    (
        r"legal g7",
        # An event arrives while the request waits: the bot must keep it for later.
        "* g7 7 disconnected seat=0\n={id} 1M@3 3E@4\n\n",
    ),
    (
        r"play g7 ((?=1M@3|3E@4)([1-3][SME])@[0-9]+)",
        "={id} {0}\n\n"
        "* g7 8 played seat=1 play={1} hand_size=11\n"
        "* g7 9 turn seat=1 lead=-\n",  # a stale turn: legal will say there is nothing to do
    ),
    # An empty answer, its id echoed with leading zeros (PROTOCOL.md: ids are echoed as sent).
    (r"legal g7", "=00{id}\n\n* g7 10 match-over winner=1 round_wins=0,2 resigned=-\n"),
    (r"quit", "={id}\n\n"),
]


def test_scripted_peer_byte_by_byte(compiled_bot: CompiledBot) -> None:
    """Against a scripted peer that sends one byte at a time, the bot sends one well-formed
    request per line with fresh ids, keeps the events that arrive while it waits, skips the
    seat-0 turn and a stale turn (an empty ``legal``), plays one of the legal moves, and prints
    the contract's lines."""
    peer = ScriptedPeer(GREETING, SCRIPT)
    run = run_bot(compiled_bot.command, peer.endpoint, seed=5, name="peer", timeout=60)
    peer.thread.join(10)
    peer.listener.close()
    info = f"{run.describe()}\npeer saw: {peer.requests}"
    assert peer.errors == [], info
    assert len(peer.requests) == len(SCRIPT), info
    ids = [int(line.split()[0]) for line in peer.requests]
    assert len(set(ids)) == len(ids), info
    assert run.returncode == 0, info
    assert (run.game_id, run.seat) == ("g7", 1), info
    assert (run.winner, run.round_wins) == (1, (0, 2)), info
    assert "opponent played 2S\n" in run.stdout, info
