"""Socket activation (sd_listen_fds(3)), without libsystemd.

When ``hipparchusd.socket`` (or ``systemd-socket-activate``) starts the daemon, the listening
sockets are already open as file descriptors 3, 4, ... and described by three variables:
``$LISTEN_PID`` (the process they are meant for), ``$LISTEN_FDS`` (how many) and
``$LISTEN_FDNAMES`` (colon-separated names, from ``FileDescriptorName=``). The daemon then
serves on those sockets instead of binding its own, so systemd can own the port, start the daemon
on the first connection, and keep connections queued across a restart.
"""

from __future__ import annotations

import fcntl
import logging
import os
import socket
from collections.abc import MutableMapping

import attrs
import trio

log = logging.getLogger(__name__)

SD_LISTEN_FDS_START = 3
"""The first passed file descriptor (sd_listen_fds(3))."""

LISTEN_VARIABLES = ("LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES")

TCP_FAMILIES = (socket.AF_INET, socket.AF_INET6)


class ActivationError(ValueError):
    """The socket-activation variables or the passed file descriptors are not usable."""


@attrs.frozen
class ListenFd:
    """A file descriptor passed by systemd and its name (``FileDescriptorName=``, by default the
    socket unit's name; ``"unknown"`` when ``$LISTEN_FDNAMES`` is absent)."""

    fd: int
    name: str


def listen_fds(
    environ: MutableMapping[str, str] | None = None, *, unset: bool = True, pid: int | None = None
) -> list[ListenFd]:
    """The file descriptors passed to this process, as ``sd_listen_fds_with_names`` finds them.

    Empty when the process was not socket-activated: ``$LISTEN_PID`` is absent or names another
    process (the variables were inherited from a parent), or ``$LISTEN_FDS`` is 0. Each passed
    descriptor gets ``FD_CLOEXEC``, so that it does not leak into child processes. With
    ``unset`` (the default) the three variables are removed from ``environ`` (default
    ``os.environ``) whatever the outcome, as sd_listen_fds(3)'s ``unset_environment`` does.

    Args:
        environ: the environment to read (and clean).
        unset: remove the variables afterwards.
        pid: the process id to compare ``$LISTEN_PID`` with (default: this process's).

    Raises:
        ActivationError: ``$LISTEN_PID`` or ``$LISTEN_FDS`` is not a number, ``$LISTEN_FDNAMES``
            does not have one name per descriptor, or a descriptor is not open.
    """
    env = os.environ if environ is None else environ
    try:
        return _listen_fds(env, os.getpid() if pid is None else pid)
    finally:
        if unset:
            for name in LISTEN_VARIABLES:
                env.pop(name, None)


def _listen_fds(env: MutableMapping[str, str], pid: int) -> list[ListenFd]:
    pid_text = env.get("LISTEN_PID")
    if pid_text is None:
        return []
    if not pid_text.isdigit() or int(pid_text) <= 0:
        raise ActivationError(f"LISTEN_PID={pid_text!r} is not a process id")
    if int(pid_text) != pid:
        log.debug("LISTEN_PID=%s is not this process (%d): not socket-activated", pid_text, pid)
        return []
    count_text = env.get("LISTEN_FDS", "")
    if not count_text.isdigit():
        raise ActivationError(f"LISTEN_FDS={count_text!r} is not a number of descriptors")
    count = int(count_text)
    names_text = env.get("LISTEN_FDNAMES")
    if names_text is None:
        names = ["unknown"] * count
    else:
        names = names_text.split(":") if count else []
        if len(names) != count:
            raise ActivationError(
                f"LISTEN_FDNAMES={names_text!r} does not name LISTEN_FDS={count} descriptors"
            )
    passed = []
    for offset, name in enumerate(names):
        fd = SD_LISTEN_FDS_START + offset
        try:
            flags = fcntl.fcntl(fd, fcntl.F_GETFD)
            fcntl.fcntl(fd, fcntl.F_SETFD, flags | fcntl.FD_CLOEXEC)
        except OSError as error:
            raise ActivationError(f"passed file descriptor {fd} ({name}): {error}") from error
        passed.append(ListenFd(fd, name))
    return passed


