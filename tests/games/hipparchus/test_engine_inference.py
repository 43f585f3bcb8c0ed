"""Issue 29's inference: determinizations weighed by how likely they make the opponent's follows
under the rule-based model, drawn only from hands that fit the seat's view."""

from __future__ import annotations

import random

import pytest
from hipparchus_positions import cards, random_position, suits, twin_of

from hipparchusd.games.hipparchus import core
from hipparchusd.games.hipparchus.engine import ADAPTER
from hipparchusd.games.hipparchus.engine_heuristic import best_follow
from hipparchusd.games.hipparchus.engine_information import HipparchusInformation
from hipparchusd.games.hipparchus.game import HipparchusGame
from hipparchusd.games.hipparchus.model import Deal, Hand

TRUST = 0.9
#: Seat 0 leads one lone Sun (1S@1); seat 1 answers with the Earth at its second place.
DEAL = Deal(
    (
        Hand.from_cards(suits("SMEMEMESMEMESS")),
        Hand.from_cards(suits("SESEMSEMEMSESM")),
    ),
    tuple(suits("SM")),
)


def _after_off_suit_follow() -> HipparchusGame:
    game = HipparchusGame(first_leader=0, deals=[DEAL.validated()])
    game.start()
    game.play(0, game.parse_move(0, "1S@1"))
    game.play(1, game.parse_move(1, "1E@2"))
    return game


def _explained(dealt: tuple[int, ...]) -> bool:
    """Whether the rule-based follow of the opponent's dealt hand to 1 Sun, at the round's
    first trick (nothing won yet), is one Earth, what it played."""
    model = best_follow(core.hand_of(dealt), (0, 0, 0, 0, 0, 0), 0, 1 << 2 | 0)
    assert model is not None
    return model & 15 == (1 << 2 | 2)


def test_a_follow_against_the_model_weighs_what_the_model_says() -> None:
    """A hand whose model follow was the Earth played weighs 1; another weighs the chance of
    the seen form among the n forms of its legal follows, (1 - t) / n, over the likeliest
    form's, t + (1 - t) / n."""
    information = HipparchusInformation(_after_off_suit_follow().view(0), TRUST)
    rng = random.Random(5)
    kinds = set()
    for _ in range(300):
        hand = information._fitting(rng)
        witness = information.check.history(hand)
        assert witness is not None
        dealt = witness[0]
        forms = {move & 15 for move in core.follow_moves(core.hand_of(dealt), 1 << 2)}
        spread = (1 - TRUST) / len(forms)
        expected = 1.0 if _explained(dealt) else spread / (TRUST + spread)
        assert information.weight(hand) == pytest.approx(expected)
        kinds.add(expected == 1.0)
    assert kinds == {True, False}  # both kinds of hands were met


def test_inference_moves_the_worlds_toward_hands_that_explain_the_follow() -> None:
    """Without inference about a third of the sampled hands would have followed otherwise (by
    the model); with it almost none: the follow seen is evidence about the hand."""
    view = _after_off_suit_follow().view(0)
    shares = []
    for trust in (0.0, TRUST):
        information = HipparchusInformation(view, trust)
        rng = random.Random(3)
        explained = 0
        for _ in range(400):
            witness = information.check.history(information.opponent_cards(rng))
            assert witness is not None
            explained += _explained(witness[0])
        shares.append(explained / 400)
    assert shares[0] < 0.8
    assert shares[1] > 0.95


@pytest.mark.parametrize(("seed", "moves"), [(s, m) for s in range(6) for m in (6, 13, 20, 27)])
def test_inference_worlds_agree_with_the_view(seed: int, moves: int) -> None:
    """With the inference on every sampled opponent hand still has a history the rules accept
    that gives the seat exactly its view (the inference only reweighs hands that fit)."""
    game, seat = random_position(seed, moves)
    view = game.view(seat)
    information = HipparchusInformation(view, 0.8)
    assert information.trust == 0.8  # the won counts before each trick added up: it is on
    rng = random.Random(seed)
    for _ in range(4):
        opponent = information.opponent_cards(rng)
        twin = twin_of(game, seat, opponent)
        assert twin.view(seat) == view
        assert cards(str(twin.state.round.hands[1 - seat])) == opponent


def test_the_adapter_option_is_off_by_default() -> None:
    """``inference`` is an adapter option for A/B matches, 0 (off) unless given."""
    game = _after_off_suit_follow()
    assert ADAPTER.options.trust == 0.0
    assert ADAPTER.with_options({"inference": "0.6"}).options.trust == 0.6
    with pytest.raises(ValueError, match="unknown engine option"):
        ADAPTER.with_options({"trust": "0.6"})
    for bad in ("1.5", "-0.1", "nan", "high"):  # a word too: the option's words, not float()'s
        with pytest.raises(ValueError, match=r"inference must be in \[0, 1\), not"):
            ADAPTER.with_options({"inference": bad})
    with pytest.raises(ValueError, match="trust"):
        HipparchusInformation(game.view(0), -0.1)
