"""Service notifications to systemd (sd_notify(3)) and the watchdog keep-alive
(sd_watchdog_enabled(3)), without libsystemd.

systemd hands a ``Type=notify`` service the address of a unix datagram socket in
``$NOTIFY_SOCKET``: a file system path (``/run/systemd/notify``) or, when it starts with ``@``,
a name in the abstract namespace. A notification is one datagram of newline-separated
``VARIABLE=value`` assignments, e.g. ``READY=1`` or ``STATUS=3 games, 5 connections``.

When ``WatchdogSec=`` is set, systemd also passes ``$WATCHDOG_USEC`` (and ``$WATCHDOG_PID``): the
service must send ``WATCHDOG=1`` more often than that or be killed and restarted. We send it from
a task in the trio event loop at half the interval, so a hung event loop stops the pings.

Notifying is best-effort by design: outside systemd there is no socket and every call is a
no-op; a failure to send is logged, never raised, so it cannot take the daemon down.
"""

from __future__ import annotations

import logging
import math
import os
import socket
import time
from collections.abc import Callable, MutableMapping

import trio

log = logging.getLogger(__name__)

NOTIFY_VARIABLES = ("NOTIFY_SOCKET",)
WATCHDOG_VARIABLES = ("WATCHDOG_USEC", "WATCHDOG_PID")


def notify_address(value: str) -> str | bytes:
    """The ``socket.sendto`` address for a ``$NOTIFY_SOCKET`` value.

    ``/path`` is a file system socket; ``@name`` is ``\\0name`` in the abstract namespace
    (sd_notify(3)).

    Raises:
        ValueError: any other form (relative paths, and the ``vsock:`` addresses of newer
            systemd versions, which this daemon does not need).
    """
    if value.startswith("/"):
        return value
    if value.startswith("@") and len(value) > 1:
        return b"\0" + value[1:].encode()
    raise ValueError(f"NOTIFY_SOCKET={value!r} is neither an absolute path nor an '@' address")


def watchdog_usec(environ: MutableMapping[str, str], pid: int | None = None) -> int | None:
    """The watchdog interval in microseconds that systemd asks of process ``pid`` (default: this
    process), or None when no watchdog applies to it.

    Follows sd_watchdog_enabled(3): ``$WATCHDOG_USEC`` must be a positive integer; when
    ``$WATCHDOG_PID`` is set, the watchdog is meant for that process only (a child that inherited
    the variables must not ping on its parent's behalf).

    Raises:
        ValueError: ``$WATCHDOG_USEC`` or ``$WATCHDOG_PID`` is not a positive integer.
    """
    usec_text = environ.get("WATCHDOG_USEC")
    if usec_text is None:
        return None
    pid_text = environ.get("WATCHDOG_PID")
    if pid_text is not None:
        if not pid_text.isdigit() or int(pid_text) <= 0:
            raise ValueError(f"WATCHDOG_PID={pid_text!r} is not a process id")
        if int(pid_text) != (os.getpid() if pid is None else pid):
            return None
    if not usec_text.isdigit() or int(usec_text) <= 0:
        raise ValueError(f"WATCHDOG_USEC={usec_text!r} is not a positive number of microseconds")
    return int(usec_text)


def _status(text: str) -> str:
    """The ``STATUS=`` assignment for ``text``, made one line: a newline would start a new
    variable."""
    return "STATUS=" + " ".join(text.splitlines())


