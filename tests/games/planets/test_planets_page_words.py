"""planets in words on the page (hipparchusd/games/planets/page/words.js), run in a real browser
(headless Chromium, tests/web/browser.py) on tricks and hands that the rules played: random
games of 3 to 6 seats through the game's own rules (hipparchusd/games/planets/). Each trick's
reason is the terminal client's sentence for it, word for word, and what it claims is what the
rules did: the card it names is the winner's, the highest of the led suit (RULINGS P5), and the
points and point cards it names are the trick's by P7. The cards' names, points and order are
the rules' own; a hand's end is told as the terminal client tells it; the log's account rebuilt
from a view after a reload says of each trick what the live events said."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from web.browser import (
    SEAT_LABELS_JS,
    Page,
    daemon_fixture,
    module_page_fixture,
    needs_browser,
    seat_labels,
)

from hipparchusd.games.base import Pick
from hipparchusd.games.planets.kind import PLANETS
from hipparchusd.games.planets.model import CARDS, POINTS, RANK_NAMES, SUIT_NAMES
from hipparchusd.games.planets.tui.follow import hand_over_lines as planets_hand_over_lines
from hipparchusd.games.planets.tui.follow import trick_reason as planets_trick_reason

pytestmark = needs_browser

daemon = daemon_fixture()
page = module_page_fixture()

WORDS = f"games/{PLANETS.name}/words.js"
NAMES = ("alice", "bot-random", "carol", "dan", "erin", "fay")
#: Random games: every table size, the six-Galaxy deck among them; enough for tricks with and
#: without points and a few hands ended by a shot at the moon (P8).
GAMES = 24


def random_move(legal: Any, rng: random.Random) -> str:
    """A random legal move of a ``legal`` answer: a listed move, or a pick's items."""
    if isinstance(legal, Pick):
        return ",".join(rng.sample(list(legal.items), legal.count))
    return str(rng.choice(legal.moves))


def played_games() -> Iterator[dict[str, Any]]:
    """Every trick and every hand's end of :data:`GAMES` random games (``players``: the table's
    size), and a moment in each hand: seat 0's view then, and the events seat 0 was sent in
    the hand up to then."""
    for seed in range(GAMES):
        players = 3 + seed % 4
        options = {"players": str(players), "seed": str(seed)}
        if players == 6 and seed % 8 == 7:
            options["galaxies"] = "all"
        game = PLANETS.create(options)
        rng = random.Random(seed)
        hand_events: list[tuple[str, dict[str, Any]]] = []
        stop_after = 0
        events = game.start()
        while True:
            for event in events:
                if event.audience not in (None, 0):
                    continue
                kind, data = event.payload.kind, game.event_data(event.payload)
                if kind == "hand-started":
                    hand_events = []
                    stop_after = rng.randrange(3, 40)
                hand_events.append((kind, data))
                if kind == "trick":
                    yield {"what": "trick", "data": data, "players": players}
                elif kind == "hand-over":
                    yield {"what": "hand", "data": data}
            if game.outcome is not None:
                break
            if len(hand_events) == stop_after:
                yield {
                    "what": "moment",
                    "view": game.view_data(0),
                    "events": list(hand_events),
                    "players": players,
                }
            seat = min(game.seats_to_move())
            _, events = game.play_word(seat, random_move(game.legal(seat), rng))


@pytest.fixture(scope="module")
def played() -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {"trick": [], "hand": [], "moment": []}
    for item in played_games():
        out[item["what"]].append(item)
    return out


def test_the_cards_names_points_and_order_are_the_rules_own(page: Page) -> None:
    names = [card.name for card in CARDS]
    shuffled = random.Random(5).sample(names, len(names))
    said = page.module(
        WORDS,
        "(m, data) => ({names: data.cards.map(m.cardName), points: data.cards.map(m.cardPoints),"
        " sorted: m.sortCards(data.shuffled)})",
        {"cards": names, "shuffled": shuffled},
    )
    assert said["names"] == [f"{SUIT_NAMES[card.suit]} {RANK_NAMES[card.rank]}" for card in CARDS]
    assert said["points"] == [POINTS[card] for card in CARDS]  # P7, the Jupiter Galaxy 0
    assert said["sorted"] == names  # the rules' order: suit, then rank


