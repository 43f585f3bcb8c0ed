"""The engine's Hipparchus determinizations (issue 18): every opponent hand sampled, by
rejection or listed, has a history the rules accept that gives the seat exactly its view."""

from __future__ import annotations

import random

import pytest
from hipparchus_positions import cards, random_position, suits, twin_of

from hipparchusd.games.hipparchus import engine_history, engine_information
from hipparchusd.games.hipparchus.engine_information import HipparchusInformation
from hipparchusd.games.hipparchus.game import HipparchusGame
from hipparchusd.games.hipparchus.model import Deal, Hand, Suit

POSITIONS = [(seed, moves) for seed in range(12) for moves in (0, 1, 6, 13, 20, 27)]


@pytest.mark.parametrize(("seed", "moves"), POSITIONS)
def test_determinizations_agree_with_the_view(seed: int, moves: int) -> None:
    """Every sampled opponent hand has a history the rules accept that gives the seat exactly
    the view it has (own hand, sizes, won and set-aside cards, every public play and trick
    winner): the follow inferences (H5) included."""
    game, seat = random_position(seed, moves)
    view = game.view(seat)
    information = HipparchusInformation(view)
    rng = random.Random(seed)
    for _ in range(4):
        opponent = information.opponent_cards(rng)
        assert len(opponent) == view.hand_sizes[1 - seat]
        twin = twin_of(game, seat, opponent)
        assert twin.view(seat) == view
        assert cards(str(twin.state.round.hands[1 - seat])) == opponent


def test_a_follow_in_another_suit_rules_out_lead_suit_plays() -> None:
    """Seat 0 led 1 Sun and seat 1 followed with another suit: in every determinization the
    opponent's dealt hand (its hand before that follow) held only lone Suns (H5)."""
    deal = Deal(
        (
            Hand.from_cards(suits("SMEMEMESMEMESS")),
            Hand.from_cards(suits("SESEMSEMEMSESM")),
        ),
        tuple(suits("SM")),
    ).validated()
    game = HipparchusGame(first_leader=0, deals=[deal])
    game.start()
    game.play(0, game.parse_move(0, "1S@1"))
    assert all(p.suit is not Suit.SUN for p in game.legal_moves(1))
    game.play(1, game.legal_moves(1)[0])
    information = HipparchusInformation(game.view(0))
    rng = random.Random(3)
    for _ in range(200):
        witness = information.check.history(information.opponent_cards(rng))
        assert witness is not None
        dealt = "".join("SME"[c] for c in witness[0])
        assert "SS" not in dealt


@pytest.mark.parametrize(("seed", "moves"), [(51, 20), (53, 22), (53, 26)])
def test_listed_determinizations_agree_too(
    seed: int, moves: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When rejection is given up at once, the sampler lists every opponent hand that fits:
    those agree with the view just the same."""
    monkeypatch.setattr(engine_information, "REJECTION_TRIES", 0)
    game, seat = random_position(seed, moves)
    view = game.view(seat)
    information = HipparchusInformation(view)
    rng = random.Random(seed)
    for _ in range(4):
        twin = twin_of(game, seat, information.opponent_cards(rng))
        assert twin.view(seat) == view
    assert information._listed is not None  # these positions have few enough hands to list


@pytest.mark.parametrize(
    ("seed", "moves", "tries"), [(51, 20, 0), (53, 26, 0), (61, 12, 300), (65, 4, 300)]
)
def test_the_sampler_searches_harder_when_the_budget_passes_over_every_hand(
    seed: int, moves: int, tries: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a budget too small for any witness, listing and rejection both raise it until
    hands fit, and those hands agree with the view."""
    monkeypatch.setattr(engine_history, "HISTORY_BUDGET", 1)
    monkeypatch.setattr(
        engine_information, "REJECTION_TRIES", tries or engine_information.REJECTION_TRIES
    )
    if not tries:
        monkeypatch.setattr(engine_information, "REJECTION_TRIES", 0)
    game, seat = random_position(seed, moves)
    view = game.view(seat)
    information = HipparchusInformation(view)
    assert len(information.check.seen) >= 2
    rng = random.Random(seed)
    for _ in range(3):
        twin = twin_of(game, seat, information.opponent_cards(rng))
        assert twin.view(seat) == view
    assert information.check.budget > 1
