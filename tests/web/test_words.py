"""The page's shared words (hipparchusd/web/static/words.js), run in a real browser (headless
Chromium, tests/web/browser.py) on the data the lobby sends: a game's end reads as it ended,
one the server's operator ended (``hipparchusd admin end``, issue 26) included."""

from __future__ import annotations

from hipparchusd.games.base import GameOver, Outcome
from hipparchusd.lobby.messages import LOBBY_EVENTS
from web.browser import Page, daemon_fixture, module_page_fixture, needs_browser

pytestmark = needs_browser

daemon = daemon_fixture()
page = module_page_fixture()

LINE = "(m, data) => m.gameOverLine(data, (seat) => ['alice', 'bob'][seat], 0)"


def game_over(outcome: Outcome) -> object:
    """The ``game-over`` event's data for ``outcome``, as the lobby sends it."""
    return LOBBY_EVENTS[GameOver](GameOver.of(outcome))


def test_a_game_the_operator_ended_says_so_and_names_no_winner(page: Page) -> None:
    line = page.module("words.js", LINE, game_over(Outcome.operator_end()))
    assert line == "Game over: ended by the server's operator, nobody won"


def test_a_game_played_out_names_its_winner_and_scores(page: Page) -> None:
    line = page.module("words.js", LINE, game_over(Outcome((1,), (0, 1), 0)))
    assert line == "Game over: bob wins (alice resigned). Scores: alice 0, bob 1"


def test_an_aborted_game_and_a_flag_read_as_the_clocks_ended_them(page: Page) -> None:
    aborted = page.module("words.js", LINE, game_over(Outcome.abortion()))
    assert aborted == "Game over: aborted, no result (a first decision did not come in time)"
    flagged = Outcome((1,), (0, 0), resigned=0, timeout=0)
    line = page.module("words.js", LINE, game_over(flagged))
    assert line == "Game over: bob wins (alice ran out of time). Scores: alice 0, bob 0"
