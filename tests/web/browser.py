"""Driving the page in a real browser for the tests: Debian's headless Chromium through
chromedriver (Selenium), a daemon with its web listener in a child process, and bots
(clients/python/bot.py) as the other seats. Nothing is downloaded at test time: without the
packages the browser tests skip, saying which is missing."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

REPO = Path(__file__).resolve().parents[2]
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


class Daemon:
    """``python -m hipparchusd`` with a web listener, in memory, on free ports; its log lines
    are kept in ``log``."""

    def __init__(self) -> None:
        self.log: list[str] = []
        self.process = subprocess.Popen(
            [sys.executable, "-m", "hipparchusd", "--port", "0", "--ws-port", "0",
             "--state-dir", "none", "--config", "", "--idle-timeout", "0"],
            stderr=subprocess.PIPE, text=True, cwd=REPO,
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

    def wait(self, condition: Callable[[], T], timeout: float = 10.0, what: str = "") -> T:
        """Poll ``condition`` until it is truthy; its value. AssertionError after ``timeout``."""
        deadline = time.monotonic() + timeout
        while True:
            value = condition()
            if value:
                return value
            if time.monotonic() > deadline:
                shot = Path(tempfile.gettempdir()) / f"hipparchusd-browser-{time.time():.0f}.png"
                self.driver.save_screenshot(str(shot))
                raise AssertionError(f"timed out waiting for {what or condition} (page: {shot})")
            time.sleep(0.03)

    def find(self, css: str) -> list[Any]:
        from selenium.webdriver.common.by import By

        return list(self.driver.find_elements(By.CSS_SELECTOR, css))

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
        from selenium.common.exceptions import StaleElementReferenceException

        try:
            found = self.find(css)
            return found[0].text if found else ""
        except StaleElementReferenceException:
            return ""

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


def pages(count: int) -> Iterator[list[Page]]:
    made = [Page() for _ in range(count)]
    try:
        yield made
    finally:
        for page in made:
            page.quit()
