"""The rules text Hipparchus ships for players (hipparchusd/games/hipparchus/rules.md, the kind's
``rules``, which ``?`` shows; issue 25: an installed user has no docs/): it is package data,
it cites exactly the rulings of play that docs/rules.md gives, and its worked examples come
out as the rules code plays them."""

from __future__ import annotations

import re
from pathlib import Path

from hipparchusd.games.hipparchus.kind import HIPPARCHUS
from hipparchusd.games.hipparchus.model import Play, Suit
from hipparchusd.games.hipparchus.rules import score_round, trick_winner

DOCS = Path(__file__).resolve().parents[3] / "docs" / "rules.md"


def shipped() -> str:
    text = HIPPARCHUS.rules_text()
    assert text is not None
    return text


def test_the_rules_text_is_read_from_the_package() -> None:
    assert HIPPARCHUS.rules is not None and HIPPARCHUS.rules.name == "rules.md"
    text = shipped()
    assert text.startswith("# Hipparchus\n") and "## The rules in full" in text
    assert "docs/rules.md" not in text.replace("(docs/rules.md)", "")  # named, not relied on


def test_it_states_every_ruling_of_play_that_the_documentation_gives() -> None:
    documented = set(re.findall(r"^\*\*(H\d+) ", DOCS.read_text(encoding="utf-8"), re.MULTILINE))
    stated = set(re.findall(r"^\*\*(H\d+) ", shipped(), re.MULTILINE))
    # H14 (abandoned games) is the server's, not a rule a player plays by.
    assert stated == documented - {"H14"}
    cited = set(re.findall(r"\b(H\d+)\b", shipped()))
    assert cited <= documented


def test_its_examples_are_what_the_rules_give() -> None:
    text = " ".join(shipped().split())
    # H7: a Moon lead by a seat that had won 4 Moons, an Earth follow by one that had won 3
    # Earths: the follower takes it, whatever the counts.
    assert "your opponent takes the trick (3 is lower than 4), whatever the counts" in text
    won_before = ((0, 4, 0), (0, 0, 3))
    for lead_count, follow_count in ((1, 3), (3, 1), (2, 2)):
        lead, follow = Play(lead_count, Suit.MOON, 1), Play(follow_count, Suit.EARTH, 1)
        assert trick_winner(0, lead, follow, won_before) == 1
    # H10: won Sun 2, Moon 1, Earth 6 against Sun 5, Moon 3, Earth 4: 4 to 3.
    assert "You score 4 (the opponent's Earths), your opponent 2 + 1 = 3" in text
    result = score_round(((2, 1, 6), (5, 3, 4)), last_follower=1)
    assert result.scores == ((0, 0, 4), (2, 1, 0)) and result.totals == (4, 3)
    assert result.winner == 0
