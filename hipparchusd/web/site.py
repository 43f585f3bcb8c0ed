"""Serving the page, sans I/O: :class:`StaticSite` answers an HTTP request line (method,
path, request headers) with an :class:`HttpAnswer` (status, headers, body), and
:func:`origin_allowed` decides a WebSocket handshake's ``Origin``.

The page is a handful of small files shipped in the package (``static/``), read once at
start-up. Every answer carries a Content-Security-Policy that lets the page run only its own
scripts and styles and connect only to its own origin (the WebSocket), so that an injected
``<script>`` or inline handler does nothing; the HTML is ``Cache-Control: no-cache`` (always
revalidated, so a new daemon's page is never mixed with an old one's modules), and so are the
other files, each with an ``ETag`` so that revalidating costs a ``304``.
"""

from __future__ import annotations

import hashlib
import importlib.resources
import re
from collections.abc import Mapping, Sequence

import attrs

#: Where the page opens its WebSocket.
WEBSOCKET_PATH = "/ws"

#: Scripts, styles, images and connections from the page's own origin only; no inline script
#: or style, no plugins, no framing, no form posts. ``connect-src 'self'`` covers ``ws:`` and
#: ``wss:`` to the same host (CSP level 3).
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'"
)

#: Content types by file extension (text ones in UTF-8).
CONTENT_TYPES: Mapping[str, str] = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".png": "image/png",
}

#: Headers on every answer: no MIME sniffing, no referrer leaves the page, no framing.
COMMON_HEADERS: tuple[tuple[str, str], ...] = (
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("X-Frame-Options", "DENY"),
)

_FILE_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*\.[a-z0-9]+$")


@attrs.frozen
class HttpAnswer:
    """An HTTP response: ``status`` (e.g. 200), ``headers`` (name, value pairs, in order;
    ``Content-Length`` included) and ``body`` (empty for ``HEAD`` and ``304``)."""

    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes


@attrs.frozen
class StaticFile:
    """One file of the page: its bytes, content type and ETag (a hash of the bytes)."""

    body: bytes
    content_type: str
    etag: str


class StaticSite:
    """The page's files by URL path (``/`` is ``index.html``; every other file is ``/<name>``,
    names of lower-case letters, digits, ``-`` and ``_`` with one extension).

    Args:
        files: file name to bytes (e.g. from :meth:`from_package`).

    Raises:
        ValueError: a name that is not a plain file name, an extension with no known content
            type, or no ``index.html``.
    """

    def __init__(self, files: Mapping[str, bytes]) -> None:
        if "index.html" not in files:
            raise ValueError("the page needs an index.html")
        self.files: dict[str, StaticFile] = {}
        for name, body in files.items():
            extension = name[name.rfind(".") :]
            if not _FILE_NAME.match(name) or extension not in CONTENT_TYPES:
                raise ValueError(f"cannot serve {name!r}: not a plain file of a known type")
            etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
            self.files[name] = StaticFile(body, CONTENT_TYPES[extension], etag)

    @classmethod
    def from_package(cls) -> StaticSite:
        """The page shipped in this package (``hipparchusd/web/static/``).

        Raises:
            OSError: the files cannot be read.
        """
        root = importlib.resources.files(__package__).joinpath("static")
        files = {
            entry.name: entry.read_bytes()
            for entry in root.iterdir()
            if entry.is_file() and _FILE_NAME.match(entry.name)
        }
        return cls(files)

    def answer(self, method: str, target: str, headers: Sequence[tuple[str, str]]) -> HttpAnswer:
        """The answer to ``method target`` (``target`` as sent: a path, perhaps with a query,
        which is ignored) with the request's ``headers`` (names lower-case): 200 with the file,
        304 when ``If-None-Match`` names its current ETag, 404 for no such file, 405 (with
        ``Allow``) for a method other than GET and HEAD."""
        if method not in ("GET", "HEAD"):
            return self._plain(405, "only GET and HEAD are served here\n", [("Allow", "GET, HEAD")])
        path = target.split("?", 1)[0].split("#", 1)[0]
        name = "index.html" if path == "/" else path[1:] if path.startswith("/") else ""
        found = self.files.get(name)
        if found is None:
            return self._plain(404, "no such page\n", [], head=method == "HEAD")
        extra = [
            ("Content-Type", found.content_type),
            ("Cache-Control", "no-cache"),
            ("ETag", found.etag),
        ]
        match = [value for key, value in headers if key == "if-none-match"]
        if match and found.etag in {tag.strip() for tag in ",".join(match).split(",")}:
            return HttpAnswer(304, (*COMMON_HEADERS, *extra[1:]), b"")
        body = b"" if method == "HEAD" else found.body
        length = ("Content-Length", str(len(found.body)))
        return HttpAnswer(200, (*COMMON_HEADERS, *extra, length), body)

    @staticmethod
    def _plain(
        status: int, text: str, extra: list[tuple[str, str]], *, head: bool = False
    ) -> HttpAnswer:
        """A short plain-text answer (errors)."""
        body = text.encode()
        headers = (
            *COMMON_HEADERS,
            *extra,
            ("Content-Type", "text/plain; charset=utf-8"),
            ("Cache-Control", "no-cache"),
            ("Content-Length", str(len(body))),
        )
        return HttpAnswer(status, headers, b"" if head else body)


def error_answer(status: int, text: str) -> HttpAnswer:
    """A plain-text error answer with the site's headers (e.g. 403 for a refused origin)."""
    return StaticSite._plain(status, text, [])


def origin_allowed(origin: str | None, host: str | None, allowed: Sequence[str]) -> bool:
    """Whether a WebSocket handshake with header ``Origin: origin`` to ``Host: host`` may open
    a session: the page's own origin (same host and port as the request's ``Host``, over
    ``http`` or ``https``, since a TLS proxy may stand in front), or one of ``allowed``
    (configured origins, lower case, e.g. ``https://cards.example.org``).

    A browser always sends ``Origin`` on a WebSocket handshake and a page cannot forge it, so
    this is what stops another site's page from driving a visitor's seat. A handshake with no
    ``Origin`` comes from a program, not a page (it could as well use the TCP port): allowed.
    ``Origin: null`` (a sandboxed frame, a ``file:`` page) is refused unless configured."""
    if origin is None:
        return True
    origin = origin.strip().lower().rstrip("/")
    if origin in allowed:
        return True
    scheme, sep, netloc = origin.partition("://")
    if not sep or scheme not in ("http", "https") or host is None:
        return False
    return netloc == host.strip().lower()
