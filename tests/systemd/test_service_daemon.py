"""The real daemon under systemd's protocols: notifications and watchdog, socket activation,
graceful SIGTERM, SIGHUP reload, --check-config. Each test runs ``python -m hipparchusd`` as a
subprocess, as systemd would."""

from __future__ import annotations

import itertools
import os
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sd_helpers import Client, NotifySocket, free_port

from hipparchusd.server.run import SPARE_FILES

StartDaemon = Callable[..., Any]


def seated_game(port: int) -> tuple[Client, Client, str, list[str]]:
    """Two clients seated in a new game (seat 0 leads): the clients, the game id, the tokens."""
    c0, c1 = Client("127.0.0.1", port), Client("127.0.0.1", port)
    (created,) = c0.ask("new hipparchus leader=0 seed=7")
    game = created.removeprefix("= game=")
    tokens = []
    for client, name in ((c0, "alice"), (c1, "bob")):
        (joined,) = client.ask(f"join {game} name={name}")
        tokens.append(joined.split("token=")[1])
    return c0, c1, game, tokens


def play_first_legal(client: Client, game: str) -> str:
    (legal,) = client.ask(f"legal {game}")
    move = legal.removeprefix("= ").split()[0]
    assert client.ask(f"play {game} {move}") == [f"= {move}"]
    return move


# Notifications ---------------------------------------------------------------------------------


def test_ready_status_watchdog_stopping(
    daemon_factory: StartDaemon, notify_socket: NotifySocket
) -> None:
    watchdog_usec = 800_000
    daemon = daemon_factory(
        "--state-dir",
        "none",
        env={"NOTIFY_SOCKET": notify_socket.env, "WATCHDOG_USEC": str(watchdog_usec)},
    )
    before_ready = notify_socket.messages_until("READY=1")
    ready = time.monotonic()
    assert not any("STOPPING=1" in m for m in before_ready)
    # READY=1 is sent once the daemon accepts: a connection now is served at once.
    client = Client(daemon.host, daemon.port)
    assert client.greeting.startswith("* server hello")

    # STATUS= follows the counts: a game is created.
    client.ask("new hipparchus")
    deadline = time.monotonic() + 10
    statuses: list[str] = []
    pings: list[float] = []
    while time.monotonic() < deadline and not any("1 game," in s for s in statuses):
        message = notify_socket.receive()
        if message == "WATCHDOG=1":
            pings.append(time.monotonic())
        elif message.startswith("STATUS="):
            statuses.append(message)
    assert any("1 game, 1 connection" in s for s in statuses), statuses

    while len(pings) < 5:
        if notify_socket.receive() == "WATCHDOG=1":
            pings.append(time.monotonic())
    gaps = [b - a for a, b in itertools.pairwise(pings)]
    half = watchdog_usec / 2 / 1e6
    # Every half interval on average; never so late that systemd's watchdog would fire.
    assert statistics.mean(gaps) == pytest.approx(half, rel=0.25), gaps
    assert max(gaps) < 2 * half, gaps
    # The pings start with the service, not some time after: counted from READY=1, since
    # the daemon's own start (an interpreter and its imports) is slow on a loaded machine.
    assert pings[0] - ready < 10

    client.close()
    assert daemon.stop() == 0
    after = []
    while True:
        try:
            after.append(notify_socket.receive(timeout=0.5))
        except TimeoutError:
            break
    assert any(m.split("\n")[0] == "STOPPING=1" for m in after), after


# Socket activation ------------------------------------------------------------------------------


def ipv6_loopback(port: int) -> bool:
    """Whether [::1]:``port`` can be bound here (containers may lack IPv6)."""
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as probe:
            probe.bind(("::1", port))
    except OSError:
        return False
    return True


