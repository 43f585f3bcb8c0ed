"""The page over plain HTTP on the web port (hipparchusd/web/site.py), the web options
(command line, configuration file) and the web socket passed by systemd."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import trio

from hipparchusd.config_file import ConfigError, load_settings
from hipparchusd.games.registry import KINDS
from hipparchusd.settings import Settings, SettingsError, parse_origins
from hipparchusd.web import CONTENT_SECURITY_POLICY, StaticSite, origin_allowed
from hipparchusd.web.site import listener_names

STATIC = Path(__file__).resolve().parents[2] / "hipparchusd" / "web" / "static"


async def http(port: int, request: str) -> tuple[int, dict[str, str], bytes]:
    """Send ``request`` (CRLF added) to the web port; the status, headers (lower-case names)
    and body of the answer, read to the end (the server closes after each answer)."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    await stream.send_all(request.replace("\n", "\r\n").encode())
    data = b""
    with trio.fail_after(5):
        while chunk := await stream.receive_some(65536):
            data += chunk
    await stream.aclose()
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(status_line.split()[1]), headers, body


def get(path: str, extra: str = "", method: str = "GET") -> str:
    return f"{method} {path} HTTP/1.1\nHost: localhost\n{extra}Connection: close\n\n"


async def test_the_page_and_its_files_are_served_with_their_headers(start_server: Any) -> None:
    server = await start_server()
    port = server.web_ports[0]
    status, headers, body = await http(port, get("/"))
    assert status == 200 and body == (STATIC / "index.html").read_bytes()
    assert headers["content-type"] == "text/html; charset=utf-8"
    assert headers["cache-control"] == "no-cache"
    assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert (
        "script-src 'self';" in CONTENT_SECURITY_POLICY and "unsafe" not in CONTENT_SECURITY_POLICY
    )
    assert headers["x-content-type-options"] == "nosniff"
    assert int(headers["content-length"]) == len(body)
    for name, content_type in [
        ("app.js", "text/javascript; charset=utf-8"),
        ("style.css", "text/css; charset=utf-8"),
        ("favicon.svg", "image/svg+xml"),
    ]:
        status, headers, body = await http(port, get(f"/{name}?v=1"))
        assert (status, headers["content-type"]) == (200, content_type), name
        assert body == (STATIC / name).read_bytes()
    # Revalidation costs a 304 with no body; HEAD gives the headers only.
    etag = headers["etag"]
    status, headers, body = await http(port, get("/favicon.svg", f"If-None-Match: {etag}\n"))
    assert (status, body) == (304, b"")
    status, headers, body = await http(port, get("/", method="HEAD"))
    assert status == 200 and body == b"" and int(headers["content-length"]) > 0


async def test_each_kinds_page_module_is_served_as_pages_json_says(start_server: Any) -> None:
    server = await start_server()
    port = server.web_ports[0]
    status, headers, body = await http(port, get("/pages.json"))
    assert (status, headers["content-type"]) == (200, "application/json")
    pages = json.loads(body)["pages"]
    assert set(pages) == {kind.name for kind in KINDS.values() if kind.page is not None}
    for kind, parts in pages.items():
        for path, content_type in [
            (parts["module"], "text/javascript; charset=utf-8"),
            *((style, "text/css; charset=utf-8") for style in parts["styles"]),
        ]:
            status, headers, body = await http(port, get(f"/{path}"))
            assert (status, headers["content-type"]) == (200, content_type), path
            # The same policy as the page's: a game's module runs because it is the page's own.
            assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY
            assert path.startswith(f"games/{kind}/") and body
        for path in (f"/games/{kind}/../app.js", f"/games/{kind}/nothing.js", f"/games/{kind}/"):
            status, _, _ = await http(port, get(path))
            assert status == 404, path