class Notifier:
    """Sends notifications to the service manager at ``address`` (a ``$NOTIFY_SOCKET`` value), and
    pings its watchdog every ``watchdog_usec / 2`` microseconds from :meth:`run_watchdog`.

    With ``address`` None (not run by systemd, or not as ``Type=notify``) every method is a
    no-op that returns False. Build it with :meth:`from_environment`.
    """

    def __init__(self, address: str | None, watchdog_usec: int | None = None) -> None:
        self._address: str | bytes | None = None
        self._description = address
        self._failing = False
        if address is not None:
            try:
                self._address = notify_address(address)
            except ValueError as error:
                log.warning("systemd notifications disabled: %s", error)
        self.watchdog_usec = watchdog_usec if self._address is not None else None

    @classmethod
    def from_environment(
        cls, environ: MutableMapping[str, str] | None = None, *, unset: bool = True
    ) -> Notifier:
        """A notifier for the ``$NOTIFY_SOCKET``, ``$WATCHDOG_USEC`` and ``$WATCHDOG_PID`` in
        ``environ`` (default ``os.environ``).

        With ``unset`` (the default), the variables are removed afterwards, as sd_notify(3)'s
        ``unset_environment`` does, so that no child process inherits them. A malformed
        watchdog variable is logged and leaves the watchdog off.
        """
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET") or None
        try:
            usec = watchdog_usec(env)
        except ValueError as error:
            log.warning("systemd watchdog disabled: %s", error)
            usec = None
        if unset:
            for name in (*NOTIFY_VARIABLES, *WATCHDOG_VARIABLES):
                env.pop(name, None)
        if usec is not None and address is None:
            log.warning("WATCHDOG_USEC is set but NOTIFY_SOCKET is not: no watchdog pings")
        return cls(address, usec)

    @property
    def enabled(self) -> bool:
        """Whether there is a service manager to notify."""
        return self._address is not None

    def send(self, *assignments: str) -> bool:
        """Send one notification made of ``VARIABLE=value`` ``assignments``.

        Never blocks the event loop (the datagram is sent with ``MSG_DONTWAIT``) and never
        raises: a failure is logged (at WARNING the first time, then at DEBUG until a send
        succeeds again, so a broken socket does not flood the log). Returns whether the
        datagram was sent.
        """
        if self._address is None:
            return False
        message = "\n".join(assignments).encode()
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.sendto(message, socket.MSG_DONTWAIT | socket.MSG_NOSIGNAL, self._address)
        except OSError as error:
            level = logging.DEBUG if self._failing else logging.WARNING
            log.log(level, "cannot notify systemd at %s: %s", self._description, error)
            self._failing = True
            return False
        self._failing = False
        return True

    def ready(self, status: str | None = None) -> bool:
        """``READY=1``: start-up is finished and the daemon accepts connections."""
        return self.send("READY=1", *([] if status is None else [_status(status)]))

    def status(self, text: str) -> bool:
        """``STATUS=text``: one line shown by ``systemctl status``."""
        return self.send(_status(text))

    def stopping(self, status: str | None = None) -> bool:
        """``STOPPING=1``: shutdown has begun."""
        return self.send("STOPPING=1", *([] if status is None else [_status(status)]))

    def reloading(self) -> bool:
        """``RELOADING=1`` with ``MONOTONIC_USEC`` (CLOCK_MONOTONIC now, in microseconds), as
        sd_notify(3) asks, before a configuration reload; send :meth:`ready` when it is done."""
        now = time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000
        return self.send("RELOADING=1", f"MONOTONIC_USEC={now}")

    def extend_timeout(self, seconds: float) -> bool:
        """``EXTEND_TIMEOUT_USEC``: ask for ``seconds`` more before the start or stop timeout."""
        return self.send(f"EXTEND_TIMEOUT_USEC={math.ceil(seconds * 1_000_000)}")

    def watchdog(self) -> bool:
        """``WATCHDOG=1``: the keep-alive ping."""
        return self.send("WATCHDOG=1")

    async def run_watchdog(self) -> None:
        """Ping the watchdog every half of the interval systemd asked for, forever; return at
        once when there is no watchdog. Run it in the daemon's nursery: because the pings come
        from the event loop, a loop that hangs stops them and systemd restarts the service.
        """
        if self.watchdog_usec is None:
            return
        period = self.watchdog_usec / 2 / 1_000_000
        log.info("systemd watchdog: pinging every %.3g s", period)
        deadline = trio.current_time()
        while True:
            # A fixed schedule, but no burst of pings to catch up after a stall.
            deadline = max(deadline + period, trio.current_time())
            await trio.sleep_until(deadline)
            self.watchdog()

    async def run_status(self, describe: Callable[[], str], period: float = 1.0) -> None:
        """Send ``STATUS=describe()`` whenever it has changed, looking every ``period`` seconds,
        forever (``systemctl status`` then shows e.g. game and connection counts at most
        ``period`` late, without a datagram per connection). Returns at once without systemd.
        """
        if not self.enabled:
            return
        last = None
        while True:
            text = describe()
            if text != last and self.status(text):
                last = text
            await trio.sleep(period)
