"""The rules text planets ships for players (hipparchusd/games/planets/rules.md, the kind's
``rules``, which ``?`` shows; issue 25: an installed user has no docs/): it is package data,
it cites exactly the rulings that docs/planets.md gives, and its tables and examples come out
as the rules code has them."""

from __future__ import annotations

import re
from pathlib import Path

from hipparchusd.games.planets.kind import PLANETS
from hipparchusd.games.planets.model import (
    CARDS,
    GALAXY_MASKS,
    HAND_POINTS,
    POINTS,
    SUIT_NAMES,
    count,
    deck_mask,
    hand_size,
)
from hipparchusd.games.planets.rules import lowest

DOCS = Path(__file__).resolve().parents[3] / "docs" / "planets.md"


def shipped() -> str:
    text = PLANETS.rules_text()
    assert text is not None
    return text


def test_the_rules_text_is_read_from_the_package() -> None:
    assert PLANETS.rules is not None and PLANETS.rules.name == "rules.md"
    text = shipped()
    assert text.startswith("# Planets\n") and "## The rules in full" in text


def test_it_states_every_ruling_that_the_documentation_gives() -> None:
    documented = set(re.findall(r"^\*\*(P\d+) ", DOCS.read_text(encoding="utf-8"), re.MULTILINE))
    stated = set(re.findall(r"^\*\*(P\d+) ", shipped(), re.MULTILINE))
    assert stated == documented
    assert set(re.findall(r"\b(P\d+)\b", shipped())) <= documented


def test_the_cards_in_play_are_the_decks_of_the_rules() -> None:
    rows = re.findall(
        r"^\| (3|4|5|6|6, with all Galaxies) \| (\d+) \| (\d+) \| ([^|]+) \|$",
        shipped(),
        re.MULTILINE,
    )
    assert len(rows) == 5
    for players_text, cards, each, galaxies in rows:
        players, all_galaxies = int(players_text[0]), players_text.startswith("6,")
        deck = deck_mask(players, all_galaxies)
        assert (int(cards), int(each)) == (count(deck), hand_size(players, all_galaxies))
        suits = [SUIT_NAMES[suit] for suit, mask in enumerate(GALAXY_MASKS) if deck & mask]
        expected = {0: "none", 1: suits[0] if suits else "", 6: "all six"}.get(len(suits))
        assert galaxies.strip() == (expected or " and ".join(reversed(suits)))


def test_its_points_and_ends_are_what_the_rules_give() -> None:
    text = " ".join(shipped().split())
    assert f"A hand holds **{HAND_POINTS} points**" in text
    assert sum(POINTS[card] for card in CARDS) == HAND_POINTS
    assert "Example: totals 107, 56, 56: the second and third players both win" in text
    assert lowest((107, 56, 56)) == (1, 2)
