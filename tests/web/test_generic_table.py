"""The generic table (hipparchusd/web/static/generic.js) plays any kind, whatever its moves: each
built-in kind, served without its page parts (``python -m web.serve_generic``), played to its
end in headless Chromium by one page against bots (clients/python/bot.py) in the other seats.
The page clicks what the generic table offers (a listed move's button, or a pick's items then
the confirm), knowing nothing of the game, and shows the result the bots were told
(``game-over``). tests/tinygame/test_page.py checks a result against a game's rules."""

from __future__ import annotations

import random

import pytest

from hipparchusd.games.registry import KINDS

from .browser import (
    Daemon,
    Page,
    Tcp,
    browser_fixtures,
    create,
    name_and_open,
    needs_browser,
    seq,
)

pytestmark = needs_browser

daemon, browsers, pages = browser_fixtures("web.serve_generic", 1)

#: The page's moves after which it resigns, if the game has not ended by then.
MOVES = 30


@pytest.mark.parametrize("kind", [kind.name for kind in KINDS.values() if kind.page is not None])
def test_a_kind_played_to_its_end_on_the_generic_table(
    daemon: Daemon, pages: list[Page], kind: str
) -> None:
    (page,) = pages
    tcp = Tcp(daemon.port)
    # A seed where the kind has one (`help new`), so that a failure replays.
    options = [option["key"] for option in tcp.ask("help new")["options"][kind]]
    name_and_open(page, daemon.url, "judy")
    game = create(page, kind, {"seed": "3"} if "seed" in options else {})
    page.wait(lambda: page.find("section.generic-table"), what="the generic table")
    seats = len(tcp.ask(f"state {game}")["players"])
    tcp.close()
    bots = [daemon.bot(game, f"bot{seat}", seed=seat) for seat in range(1, seats)]
    rng = random.Random(f"generic/{kind}")
    moves = 0
    while True:
        page.wait_progress(
            lambda: (
                page.find("#game-result .match-winner")
                or (
                    page.js("return window.hipparchusTable.settled")
                    and (page.find(".legal-move") or page.find(".pick-item"))
                )
            ),
            game,
            what="a move to make or the game's end",
        )
        if page.find("#game-result .match-winner"):
            break
        if moves == MOVES:
            # Long enough to have played each form of move the kind has; a resignation ends
            # it (a longer game would prove no more, at minutes a kind).
            page.js("window.confirm = () => true")
            page.click("button.resign")
            page.wait_progress(
                lambda: page.find("#game-result .match-winner"), game, what="the resignation"
            )
            break
        assert page.text("#turn") == "your move"
        before = seq(page, game)
        if page.find("#pick-confirm"):
            count = int(page.attribute("#pick-confirm", "data-pick"))
            items = page.attributes(".pick-item", "data-item")
            for item in rng.sample(items, count):
                if not page.click(f".pick-item[data-item='{item}']:not(.chosen)"):
                    break
            if not page.click("#pick-confirm:not([disabled])"):
                continue
        else:
            words = page.attributes(".legal-move", "data-move")
            if not page.click(f".legal-move[data-move='{rng.choice(words)}']"):
                continue
        page.wait_progress(
            lambda b=before: seq(page, game) > b or page.find(".banner.shown"),  # type: ignore[misc]
            game,
            what="the move's events",
        )
        assert not page.find(".banner.shown"), page.text("#banner")
        moves += 1
        if moves == 3:
            page.screenshot(f"web-generic-{kind}.png")
    told = set()
    for bot in bots:
        out, err = bot.communicate(timeout=30)
        assert bot.returncode == 0, err
        told.add(next(line for line in out.splitlines() if line.startswith("winners=")))
    (line,) = told  # every bot was told the same result
    fields = dict(field.split("=") for field in line.split())
    assert page.attribute("#game-result", "data-winners") == fields["winners"]
    scores = page.texts("#game-result td.score")
    assert ",".join(scores) == fields["scores"]
    assert (fields["resigned"] == "0") == (moves == MOVES)
    if moves == MOVES:
        assert page.text("#game-result p") == "judy resigned."
    assert moves > 0
