"""What a server asks of its part in a cluster of daemons sharing a store (issue 28), as a
protocol, so that the server's lifecycle needs neither the cluster's modules nor their
libraries (the cluster extra), and the two do not import each other."""

from __future__ import annotations

from typing import Protocol

import trio


class Membership(Protocol):
    """What a server that shares its store with other daemons asks of its part in the cluster
    (issue 28: :class:`.cluster.node.Cluster`, made in run.py and attached to the server
    there): getting ready before the server serves, running beside it, handing its games over
    at a drain, and how many of the server's sessions are other daemons' (which hold no socket
    here)."""

    @property
    def proxy_count(self) -> int:
        """The sessions served here on behalf of other daemons."""
        ...

    async def prepare(self) -> None:
        """Get ready before the server takes its first request."""
        ...

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Serve the cluster's requests and renewals until cancelled."""
        ...

    async def drain(self) -> None:
        """Hand this daemon's games over to the others (a drain's end)."""
        ...
