"""The Hipparchus table (hipparchusd/games/hipparchus/page/) in a real browser (headless
Chromium, tests/web/browser.py): a whole match between two pages, and one against the engine
added with the table's control, played by clicking, the last trick kept on view with the
terminal client's reason for it and the match's result left on the table; a refused play
showing its reason over the board, gone after a reconnection; a reload and a dropped WebSocket
mid-trick that take the seat back with no gap in the events' seq and the round so far in the
log; a spectator; no JavaScript error in any console. Screenshots of the table go to docs/
(shown in README.md)."""

from __future__ import annotations

import time
from typing import Any

from daemon.helpers import DEAL, HAND1
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

from hipparchusd.games.hipparchus import MatchRecord, replay
from hipparchusd.games.hipparchus.codec import converter
from hipparchusd.games.hipparchus.tui.follow import suit_count
from hipparchusd.games.hipparchus.tui.follow import trick_reason as hipparchus_trick_reason

pytestmark = needs_browser

daemon, browsers, pages = browser_fixtures()


def reason_shown(state: dict[str, Any], mine: int) -> str:
    """The reason the page of seat ``mine`` should show for the last finished trick of the
    daemon's ``state`` (a seat's or a spectator's, JSON): the terminal client's sentence for
    it, its first letter in upper case unless it starts with a player's name."""
    players = state["players"]
    view = state["view"]

    def label(seat: int) -> str:
        return "you" if seat == mine else str(players[seat])

    # No trick is in progress (the page shows its lead only), so ``won`` is the count after it.
    reason = hipparchus_trick_reason(view["tricks"][-1], view["won"], label)
    if reason.startswith(tuple(players)):
        return reason
    return reason[0].upper() + reason[1:]


def test_a_whole_hipparchus_match_between_two_pages(daemon: Daemon, pages: list[Page]) -> None:
    alice, bob = pages
    name_and_open(alice, daemon.url, "alice")
    game = create(alice, "hipparchus", {"leader": "0", "seed": "2026"})
    alice.wait(lambda: "waiting for players" in alice.text("#turn"))
    name_and_open(bob, daemon.url, "bob")
    bob.one(f"tr[data-game={game}] button.join")
    bob.screenshot("web-lobby.png")
    bob.click(f"tr[data-game={game}] button.join")
    bob.wait(lambda: "you are bob (seat 1)" in bob.text(".role"))
    # Neither URL holds a token; each browser keeps its own in localStorage.
    for page, seat in ((alice, 0), (bob, 1)):
        assert page.driver.current_url.endswith(f"/#{game}")
        assert page.storage()[game]["seat"] == seat
    summaries = 0
    plays = 0
    explained = 0
    check = Tcp(daemon.port)
    progress = Progress(pages, game)
    while not all(page.find("#match-winner") for page in pages):
        progress.check("the match did not end")
        moved = False
        for page in pages:
            page.settle()
            if page.find("#summary.shown") and not page.find("#match-winner"):
                if summaries == 0:
                    page.screenshot("web-hipparchus-round.png")
                summaries += 1
                page.click("#summary-close")
            if (
                page.find(".turn.mine")
                and page.find(".clump.legal")
                and not page.find("#summary.shown")
            ):
                # The last trick is on view, with why it went as it did (H6, H7).
                state = check.ask(f"state {game}")
                if state["view"]["tricks"] and not state["view"]["lead"]:
                    seat = pages.index(page)  # alice is seat 0, bob seat 1
                    shown = page.one("#last-trick")
                    assert int(shown.get_attribute("data-number")) == len(state["view"]["tricks"])
                    assert page.text("#trick-reason") == reason_shown(state, seat)
                    explained += 1
                before = seq(page, game)
                page.click(".clump.legal button.card")
                if page.find(".chooser"):
                    page.click(".chooser button.choose")
                page.wait(lambda: seq(page, game) > before, what="the play's events")  # noqa: B023
                plays += 1
                moved = True
                if plays == 7:
                    bob.screenshot("web-hipparchus.png")
        if not moved:
            time.sleep(0.05)
    # What the pages say is what the rules say of the record.
    record = check.ask(f"record {game}")
    match_record = converter.structure(record["record"], MatchRecord)
    final = replay(match_record)
    winner = final.winner
    assert winner is not None and plays == sum(len(r.plays) for r in match_record.rounds)
    name = ("alice", "bob")[winner]
    for page in pages:
        assert page.text("#match-winner").startswith(f"{name} wins the match")
    assert summaries >= 2 * 1  # each page saw at least one round's end before the match's
    assert explained >= 10  # (a round has at least five tricks, a match two rounds)
    # Once the summary is dismissed, the result stays on the table, not a wait for a move.
    for page in pages:
        page.click("#summary-close")
        page.wait(lambda p=page: not p.find("#summary.shown"), what="the summary to close")  # type: ignore[misc]
        assert page.text("#game-result").startswith(f"{name} wins the match")
        assert page.attribute("#game-result", "data-winners") == str(winner)
        assert page.text("#hand + .hint").startswith(f"{name} wins the match")
        assert page.text("#turn") == "game over"
    check.close()


