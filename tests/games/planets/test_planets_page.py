"""The planets table (hipparchusd/games/planets/page/) in a real browser (headless Chromium,
tests/web/browser.py): a game of one page against two bots, played by clicking (the pass, the
tricks, the shooting choice), with a spectator who never sees a hand; the hand spread over its
panel, each card naming its suit; the last trick kept on view with the terminal client's
reason for it; the log in words; the result left on the table. Every wait is bounded by the
game's progress, not by a guess of how long a game takes. Screenshots of the table go to docs/
(shown in README.md)."""

from __future__ import annotations

import itertools
import json
import re
import time
from typing import Any

from web.browser import (
    Daemon,
    Page,
    Progress,
    Tcp,
    browser_fixtures,
    create,
    name_and_open,
    needs_browser,
    seq,
)

from hipparchusd.games.planets.tui.follow import trick_reason as planets_trick_reason

pytestmark = needs_browser

daemon, browsers, pages = browser_fixtures()


def reason_shown(state: dict[str, Any], mine: int) -> str:
    """The reason the page of seat ``mine`` should show for the last finished trick of the
    daemon's ``state`` (JSON): the terminal client's sentence, its first letter in upper case
    unless it starts with a player's name."""
    players = state["players"]

    def label(seat: int) -> str:
        return "you" if seat == mine else str(players[seat])

    reason = planets_trick_reason(state["view"]["tricks"][-1], len(players), label)
    return reason if reason.startswith(tuple(players)) else reason[0].upper() + reason[1:]


def check_hand(page: Page) -> None:
    """Each card of the hand names its suit (its letter in the corner), and the cards overlap
    only when the hand fills its panel: a hand that fits is spread, not squeezed into part of
    it."""
    cards = page.js(
        """return [...document.querySelectorAll('#hand .pcard')].map((card) => {
             const box = card.getBoundingClientRect();
             const letter = card.querySelector('.suit-letter').textContent;
             return {card: card.dataset.card, letter, left: box.left, right: box.right};
           });"""
    )
    panel = page.js(
        "const box = document.getElementById('hand').getBoundingClientRect();"
        "return {left: box.left, right: box.right};"
    )
    assert cards and all(card["letter"] == card["card"][0] for card in cards)
    overlap = any(b["left"] < a["right"] - 0.5 for a, b in itertools.pairwise(cards))
    used = cards[-1]["right"] - cards[0]["left"]
    assert not overlap or used >= 0.9 * (panel["right"] - panel["left"]), (cards, panel)
    assert cards[-1]["right"] <= panel["right"] + 0.5


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
    explained = 0
    check = Tcp(daemon.port)
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
            pick = int(page.attribute("#pass-confirm", "data-pick"))
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
            check_hand(page)
            # The last trick is on view, with why it went to its winner (P5, P7). The bots
            # wait for grace, so the position does not move while it is compared.
            state = check.ask(f"state {game}")
            if state["view"]["tricks"]:
                assert page.text("#trick-reason") == reason_shown(state, 0)
                explained += 1
            if (
                not watched
                and len(page.find("#trick.current .pcard")) == 2
                and page.find("#last-trick")
            ):
                watcher.wait(lambda: len(watcher.find("#trick.current .pcard")) == 2)
                watcher.screenshot("web-planets-spectator.png")
                page.screenshot("web-planets-play.png")
                watched = True
            if not page.click(".pcard.legal"):
                continue
        else:
            time.sleep(0.05)
            continue
        moved = page.wait_progress(
            lambda b=before: seq(page, game) > b or page.find(".banner.shown"),  # type: ignore[misc]
            game,
            what="the move's events",
        )
        assert moved and not page.find(".banner.shown"), page.text("#banner")
    check.close()
    for bot in bots:
        # The game is over, so each bot has only to read its game-over and exit; 120 s is far
        # beyond that on any machine (this waits for the process, not for the game).
        out, err = bot.communicate(timeout=120)
        assert bot.returncode == 0, err
    # The page names the winners the bots were told (game-over), and the spectator saw no hand.
    winners_line = next(line for line in out.splitlines() if line.startswith("winners="))
    assert watcher.find("#hand") == []
    assert page.text("#match-winner").startswith("Game over:")
    winner_seats = [int(s) for s in winners_line.split()[0].split("=")[1].split(",")]
    names = json.loads(json.dumps(page.js("return window.hipparchusTable.snapshot.players")))
    for seat in winner_seats:
        assert names[seat] in page.text("#match-winner")
    assert hands >= 1 and explained >= 10
    # The log is in words: no event is shown as its protocol fields (``seats=0``).
    log = page.text("#log")
    assert "Trick 1: " in log and not re.search(r"\w=\S", log), log
    # Once the summary is dismissed the result stays on the table, for the spectator too.
    page.click("#summary-close")
    for shown in (page, watcher):
        shown.wait(lambda s=shown: s.find("#game-result"), what="the result on the table")  # type: ignore[misc]
        assert shown.text("#game-result").startswith("Game over:")
        winners = shown.attribute("#game-result", "data-winners")
        assert winners == ",".join(map(str, winner_seats))
    assert page.text("#hand ~ .hint").startswith("Game over:")
