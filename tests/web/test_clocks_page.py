"""Timed games and absent seats in a real browser (headless Chromium, tests/web/browser.py;
issue 27). The page creates a Hipparchus game with a clock from the lobby's form (the time
options are every kind's, from ``help new``), a bot takes the other seat, and the page, to move,
lets its clock run out: meanwhile it shows both clocks, its own running and counting down, low
(under ten seconds) and warned; at the flag it shows the result the server gives: it lost, on
time (RULINGS T2). On a phone-sized page (390 px wide), an opponent who leaves is announced
absent once the absence grace has passed, and the page offers ``claim``, which wins the match
(RULINGS T4).

Waits are bound by the game's progress (:meth:`Page.wait_progress`: they fail only after 60 s
without one event of the game), not by a guess of how long a loaded machine takes; the flag and
the absence are each one event a few seconds after the last, far inside that."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from web.browser import (
    Daemon,
    Page,
    Tcp,
    browser_fixtures,
    create,
    name_and_open,
    needs_browser,
)

pytestmark = needs_browser

daemon, browsers, pages = browser_fixtures(count=1)

#: The bank, and what the flag waits for besides: the lag allowance (PROTOCOL.md section 10).
BANK_S, LAG_S = 3.0, 1.0
#: A phone's width (CSS pixels), at which the table's head must still fit.
NARROW = 390


def test_the_page_shows_its_clock_run_out_and_the_loss_on_time(
    daemon: Daemon, pages: list[Page]
) -> None:
    (page,) = pages
    name_and_open(page, daemon.url, "ada")
    options = {"leader": "0", "seed": "7", "clock": "3s", "first_move": "off"}
    game = create(page, "hipparchus", options)
    bot = daemon.bot(game, "bob", 3)
    page.wait_progress(
        lambda: (clock(page, 0) or {}).get("running"), game, what="ada's clock to run"
    )
    assert page.js("return document.querySelector('#clocks .control').textContent") == "3s"
    # Its own clock counts down from the bank, low and warned; bob's stands.
    first = clock(page, 0)["left"]
    assert 0 < first <= BANK_S * 1000
    page.wait_progress(
        lambda: clock(page, 0)["left"] < first - 300, game, what="the clock to count down"
    )
    assert clock(page, 0)["low"] and clock(page, 0)["time"] != ""
    assert clock(page, 1) == {"running": False, "low": True, "left": 3000, "time": "3.0"}
    page.screenshot("web-clocks.png")
    # The flag (the bank and the lag allowance after the clock started): the server ends the
    # match as ada's resignation, and the page says so.
    page.wait_progress(lambda: "ran out of time" in page.text("#turn"), game, what="the flag")
    assert page.text("#turn") == "game over: ada ran out of time"
    page.wait_progress(lambda: page.find("#match-winner"), game, what="the match's result")
    # The flag is the seat's resignation at that moment (T2, H12): the match's result says so.
    assert page.text("#match-winner") == "ada resigned: bob wins the match"
    assert not clock(page, 0)["running"] and not clock(page, 1)["running"]
    # The log says it as the terminal client does: the flag, not a resignation.
    assert "Game over: bob wins (you ran out of time). Scores: you 0, bob 0" in page.text("#log")
    check = Tcp(daemon.port)
    record = check.ask(f"record {game}")
    check.close()
    assert record["timeout"] == 0 and record["timing"]["decisions"][-1]["by"] == "timeout"
    out, _ = bot.communicate(timeout=30)
    assert "winners=1 scores=0,0 resigned=0" in out


@pytest.fixture
def narrow(pages: list[Page]) -> Iterator[Page]:
    """The page at a phone's width, given back its own afterwards (the browser is the
    module's)."""
    (page,) = pages
    size = page.driver.get_window_size()
    page.driver.set_window_size(NARROW, 844)
    yield page
    page.driver.set_window_size(size["width"], size["height"])


def test_a_narrow_page_shows_the_clocks_and_claims_over_an_absent_opponent(
    daemon: Daemon, narrow: Page
) -> None:
    page = narrow
    assert page.js("return window.innerWidth") <= NARROW
    # bob makes a timed game and sits; ada (the page, seat 1) leads. No first-move limit: the
    # page does not move, and must not be aborted meanwhile.
    other = Tcp(daemon.port)
    new = "new hipparchus leader=1 seed=7 clock=5m+3s absence=1s first_move=off"
    game = str(other.ask(new)["game"])
    other.ask(f"join {game} 0 name=bob")
    # The lobby lists the game with its time control, and fits the width.
    name_and_open(page, daemon.url, "ada")
    assert page.one(f"tr[data-game={game}] .clock-tag").text == "5m+3s"
    assert overflow(page, "main") == {"over": [], "scroll": 0}
    page.click(f"tr[data-game={game}] button.join")
    page.wait_progress(
        lambda: (clock(page, 1) or {}).get("running"), game, what="ada's clock to run"
    )
    # A bank of minutes shows as m:ss, not yet low.
    assert not clock(page, 1)["low"] and clock(page, 1)["time"] in ("5:00", "4:59", "4:58")
    assert clock(page, 0) == {"running": False, "low": False, "left": 300000, "time": "5:00"}
    assert not page.find("#claim")
    # bob leaves: away, then absent after the grace, and ada may claim.
    other.close()
    # The clock is redrawn several times a second: its text is read as it stands once both
    # the claim and the seat's absence are on the page, not at the first of the two.
    page.wait_progress(
        lambda: page.find("#claim") and "absent" in page.text("#clocks .clock[data-seat='0']"),
        game,
        what="the claim to be offered, bob's clock marked absent",
    )
    assert "bob has been away for the whole absence grace" in page.text("#log")
    assert overflow(page, ".table-head") == {"over": [], "scroll": 0}
    page.screenshot("web-clocks-narrow.png")
    page.click("#claim")
    page.wait_progress(lambda: "claimed" in page.text("#turn"), game, what="the claim's result")
    assert page.text("#turn") == "game over: claimed over an absent seat"
    page.wait_progress(lambda: page.find("#match-winner"), game, what="the match's result")
    # A claim is the absent seat's resignation (T4): the match's result says so.
    assert page.text("#match-winner") == "bob resigned: ada wins the match"
    assert not page.find("#claim")
    assert "Game over: you win (claimed: bob was away)" in page.text("#log")
    check = Tcp(daemon.port)
    record = check.ask(f"record {game}")
    check.close()
    assert record["claimed"] is True and record["record"]["resigned"] == 0


def overflow(page: Page, within: str) -> dict[str, Any]:
    """What runs off the page's right side: the classes of the elements in ``within`` that
    end beyond the page's width, and how far the page scrolls sideways (CSS pixels)."""
    result: dict[str, Any] = page.js(
        "const w = document.documentElement.clientWidth;"
        "const over = [...document.querySelectorAll(`${arguments[0]} *`)]"
        "  .filter((e) => e.getBoundingClientRect().right > w + 0.5).map((e) => e.className);"
        "return {over, scroll: document.documentElement.scrollWidth - w};",
        within,
    )
    return result


def clock(page: Page, seat: int) -> Any:
    """What the page shows of ``seat``'s clock, read at once (the clocks are drawn again five
    times a second): whether it runs, whether it is low, the milliseconds and the time shown;
    ``None`` while it shows none."""
    return page.js(
        "const c = document.querySelector(`#clocks .clock[data-seat='${arguments[0]}']`);"
        "if (!c) return null;"
        "return {running: c.classList.contains('running'), low: c.classList.contains('low'),"
        " left: Number(c.dataset.left), time: c.querySelector('.time').textContent};",
        seat,
    )
