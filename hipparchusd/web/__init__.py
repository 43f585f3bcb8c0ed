"""The web client: the page (plain HTML, CSS and JavaScript modules in ``static/``, no build
step) and what serving it over HTTP decides, sans I/O (:mod:`.site`): which file a path names,
its headers (content type, caching, Content-Security-Policy), which ``Host`` names the
listener answers for, and whether a WebSocket handshake's ``Origin`` and key may open a
session. The I/O is :mod:`hipparchusd.server.webfront`'s.
"""

from .site import (
    CONTENT_SECURITY_POLICY,
    WEBSOCKET_PATH,
    HttpAnswer,
    StaticSite,
    origin_allowed,
)

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "WEBSOCKET_PATH",
    "HttpAnswer",
    "StaticSite",
    "origin_allowed",
]
