"""Serving the page, sans I/O: :class:`StaticSite` answers an HTTP request line (method,
path, request headers) with an :class:`HttpAnswer` (status, headers, body);
:func:`host_allowed` decides whether a request's ``Host`` is one of the names the listener
answers for (:func:`listener_names`), :func:`origin_allowed` whether a WebSocket handshake's
``Origin`` may open a session, and :func:`websocket_key_valid` whether its key is one.

The page is a handful of small files shipped in the package, read once at start-up: what every
game uses (``static/``: the lobby, the shared table frame, the generic table) at the top, and
each game kind's own part (its :class:`~hipparchusd.games.base.PageParts`, e.g.
``hipparchusd/games/<kind>/page/``) under ``games/<kind>/``. ``pages.json``, made from the
registry, tells the page which kinds have a part of their own, and where its table module and
styles are; the page loads them with a dynamic ``import()``, and plays any other kind on its
generic table. The daemon reads these files as data and never runs them.

Every answer carries a Content-Security-Policy that lets the page run only its own scripts and
styles (a game's module is one: same origin) and connect only to its own origin (the
WebSocket), so that an injected ``<script>`` or inline handler does nothing; the HTML is
``Cache-Control: no-cache`` (always revalidated, so a new daemon's page is never mixed with an
old one's modules), and so are the other files, each with an ``ETag`` so that revalidating
costs a ``304``.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import importlib.resources
import importlib.resources.abc
import ipaddress
import json
import re
from collections.abc import Iterable, Mapping, Sequence

import attrs

from ..games.base import GameKind
from ..games.registry import KINDS
from ..jsondata import JSON

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

#: Where the page learns which kinds have a page module of their own (:func:`pages_index`).
PAGES_INDEX = "pages.json"

#: The folder, beside the page, of each game kind's own page files.
GAMES_FOLDER = "games"

_FILE_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*\.[a-z0-9]+$")
#: A file of the page: a plain name, or one in a kind's folder (``games/<kind>/<name>``).
_PATH = re.compile(r"^(games/[a-z][a-z0-9-]{0,31}/)?[a-z0-9][a-z0-9_-]*\.[a-z0-9]+$")
#: A host name (RFC 1123 labels), lower case.
_LABEL = r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?"
_HOST_NAME = re.compile(rf"{_LABEL}(\.{_LABEL})*")


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
    """The page's files by URL path (``/`` is ``index.html``; every other file is ``/<path>``,
    a plain name of lower-case letters, digits, ``-`` and ``_`` with one extension, or such a
    name in a kind's folder, ``games/<kind>/<name>``).

    Args:
        files: path to bytes (e.g. from :meth:`from_package`).

    Raises:
        ValueError: a path that is neither, an extension with no known content type, or no
            ``index.html``.
    """

    def __init__(self, files: Mapping[str, bytes]) -> None:
        if "index.html" not in files:
            raise ValueError("the page needs an index.html")
        self.files: dict[str, StaticFile] = {}
        for name, body in files.items():
            extension = name[name.rfind(".") :]
            if not _PATH.match(name) or extension not in CONTENT_TYPES:
                raise ValueError(f"cannot serve {name!r}: not a plain file of a known type")
            etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
            self.files[name] = StaticFile(body, CONTENT_TYPES[extension], etag)

    @classmethod
    def from_package(cls, kinds: Iterable[GameKind] | None = None) -> StaticSite:
        """The page shipped in this package (``hipparchusd/web/static/``), the page parts of
        ``kinds`` (default: every kind the registry serves now) under ``games/<kind>/``, and
        their :func:`pages_index` as ``pages.json``.

        Raises:
            OSError: a file cannot be read.
            ValueError: a kind's page folder lacks its table module or a style sheet, or holds
                a file the site cannot serve.
        """
        kinds = list(KINDS.values() if kinds is None else kinds)
        files = _folder_files(importlib.resources.files(__package__).joinpath("static"))
        for kind in kinds:
            if kind.page is None:
                continue
            folder = importlib.resources.files(kind.page.package).joinpath(kind.page.folder)
            found = _folder_files(folder)
            for needed in (kind.page.module, *kind.page.styles):
                if needed not in found:
                    raise ValueError(f"the page of {kind.name} has no {needed} in {folder}")
            for name, body in found.items():
                files[f"{GAMES_FOLDER}/{kind.name}/{name}"] = body
        files[PAGES_INDEX] = json.dumps(pages_index(kinds), indent=1).encode() + b"\n"
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


def pages_index(kinds: Iterable[GameKind]) -> dict[str, JSON]:
    """What ``pages.json`` says: ``{"pages": {kind: {"module": path, "styles": [path...]}}}``
    for each of ``kinds`` that has page parts of its own, paths relative to the page (e.g.
    ``games/<kind>/table.js``). A kind missing from it is played on the generic table."""
    pages: dict[str, JSON] = {}
    for kind in kinds:
        if kind.page is not None:
            base = f"{GAMES_FOLDER}/{kind.name}/"
            styles: list[JSON] = [base + style for style in kind.page.styles]
            pages[kind.name] = {"module": base + kind.page.module, "styles": styles}
    return {"pages": pages}


def _folder_files(folder: importlib.resources.abc.Traversable) -> dict[str, bytes]:
    """The files of ``folder`` (not its subfolders) that the site serves: plain names of a
    known content type (so that, say, a README beside a game's page stays unserved)."""
    return {
        entry.name: entry.read_bytes()
        for entry in folder.iterdir()
        if entry.is_file()
        and _FILE_NAME.match(entry.name)
        and entry.name[entry.name.rfind(".") :] in CONTENT_TYPES
    }


def error_answer(status: int, text: str) -> HttpAnswer:
    """A plain-text error answer with the site's headers (e.g. 403 for a refused origin)."""
    return StaticSite._plain(status, text, [])


def host_name(authority: str) -> str | None:
    """The host name an ``authority`` names (a ``Host`` header's value, or an origin's part
    after ``scheme://``): ``name``, ``name:port``, ``[v6]`` or ``[v6]:port``, without its port,
    in lower case and without a trailing dot; an IP address written canonically, an IPv4
    address mapped into IPv6 as the IPv4 address. ``None`` for what names no host (empty, a
    bad port, an unclosed bracket, a path, credentials, spaces)."""
    authority = authority.strip().lower()
    if authority.startswith("["):
        name, bracket, rest = authority[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            return None
        port = rest[1:] if rest else None
    else:
        name, colon, port_text = authority.partition(":")
        port = port_text if colon else None
    if port is not None and not (port.isascii() and port.isdigit() and int(port) < 65536):
        return None
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        name = name.rstrip(".")
        return name if _HOST_NAME.fullmatch(name) else None
    if isinstance(address, ipaddress.IPv6Address):
        if not authority.startswith("["):
            return None  # an IPv6 address in a Host is bracketed (RFC 3986 3.2.2)
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
    return str(address)


def _address_name(address: str) -> str | None:
    """:func:`host_name` of a bare address (a socket's, or ``--ws-host``), IPv6 unbracketed."""
    return host_name(f"[{address}]" if ":" in address else address)


def listener_names(
    local_address: str, configured_host: str, origins: Sequence[str]
) -> frozenset[str]:
    """The host names a web listener answers for (:func:`host_allowed`), lower case: the
    address a connection came in on (``local_address``, as the socket gives it), ``localhost``
    when that is a loopback address, the configured ``configured_host`` (``--ws-host``) unless
    it is a wildcard (``0.0.0.0``, ``::``), and the host of each of ``origins``
    (``--ws-origins``). A page whose address resolves to the daemon under any other name (DNS
    rebinding, issue 24 item 2) is refused."""
    names: set[str] = set()
    local = _address_name(local_address)
    if local is not None:
        names.add(local)
        with contextlib.suppress(ValueError):
            if ipaddress.ip_address(local).is_loopback:
                names.add("localhost")
    configured = _address_name(configured_host)
    if configured is not None:
        with contextlib.suppress(ValueError):
            if ipaddress.ip_address(configured).is_unspecified:
                configured = None
    if configured is not None:
        names.add(configured)
    for origin in origins:
        found = host_name(origin.partition("://")[2])
        if found is not None:
            names.add(found)
    return frozenset(names)


def host_allowed(host: str | None, names: frozenset[str]) -> bool:
    """Whether a request with header ``Host: host`` is for this listener: its host name is one
    of ``names`` (:func:`listener_names`), whatever the port (a proxy in front may give its
    own). A request with no ``Host`` is refused (HTTP/1.1 requires one)."""
    return host is not None and host_name(host) in names


def origin_allowed(
    origin: str | None, host: str | None, allowed: Sequence[str], names: frozenset[str]
) -> bool:
    """Whether a WebSocket handshake with header ``Origin: origin`` to ``Host: host`` may open
    a session: one of ``allowed`` (configured origins, lower case, e.g.
    ``https://cards.example.org``), or the page's own origin: the request's ``Host`` (same host
    and port, over ``http`` or ``https``, since a TLS proxy may stand in front) when its name
    is one of the listener's ``names`` (:func:`listener_names`). An ``Origin`` equal to a
    ``Host`` the listener does not answer for is another site's page that resolved to the
    daemon (DNS rebinding): refused.

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
    return netloc == host.strip().lower() and host_allowed(host, names)


def websocket_key_valid(key: str | None) -> bool:
    """Whether ``key``, a handshake's ``Sec-WebSocket-Key``, is what RFC 6455 section 4.2.1
    requires: the base64 encoding of 16 bytes (a nonce), so 24 characters ending ``==``."""
    if key is None or len(key) != 24:
        return False
    try:
        return len(base64.b64decode(key, validate=True)) == 16
    except binascii.Error:
        return False
