"""The admin channel (issue 26): the operator's commands on a Unix socket that only the
daemon's user (and root) can open, never reachable from the network; ``hipparchusd admin``
is its client (:mod:`hipparchusd.admin.command_line`, the messages :mod:`hipparchusd.admin.wire`).

The socket (``--admin-socket``, by default ``admin.sock`` in the runtime directory) is made
in a directory of mode 0700 when it makes one, and is itself mode 0600; each connection's peer
credentials (``SO_PEERCRED``) are checked as well, so a socket a looser directory exposes
still answers nobody else. A lock file beside it (``admin.sock.lock``, held while the daemon
runs) says whose socket it is: a second daemon of the same user finds the lock taken and runs
without an admin channel (logged) rather than take the first one's socket away.

What the commands do is the lobby's (``games``, ``show``, ``end``, ``maintenance``: the
lobby's operator part, :mod:`hipparchusd.lobby.operator`) or the server's (``status``,
``connections``, ``kick``, ``drain``, ``reload``). An ``end`` goes through the pipeline in the
game's order, stored before it is announced, as a move is (:meth:`.pipeline.Pipeline.sequenced`).
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import logging
import os
import socket
import stat
import struct
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Final, Protocol

import attrs
import trio

from .. import __version__
from ..admin.wire import MAX_REQUEST, WireError, failure_line, read_request, success_line
from ..config_file import Changes
from ..jsondata import JSON, JSONObject
from ..lobby import Lobby, Result
from ..protocol import ErrorCode, ProtocolError
from ..protocol import formatting as fmt
from ..protocol.arguments import Syntax
from ..settings import Settings
from ..wording import counted
from .bounded import serve_bounded
from .connection import Connection

log = logging.getLogger("hipparchusd.admin")

#: Seconds an admin connection may stay without sending a complete request.
IDLE_TIMEOUT: Final = 300.0
#: Admin connections served at once.
MAX_SESSIONS: Final = 4


class AdminRefusal(Exception):
    """A command refused: ``code`` (a protocol error code, or the channel's own) and why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@attrs.frozen
class Answer:
    """A command's success: ``data`` for programs and ``text`` lines for people."""

    data: JSONObject
    text: tuple[str, ...]


#: A command's handler: ``(channel, arguments) -> answer``.
Handler = Callable[["AdminChannel", list[str]], Awaitable[Answer]]


@attrs.frozen
class AdminCommand:
    """One command of the channel: its usage line (its grammar, checked by
    :class:`~hipparchusd.protocol.arguments.Syntax`), its summary and its handler. When
    ``rest``, its last argument is free text: the words beyond it join it (``end g3 reported
    cheating`` gives the reason ``reported cheating``)."""

    syntax: Syntax
    summary: str
    handler: Handler
    rest: bool = False

    @classmethod
    def of(cls, usage: str, summary: str, handler: Handler, *, rest: bool = False) -> AdminCommand:
        """The command that ``usage`` writes."""
        return cls(Syntax.of(usage), summary, handler, rest)

    def words(self, words: list[str]) -> list[str]:
        """``words`` with those beyond the last argument joined to it when :attr:`rest`."""
        last = self.syntax.max_args
        if self.rest and len(words) > last:
            return [*words[: last - 1], " ".join(words[last - 1 :])]
        return words


class OperatedServer(Protocol):
    """What the admin channel needs of the server it answers for (the
    :class:`~.lifecycle.Server` is one)."""

    @property
    def settings(self) -> Settings:
        """The settings in force."""

    @property
    def lobby(self) -> Lobby:
        """The games and sessions."""

    @property
    def connections(self) -> dict[int, Connection]:
        """The open connections by session id."""

    @property
    def connection_count(self) -> int:
        """Open client connections."""

    @property
    def shutting_down(self) -> bool:
        """Whether the graceful shutdown has begun."""

    @property
    def draining(self) -> bool:
        """Whether a drain was asked for."""

    @property
    def started_at(self) -> float:
        """When the server was made (``time.monotonic``)."""

    @property
    def reload(self) -> Callable[[], Changes | str] | None:
        """Re-reads and applies the configuration, as SIGHUP: the changes, or why none."""

    def drain(self) -> None:
        """Begin a drain."""

    async def sequenced(
        self, games: Sequence[str], prepare: Callable[[], Result], conn: Connection | None
    ) -> Result:
        """Prepare a result once the earlier requests on ``games`` are done, and carry it out
        (the pipeline's ``sequenced``)."""


# -- the socket ---------------------------------------------------------------------------------


@attrs.define
class AdminSocket:
    """The bound admin socket: its ``listener``, its ``path`` and the lock file held for it."""

    listener: trio.SocketListener
    path: Path
    lock_fd: int

    async def aclose(self) -> None:
        """Stop listening, remove the socket and release the lock."""
        await self.listener.aclose()
        with contextlib.suppress(OSError):
            self.path.unlink()
        os.close(self.lock_fd)


async def open_admin_socket(path: Path) -> AdminSocket | None:
    """Bind the admin socket at ``path`` (see the module): its directory made mode 0700 if
    missing, a stale socket left by a daemon that died replaced, the socket made mode 0600.
    ``None`` (logged) when another daemon holds it.

    Raises:
        OSError: the directory or the socket cannot be made (the message names the path).
    """
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        lock_fd = os.open(f"{path}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except OSError as error:
        raise OSError(error.errno, f"admin socket {path}: {error.strerror}") from None
    try:
        fcntl.flock(lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(lock_fd)
        log.warning(
            "admin socket %s is another daemon's: this one runs without an admin channel "
            "(give it --admin-socket PATH)",
            path,
        )
        return None
    sock = trio.socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        with contextlib.suppress(FileNotFoundError):
            if stat.S_ISSOCK(path.lstat().st_mode):
                path.unlink()  # ours now (the lock says so): left by a daemon that died
        await sock.bind(str(path))
        os.chmod(path, 0o600)
        sock.listen(16)
    except OSError as error:
        sock.close()
        os.close(lock_fd)
        raise OSError(error.errno, f"admin socket {path}: {error.strerror}") from None
    log.info("admin channel on %s", path, extra={"event": "admin-listening"})
    return AdminSocket(trio.SocketListener(sock), path, lock_fd)


def peer_uid(sock: trio.socket.SocketType) -> int | None:
    """The user id of the process at the other end of the Unix socket ``sock``
    (``SO_PEERCRED``), or ``None`` when the system does not say."""
    try:
        data = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    except (OSError, AttributeError):
        return None
    _, uid, _ = struct.unpack("3i", data)
    return int(uid)


# -- the channel ----------------------------------------------------------------------------------


class AdminChannel:
    """The commands of the admin channel (:data:`ADMIN_COMMANDS`) for ``server``."""

    def __init__(self, server: OperatedServer) -> None:
        self.server = server

    async def serve(self, listener: trio.SocketListener) -> None:
        """Accept the operator's connections on ``listener`` until cancelled,
        :data:`MAX_SESSIONS` at once."""
        await serve_bounded(listener, MAX_SESSIONS, self._session)

    async def _session(self, stream: trio.SocketStream) -> None:
        """Answer the requests of one connection, one per line, until it closes; a peer
        that is neither the daemon's user nor root gets one refusal."""
        try:
            uid = peer_uid(stream.socket)
            if uid is not None and uid not in (os.getuid(), 0):
                log.warning("admin connection from user %d refused", uid)
                await stream.send_all(failure_line("forbidden", "not the daemon's user"))
                return
            buffer = bytearray()
            while True:
                with trio.move_on_after(IDLE_TIMEOUT):
                    data = await stream.receive_some(65536)
                    buffer += data
                    if not data:
                        return
                if not data:
                    return  # the idle timeout
                while (end := buffer.find(b"\n")) >= 0:
                    line, buffer = bytes(buffer[:end]), buffer[end + 1 :]
                    await stream.send_all(await self.answer(line))
                if len(buffer) > MAX_REQUEST:
                    await stream.send_all(failure_line("syntax", "request line too long"))
                    return
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass

    async def answer(self, line: bytes) -> bytes:
        """The answer line to the request ``line``."""
        try:
            name, words = read_request(line)
            command = ADMIN_COMMANDS.get(name)
            if command is None:
                known = ", ".join(ADMIN_COMMANDS)
                raise AdminRefusal("unknown-command", f"no command {name[:40]!r} ({known})")
            try:
                args, _ = command.syntax.split(command.words(words))
            except ProtocolError as error:
                raise AdminRefusal(error.code, error.message) from None
            log.info("admin: %s", " ".join([name, *words])[:200], extra={"event": "admin-command"})
            answer = await command.handler(self, args)
        except WireError as error:
            return failure_line(ErrorCode.SYNTAX, str(error))
        except AdminRefusal as refusal:
            return failure_line(refusal.code, refusal.message)
        except ProtocolError as error:
            return failure_line(error.code, error.message)
        except Exception:
            log.exception("admin command failed")
            return failure_line(ErrorCode.INTERNAL, "the command failed; see the daemon's log")
        return success_line(answer.data, answer.text)

    # -- the commands ---------------------------------------------------------------------

    async def _status(self, args: list[str]) -> Answer:
        server = self.server
        lobby = server.lobby
        games = lobby.game_counts()
        data: JSONObject = {
            "version": __version__,
            "uptime": round(time.monotonic() - server.started_at, 3),
            "connections": server.connection_count,
            "games": dict(games),
            "in_progress": lobby.in_progress(),
            "maintenance": lobby.maintenance,
            "draining": server.draining,
            "stopping": server.shutting_down,
        }
        lines = [
            f"hipparchusd {__version__}, up {_duration(time.monotonic() - server.started_at)}",
            f"{counted(server.connection_count, 'connection')}; games: "
            + ", ".join(f"{count} {status}" for status, count in games.items()),
        ]
        if server.draining:
            lines.append(f"draining: {counted(lobby.in_progress(), 'game')} in progress")
        elif lobby.maintenance is not None:
            lines.append(f"maintenance: {lobby.maintenance}")
        if server.shutting_down:
            lines.append("stopping")
        return Answer(data, tuple(lines))

    async def _games(self, args: list[str]) -> Answer:
        games = self.server.lobby.overview()
        for game in games:
            seats = game["seats"]
            assert isinstance(seats, list)
            for seat in seats:
                assert isinstance(seat, dict)
                seat["connection"] = self._holder(str(game["game"]), seat)
        lines = [_game_line(game) for game in games] or ["no games"]
        return Answer({"games": list[JSON](games)}, tuple(lines))

    def _holder(self, game_id: str, seat: JSONObject) -> int | None:
        """The connection id holding ``seat`` of ``game_id`` now, if any (for ``kick``)."""
        table = self.server.lobby.tables.get(game_id)
        number = seat.get("seat")
        if table is None or not isinstance(number, int):
            return None
        holder = table.seats[number].holder
        return None if holder is None else holder.id

    async def _show(self, args: list[str]) -> Answer:
        data = self.server.lobby.show(args[0])
        return Answer(data, tuple(fmt.lines(data)))

    async def _end(self, args: list[str]) -> Answer:
        game_id = args[0]
        reason = args[1] if len(args) > 1 else ""
        server = self.server
        lobby = server.lobby
        prepare = functools.partial(lobby.end_by_operator, game_id, reason)
        games = (game_id,) if game_id in lobby.tables else ()
        result = await server.sequenced(games, prepare, None)
        if result.pending is not None:
            raise AdminRefusal(
                ErrorCode.INTERNAL, f"the game store failed; {game_id} goes on (see the log)"
            )
        followers = len(result.deliveries[0].sessions) if result.deliveries else 0
        text = f"{game_id} ended by the operator, no winner; {counted(followers, 'follower')} told"
        return Answer({"game": game_id, "followers": followers}, (text,))

    async def _kick(self, args: list[str]) -> Answer:
        try:
            number = int(args[0])
        except ValueError:
            raise AdminRefusal(ErrorCode.SYNTAX, "a connection is its number") from None
        conn = self.server.connections.get(number)
        if conn is None:
            raise AdminRefusal("unknown-connection", f"no connection {number} is open")
        conn.closed_because = "kicked by the operator"
        conn.cancel_scope.cancel()
        return Answer({"connection": number}, (f"connection {number} closed",))

    async def _connections(self, args: list[str]) -> Answer:
        now = trio.current_time()
        rows: list[JSON] = []
        lines: list[str] = []
        for conn in self.server.connections.values():
            session = conn.session
            games = sorted((*session.seats, *session.watching))
            idle = round(now - conn.last_input, 1)
            rows.append(
                {
                    "connection": session.id,
                    "peer": session.peer,
                    "transport": conn.transport,
                    "games": list[JSON](games),
                    "idle": idle,
                }
            )
            follows = ",".join(games) or "-"
            lines.append(
                f"{session.id} {session.peer} {conn.transport} games={follows} idle={idle:g}s"
            )
        return Answer({"connections": rows}, tuple(lines) or ("no connections",))

    async def _maintenance(self, args: list[str]) -> Answer:
        lobby = self.server.lobby
        state = args[0]
        if state not in ("on", "off"):
            raise AdminRefusal(ErrorCode.SYNTAX, "maintenance on|off [<message>]")
        if self.server.draining:
            raise AdminRefusal("draining", "a drain is under way: new games stay refused")
        if state == "off":
            lobby.set_maintenance(None)
            return Answer({"maintenance": None}, ("maintenance off: new games accepted",))
        message = args[1] if len(args) > 1 else MAINTENANCE_MESSAGE
        lobby.set_maintenance(message)
        text = f"maintenance on: new games refused ({message}); games in progress go on"
        return Answer({"maintenance": message}, (text,))

    async def _drain(self, args: list[str]) -> Answer:
        server = self.server
        timeout = server.settings.drain_timeout
        server.drain()
        in_progress = server.lobby.in_progress()
        text = (
            f"draining: new games refused; the daemon stops once {counted(in_progress, 'game')} "
            f"in progress have ended or adjourned, or after {timeout:g} s"
        )
        return Answer({"in_progress": in_progress, "drain_timeout": timeout}, (text,))

    async def _reload(self, args: list[str]) -> Answer:
        reload = self.server.reload
        if reload is None:
            raise AdminRefusal(
                ErrorCode.INTERNAL, "this daemon has no configuration to reload (run embedded)"
            )
        found = reload()
        if isinstance(found, str):
            raise AdminRefusal("bad-config", f"{found}; settings unchanged")
        changed: dict[str, JSON] = {}
        lines: list[str] = []
        for name, (before, after) in found.applied.items():
            changed[name] = [str(before), str(after)]
            lines.append(f"{name}: {before} -> {after}")
        waiting: dict[str, JSON] = {}
        for name, (before, after) in found.need_restart.items():
            waiting[name] = [str(before), str(after)]
            lines.append(f"{name}: {before} -> {after} needs a restart; still {before}")
        return Answer(
            {"applied": changed, "need_restart": waiting}, tuple(lines) or ("nothing changed",)
        )

    async def _help(self, args: list[str]) -> Answer:
        lines = [f"{c.syntax.usage}  -- {c.summary}" for c in ADMIN_COMMANDS.values()]
        return Answer({"commands": list[JSON](ADMIN_COMMANDS)}, tuple(lines))


#: What ``new`` is refused with in maintenance when the operator gave no message.
MAINTENANCE_MESSAGE: Final = "the server is in maintenance: no new games for now"


def _duration(seconds: float) -> str:
    """``3d 4h 5m``-style text for an uptime."""
    minutes = int(seconds) // 60
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = [f"{days}d"] if days else []
    if days or hours:
        parts.append(f"{hours}h")
    parts.append(f"{minutes}m")
    return " ".join(parts)


def _game_line(game: Mapping[str, JSON]) -> str:
    """One game of ``games`` for people: ``g3 hipparchus playing ann(here) bob(away) +1``."""
    seats = game["seats"]
    assert isinstance(seats, list)
    words: list[str] = [str(game["game"]), str(game["kind"]), str(game["status"])]
    for seat in seats:
        assert isinstance(seat, dict)
        name = seat["name"] if seat["name"] is not None else "-"
        where = f"@{seat['connection']}" if seat.get("connection") is not None else ""
        words.append(f"{name}({seat['presence'] or 'free'}{where})")
    if game["spectators"]:
        words.append(f"+{game['spectators']} watching")
    return " ".join(words)


#: The commands of the admin channel, in the order ``help`` gives them.
ADMIN_COMMANDS: Mapping[str, AdminCommand] = {
    command.syntax.name: command
    for command in (
        AdminCommand.of("status", "version, uptime, counts", AdminChannel._status),
        AdminCommand.of("games", "every game: kind, status, seats, presence", AdminChannel._games),
        AdminCommand.of("show <game>", "a game whole, hidden cards included", AdminChannel._show),
        AdminCommand.of(
            "end <game> [<reason>]",
            "end a game, no winner, followers told",
            AdminChannel._end,
            rest=True,
        ),
        AdminCommand.of("connections", "every open connection", AdminChannel._connections),
        AdminCommand.of("kick <connection>", "close a connection", AdminChannel._kick),
        AdminCommand.of(
            "maintenance <state> [<message>]",
            "on: refuse new games (with the message), games in progress go on; off",
            AdminChannel._maintenance,
            rest=True,
        ),
        AdminCommand.of(
            "drain",
            "refuse new games, stop once every game in progress ended or adjourned",
            AdminChannel._drain,
        ),
        AdminCommand.of("reload", "re-read the configuration, as SIGHUP", AdminChannel._reload),
        AdminCommand.of("help", "these commands", AdminChannel._help),
    )
}