def listening_socket(passed: ListenFd) -> socket.socket:
    """A socket object owning ``passed.fd``, checked to be a listening TCP socket (IPv4 or IPv6),
    what ``ListenStream=<port>`` with ``Accept=no`` passes. (The protocol is served over TCP;
    a unix socket is refused rather than half supported.)

    Raises:
        ActivationError: the descriptor is not a socket, not a stream socket, of another
            address family, or not listening (e.g. ``Accept=yes`` passed a connection).
    """
    what = f"passed descriptor {passed.fd} ({passed.name})"
    try:
        sock = socket.socket(fileno=passed.fd)
    except OSError as error:
        raise ActivationError(f"{what}: {error}") from error
    problem = None
    if sock.type != socket.SOCK_STREAM:
        problem = f"{what} is not a stream socket (use ListenStream=)"
    elif sock.family not in TCP_FAMILIES:
        problem = f"{what} is an {sock.family.name} socket, not TCP over IPv4 or IPv6"
    elif not sock.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN):
        problem = f"{what} is not listening (the socket unit needs Accept=no)"
    if problem is not None:
        sock.detach()  # not ours to close: leave the descriptor as we found it
        raise ActivationError(problem)
    return sock


WEB_FD_NAME = "web"
"""The ``FileDescriptorName=`` of the sockets that serve the page and the protocol over
WebSocket (``hipparchusd-web.socket``); every other passed socket serves the protocol over
TCP."""


def activated_listeners(
    environ: MutableMapping[str, str] | None = None, *, unset: bool = True
) -> list[trio.SocketListener]:
    """trio listeners for every socket passed by systemd, whatever its name; empty when not
    socket-activated, in which case the daemon binds its own. (The daemon tells them apart
    with :func:`activated_listener_groups`.)

    Raises:
        ActivationError: as :func:`listen_fds` and :func:`listening_socket` (the descriptors
            checked so far are closed again).
    """
    return [listener for _, listener in _activated(environ, unset)]


METRICS_FD_NAME = "metrics"
"""The ``FileDescriptorName=`` of the sockets that serve Prometheus metrics
(``hipparchusd-metrics.socket``)."""


@attrs.frozen
class ListenerGroups:
    """The sockets systemd passed, by what they serve: the protocol over TCP, the web
    (:data:`WEB_FD_NAME`: the page and WebSockets) and the metrics (:data:`METRICS_FD_NAME`).
    All empty when not socket-activated."""

    protocol: list[trio.SocketListener]
    web: list[trio.SocketListener]
    metrics: list[trio.SocketListener]

    @property
    def activated(self) -> bool:
        """Whether systemd passed any socket (then the daemon binds none of its own)."""
        return bool(self.protocol or self.web or self.metrics)


def activated_listener_groups(
    environ: MutableMapping[str, str] | None = None, *, unset: bool = True
) -> ListenerGroups:
    """The sockets passed by systemd as groups of trio listeners, by their names
    (:class:`ListenerGroups`).

    Raises:
        ActivationError: as :func:`activated_listeners`.
    """
    groups = ListenerGroups([], [], [])
    for passed, listener in _activated(environ, unset):
        if passed.name == WEB_FD_NAME:
            groups.web.append(listener)
        elif passed.name == METRICS_FD_NAME:
            groups.metrics.append(listener)
        else:
            groups.protocol.append(listener)
    return groups


def _activated(
    environ: MutableMapping[str, str] | None, unset: bool
) -> list[tuple[ListenFd, trio.SocketListener]]:
    """Each passed socket with its trio listener (see :func:`activated_listeners`)."""
    listeners: list[tuple[ListenFd, trio.SocketListener]] = []
    try:
        for passed in listen_fds(environ, unset=unset):
            sock = listening_socket(passed)
            log.info("using socket %s passed by systemd: %s", passed.name, _describe(sock))
            listeners.append((passed, trio.SocketListener(trio.socket.from_stdlib_socket(sock))))
    except ActivationError:
        for _, listener in listeners:
            listener.socket.close()
        raise
    return listeners


def _describe(sock: socket.socket) -> str:
    """The local address of ``sock`` for a log line."""
    address = sock.getsockname()
    if sock.family == socket.AF_INET6:
        return f"[{address[0]}]:{address[1]}"
    return f"{address[0]}:{address[1]}"
