"""The planets screen's parts without a screen (hipparchusd/games/planets/tui/): cards as sorted
and scored, the view followed from events, and the explanations of tricks and hands
(docs/planets.md), and how its cards are drawn."""

from __future__ import annotations

from hipparchusd.games.planets import CARDS, parse_card
from hipparchusd.games.planets.tui.follow import (
    card_points,
    follow,
    hand_over_lines,
    sort_cards,
    trick_reason,
)
from hipparchusd.games.planets.tui.look import STYLES, PlanetsLook

# --- planets -----------------------------------------------------------------------------------


def test_planets_cards_sort_and_score_as_p1_and_p7() -> None:
    assert sort_cards(["VG", "E5", "JS", "E1", "J3", "VS"]) == ["E1", "E5", "J3", "JS", "VS", "VG"]
    assert [card_points(c) for c in ("J1", "JS", "JG", "M7", "N7", "V7")] == [1, 1, 0, 7, 7, 0]


def test_trick_reason_names_the_led_suit_and_the_points() -> None:
    names = {0: "you", 1: "bob", 2: "cy"}
    trick = {"leader": 1, "cards": ["V3", "VS", "M7"], "winner": 2, "points": 7}
    assert trick_reason(trick, 3, names.__getitem__) == (
        "cy takes it with VS, the highest Venus (the led suit): 7 points (M7)"
    )


def test_planets_hand_over_says_the_shooting_choice() -> None:
    names = {0: "you", 1: "bob", 2: "cy"}
    data = {
        "points": [23, 0, 0],
        "added": [0, 23, 23],
        "totals": [10, 43, 53],
        "shooter": 0,
        "choice": "others",
    }
    lines = hand_over_lines(data, names.__getitem__)
    assert lines[0] == "you: took 23 points, +0, total 10"
    assert lines[-1] == "you took every point card and chose others: 23 added to every opponent"


def test_planets_follow_the_pass_and_a_trick() -> None:
    started = {
        "hand_number": 1,
        "dealer": 2,
        "pass_name": "left",
        "pass_count": 2,
        "hand_sizes": [3, 3, 3],
    }
    view = follow({"seat": 0}, "hand-started", started)
    view = follow(view, "hand", {"seat": 0, "hand": ["V1", "E2", "J3"]})
    assert view is not None and view["hand"] == ["E2", "J3", "V1"] and view["phase"] == "pass"
    view["my_pass"] = ["E2", "J3"]
    for seat in (2, 0, 1):
        view = follow(view, "passed", {"seat": seat})
    assert view is not None and view["passed"] == [0, 1, 2]
    view = follow(view, "received", {"seat": 0, "cards": ["S4", "M1"]})
    assert view is not None and view["hand"] == ["M1", "S4", "V1"]
    for seat, card in ((0, "V1"), (1, "V5"), (2, "J2")):
        view = follow(view, "played", {"seat": seat, "card": card})
    assert view is not None and view["trick"] == {"leader": 0, "cards": ["V1", "V5", "J2"]}
    trick = {"number": 1, "leader": 0, "cards": ["V1", "V5", "J2"], "winner": 1, "points": 1}
    view = follow(view, "trick", {**trick, "jupiter_broken": True})
    assert view is not None and view["points_taken"] == [0, 1, 0] and view["jupiter_broken"]
    assert view["trick"] is None and view["hand_sizes"] == [2, 2, 2]


# --- the look -----------------------------------------------------------------------------------


def test_every_card_is_drawn_apart_with_symbols_and_with_ascii() -> None:
    # S is both Saturn and Sun, M both Mars and Moon (docs/planets.md, P1): no two cards may
    # be drawn alike, and a suit's mark never looks like a rank's, in either look.
    for look in (PlanetsLook(symbols=True), PlanetsLook(symbols=False)):
        names = {look.name(card.name): card for card in CARDS}
        assert len(names) == len(CARDS) == 60
        suits = {look.name(card.name)[0] for card in CARDS}
        ranks = {look.name(card.name)[1:] for card in CARDS}
        assert len(suits) == 6 and not suits & ranks
        assert {look.card(card.name).style for card in CARDS} == set(STYLES.values())
    assert PlanetsLook(symbols=True).name("SM") == "♄m"
    assert PlanetsLook(symbols=True).name("MS") == "♂s"
    # What --ascii shows can be typed: it is the card in the notation (either case is read).
    ascii_look = PlanetsLook(symbols=False)
    assert ascii_look.name("SM") == "Sm" and ascii_look.name("V7") == "V7"
    for card in CARDS:
        assert parse_card(ascii_look.name(card.name)) is card


def test_the_legend_names_every_suit_and_face() -> None:
    for symbols in (True, False):
        legend = PlanetsLook(symbols=symbols).legend().plain
        for planet in ("Earth", "Jupiter", "Mars", "Neptune", "Saturn", "Venus"):
            assert planet in legend
        assert "m Moon" in legend and "s Sun" in legend and "g Galaxy" in legend
    assert "♄ Saturn" in PlanetsLook(symbols=True).legend().plain
    assert "S Saturn" in PlanetsLook(symbols=False).legend().plain


def test_a_trick_reason_writes_each_card_as_the_look_does() -> None:
    names = {0: "you", 1: "bob", 2: "cy"}
    trick = {"leader": 1, "cards": ["V3", "VS", "M7"], "winner": 2, "points": 7}
    shown = PlanetsLook(symbols=True).name
    assert trick_reason(trick, 3, names.__getitem__, shown) == (
        "cy takes it with ♀s, the highest Venus (the led suit): 7 points (♂7)"
    )