@pytest.fixture
def socket_activated(tmp_path: Path) -> Iterator[tuple[int, subprocess.Popen[bytes], Path]]:
    """``systemd-socket-activate`` listening on a free port of 127.0.0.1 (and of ::1 when this
    machine has IPv6 loopback), as ``hipparchusd.socket`` does on every address: it starts the
    daemon on the first connection, with the listening sockets as descriptors 3 (and 4)."""
    tool = shutil.which("systemd-socket-activate")
    if tool is None:
        pytest.skip("systemd-socket-activate is missing (Debian package 'systemd')")
    port = free_port()
    addresses = ["-l", f"127.0.0.1:{port}"]
    if ipv6_loopback(port):
        addresses += ["-l", f"[::1]:{port}"]
    log = tmp_path / "activated.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [
                tool,
                *addresses,
                "--fdname=hipparchusd.socket",
                sys.executable,
                "-m",
                "hipparchusd",
                "--state-dir",
                "none",
                "--port",
                "1",
                "--log-level",
                "debug",
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 10
    while log.read_bytes().count(b"Listening on") < len(addresses) // 2:
        assert process.poll() is None and time.monotonic() < deadline, log.read_text()
        time.sleep(0.02)
    yield port, process, log
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def test_socket_activation_serves_a_game(
    socket_activated: tuple[int, subprocess.Popen[bytes], Path],
) -> None:
    port, process, log = socket_activated
    # --port 1 would fail to bind: the daemon must use the sockets it was given.
    c0, c1, game, _ = seated_game(port)
    assert c0.greeting.startswith("* server hello")
    play_first_legal(c0, game)
    c1.event(f"* {game} ")
    text = log.read_text()
    assert f"using socket hipparchusd.socket passed by systemd: 127.0.0.1:{port}" in text
    if "[::1]" in text:
        # The same daemon serves the IPv6 socket: a spectator there sees the game.
        v6 = Client("::1", port)
        assert v6.ask(f"watch {game}")[0] == f"= game={game}"
        v6.close()
        assert f"using socket hipparchusd.socket passed by systemd: [::1]:{port}" in text
    c0.close()
    c1.close()
    process.send_signal(signal.SIGTERM)
    assert process.wait(15) == 0


def test_as_the_units_run_it(tmp_path: Path, notify_socket: NotifySocket) -> None:
    # What hipparchusd.socket and hipparchusd.service give the daemon: the socket, a
    # notification socket, $STATE_DIRECTORY, no command-line options at all.
    tool = shutil.which("systemd-socket-activate")
    if tool is None:
        pytest.skip("systemd-socket-activate is missing (Debian package 'systemd')")
    port = free_port()
    state = tmp_path / "state"
    state.mkdir(mode=0o700)  # systemd creates it (StateDirectory=)
    log = tmp_path / "service.log"
    environment = [
        f"--setenv=NOTIFY_SOCKET={notify_socket.env}",
        f"--setenv=STATE_DIRECTORY={state}",
        "--setenv=WATCHDOG_USEC=30000000",
    ]
    with log.open("wb") as out:
        process = subprocess.Popen(
            [tool, "-l", f"127.0.0.1:{port}", *environment, sys.executable, "-m", "hipparchusd"],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 10
        while b"Listening on" not in log.read_bytes():
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.02)
        c0, c1, game, _ = seated_game(port)
        notify_socket.messages_until("READY=1")
        play_first_legal(c0, game)
        c0.close()
        c1.close()
        assert (state / "games.sqlite3").exists()
        process.send_signal(signal.SIGTERM)
        assert process.wait(15) == 0
        assert any(m.startswith("STOPPING=1") for m in notify_socket.messages_until("STOPPING=1"))
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert f"store {state / 'games.sqlite3'} open" in log.read_text()


def test_an_unusable_passed_socket_stops_start_up_with_78(tmp_path: Path) -> None:
    # A datagram socket (a socket unit with ListenDatagram= by mistake): a clear error, and the
    # exit status that the service's RestartPreventExitStatus= keeps from a restart loop.
    tool = shutil.which("systemd-socket-activate")
    if tool is None:
        pytest.skip("systemd-socket-activate is missing (Debian package 'systemd')")
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = tmp_path / "datagram.log"
    with log.open("wb") as out:
        command = [tool, "--datagram", "-l", f"127.0.0.1:{port}"]
        command += [sys.executable, "-m", "hipparchusd", "--state-dir", "none"]
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 10
        while b"Listening on" not in log.read_bytes():
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.02)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sender:
            sender.sendto(b"hello\n", ("127.0.0.1", port))
        assert process.wait(30) == 78
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert "socket activation: passed descriptor 3 (unknown) is not a stream socket" in (
        log.read_text()
    )


# SIGTERM ----------------------------------------------------------------------------------------


