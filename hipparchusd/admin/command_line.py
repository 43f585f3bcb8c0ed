"""``hipparchusd admin [--socket PATH] [--json] COMMAND [ARG ...]``: the operator's client of
the daemon's admin channel (issue 26; the daemon's end is :mod:`hipparchusd.server.admin`).

It sends one request over the daemon's admin Unix socket and prints the answer: its text
lines, or with ``--json`` its data as JSON. ``hipparchusd admin help`` lists the commands the
daemon has. The socket is ``--socket``, else the configuration file's ``admin-socket``, else
the default (``admin.sock`` in ``$RUNTIME_DIRECTORY``, or the user's runtime directory), else
the shipped service's (``/run/hipparchusd/admin.sock``), which root or the service's user can
open.

Exit status: 0 when the daemon did what was asked; 1 when it refused (the reason on stderr);
69 (EX_UNAVAILABLE) when no daemon answers on the socket; 78 for a bad configuration file.
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
from pathlib import Path

from ..config_file import EX_CONFIG, ConfigError, config_path, load_settings
from ..directories import SERVICE_ADMIN_SOCKET, default_admin_socket
from ..settings import SettingsError
from .wire import MAX_LINE, WireError, read_answer, request_line

#: The exit status when no daemon answers (sysexits.h EX_UNAVAILABLE).
EX_UNAVAILABLE = 69
#: Seconds to wait for the daemon's answer.
ANSWER_TIMEOUT = 60.0


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``hipparchusd admin``'s options."""
    parser = argparse.ArgumentParser(
        prog="hipparchusd admin",
        description="Ask the running daemon through its admin channel (a Unix socket only the "
        "daemon's user and root can open).",
        epilog="commands: status, games, show <game>, end <game> [reason], connections, "
        "kick <connection>, maintenance on|off [message], drain, reload, help "
        "('hipparchusd admin help' asks the daemon)",
    )
    parser.add_argument("--socket", metavar="PATH", help="the daemon's admin socket")
    parser.add_argument(
        "--config",
        metavar="PATH",
        help="the daemon's configuration file, for its admin-socket (default "
        "/etc/hipparchusd/config.toml when it exists)",
    )
    parser.add_argument("--json", action="store_true", help="print the answer's data as JSON")
    parser.add_argument("command", help="what to ask (see below)")
    parser.add_argument("args", nargs="*", help="its arguments")
    return parser


def socket_path(given: str | None, config: str | None) -> Path:
    """The admin socket to use (see the module).

    Raises:
        ConfigError, SettingsError: the configuration file cannot be used.
    """
    if given:
        return Path(given)
    settings = load_settings(config_path(config), {})
    if settings.admin_socket is not None and Path(settings.admin_socket).exists():
        return Path(settings.admin_socket)
    if SERVICE_ADMIN_SOCKET.exists():
        return SERVICE_ADMIN_SOCKET
    return Path(settings.admin_socket) if settings.admin_socket else default_admin_socket()


def ask(path: Path, command: str, args: list[str], timeout: float = ANSWER_TIMEOUT) -> bytes:
    """Send ``command`` with ``args`` to the admin socket ``path``; the answer's line.

    Raises:
        OSError: the socket cannot be reached, or the daemon closed it without an answer.
    """
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout)
        sock.connect(str(path))
        sock.sendall(request_line(command, args))
        received = bytearray()
        while b"\n" not in received:
            data = sock.recv(65536)
            if not data:
                raise OSError("the daemon closed the admin channel without an answer")
            received += data
            if len(received) > MAX_LINE:
                raise OSError("the daemon's answer is too long")
        return bytes(received[: received.index(b"\n")])


def main(argv: list[str]) -> int:
    """Run ``hipparchusd admin`` with ``argv`` (the words after ``admin``); the exit status."""
    ns = build_parser().parse_args(argv)
    try:
        path = socket_path(ns.socket, ns.config)
    except (ConfigError, SettingsError) as error:
        print(f"hipparchusd admin: {error}", file=sys.stderr)
        return EX_CONFIG
    try:
        answer = read_answer(ask(path, ns.command, ns.args))
    except (OSError, WireError) as error:
        why = getattr(error, "strerror", None) or error
        print(f"hipparchusd admin: no answer on {path}: {why}", file=sys.stderr)
        return EX_UNAVAILABLE
    if not answer.ok:
        print(f"hipparchusd admin: {answer.code}: {answer.message}", file=sys.stderr)
        return 1
    if ns.json:
        print(json.dumps(answer.data, indent=2))
    else:
        for line in answer.text:
            print(line)
    return 0
