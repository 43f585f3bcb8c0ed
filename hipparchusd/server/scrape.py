"""The metrics listener (issue 26): Prometheus scrapes ``GET /metrics`` over plain HTTP on a
port of its own (``--metrics-port``, loopback by default, or the socket systemd passes named
``metrics``), never on the protocol's or the page's.

One request per connection, read with h11 within a deadline, answered in the exposition
format the scraper's ``Accept`` asks for (the text format, or OpenMetrics: the client
library's :func:`prometheus_client.exposition.choose_encoder`), then the connection closes.
At most :data:`MAX_SCRAPES` connections are served at once; one more is closed at once, so a
flood of connections to this port costs the daemon next to nothing.
"""

from __future__ import annotations

import logging
from typing import Any, Final

import trio
from prometheus_client import CollectorRegistry
from prometheus_client.exposition import choose_encoder

from ..web import HttpAnswer
from ..web.site import error_answer
from .bounded import serve_bounded
from .webfront import REQUEST_TIMEOUT, read_request_head, send_answer

log = logging.getLogger("hipparchusd.server")

#: The path Prometheus scrapes.
METRICS_PATH: Final = "/metrics"
#: Scrapes served at once.
MAX_SCRAPES: Final = 8


def metrics_answer(
    registry: CollectorRegistry, method: str, target: str, accept: str
) -> HttpAnswer:
    """The answer to an HTTP request for ``target`` with ``method``: the registry's metrics
    at :data:`METRICS_PATH` (``GET`` or ``HEAD``), encoded as ``accept`` asks; 404 for another
    path, 405 for another method."""
    path = target.split("?", 1)[0]
    if path != METRICS_PATH:
        return error_answer(404, f"the metrics are at {METRICS_PATH}\n")
    if method not in ("GET", "HEAD"):
        answer = error_answer(405, "GET or HEAD only\n")
        return HttpAnswer(405, (*answer.headers, ("Allow", "GET, HEAD")), answer.body)
    encode, content_type = choose_encoder(accept)
    body = encode(registry)
    headers = (("Content-Type", content_type), ("Content-Length", str(len(body))))
    return HttpAnswer(200, headers, b"" if method == "HEAD" else body)


class MetricsListener:
    """Serves ``registry`` on listeners (:meth:`serve`)."""

    def __init__(self, registry: CollectorRegistry) -> None:
        self.registry = registry

    async def serve(self, listener: trio.abc.Listener[Any]) -> None:
        """Accept scrapes on ``listener`` until cancelled, :data:`MAX_SCRAPES` at once."""
        await serve_bounded(listener, MAX_SCRAPES, self._scrape)

    async def _scrape(self, stream: trio.abc.Stream) -> None:
        """Read one request (within :data:`REQUEST_TIMEOUT`) and answer it."""
        try:
            head = None
            with trio.move_on_after(REQUEST_TIMEOUT):
                head = await read_request_head(stream)
            if head is None:
                return
            request, _, _ = head
            if isinstance(request, HttpAnswer):
                await send_answer(stream, request)
                return
            accept = ", ".join(
                value.decode("latin-1") for name, value in request.headers if name == b"accept"
            )
            answer = metrics_answer(
                self.registry, request.method.decode(), request.target.decode("latin-1"), accept
            )
            await send_answer(stream, answer)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