async def test_what_is_not_served(start_server: Any) -> None:
    server = await start_server()
    port = server.web_ports[0]
    for path in (
        "/nothing.js",
        "/../pyproject.toml",
        "/%2e%2e/settings.py",
        "/static/app.js",
        "//etc/passwd",
    ):
        status, headers, _ = await http(port, get(path))
        assert status == 404, path
        assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    status, headers, _ = await http(port, get("/", method="POST"))
    assert status == 405 and headers["allow"] == "GET, HEAD"
    status, _, _ = await http(port, "NOT HTTP AT ALL\n\n")
    assert status == 400
    # Nothing above was a session.
    assert server.connection_count == 0


def test_the_static_site_refuses_odd_files() -> None:
    with pytest.raises(ValueError, match=r"index\.html"):
        StaticSite({"app.js": b""})
    with pytest.raises(ValueError, match="known type"):
        StaticSite({"index.html": b"", "run.sh": b""})
    with pytest.raises(ValueError, match="plain file"):
        StaticSite({"index.html": b"", "../x.js": b""})
    site = StaticSite.from_package()
    assert {"index.html", "app.js", "client.js", "style.css"} <= set(site.files)


def test_origin_allowed() -> None:
    names = listener_names("127.0.0.1", "127.0.0.1", ())
    assert origin_allowed(None, "localhost:7461", (), names)  # a program, not a page
    assert origin_allowed("http://localhost:7461", "localhost:7461", (), names)
    # Behind a TLS proxy.
    assert origin_allowed("https://LOCALHOST:7461/", "localhost:7461", (), names)
    assert not origin_allowed("http://localhost:7462", "localhost:7461", (), names)
    assert not origin_allowed("http://evil.example", "localhost:7461", (), names)
    assert not origin_allowed("null", "localhost:7461", (), names)
    assert not origin_allowed("http://localhost:7461", None, (), names)
    assert origin_allowed(
        "https://cards.example.org", "localhost:7461", ("https://cards.example.org",), names
    )


def test_web_options_on_the_command_line_and_in_the_file(tmp_path: Path) -> None:
    assert Settings().ws_port is None and Settings().ws_host == "127.0.0.1"
    assert parse_origins("https://a.example, http://b.example:8080/") == (
        "https://a.example",
        "http://b.example:8080",
    )
    config = tmp_path / "config.toml"
    config.write_text(
        'ws-port = 7461\nws-host = "0.0.0.0"\nws-origins = "https://cards.example.org"\n'
    )
    settings = load_settings(config, {"ws_port": 8000})
    assert (settings.ws_host, settings.ws_port, settings.ws_origins) == (
        "0.0.0.0",
        8000,
        ("https://cards.example.org",),
    )
    config.write_text('ws-origins = "cards.example.org"\n')
    with pytest.raises(ConfigError, match="ws-origins"):
        load_settings(config, {})
    with pytest.raises(SettingsError, match="port"):
        Settings(ws_port=70000)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _connect(port: int) -> socket.socket:
    """A connection to ``port`` once the socket-activation tool listens there."""
    deadline = time.monotonic() + 10
    while True:
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=10)
        except ConnectionRefusedError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def test_systemd_passes_the_web_socket_by_its_name(tmp_path: Path) -> None:
    tool = shutil.which("systemd-socket-activate")
    if tool is None:
        pytest.skip("systemd-socket-activate is missing (Debian package 'systemd')")
    tcp_port, web_port = _free_port(), _free_port()
    command = [
        tool, "-l", f"127.0.0.1:{tcp_port}", "-l", f"127.0.0.1:{web_port}",
        "--fdname=hipparchusd.socket:web",
        sys.executable, "-m", "hipparchusd", "--state-dir", "none", "--config", "",
    ]  # fmt: skip
    daemon = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, env={**os.environ})
    try:
        # The daemon starts on the first connection, to either socket.
        with _connect(web_port) as sock:
            sock.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{web_port}\r\n\r\n".encode())
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 200 ") and b"<!doctype html>" in answer
        with socket.create_connection(("127.0.0.1", tcp_port), timeout=10) as sock:
            assert sock.makefile().readline().startswith("* server hello ")
    finally:
        daemon.send_signal(signal.SIGTERM)
        _, err = daemon.communicate(timeout=20)
    assert "using socket web passed by systemd" in err, err
    assert f"port {web_port} (web)" in err and f"port {tcp_port}\n" in err
