"""Equivalent cards in the engine's planets search (issue 29, "dominated moves pruned"): cards
of one suit and one point value with no card still in play between them lead to the same
tricks and points whichever is played (RULINGS P5 the trick's winner, P7 the points), so the
search keys one card of each run and the analysis gives the others its stats."""

from __future__ import annotations

import random

from planets_positions import cards, mask, modeled_world, seeded_position

from hipparchusd.engine.analysis import analyze
from hipparchusd.engine.types import Level
from hipparchusd.games.base import MoveList
from hipparchusd.games.planets import core
from hipparchusd.games.planets.engine import ADAPTER, PlanetsInformation
from hipparchusd.games.planets.engine_state import ModeledState, equivalent_runs, live_cards
from hipparchusd.games.planets.model import CARDS


def runs(legal: str, live: str = "") -> list[str]:
    """:func:`equivalent_runs` of cards in notation, each run written as cards."""
    found = equivalent_runs(sorted(cards(legal)), mask(live) if live else 0)
    return [",".join(CARDS[card].name for card in run) for run in found]


def test_touching_cards_of_one_suit_and_value_are_one_run() -> None:
    # V4 is still out: V5 beats it, V2 and V3 do not; with V4 gone the three are one.
    assert runs("V2,V3,V5", live="V4") == ["V2,V3", "V5"]
    assert runs("V2,V3,V5") == ["V2,V3,V5"]


def test_a_card_of_the_trick_in_progress_separates() -> None:
    # V3 led: V4 wins the trick, V2 does not.
    assert runs("V2,V4", live="V3") == ["V2", "V4"]


def test_cards_of_other_point_values_or_suits_are_never_one_run() -> None:
    # P7: the Mars 7 is worth 7, its neighbours nothing; the Jupiter Sun 1, its Galaxy 0.
    assert runs("M6,M7,MM") == ["M6", "M7", "MM"]
    assert runs("JS,JG") == ["JS", "JG"]
    assert runs("J2,J3,J4") == ["J2,J3,J4"]  # every Jupiter from 1 to Sun is worth 1
    assert runs("EG,J1") == ["EG", "J1"]  # adjacent as ints, of two suits


def test_equivalent_cards_are_interchangeable_to_the_hand_s_end() -> None:
    """Play a run's lowest card in one copy of a world and another of the run in a second
    copy, then the same cards in both with the two swapped: every seat's legal cards agree
    (swapped) at every turn, and every seat takes the same points (P5, P7)."""
    tried = 0
    for seed in range(40):
        tried += _interchange(seed)
    assert tried >= 20  # the seeds reach enough worlds with equivalent cards


def _interchange(seed: int) -> int:
    """The check above in one world of a seeded position; the pairs of cards checked."""
    seat, world, rng = modeled_world(seed, 4 + seed % 9)
    found = equivalent_runs(core.legal(world.hand), live_cards(world.hand, seat))
    assert [run[0] for run in found] == world.keys()
    pairs = [(run[0], other) for run in found for other in run[1:]]
    for low, high in pairs:
        first, second = _copy(world), _copy(world)
        swap = {low: high, high: low}
        first.play(low, random.Random(seed))
        second.play(high, random.Random(seed))
        while first.to_move() >= 0:
            assert second.to_move() == seat
            assert sorted(swap.get(c, c) for c in core.legal(first.hand)) == list(
                core.legal(second.hand)
            )
            card = core.legal(first.hand)[rng.randrange(len(core.legal(first.hand)))]
            first.play(card, random.Random(card))
            second.play(swap.get(card, card), random.Random(card))
        assert second.to_move() < 0
        assert first.taken == second.taken
    return len(pairs)


def _copy(world: ModeledState) -> ModeledState:
    """A second determinization of the same cards (the core's hand is an immutable tuple)."""
    copy = ModeledState.__new__(ModeledState)
    copy.hand, copy.players, copy.taken, copy.observer, copy.equivalents = (
        world.hand, world.players, world.taken, world.observer, world.equivalents,
    )  # fmt: skip
    return copy


def test_the_search_keys_fewer_cards_and_the_analysis_gives_every_legal_card() -> None:
    """Over seeded positions: where equivalent cards exist the determinization offers fewer
    keys than legal cards, and the analysis still lists every legal card, an equivalent card
    with its run's stats."""
    pruned = 0
    for seed in range(40):
        game = seeded_position(seed, 4 + seed % 9)
        seat = min(game.seats_to_move())
        legal = game.legal(seat)
        assert isinstance(legal, MoveList)
        if len(legal.moves) < 2:
            continue
        analysis = analyze(ADAPTER, game.view_data(seat), Level.parse("ismcts:60"), seed=seed)
        assert sorted(stats.move for stats in analysis.moves) == sorted(legal.moves)
        information = PlanetsInformation(game.view(seat))
        world = information.determinize(random.Random(seed))
        if len(world.keys()) < len(legal.moves):
            pruned += 1
            by_move = {stats.move: stats for stats in analysis.moves}
            for run in equivalent_runs(core.legal(world.hand), live_cards(world.hand, seat)):
                values = {
                    (by_move[CARDS[c].name].visits, by_move[CARDS[c].name].value) for c in run
                }
                assert len(values) == 1  # one run, one move's stats
    assert pruned >= 5  # the seeds do reach positions with equivalent cards