def test_a_refused_play_shows_its_reason_and_a_clump_asks_how_many(
    daemon: Daemon, pages: list[Page]
) -> None:
    page = pages[0]
    tcp = Tcp(daemon.port)
    game = str(tcp.ask(f"new hipparchus leader=0 deal={DEAL}")["game"])
    tcp.ask(f"join {game} 0 name=carol")
    name_and_open(page, daemon.url, "dave")
    page.click(f"tr[data-game={game}] button.join")
    page.wait(lambda: "you are dave (seat 1)" in page.text(".role"))
    tcp.ask(f"play {game} 1M@2")  # carol leads one Moon
    # dave holds EEESSSSMMMMEES: he must follow with Moons at another count (H5): 2 or 3 of
    # the four; no other clump is legal.
    page.wait(lambda: page.find(".turn.mine") and page.find(".clump.legal"))
    assert page.attributes(".clump.legal", "data-start") == ["8"]
    board = page.js("return document.querySelector('.board').getBoundingClientRect().top")
    page.click(".clump[data-start='1'] button.card")  # three Earths: refused, with why
    page.wait(lambda: page.find(".banner.shown"))
    # The daemon's reason in words, its code left to programs; the board has not moved.
    banner = page.one("#banner")
    assert banner.get_attribute("data-code") == "illegal-move"
    assert page.text("#banner .banner-text").startswith("You must follow Moon")
    assert "illegal-move" not in page.text("#banner")
    assert page.js("return document.querySelector('.board').getBoundingClientRect().top") == board
    # A reconnection does not bring an old refusal back.
    page.js("window.hipparchusClient.ws.close()")
    page.wait(
        lambda: page.js("return window.hipparchusClient.status") != "connected", what="the drop"
    )
    page.wait(
        lambda: (
            page.js("return window.hipparchusClient.status") == "connected"
            and page.find(".clump.legal")
        ),
        what="reconnected",
    )
    assert not page.find(".banner.shown")
    page.click(".clump[data-start='1'] button.card")  # refused again; then a clump of four
    page.wait(lambda: page.find(".banner.shown"))
    page.click(".clump[data-start='8'] button.card")
    counts = page.attributes(".chooser button.choose", "data-count")
    assert counts == ["2", "3"]
    page.screenshot("web-hipparchus-choice.png")
    page.click(".chooser button.choose[data-count='2']")
    # The trick is dave's (2 Moons beat 1: H7), it stays on view with why, and he leads next.
    page.wait(lambda: page.find("#last-trick[data-winner='1']") and page.find(".turn.mine"))
    said = "Same suit: 2 Moons beat 1 Moon (more cards win): you take it"
    assert page.text("#trick-reason") == said
    assert page.text("#trick-reason") == reason_shown(tcp.ask(f"state {game}"), 1)
    tcp.close()


