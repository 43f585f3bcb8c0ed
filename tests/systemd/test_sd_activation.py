"""Socket activation (sd_listen_fds(3)) as hipparchusd.systemd.activation implements it.

The passed descriptors must be 3, 4, ... in the activated process, so the tests that use real
descriptors run a small child process with the sockets moved there, as systemd would do.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator

import pytest

from hipparchusd.systemd.activation import ActivationError, listen_fds

CHILD = r"""
import fcntl, json, os, sys
os.environ["LISTEN_PID"] = str(os.getpid())  # what systemd sets just before exec
os.environ.update(json.loads(sys.argv[1]))
from hipparchusd.systemd.activation import ActivationError, activated_listeners
def left():
    return sorted(k for k in os.environ if k.startswith("LISTEN_"))
try:
    socks = [listener.socket for listener in activated_listeners()]
except ActivationError as error:
    print(json.dumps({"error": str(error), "env": left()}))
    sys.exit(0)
print(json.dumps({
    "addresses": [list(s.getsockname())[:2] for s in socks],
    "cloexec": [bool(fcntl.fcntl(s.fileno(), fcntl.F_GETFD) & fcntl.FD_CLOEXEC) for s in socks],
    "fds": [s.fileno() for s in socks],
    "env": left(),
}))
"""

Activate = Callable[..., dict[str, object]]


@pytest.fixture
def activate() -> Iterator[Activate]:
    """``activate(sockets, env)``: run the child with ``sockets`` as descriptors 3, 4, ... and
    ``env`` added to its environment; its JSON report."""
    opened: list[socket.socket] = []

    def run(sockets: list[socket.socket], env: dict[str, str]) -> dict[str, object]:
        opened.extend(sockets)
        # Out of the way first, so that moving one to 3 cannot overwrite another.
        high = [fcntl_dup_high(s.fileno()) for s in sockets]
        targets = list(range(3, 3 + len(sockets)))

        def move() -> None:
            for source, target in zip(high, targets, strict=True):
                os.dup2(source, target)

        try:
            result = subprocess.run(
                [sys.executable, "-c", CHILD, json.dumps(env)],
                preexec_fn=move,
                pass_fds=targets,
                capture_output=True,
                timeout=30,
                check=True,
            )
        finally:
            for fd in high:
                os.close(fd)
        report: dict[str, object] = json.loads(result.stdout)
        return report

    yield run
    for sock in opened:
        sock.close()


def fcntl_dup_high(fd: int) -> int:
    return fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 100)


def listening(family: socket.AddressFamily = socket.AF_INET) -> socket.socket:
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.bind(("::1" if family == socket.AF_INET6 else "127.0.0.1", 0))
    sock.listen()
    return sock


def test_two_passed_sockets_become_listeners(activate: Activate) -> None:
    v4 = listening()
    sockets = [v4]
    if socket.has_ipv6:
        with contextlib.suppress(OSError):  # no IPv6 loopback in this container
            sockets.append(listening(socket.AF_INET6))
    names = ":".join(f"s{i}" for i in range(len(sockets)))
    report = activate(sockets, {"LISTEN_FDS": str(len(sockets)), "LISTEN_FDNAMES": names})
    assert report["addresses"] == [list(s.getsockname())[:2] for s in sockets]
    assert report["fds"] == list(range(3, 3 + len(sockets)))
    assert report["cloexec"] == [True] * len(sockets)
    assert report["env"] == []  # LISTEN_PID, LISTEN_FDS, LISTEN_FDNAMES removed


def test_a_unix_stream_socket_is_refused(activate: Activate, tmp_path: os.PathLike[str]) -> None:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(f"{tmp_path}/s")
    sock.listen()
    report = activate([sock], {"LISTEN_FDS": "1"})
    assert "is an AF_UNIX socket, not TCP over IPv4 or IPv6" in str(report["error"])


def test_a_datagram_socket_is_refused(activate: Activate) -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    report = activate([sock], {"LISTEN_FDS": "1"})
    assert "not a stream socket" in str(report["error"])
    assert report["env"] == []


def test_a_socket_that_is_not_listening_is_refused(activate: Activate) -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    report = activate([sock], {"LISTEN_FDS": "1"})
    assert "is not listening" in str(report["error"])


def test_a_descriptor_that_is_not_open_is_refused(activate: Activate) -> None:
    report = activate([], {"LISTEN_FDS": "1"})
    assert "passed file descriptor 3" in str(report["error"])


# Parsing only, in this process: none of these reach the descriptors.


def test_not_activated_without_listen_pid() -> None:
    env = {"LISTEN_FDS": "1"}
    assert listen_fds(env) == []
    assert env == {}


def test_variables_for_another_process_are_ignored_and_removed() -> None:
    env = {"LISTEN_PID": str(os.getpid() + 1), "LISTEN_FDS": "2", "LISTEN_FDNAMES": "a:b", "X": "1"}
    assert listen_fds(env) == []
    assert env == {"X": "1"}


def test_variables_can_be_kept() -> None:
    env = {"LISTEN_PID": "1", "LISTEN_FDS": "1"}
    assert listen_fds(env, unset=False, pid=2) == []
    assert env == {"LISTEN_PID": "1", "LISTEN_FDS": "1"}


def test_zero_descriptors() -> None:
    assert listen_fds({"LISTEN_PID": "42", "LISTEN_FDS": "0"}, pid=42) == []


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"LISTEN_PID": "abc", "LISTEN_FDS": "1"}, "LISTEN_PID='abc'"),
        ({"LISTEN_PID": "42", "LISTEN_FDS": "-1"}, "LISTEN_FDS='-1'"),
        ({"LISTEN_PID": "42"}, "LISTEN_FDS=''"),
        ({"LISTEN_PID": "42", "LISTEN_FDS": "2", "LISTEN_FDNAMES": "a"}, "does not name"),
    ],
)
def test_malformed_variables_are_errors_and_still_removed(
    env: dict[str, str], message: str
) -> None:
    with pytest.raises(ActivationError, match=message):
        listen_fds(env, pid=42)
    assert env == {}


GROUPS_CHILD = r"""
import json, os, sys
os.environ["LISTEN_PID"] = str(os.getpid())
os.environ.update(json.loads(sys.argv[1]))
from hipparchusd.systemd.activation import activated_listener_groups
groups = activated_listener_groups()
print(json.dumps({
    "protocol": [s.socket.fileno() for s in groups.protocol],
    "web": [s.socket.fileno() for s in groups.web],
    "metrics": [s.socket.fileno() for s in groups.metrics],
}))
"""


def test_the_sockets_are_grouped_by_name_web_and_metrics_apart() -> None:
    sockets = [listening(), listening(), listening()]
    high = [fcntl_dup_high(s.fileno()) for s in sockets]

    def move() -> None:
        for source, target in zip(high, (3, 4, 5), strict=True):
            os.dup2(source, target)

    env = {"LISTEN_FDS": "3", "LISTEN_FDNAMES": "metrics:hipparchusd.socket:web"}
    try:
        result = subprocess.run(
            [sys.executable, "-c", GROUPS_CHILD, json.dumps(env)],
            preexec_fn=move,
            pass_fds=(3, 4, 5),
            capture_output=True,
            timeout=30,
            check=True,
        )
    finally:
        for fd in high:
            os.close(fd)
        for sock in sockets:
            sock.close()
    assert json.loads(result.stdout) == {"protocol": [4], "web": [5], "metrics": [3]}
