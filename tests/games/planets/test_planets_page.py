"""The planets table (hipparchusd/games/planets/page/) in a real browser (headless Chromium,
tests/web/browser.py): a game of one page against two bots, played by clicking (the pass, the
tricks, the shooting choice), with a spectator who never sees a hand. Screenshots of the table
go to docs/ (shown in README.md)."""

from __future__ import annotations

import json
import time

from web.browser import (
    Daemon,
    Page,
    Progress,
    browser_fixtures,
    create,
    name_and_open,
    needs_browser,
    seq,
)

pytestmark = needs_browser

daemon, browsers, pages = browser_fixtures()


def test_planets_against_two_bots_by_clicking(daemon: Daemon, pages: list[Page]) -> None:
    page, watcher = pages
    name_and_open(page, daemon.url, "grace")
    game = create(page, "planets", {"players": "3", "seed": "11"})
    bots = [daemon.bot(game, f"bot{i}", seed=i) for i in (1, 2)]
    watcher.open(daemon.url + f"#{game}")
    watcher.wait(lambda: watcher.text(".role") == "spectating")
    shot = watched = False
    progress = Progress([page], game)
    hands = 0
    while not page.find("#match-winner"):
        progress.check("the planets game did not end")
        page.settle()
        if page.find("#summary.shown"):
            hands += 1
            if hands == 1:
                page.screenshot("web-planets-hand-over.png")
            page.click("#summary-close")
            continue
        before = seq(page, game)
        if page.find("#pass-confirm"):
            pick = int(page.one("#pass-confirm").get_attribute("data-pick"))
            if not all(page.click(".pcard.selectable:not(.chosen)") for _ in range(pick)):
                continue
            if not shot:
                page.screenshot("web-planets.png")
                shot = True
            if not page.click("#pass-confirm"):
                continue
        elif page.find("#shoot-self"):
            page.click("#shoot-self")
        elif page.find(".turn.mine") and page.find(".pcard.legal"):
            if not watched and len(page.find("#trick.current .pcard")) == 2:
                watcher.wait(lambda: len(watcher.find("#trick.current .pcard")) == 2)
                watcher.screenshot("web-planets-spectator.png")
                page.screenshot("web-planets-play.png")
                watched = True
            if not page.click(".pcard.legal"):
                continue
        else:
            time.sleep(0.05)
            continue
        moved = page.wait(
            lambda b=before: seq(page, game) > b or page.find(".banner.shown"),  # type: ignore[misc]
            what="the move's events",
        )
        assert moved and not page.find(".banner.shown"), page.text("#banner")
    for bot in bots:
        out, err = bot.communicate(timeout=20)
        assert bot.returncode == 0, err
    # The page names the winners the bots were told (game-over), and the spectator saw no hand.
    winners_line = next(line for line in out.splitlines() if line.startswith("winners="))
    assert watcher.find("#hand") == []
    assert page.text("#match-winner").startswith("Game over:")
    winner_seats = [int(s) for s in winners_line.split()[0].split("=")[1].split(",")]
    names = json.loads(json.dumps(page.js("return window.hipparchusTable.snapshot.players")))
    for seat in winner_seats:
        assert names[seat] in page.text("#match-winner")
    assert hands >= 1