def test_a_reload_and_a_dropped_websocket_take_the_seat_back(
    daemon: Daemon, pages: list[Page]
) -> None:
    page, watcher = pages
    tcp = Tcp(daemon.port)
    game = str(tcp.ask(f"new hipparchus leader=1 deal={DEAL}")["game"])
    tcp.ask(f"join {game} 0 name=erin")
    name_and_open(page, daemon.url, "frank")
    page.click(f"tr[data-game={game}] button.join")
    page.wait(lambda: page.find(".turn.mine") and page.find(".clump.legal"))
    watcher.open(daemon.url + f"#{game}")
    watcher.wait(lambda: watcher.text(".role") == "spectating")
    assert watcher.find("#hand") == [] and len(watcher.find(".seat-panel.opponent")) == 2
    # frank leads; mid-trick (erin to answer), the page is reloaded: the seat comes back.
    page.click(".clump.legal button.card")
    page.wait(lambda: page.find("#trick.current"))
    led = page.one("#trick .play").get_attribute("data-play")
    token = page.storage()[game]["token"]
    page.driver.refresh()
    page.wait(lambda: "you are frank (seat 1)" in page.text(".role"))
    assert page.one("#trick .play").get_attribute("data-play") == led
    assert token not in page.driver.current_url and page.storage()[game]["token"] == token
    # His hand is the dealt one less the clump he led, in its order (H1).
    hand = "".join(map(str, page.attributes("#hand button.card", "data-suit")))
    count = int(led[:-1])
    assert led[-1] == HAND1[0] and hand == HAND1[count:]
    # The log starts with the round so far, from the view: erin led nothing, frank led.
    log = page.text("#log .ev-replayed")
    assert log.splitlines()[1:] == [
        "— Round 1 —",
        "You lead",
        f"You played {suit_count(count, led[-1])} ({14 - count} cards left)",
    ]
    # The WebSocket drops while erin plays: it reconnects, resumes, and the seq has no gap.
    erin_moves = tcp.ask(f"legal {game}")["moves"]
    page.js("window.hipparchusClient.ws.close()")
    tcp.ask(f"play {game} {erin_moves[0]['move']}")  # type: ignore[index]
    page.wait(
        lambda: page.js("return window.hipparchusClient.status") == "connected", what="reconnected"
    )
    page.wait(lambda: page.find("#last-trick"), what="the finished trick")
    after = seq(page, game)
    state = tcp.ask(f"state {game}")
    assert after == state["seq"]
    watcher.wait(lambda: watcher.find("#last-trick"))
    tcp.close()


def test_a_match_against_the_engine_added_from_the_table(daemon: Daemon, pages: list[Page]) -> None:
    page = pages[0]
    name_and_open(page, daemon.url, "heidi")
    # The lobby offers the levels `kinds` lists, the search at the default budget first chosen.
    check = Tcp(daemon.port)
    levels = check.ask("kinds")["about"]["hipparchus"]["levels"]
    check.close()
    offered = page.attributes("#lobby-bot-level option", "value")
    assert offered == levels and "random" in levels
    assert page.one("#lobby-bot-level").get_attribute("value") == "ismcts"
    game = create(page, "hipparchus", {"leader": "0", "seed": "7"})
    page.wait(lambda: "waiting for players" in page.text("#turn"))
    assert page.attributes("#bot-level option", "value") == levels
    page.one("#bot-level option[value=random]").click()
    page.click("#add-bot")
    # The engine takes the free seat under the name the daemon gives it, and the match starts.
    page.wait(
        lambda: page.text(".seat-panel.opponent[data-seat='1'] .who b") == "bot-random",
        what="the match, against bot-random",
    )
    assert page.find("#bot-control") == [] and not page.find(".banner.shown")
    progress = Progress([page], game)
    while not page.find("#match-winner"):
        progress.check("the match did not end")
        page.settle()
        if page.find("#summary.shown"):
            page.click("#summary-close")
        elif page.find(".turn.mine") and page.find(".clump.legal"):
            before = seq(page, game)
            if not page.click(".clump.legal button.card"):
                continue
            if page.find(".chooser"):
                page.click(".chooser button.choose")
            page.wait(lambda b=before: seq(page, game) > b, what="the play's events")  # type: ignore[misc]
        else:
            time.sleep(0.05)
    assert not page.find(".banner.shown")
    winner = page.text("#match-winner")
    assert winner.startswith(("heidi wins the match", "bot-random wins the match")), winner