def test_sigterm_mid_match_exits_0(daemon_factory: StartDaemon) -> None:
    # A grace far longer than any exit takes, even on a loaded machine: an exit well within
    # it shows that the daemon did not wait for the grace, with no guess at how long it takes.
    daemon = daemon_factory("--state-dir", "none", "--grace", "120")
    c0, c1, game, _ = seated_game(daemon.port)
    play_first_legal(c0, game)
    started = time.monotonic()
    daemon.process.send_signal(signal.SIGTERM)
    for client in (c0, c1):
        assert client.event("* server shutdown") == "* server shutdown grace=120"
    # In-flight and new read-only commands are still answered; new moves are refused.
    assert c1.ask(f"state {game}")[0] == f"= game={game}"
    (legal,) = c1.ask(f"legal {game}")
    assert c1.ask(f"play {game} {legal.split()[1]}")[0].startswith("? shutting-down")
    c0.close()
    c1.close()
    # Both clients gone: no need to wait for the rest of the grace period.
    assert daemon.process.wait(60) == 0
    assert time.monotonic() - started < 60
    assert "stopped" in daemon.log()


def test_after_sigterm_the_match_resumes_on_the_same_state_dir(
    daemon_factory: StartDaemon, tmp_path: Path
) -> None:
    state = str(tmp_path / "state")
    daemon = daemon_factory("--state-dir", state, "--grace", "5")
    c0, c1, game, tokens = seated_game(daemon.port)
    play_first_legal(c0, game)
    view0 = [line for line in c0.ask(f"state {game}") if line.startswith("view.")]
    daemon.process.send_signal(signal.SIGTERM)
    c0.close()
    c1.close()
    assert daemon.process.wait(15) == 0

    again = daemon_factory("--state-dir", state)
    r0, r1 = Client(again.host, again.port), Client(again.host, again.port)
    assert r0.ask(f"resume {tokens[0]}")[0].startswith("=")
    assert [line for line in r0.ask(f"state {game}") if line.startswith("view.")] == view0
    assert r1.ask(f"resume {tokens[1]}")[0].startswith("=")
    play_first_legal(r1, game)


def test_a_second_sigterm_ends_at_once(daemon_factory: StartDaemon) -> None:
    daemon = daemon_factory("--state-dir", "none", "--grace", "600")
    client = Client(daemon.host, daemon.port)
    client.ask("new hipparchus")
    daemon.process.send_signal(signal.SIGTERM)
    client.event("* server shutdown grace=600")
    time.sleep(0.3)
    started = time.monotonic()
    daemon.process.send_signal(signal.SIGTERM)
    daemon.process.wait(120)
    # Far within the grace (600 s), which a connected client would otherwise hold it to.
    assert time.monotonic() - started < 120


def test_the_grace_deadline_ends_it(daemon_factory: StartDaemon) -> None:
    daemon = daemon_factory("--state-dir", "none", "--grace", "1")
    client = Client(daemon.host, daemon.port)
    daemon.process.send_signal(signal.SIGTERM)
    # The connected client would hold it for ever without the grace deadline (1 s): an exit
    # at all, within a bound generous for a loaded machine, is the deadline at work.
    assert daemon.process.wait(60) == 0
    with pytest.raises((EOFError, ConnectionError)):
        while True:
            client.line()


# SIGHUP and the configuration file --------------------------------------------------------------


