"""High card, a kind with no page module of its own, played to its end in a real browser
(headless Chromium, tests/web/browser.py) on the page's generic table
(hipparchusd/web/static/generic.js): one page against two bots (clients/python/bot.py), with a
spectator. The page learns whose move it is from ``to-move`` and ``legal``, offers the ``pick``'s
items as toggles with a confirm, plays them, and shows the ``game-over`` result. The daemon runs
as ``python -m tinygame.serve`` (the registry plus this game, nothing else).

The result the page shows is checked against the rules of tinygame/game.py applied to the game's
record (each round's highest card wins it; the most round wins win the game), never against
what the daemon printed."""

from __future__ import annotations

from collections.abc import Sequence

from web.browser import (
    Daemon,
    Page,
    Tcp,
    browser_fixtures,
    create,
    name_and_open,
    needs_browser,
    seq,
)

from .game import SEATS

pytestmark = needs_browser

daemon, browsers, pages = browser_fixtures("tinygame.serve")

BEST_OF = 3


def result_by_the_rules(
    hands: Sequence[Sequence[int]], picks: Sequence[Sequence[int]]
) -> tuple[list[int], list[int]]:
    """The winners and the round wins of a finished game of high card from its deal and its
    picks (seat, card) in the order made: every round is one pick of each seat (a seat that
    has picked waits for the others), the highest card wins the round, the most round wins win
    the game."""
    assert len(picks) == SEATS * BEST_OF
    left = [list(hand) for hand in hands]
    wins = [0] * SEATS
    for start in range(0, len(picks), SEATS):
        cards = dict(picks[start : start + SEATS])
        assert sorted(cards) == list(range(SEATS)), "one pick of each seat a round"
        for seat, card in cards.items():
            left[seat].remove(card)  # a seat picks a card of its own hand
        wins[max(cards, key=lambda seat: cards[seat])] += 1
    best = max(wins)
    return [seat for seat in range(SEATS) if wins[seat] == best], wins


def test_a_whole_game_of_a_kind_without_a_page_on_the_generic_table(
    daemon: Daemon, pages: list[Page]
) -> None:
    page, watcher = pages
    name_and_open(page, daemon.url, "ivy")
    # The lobby offers the kind from the daemon's `kinds`, with its options from `help new`.
    game = create(page, "highcard", {"best_of": str(BEST_OF), "seed": "5"})
    page.wait(lambda: "waiting for players" in page.text("#turn"), what="the waiting table")
    assert page.find("section.generic-table")
    # The daemon's engine plays no high card (`kinds` lists no level for it): nothing offers it.
    check = Tcp(daemon.port)
    assert check.ask("kinds")["about"]["highcard"]["levels"] == []
    check.close()
    assert page.find("#add-bot") == [] and page.find("#bot-control") == []
    bots = [daemon.bot(game, f"bot{i}", seed=i) for i in (1, 2)]
    watcher.open(daemon.url + f"#{game}")
    watcher.wait(lambda: watcher.text(".role") == "spectating", what="the spectator's table")

    picked: list[int] = []
    while True:
        page.wait_progress(
            lambda: (
                page.find("#game-result .match-winner")
                or (page.js("return window.hipparchusTable.settled") and page.find(".pick-item"))
            ),
            game,
            what="ivy's pick or the game's end",
        )
        if page.find("#game-result .match-winner"):
            break
        # The choice is the seat's hand (its view), one card to pick, and it is ivy's move.
        hand = page.js("return window.hipparchusTable.view.hand")
        items = [int(item or "") for item in page.attributes(".pick-item", "data-item")]
        assert items == hand and int(page.attribute("#pick-confirm", "data-pick")) == 1
        assert page.text("#turn") == "your move"
        assert page.one("#pick-confirm").get_attribute("disabled") is not None
        if not page.click(f".pick-item[data-item='{items[-1]}']"):
            continue
        page.wait(lambda: page.find(".pick-item.chosen"), what="the chosen item")
        if len(picked) == 0:
            page.screenshot("web-generic.png")
        before = seq(page, game)
        if not page.click("#pick-confirm"):
            continue
        page.wait_progress(
            lambda b=before: seq(page, game) > b or page.find(".banner.shown"),  # type: ignore[misc]
            game,
            what="the pick's events",
        )
        assert not page.find(".banner.shown"), page.text("#banner")
        picked.append(items[-1])

    for bot in bots:
        out, err = bot.communicate(timeout=30)
        assert bot.returncode == 0, err
    check = Tcp(daemon.port)
    record = check.ask(f"record {game}")["record"]
    check.close()
    winners, wins = result_by_the_rules(record["hands"], record["picks"])
    # ivy played the cards she clicked, in order, and ivy is seat 0.
    assert [card for seat, card in record["picks"] if seat == 0] == picked
    assert len(picked) == BEST_OF and record["resigned"] is None
    names = page.js("return window.hipparchusTable.snapshot.players")
    for shown in (page, watcher):
        shown.wait(lambda s=shown: s.find("#game-result .match-winner"), what="the result")  # type: ignore[misc]
        assert shown.attribute("#game-result", "data-winners") == ",".join(map(str, winners))
        headline = shown.text("#game-result .match-winner")
        assert headline.startswith("Game over:") and all(names[s] in headline for s in winners)
        scores = [int(text) for text in shown.texts("#game-result td.score")]
        assert scores == wins
    # The bots were told the same result.
    line = next(line for line in out.splitlines() if line.startswith("winners="))
    assert line.split()[0] == "winners=" + ",".join(map(str, winners))
    # The spectator saw no hand and was offered no move.
    assert watcher.js("return window.hipparchusTable.view.hand") is None
    assert watcher.find("#moves") == []