def test_each_trick_is_explained_as_the_terminal_client_does_and_as_the_rules_decided(
    page: Page, played: dict[str, list[dict[str, Any]]]
) -> None:
    tricks = played["trick"]
    cases = [(item, mine) for item in tricks for mine in (0, item["data"]["winner"], None)]
    reasons = page.module(
        WORDS,
        SEAT_LABELS_JS + "return data.cases.map(([d, players, mine]) => "
        "m.trickReason(d, players, label(mine))); }",
        {"names": NAMES, "cases": [[item["data"], item["players"], mine] for item, mine in cases]},
    )
    scored = 0
    for (item, mine), reason in zip(cases, reasons, strict=True):
        data, players, label = item["data"], item["players"], seat_labels(NAMES, mine)
        assert reason == planets_trick_reason(data, players, label)
        said = re.fullmatch(
            r"(\S+) takes? it with (\w\w), the highest (\w+) \(the led suit\): "
            r"(no points|(\d+) points? \(([\w, ]+)\))",
            reason,
        )
        assert said, reason
        cards = [CARDS[[c.name for c in CARDS].index(card)] for card in data["cards"]]
        led = cards[0].suit
        winner = data["winner"]
        best = cards[(winner - data["leader"]) % players]
        # P5: the winner's card, the highest of the led suit.
        assert said[1] == label(winner) and said[2] == best.name
        assert said[3] == SUIT_NAMES[led] and best.suit == led
        assert best.rank == max(card.rank for card in cards if card.suit == led)
        # P7: the trick's points, and the cards that hold them.
        points = sum(POINTS[card] for card in cards)
        if points:
            scored += 1
            assert int(said[5]) == points == data["points"]
            assert said[6].split(", ") == [card.name for card in cards if POINTS[card]]
        else:
            assert said[4] == "no points" and data["points"] == 0
    assert scored and scored < len(cases)


def test_each_hands_end_is_explained_as_the_terminal_client_does(
    page: Page, played: dict[str, list[dict[str, Any]]]
) -> None:
    hands = [item["data"] for item in played["hand"]]
    assert any(hand["shooter"] is not None for hand in hands), "a shot at the moon was met"
    cases = [(hand, mine) for hand in hands for mine in (0, None)]
    lines = page.module(
        WORDS,
        SEAT_LABELS_JS + "return data.cases.map(([d, mine]) => m.handOverLines(d, label(mine))); }",
        {"names": NAMES, "cases": cases},
    )
    for (hand, mine), said in zip(cases, lines, strict=True):
        assert said == planets_hand_over_lines(hand, seat_labels(NAMES, mine))


def test_the_account_rebuilt_from_a_view_says_what_the_events_said(
    page: Page, played: dict[str, list[dict[str, Any]]]
) -> None:
    moments = played["moment"]
    accounts = page.module(
        WORDS,
        SEAT_LABELS_JS + "const you = label(0); return data.moments.map((x) => {"
        "  let broken = false;"
        "  const live = x.events.flatMap(([kind, d]) => {"
        "    if (kind === 'hand-started') broken = false;"
        "    const about = {mine: 0, players: x.players, wasBroken: broken};"
        "    const lines = m.eventLines(kind, d, you, about) || [];"
        "    if (kind === 'trick') broken = d.jupiter_broken;"
        "    return lines; });"
        "  return {replayed: m.replayLines(x.view, you), live}; }); }",
        {"names": NAMES, "moments": moments},
    )
    broke = 0
    for moment, account in zip(moments, accounts, strict=True):
        replayed, live = account["replayed"], account["live"]
        view = moment["view"]
        # The hand, its dealer and its pass; then every trick, and when Jupiter broke (P11),
        # in the same words and order.
        assert replayed[:2] == live[:2]
        said = ("Trick ", "Jupiter is broken")
        told = [line for line in live if line.startswith(said)]
        assert [line for line in replayed if line.startswith(said)] == told
        assert len([line for line in told if line.startswith("Trick ")]) == len(view["tricks"])
        broke += any(line.startswith("Jupiter is broken") for line in told)
        in_progress = len((view["trick"] or {}).get("cards") or [])
        if in_progress:
            # The cards of the trick in progress, as the events told them.
            plays = [line for line in live if " played " in line]
            assert replayed[-in_progress:] == plays[-in_progress:]
        if view["phase"] == "pass":
            assert {line for line in replayed if line.endswith(" passed")} == {
                line for line in live if line.endswith(" passed")
            }
    assert broke