def test_sighup_changes_the_log_level(
    daemon_factory: StartDaemon, tmp_path: Path, notify_socket: NotifySocket
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('log-level = "info"\nmax-games = 5\n')
    daemon = daemon_factory(
        "--state-dir", "none", "--config", str(config), env={"NOTIFY_SOCKET": notify_socket.env}
    )
    notify_socket.messages_until("READY=1")
    client = Client(daemon.host, daemon.port)
    client.ask("no_such_command")  # a protocol error: logged at DEBUG
    config.write_text('log-level = "debug"\nmax-games = 1\n')
    daemon.process.send_signal(signal.SIGHUP)
    reload = notify_socket.messages_until("READY=1")
    assert [m.split("\n")[0] for m in reload if m.startswith("RELOADING=1\n")] == ["RELOADING=1"]
    assert "MONOTONIC_USEC=" in next(m for m in reload if m.startswith("RELOADING=1"))
    client.ask("no_such_command")
    deadline = time.monotonic() + 10
    while "unknown-command" not in daemon.log() and time.monotonic() < deadline:
        time.sleep(0.05)
    log = daemon.log()
    assert log.count("unknown-command") == 1  # only the one after the reload
    assert "log-level: info -> debug" in log
    assert "max-games: 5 -> 1" in log
    # The new limit is in force.
    client.ask("new hipparchus")
    assert client.ask("new hipparchus")[0].startswith("? limit")


def test_a_bad_file_on_sighup_keeps_the_settings(
    daemon_factory: StartDaemon, tmp_path: Path
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('log-level = "info"\n')
    daemon = daemon_factory("--state-dir", "none", "--config", str(config))
    config.write_text('log-level = "noisy"\n')
    daemon.process.send_signal(signal.SIGHUP)
    deadline = time.monotonic() + 10
    while "log-level" not in daemon.log() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "reload failed" in daemon.log() and "'log-level'" in daemon.log()
    assert daemon.process.poll() is None
    assert Client(daemon.host, daemon.port).ask("version")[0].startswith("=")


def check_config(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hipparchusd", "--check-config", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_check_config_good(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('port = 7461\nmax-connections = 20\nlog-level = "warning"\n')
    result = check_config("--config", str(config))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"{config}: OK"


@pytest.mark.parametrize(
    ("text", "key"),
    [("max-games = 'many'\n", "max-games"), ("prot = 1\n", "prot"), ("port = 99999\n", "port")],
)
def test_check_config_bad(tmp_path: Path, text: str, key: str) -> None:
    config = tmp_path / "config.toml"
    config.write_text(text)
    result = check_config("--config", str(config))
    assert result.returncode == 78
    assert f"key {key!r}" in result.stderr
    assert result.stdout == ""


def test_check_config_missing_file(tmp_path: Path) -> None:
    result = check_config("--config", str(tmp_path / "nope.toml"))
    assert result.returncode == 78
    assert "cannot read" in result.stderr


def test_check_config_without_a_file() -> None:
    result = check_config("--config", "")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "no configuration file; options: OK"


def test_check_config_checks_the_options_too(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("max-games = 5\n")
    result = check_config("--config", str(config), "--max-connections", "0")
    assert result.returncode == 78
    assert "max_connections must be a whole number >= 1" in result.stderr


def test_command_line_wins_over_the_file(daemon_factory: StartDaemon, tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("port = 1\nmax-games = 1\n")
    # conftest passes --port <free port>: the file's port 1 must lose.
    daemon = daemon_factory("--state-dir", "none", "--config", str(config), "--max-games", "2")
    client = Client(daemon.host, daemon.port)
    assert client.ask("new hipparchus")[0].startswith("=")
    assert client.ask("new hipparchus")[0].startswith("=")
    assert client.ask("new hipparchus")[0].startswith("? limit")


def test_journal_format_under_systemd(tmp_path: Path) -> None:
    # As under systemd: stderr is the stream that $JOURNAL_STREAM names.
    port = free_port()
    log = tmp_path / "journal.log"
    with log.open("wb") as out:
        status = os.fstat(out.fileno())
        process = subprocess.Popen(
            [sys.executable, "-m", "hipparchusd", "--port", str(port), "--state-dir", "none"],
            stdout=out,
            stderr=out,
            env={**os.environ, "JOURNAL_STREAM": f"{status.st_dev}:{status.st_ino}"},
        )
    try:
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                Client("127.0.0.1", port).close()
                break
            except OSError:
                time.sleep(0.05)
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(15) == 0
    lines = log.read_text().splitlines()
    assert lines and all(line[:3] in {"<6>", "<7>", "<5>", "<4>"} for line in lines), lines
    assert any(line.startswith("<6>") and "connection" in line for line in lines), lines


def open_files_limit(pid: int) -> int:
    """The soft open-file limit of process ``pid``."""
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max open files"):
            return int(line.split()[3])
    raise AssertionError("no open-file limit")


def test_the_open_file_limit_is_raised_for_the_connections(tmp_path: Path) -> None:
    port = free_port()
    log = tmp_path / "limits.log"
    with log.open("wb") as out:
        command = [sys.executable, "-m", "hipparchusd", "--port", str(port), "--state-dir", "none"]

        def limit() -> None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (100, 600))

        process = subprocess.Popen(
            [*command, "--max-connections", "200"], stderr=out, preexec_fn=limit
        )
        tight = subprocess.Popen(
            [*command, "--port", str(free_port()), "--max-connections", "1000"],
            stderr=out,
            preexec_fn=limit,
        )
    try:
        deadline = time.monotonic() + 15
        while log.read_text().count("listening on") < 2:
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        assert open_files_limit(process.pid) == 200 + SPARE_FILES
        assert open_files_limit(tight.pid) == 600  # the hard limit
        assert "max-connections 1000 needs about 1064 open files, but the limit is 600" in (
            log.read_text()
        )
    finally:
        for p in (process, tight):
            p.send_signal(signal.SIGTERM)
            assert p.wait(15) == 0
