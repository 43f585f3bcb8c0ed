"""Counts in messages take the noun's right number: "1 card", never "1 cards" (issue 17,
"Also"); lists of words read as a sentence's. The helpers themselves, then messages of the
daemon that can state a count of one: the games limit, a deal option with a one-card hand
(both games), and a Hipparchus play whose position lies outside a one-card hand."""

from __future__ import annotations

import re

import pytest

from hipparchusd.games.hipparchus.notation import NotationError, parse_hand, parse_play
from hipparchusd.lobby import Lobby, Session
from hipparchusd.protocol import parse_request
from hipparchusd.wording import counted, listed

ONE_PLURAL = re.compile(
    r"(?<![\d.,-])1 (?:[a-z-]+ )?(?:cards|games|items|hands|passes|days|bytes)\b"
)
"""A count of one followed by a plural noun: the mistake this file guards against."""


def test_counted_uses_the_singular_for_one_only() -> None:
    assert counted(1, "card") == "1 card"
    assert counted(-1, "point") == "-1 point"
    assert [counted(n, "card") for n in (0, 2, 14)] == ["0 cards", "2 cards", "14 cards"]
    assert counted(1, "pass", "passes") == "1 pass"
    assert counted(3, "pass", "passes") == "3 passes"
    assert counted(1.0, "day") == "1 day"
    assert counted(1.5, "day") == "1.5 days"
    assert counted(1, "face-down card") == "1 face-down card"


def test_listed_joins_words_as_a_sentence_does() -> None:
    assert listed([]) == ""
    assert listed(["Sun"]) == "Sun"
    assert listed(["Sun", "Moon"]) == "Sun and Moon"
    assert listed(["S Sun", "M Moon", "E Earth"], "or") == "S Sun, M Moon or E Earth"


def _refusal(lobby: Lobby, session: Session, line: str) -> tuple[str, str]:
    """The error code and message with which the lobby refuses ``line``."""
    request = parse_request(line)
    assert request is not None
    response = lobby.handle(session, request).response
    assert response is not None and response.error is not None, response
    return str(response.error.code), response.error.message


def test_the_games_limit_of_one_says_one_game() -> None:
    lobby = Lobby(max_games=1)
    session = lobby.connect()
    assert _refusal(lobby, session, "new nonsense")[0] == "unknown-kind"
    request = parse_request("new hipparchus")
    assert request is not None
    lobby.handle(session, request)
    code, message = _refusal(lobby, session, "new hipparchus")
    assert code == "limit"
    assert message == "the server holds 1 game (max-games)"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # Seat 0's hand is one Sun: the deal option says how many cards it has (RULINGS H1).
        ("new hipparchus deal=S/SSSSMMMMMEEEEE/ME", "seat 0's hand has 1 card, not 14"),
        # planets for three: 18 cards a hand; seat 0 is given the single card V1.
        ("new planets players=3 deal=V1/E1,E2/E3", "has 1 card, not 18"),
    ],
    ids=["hipparchus", "planets"],
)
def test_a_deal_with_a_one_card_hand_says_one_card(line: str, expected: str) -> None:
    lobby = Lobby()
    code, message = _refusal(lobby, lobby.connect(), line)
    assert code == "bad-option", message
    assert expected in message, message
    assert ONE_PLURAL.search(message) is None, message


def test_a_position_outside_a_one_card_hand_says_one_card() -> None:
    """The last card of a round: position 2 of a one-card hand is refused as outside it."""
    with pytest.raises(NotationError) as refused:
        parse_play("1S@2", parse_hand("S"))
    assert "position 2 is outside your hand of 1 card" in str(refused.value)
    with pytest.raises(NotationError) as refused:
        parse_play("1S@3", parse_hand("SM"))
    assert "outside your hand of 2 cards" in str(refused.value)


def test_the_guard_pattern_finds_the_mistake() -> None:
    """The pattern the tests above apply catches what they must not say (and not a "21")."""
    assert ONE_PLURAL.search("seat 0's hand has 1 cards, not 14")
    assert ONE_PLURAL.search("1 face-down cards")
    assert ONE_PLURAL.search("the server holds 21 games") is None
    assert ONE_PLURAL.search("the server holds 1 game") is None
