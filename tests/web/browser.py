"""Driving the page in a real browser for the tests: Debian's headless Chromium through
chromedriver (Selenium), a daemon with its web listener in a child process, and bots
(clients/python/bot.py) as the other seats. Nothing is downloaded at test time: without the
packages the browser tests skip, saying which is missing.

Each game's browser tests live beside its other tests (tests/games/<kind>/, tests/tinygame/)
and take their fixtures from here: ``daemon, browsers, pages = browser_fixtures()`` at a test
module's top."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest

REPO = Path(__file__).resolve().parents[2]
TESTS = REPO / "tests"
#: Where the screenshots go: docs/ when ``HIPPARCHUSD_SCREENSHOTS=docs`` (to retake those the
#: README shows), else that directory, else a temporary one, so that an ordinary test run
#: leaves the working tree as it was (the pictures differ a little from run to run).
SCREENSHOTS = (
    REPO / "docs"
    if os.environ.get("HIPPARCHUSD_SCREENSHOTS") == "docs"
    else Path(os.environ.get("HIPPARCHUSD_SCREENSHOTS") or tempfile.gettempdir())
    / ("" if os.environ.get("HIPPARCHUSD_SCREENSHOTS") else "hipparchusd-screenshots")
)
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)

T = TypeVar("T")


def missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    for program, package in (("chromium", "chromium"), ("chromedriver", "chromium-driver")):
        if shutil.which(program) is None:
            return f"{program} is missing (apt-get install chromium chromium-driver: {package!r})"
    return None


#: The mark of a browser test module (``pytestmark = needs_browser``): skipped, saying why,
#: where the browser or its driver is missing.
needs_browser = pytest.mark.skipif(missing() is not None, reason=f"browser tests: {missing()}")


class Daemon:
    """``python -m hipparchusd`` with a web listener, in memory, on free ports; its log lines
    are kept in ``log``. ``module`` runs another module that runs the daemon (with tests/ on
    the path), e.g. ``tinygame.serve``, which serves a kind the tests define."""

    def __init__(self, module: str = "hipparchusd") -> None:
        self.log: list[str] = []
        path = os.pathsep.join(filter(None, (str(TESTS), os.environ.get("PYTHONPATH"))))
        env = {**os.environ, "PYTHONPATH": path}
        self.process = subprocess.Popen(
            [sys.executable, "-m", module, "--port", "0", "--ws-port", "0",
             "--state-dir", "none", "--config", "", "--idle-timeout", "0"],
            stderr=subprocess.PIPE, text=True, cwd=REPO, env=env,
        )  # fmt: skip
        self._listening = threading.Event()
        self.port = self.web_port = 0
        threading.Thread(target=self._read, daemon=True).start()
        if not self._listening.wait(20):
            raise RuntimeError("the daemon did not start: " + "".join(self.log))

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.log.append(line)
            found = re.search(r"listening on \S+ port (\d+)( \(web\))?", line)
            if found and found.group(2):
                self.web_port = int(found.group(1))
            elif found:
                self.port = int(found.group(1))
            if self.port and self.web_port:
                self._listening.set()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.web_port}/"

    def bot(self, game: str, name: str, seed: int) -> subprocess.Popen[str]:
        """A random bot (clients/python/bot.py) joining ``game``."""
        return subprocess.Popen(
            [sys.executable, str(REPO / "clients" / "python" / "bot.py"), "--port", str(self.port),
             "--game", game, "--name", name, "--seed", str(seed)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


class Page:
    """One browser (its own profile, so its own localStorage) showing the page."""

    def __init__(self, width: int = 1280, height: int = 900) -> None:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        options = webdriver.ChromeOptions()
        for flag in CHROMIUM_FLAGS:
            options.add_argument(flag)
        self.profile = tempfile.mkdtemp(prefix="hipparchusd-chromium-")
        options.add_argument(f"--user-data-dir={self.profile}")
        options.add_argument(f"--window-size={width},{height}")
        options.binary_location = shutil.which("chromium") or "chromium"
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        service = Service(shutil.which("chromedriver") or "chromedriver")
        self.driver = webdriver.Chrome(options=options, service=service)
        self.driver.set_script_timeout(10)
        self.console: list[dict[str, Any]] = []

    def phone(self, width: int = 390, height: int = 844) -> None:
        """Show the page as a phone does: a viewport of ``width`` x ``height`` CSS pixels, a
        mobile one (the page's ``<meta name=viewport>`` applies, scrollbars overlay), through
        Chromium's device emulation (DevTools ``Emulation.setDeviceMetricsOverride``)."""
        self.driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True},
        )

    def overflow(self, css: str = "body *") -> list[str]:
        """The visible elements matching ``css`` that reach past the viewport's left or right
        edge (each as ``tag#id.class: left..right of width``), and the document itself when
        it is wider than the viewport: none on a page that fits the screen's width."""
        return list(
            self.js(
                """
                const width = document.documentElement.clientWidth;
                const out = [];
                const page = document.scrollingElement.scrollWidth;
                if (page > width) out.push(`the document: ${page} px wide in ${width}`);
                for (const node of document.querySelectorAll(arguments[0])) {
                  const box = node.getBoundingClientRect();
                  if (!box.width || !box.height) continue;  // not shown
                  if (getComputedStyle(node).visibility === "hidden") continue;
                  if (box.left < -0.5 || box.right > width + 0.5) {
                    const name = node.tagName.toLowerCase() + (node.id ? "#" + node.id : "")
                      + (typeof node.className === "string" && node.className
                        ? "." + node.className.trim().split(/\\s+/).join(".") : "");
                    const [left, right] = [Math.round(box.left), Math.round(box.right)];
                    out.push(`${name}: ${left}..${right} of ${width}`);
                  }
                }
                return out;
                """,
                css,
            )
        )

    def open(self, url: str) -> None:
        self.driver.get(url)
        self.wait(
            lambda: (
                self.js("return window.hipparchusClient && window.hipparchusClient.status")
                == "connected"
            )
        )

    def js(self, script: str, *args: Any) -> Any:
        return self.driver.execute_script(script, *args)

    def module(self, path: str, body: str, data: Any) -> Any:
        """Import the page's module at ``path`` (relative to the page, e.g.
        ``games/<kind>/words.js``) in the browser and return what ``body``, the source of a
        JavaScript function ``(module, data) => value``, gives for ``data`` (JSON both ways).
        So a test calls the page's own code as the page runs it. AssertionError if the import
        or the function throws."""
        answer = self.driver.execute_async_script(
            """
            const [path, data] = [arguments[0], arguments[1]];
            const done = arguments[arguments.length - 1];
            import(new URL(path, document.baseURI).href)
              .then((module) => done({ value: (BODY)(module, data) }))
              .catch((error) => done({ error: String((error && error.stack) || error) }));
            """.replace("BODY", body),
            path,
            data,
        )
        assert "error" not in answer, answer["error"]
        return answer["value"]

    def wait(self, condition: Callable[[], T], timeout: float = 10.0, what: str = "") -> T:
        """Poll ``condition`` until it is truthy; its value. AssertionError after ``timeout``."""
        deadline = time.monotonic() + timeout
        while True:
            value = condition()
            if value:
                return value
            if time.monotonic() > deadline:
                self._timed_out(what or str(condition))
            time.sleep(0.03)

    def wait_progress(
        self, condition: Callable[[], T], game: str, idle: float = 60.0, what: str = ""
    ) -> T:
        """Poll ``condition`` until it is truthy, for as long as ``game`` makes progress: the
        wait fails only after ``idle`` seconds in which no new event of the game came (its seq
        did not move). So a game on a loaded machine may take as long as it needs, while one
        that is stuck fails. 60 s without a single event is far beyond any move here (a bot's
        random move, a page's click), however loaded the machine."""
        last = seq(self, game)
        deadline = time.monotonic() + idle
        while True:
            value = condition()
            if value:
                return value
            now = seq(self, game)
            if now != last:
                last, deadline = now, time.monotonic() + idle
            elif time.monotonic() > deadline:
                self._timed_out(f"{what or condition} ({game} had no event for {idle:.0f} s)")
            time.sleep(0.03)

    def _timed_out(self, what: str) -> None:
        shot = Path(tempfile.gettempdir()) / f"hipparchusd-browser-{time.time():.0f}.png"
        self.driver.save_screenshot(str(shot))
        raise AssertionError(f"timed out waiting for {what} (page: {shot})")

    def find(self, css: str) -> list[Any]:
        from selenium.webdriver.common.by import By

        return list(self.driver.find_elements(By.CSS_SELECTOR, css))

    def attributes(self, css: str, name: str) -> list[str | None]:
        """The attribute ``name`` of every element matching ``css``, read in one script so
        that a redraw between finding the elements and reading them cannot leave a stale
        reference (the page redraws whenever an event arrives)."""
        found: list[str | None] = self.js(
            "return [...document.querySelectorAll(arguments[0])]"
            ".map(element => element.getAttribute(arguments[1]))",
            css,
            name,
        )
        return found

    def texts(self, css: str) -> list[str]:
        """The text shown by every element matching ``css``, read in one script (as
        :meth:`attributes` reads, immune to redraws)."""
        found: list[str] = self.js(
            "return [...document.querySelectorAll(arguments[0])].map(element => element.innerText)",
            css,
        )
        return found

    def attribute(self, css: str, name: str, timeout: float = 10.0) -> str:
        """The attribute ``name`` of the first element matching ``css``, once there is one
        (read as :meth:`attributes` reads, immune to redraws).

        Raises:
            AssertionError: no element matched within ``timeout`` seconds, or it has no
                attribute ``name``.
        """
        found = self.wait(lambda: self.attributes(css, name), timeout, css)[0]
        assert found is not None, f"{css} has no attribute {name}"
        return found

    def one(self, css: str, timeout: float = 10.0) -> Any:
        return self.wait(lambda: (self.find(css) or [None])[0], timeout, css)

    def click(self, css: str, timeout: float = 10.0) -> bool:
        """Click the first element matching ``css`` once there is one (retrying while the
        page redraws it); False if something else (a dialog that just opened) took the
        click."""
        from selenium.common.exceptions import (
            ElementClickInterceptedException,
            StaleElementReferenceException,
        )

        deadline = time.monotonic() + timeout
        while True:
            try:
                self.one(css, timeout).click()
                return True
            except ElementClickInterceptedException:
                return False
            except StaleElementReferenceException:
                if time.monotonic() > deadline:
                    raise

    def settle(self) -> None:
        """Wait until the table shows the latest state and no move is in flight."""
        self.wait(
            lambda: self.js("return !window.hipparchusTable || window.hipparchusTable.settled"),
            what="the table to settle",
        )

    def text(self, css: str) -> str:
        """The text the first element matching ``css`` shows ("" with none), read again if
        the page redrew it between finding and reading (a stale element is a redraw, not an
        empty text: the table redraws on every event)."""
        from selenium.common.exceptions import StaleElementReferenceException

        for _ in range(50):
            try:
                found = self.find(css)
                return found[0].text if found else ""
            except StaleElementReferenceException:
                continue
        raise AssertionError(f"{css} was redrawn 50 times in a row while being read")

    def errors(self) -> list[dict[str, Any]]:
        """The console's errors (level SEVERE) since the page was made."""
        self.console += self.driver.get_log("browser")
        return [entry for entry in self.console if entry["level"] == "SEVERE"]

    def storage(self) -> dict[str, Any]:
        return json.loads(self.js("return localStorage.getItem('hipparchusd.seats') || '{}'"))

    def screenshot(self, name: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / name
        self.driver.save_screenshot(str(path))
        return path

    def quit(self) -> None:
        self.driver.quit()
        shutil.rmtree(self.profile, ignore_errors=True)


def module_page_fixture() -> Any:
    """A module-scoped fixture ``page``: one browser on the ``daemon``'s page, for tests that
    call the page's modules (:meth:`Page.module`)."""

    @pytest.fixture(scope="module")
    def page(daemon: Daemon) -> Iterator[Page]:
        shown = Page()
        shown.open(daemon.url)
        yield shown
        shown.quit()

    return page


#: The start of a function run with :meth:`Page.module` that names seats as the terminal
#: client does: ``label(mine)`` is a function of a seat, ``you`` for ``mine`` and else
#: ``data.names[seat]``; the function's body follows, and closes its brace.
SEAT_LABELS_JS = (
    "(m, data) => { const label = (mine) => (seat) => (seat === mine ? 'you' : data.names[seat]);"
)


def seat_labels(names: Sequence[str], mine: int | None) -> Callable[[int], str]:
    """The terminal client's names for seats named ``names``: ``you`` for seat ``mine``."""
    return lambda seat: "you" if seat == mine else names[seat]


def browser_fixtures(module: str = "hipparchusd", count: int = 2) -> tuple[Any, Any, Any]:
    """The fixtures ``daemon`` (:func:`daemon_fixture` of ``module``), ``browsers``
    (:func:`browsers_fixture` of ``count``) and ``pages`` (:func:`pages_fixture`)."""
    return daemon_fixture(module), browsers_fixture(count), pages_fixture()


def daemon_fixture(module: str = "hipparchusd") -> Any:
    """A module-scoped fixture: a :class:`Daemon` (of ``module``) for the module's tests."""

    @pytest.fixture(scope="module")
    def daemon() -> Iterator[Daemon]:
        running = Daemon(module)
        yield running
        running.stop()

    return daemon


def browsers_fixture(count: int = 2) -> Any:
    """A module-scoped fixture: ``count`` browsers with separate profiles (so separate
    localStorage), reused by the module's tests."""

    @pytest.fixture(scope="module")
    def browsers() -> Iterator[list[Page]]:
        made = [Page() for _ in range(count)]
        yield made
        for page in made:
            page.quit()

    return browsers


def pages_fixture() -> Any:
    """A fixture: the ``browsers`` on the ``daemon``'s lobby with empty storage; afterwards,
    no console error and no gap in any game's seq may have happened."""

    @pytest.fixture
    def pages(browsers: list[Page], daemon: Daemon) -> Iterator[list[Page]]:
        for page in browsers:
            page.driver.get(daemon.url)
            page.js("localStorage.clear()")
            page.console.clear()
            page.errors()
            page.console.clear()
        yield browsers
        for page in browsers:
            assert page.errors() == []
            assert page.js("return window.hipparchusClient ? window.hipparchusClient.gaps : 0") == 0

    return pages


class Progress:
    """A game loop's watchdog, bounded by the game's progress rather than by a total: ``check``
    fails once ``idle`` seconds have passed in which none of ``pages`` saw a new event of
    ``game``. A whole game takes as long as the machine's load makes it; a stuck one fails.
    (60 s without a single event is far beyond any move here, however loaded the machine.)"""

    def __init__(self, pages: list[Page], game: str, idle: float = 60.0) -> None:
        self.pages, self.game, self.idle = pages, game, idle
        self.last = self._seqs()
        self.deadline = time.monotonic() + idle

    def _seqs(self) -> list[int]:
        return [seq(page, self.game) for page in self.pages]

    def check(self, what: str) -> None:
        """Fail, saying ``what`` did not happen, if the game has stalled for ``idle`` s."""
        now = self._seqs()
        if now != self.last:
            self.last, self.deadline = now, time.monotonic() + self.idle
        elif time.monotonic() > self.deadline:
            raise AssertionError(f"{what}: {self.game} had no event for {self.idle:.0f} s")


class Tcp:
    """A protocol client over TCP, line by line (the other seat, or a check of the daemon)."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.file = self.sock.makefile("rw", encoding="utf-8")
        assert self.file.readline().startswith("* server hello")
        self.ask("format json")

    def ask(self, line: str) -> dict[str, Any]:
        """The JSON answer to ``line`` (events before it are skipped)."""
        self.file.write(line + "\n")
        self.file.flush()
        while True:
            head = self.file.readline()
            if head.startswith(("=", "?")):
                assert self.file.readline() == "\n"
                body = head.partition(" ")[2]
                data: dict[str, Any] = json.loads(body) if body.strip() else {}
                if head.startswith("?"):
                    raise AssertionError(f"{line}: {data}")
                return data

    def close(self) -> None:
        """Close the connection (the server sees the client leave): the line file too, since
        a socket stays open while a file made from it is."""
        self.file.close()
        self.sock.close()


def name_and_open(page: Page, url: str, name: str) -> None:
    """Open the lobby at ``url`` and type ``name`` as the player's name."""
    page.open(url)
    page.js(
        "const i = document.getElementById('name'); i.value = arguments[0];"
        "i.dispatchEvent(new Event('change'));",
        name,
    )


def create(page: Page, kind: str, options: dict[str, str], sit: bool = True) -> str:
    """Create a game from the lobby's form; its id (the page then shows its table)."""
    page.one("#create button[type=submit]")
    page.js(
        "const k = document.getElementById('kind'); k.value = arguments[0];"
        "k.dispatchEvent(new Event('change'));",
        kind,
    )
    for key, value in options.items():
        # A checkbox (an option of one value) is checked to give it; any other field takes it.
        page.js(
            "const f = document.getElementById(arguments[0]);"
            "if (f.type === 'checkbox') f.checked = f.value === arguments[1];"
            "else f.value = arguments[1];",
            f"opt-{key}",
            value,
        )
    if not sit:
        page.click("#sit")
    page.click("#create button[type=submit]")
    return str(page.wait(lambda: page.js("return location.hash.slice(1)"), what="the new game"))


def seq(page: Page, game: str) -> int:
    """The last seq of ``game``'s events that the page's client has seen."""
    return int(page.js("return window.hipparchusClient.lastSeq.get(arguments[0]) || 0", game))
