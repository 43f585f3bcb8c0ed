"""The lobby (hipparchusd/web/static/app.js) in a real browser (headless Chromium,
tests/web/browser.py), for every kind the daemon serves, none named here: on a phone's screen
(390 x 844 CSS pixels) the lobby, its buttons and its new-game form fit the width, and so does
each kind's table; the new-game form offers each option of ``help new`` once, as a choice, a
checkbox or free text by the shape of its values, and sends only what was chosen. A screenshot
of the phone's lobby goes to docs/ (shown in README.md)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from web.browser import Daemon, Page, Tcp, daemon_fixture, needs_browser

pytestmark = needs_browser

daemon = daemon_fixture()


@pytest.fixture
def phone(daemon: Daemon) -> Iterator[Page]:
    """A browser with a phone's screen, on the daemon's lobby, with empty storage; no console
    error and no gap in a game's seq may happen."""
    page = Page()
    page.phone()
    page.open(daemon.url)
    page.js("localStorage.clear()")
    yield page
    assert page.errors() == []
    assert page.js("return window.hipparchusClient.gaps") == 0
    page.quit()


def served(daemon: Daemon) -> tuple[list[str], dict[str, list[dict[str, Any]]]]:
    """The kinds the daemon serves (``kinds``) and their options (``help new``)."""
    tcp = Tcp(daemon.port)
    kinds = [str(kind) for kind in tcp.ask("kinds")["kinds"]]
    options = tcp.ask("help new")["options"]
    tcp.close()
    return kinds, options


def choose_kind(page: Page, kind: str) -> None:
    page.one("#create button[type=submit]")
    page.js(
        "const k = document.getElementById('kind'); k.value = arguments[0];"
        "k.dispatchEvent(new Event('change'));",
        kind,
    )


def test_the_lobby_fits_a_phone(daemon: Daemon, phone: Page) -> None:
    kinds, _ = served(daemon)
    other = Tcp(daemon.port)
    # For every kind: a game the phone holds a seat in, and one it can join, watch or fill.
    held = []
    for kind in kinds:
        game = str(other.ask(f"new {kind}")["game"])
        other.ask(f"join {game} name=zed")
        held.append(game)
        other.ask(f"join {other.ask(f'new {kind}')['game']} name=yuki")
    for game in held:
        phone.click(f"tr[data-game={game}] button.join")
        phone.wait(lambda g=game: phone.js("return location.hash") == f"#{g}", what="the table")  # type: ignore[misc]
        phone.click("a.back")
    phone.one(f"a.button[href='#{held[-1]}']")
    # (The list is redrawn every few seconds: read it in one go.)
    shown = phone.js(
        "return [...document.querySelectorAll('table.games .actions > *')]"
        ".map((b) => b.textContent)"
    )
    assert {"take my seat", "open", "join", "add computer", "watch"} <= set(shown), shown
    assert phone.overflow() == []
    for kind in kinds:
        choose_kind(phone, kind)
        assert phone.overflow() == [], kind
    choose_kind(phone, kinds[0])
    phone.screenshot("web-lobby-phone.png")
    other.close()


def test_each_kinds_table_fits_a_phone(daemon: Daemon, phone: Page) -> None:
    kinds, _ = served(daemon)
    tcp = Tcp(daemon.port)
    for kind in kinds:
        game = str(tcp.ask(f"new {kind}")["game"])
        phone.driver.get(daemon.url)
        phone.click(f"tr[data-game={game}] button.join")
        phone.wait(lambda: "waiting for players" in phone.text("#turn"), what="the waiting table")
        assert phone.overflow() == [], kind
        while tcp.ask(f"state {game}")["status"] == "waiting":
            tcp.ask(f"bot {game} level=random")
        # The table of a started game, at the phone's move (the engine's seats move at once).
        phone.wait_progress(lambda: phone.text("#turn") == "your move", game, what="the move")
        phone.settle()
        assert phone.overflow() == [], kind
    tcp.close()


def test_the_new_game_form_offers_each_option_once(daemon: Daemon, phone: Page) -> None:
    kinds, options = served(daemon)
    # What the form sends, as the page's client sends it.
    phone.js(
        "window.sent = []; const c = window.hipparchusClient; const request = c.request.bind(c);"
        "c.request = (line) => { window.sent.push(line); return request(line); };"
    )
    for kind in kinds:
        choose_kind(phone, kind)
        expected = ["new", kind]
        for option in options[kind]:
            key, values, default = option["key"], option["values"], option["default"]
            field = phone.one(f"#opt-{key}")
            choices = values.split("|")
            if len(choices) > 1 and all(re.fullmatch(r"[\w.-]+", c) for c in choices):
                # A choice of its values (words), each once; the default (when it is one of
                # them) is the one chosen at first, and leaves the option to the daemon. Values
                # with a shape among them (``<duration>|off``) are typed, as free text is.
                assert field.tag_name == "select"
                listed = phone.js(
                    "return [...arguments[0].options].map((o) => [o.dataset.value ?? '', o.text]);",
                    field,
                )
                words = [value for value, _ in listed if value]
                assert words == choices, (key, listed)
                labels = [text for _, text in listed]
                assert len(set(labels)) == len(labels), (key, labels)
                if default in choices:
                    assert len(listed) == len(choices)
                    assert phone.js("return arguments[0].selectedOptions[0].text", field) == (
                        f"{default} (default)"
                    )
                    assert field.get_attribute("value") == ""
                else:
                    assert len(listed) == len(choices) + 1
                # Choose the last value that is not the default: the form sends it.
                pick = [c for c in choices if c != default][-1]
                phone.js(
                    "const s = arguments[0]; s.value = arguments[1];"
                    "s.dispatchEvent(new Event('change'));",
                    field,
                    pick,
                )
                expected.append(f"{key}={pick}")
            elif not values.startswith("<") and "/" not in values:
                # One value: a checkbox that gives it.
                assert field.get_attribute("type") == "checkbox" and not field.is_selected()
                field.click()
                expected.append(f"{key}={values}")
            else:
                assert field.tag_name == "input" and field.get_attribute("type") == "text"
                assert field.get_attribute("placeholder") == values
                if key == "clock":
                    # A time control typed in, since the other time options chosen here need
                    # one (PROTOCOL.md section 10: timeout= is for timed games).
                    field.send_keys("5m+3s")
                    expected.append("clock=5m+3s")
        if phone.one("#sit").is_selected():
            phone.click("#sit")
        phone.click("#create button[type=submit]")
        line = phone.wait(
            lambda k=kind: next(  # type: ignore[misc]
                (line for line in phone.js("return window.sent") if line.startswith(f"new {k}")),
                None,
            ),
            what="the new game's request",
        )
        assert line.split() == expected
        # The page opens the game it made once the daemon answers: back to the lobby only
        # after that, or the answer, coming late, takes the page away from the lobby again.
        phone.wait(lambda: phone.js("return location.hash").startswith("#g"), what="the game")
        phone.js("window.sent.length = 0; location.hash = '';")
        phone.wait(lambda: phone.find("#create button[type=submit]"), what="the lobby again")
