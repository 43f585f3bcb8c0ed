"""The pass as the engine can search it (hipparchusd/games/planets/engine_pass.py): the
candidates, and the deals they are played on (RULINGS P2, P4, P12)."""

from __future__ import annotations

import random

from hipparchusd.engine.ismcts import search
from hipparchusd.games.planets import core
from hipparchusd.games.planets.engine import heuristic_pass
from hipparchusd.games.planets.engine_pass import PASS_TUNING, PassInformation, candidate_passes
from hipparchusd.games.planets.engine_state import PlanetsState
from hipparchusd.games.planets.model import Card, deck_mask, mask_of, pass_kind


def _start(hands: list[int], leader: int) -> PlanetsState:
    return PlanetsState(hands, leader, [], [0] * len(hands), False, True)


def _information(seed: int) -> PassInformation:
    """Seat 0's pass in hand 1 of a deal of four."""
    rng = random.Random(seed)
    cards = [c for c in range(60) if deck_mask(4) >> c & 1]
    rng.shuffle(cards)
    hand = mask_of([Card(c) for c in cards[: len(cards) // 4]])
    kind = pass_kind(4, 1)
    return PassInformation(0, hand, deck_mask(4), 4, kind, passer=heuristic_pass, start=_start)


def test_the_candidates_are_the_heuristics_pass_and_its_neighbours() -> None:
    information = _information(1)
    kind = information.kind
    candidates = candidate_passes(information.hand, kind, heuristic_pass)
    assert candidates[0] == tuple(heuristic_pass(information.hand, kind.count))
    assert len(set(candidates)) == len(candidates) == 35  # 3 of the 7 most dangerous
    for candidate in candidates:
        assert len(candidate) == kind.count
        assert all(information.hand >> card & 1 for card in candidate)


def test_a_deal_gives_every_unseen_card_once_and_passes_then_venus_1_leads() -> None:
    information = _information(2)
    world = information.determinize(random.Random(5))
    dealt = world.dealt
    assert dealt[0] == information.hand
    assert sum(dealt) == deck_mask(4) and all(h.bit_count() == dealt[0].bit_count() for h in dealt)
    candidate = world.keys()[3]
    assert isinstance(candidate, tuple)
    world.play(candidate, random.Random(1))
    state = world.play_state
    assert isinstance(state, PlanetsState)
    targets = information.kind.targets(0, 4)
    held, leader = core.holdings(state.hand), core.fields(state.hand)[1]
    for card, target in zip(candidate, targets, strict=True):  # P4: the cards moved
        assert held[target] >> card & 1 and not held[0] >> card & 1
    assert sum(held) == deck_mask(4)
    assert held[leader] >> Card.V1 & 1  # P12


def test_the_search_scores_every_candidate_on_the_same_deals() -> None:
    information = _information(3)
    result = search(information, random.Random(1), worlds=4, tuning=PASS_TUNING)
    assert {edge.key for edge in result.edges} == set(information.candidates)
    assert {edge.visits for edge in result.edges} == {4}  # no race before 8 deals
