"""Hand-made positions for the planets tests: deals with chosen cards, and positions in the
middle of a hand built directly (as the rules would reach them, the cards elsewhere left out
where a test does not need them)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import attrs

from hipparchusd.games.base import MoveList, Pick
from hipparchusd.games.planets import (
    Card,
    HandSetup,
    HandState,
    Move,
    Pass,
    Phase,
    PlanetsGame,
    Tally,
    Trick,
    cards_of,
    mask_of,
    parse_card,
    parse_cards,
    pass_kind,
)
from hipparchusd.games.planets.engine import PlanetsInformation
from hipparchusd.games.planets.engine_state import ModeledState
from hipparchusd.games.planets.model import deck_mask


def cards(text: str) -> tuple[Card, ...]:
    """Cards in notation, e.g. ``"V1,JS"``."""
    return parse_cards(text)


def mask(text: str) -> int:
    """The mask of cards in notation."""
    return mask_of(cards(text))


def full_deal(players: int, *given: str, galaxies: bool = False) -> tuple[int, ...]:
    """A complete deal where seat ``i`` holds the cards ``given[i]`` (fewer seats may be
    given), the rest of the deck filling the hands in card order."""
    deck = deck_mask(players, galaxies)
    size = deck.bit_count() // players
    hands = [mask(text) if text else 0 for text in given] + [0] * (players - len(given))
    rest = list(cards_of(deck & ~sum(hands)))
    for seat in range(players):
        while hands[seat].bit_count() < size:
            hands[seat] |= 1 << rest.pop(0)
    assert sum(hands) == deck
    return tuple(hands)


def game(players: int, *given: str, dealer: int = 0, **options: object) -> PlanetsGame:
    """A started game whose first hand is :func:`full_deal` of ``given``."""
    galaxies = bool(options.pop("galaxies", False))
    result = PlanetsGame(
        players=players,
        dealer=dealer,
        galaxies=galaxies,
        deals=[full_deal(players, *given, galaxies=galaxies)],
        **options,  # type: ignore[arg-type]
    )
    result.start()
    return result


def game_at_hand(players: int, number: int, *given: str, dealer: int = 0) -> PlanetsGame:
    """A started game moved to the start of hand ``number`` (dealt :func:`full_deal` of
    ``given`` by ``dealer``), with no points yet: for the passes of later hands."""
    result = game(players, dealer=dealer)
    hand = HandState.start(number, dealer, full_deal(players, *given))
    result._state = attrs.evolve(result.state, hand=hand)
    return result


def position(
    hands: Sequence[str],
    leader: int,
    *,
    trick: str = "",
    first: bool = False,
    broken: bool = False,
    taken: Sequence[int] | None = None,
    number: int = 1,
) -> HandState:
    """A hand in play: seats hold ``hands`` and ``leader`` has led the cards ``trick`` so far.
    Unless ``first``, one earlier trick (of no points, no Jupiter) has been played."""
    players = len(hands)
    masks = tuple(mask(text) for text in hands)
    earlier = () if first else (Trick(1, leader, (Card.E1,) * players, leader, 0),)
    setup = HandSetup(players, number, 0, pass_kind(players, number), masks, ((),) * players)
    tally = Tally(Phase.PLAY, leader, earlier, tuple(taken or (0,) * players), broken, None, None)
    return HandState(setup, tally, masks, cards(trick) if trick else ())


def random_move(played: PlanetsGame, rng: random.Random) -> tuple[int, Move]:
    """A uniformly random legal move of a random seat that must move."""
    seat = rng.choice(sorted(played.seats_to_move()))
    legal = played.legal_moves(seat)
    if isinstance(legal, Pick):
        hand = [parse_card(item) for item in legal.items]
        return seat, Pass(tuple(rng.sample(hand, legal.count)))
    return seat, rng.choice(list(legal))


def play_hand(played: PlanetsGame, rng: random.Random) -> None:
    """Play random moves until the hand in progress is over (or the game)."""
    number = played.state.hand_number
    while played.outcome is None and played.state.hand_number == number:
        played.play(*random_move(played, rng))


def game_in_position(
    hand: HandState, totals: Sequence[int], *, exact100: bool = False
) -> PlanetsGame:
    """A started game whose hand in progress is ``hand`` and whose totals are ``totals``."""
    result = game(hand.players, exact100=exact100)
    result._state = attrs.evolve(result.state, hand=hand, totals=tuple(totals))
    return result


def seeded_position(seed: int, cards: int, players: int = 4) -> PlanetsGame:
    """A seeded game, passes made at random, after ``cards`` random cards of hand 1."""
    rng = random.Random(seed)
    result = PlanetsGame(players=players, seed=seed, dealer=0)
    result.start()
    while result.state.hand.phase is Phase.PASS:
        seat = min(result.seats_to_move())
        legal = result.legal(seat)
        assert isinstance(legal, Pick)
        result.play_word(seat, ",".join(rng.sample(legal.items, legal.count)))
    for _ in range(cards):
        if result.state.hand.phase is not Phase.PLAY:
            break
        seat = min(result.seats_to_move())
        legal = result.legal(seat)
        assert isinstance(legal, MoveList)
        result.play_word(seat, rng.choice(legal.moves))
    return result


def modeled_world(seed: int, cards: int) -> tuple[int, ModeledState, random.Random]:
    """The seat to move in :func:`seeded_position` ``(seed, cards)``, a determinization of its
    card play with the other seats modeled (the other seats' cards dealt from
    ``random.Random(seed)``), and that generator, to go on with."""
    game = seeded_position(seed, cards)
    seat = min(game.seats_to_move())
    information = PlanetsInformation(game.view(seat))
    rng = random.Random(seed)
    world = ModeledState(
        seat, information.deal(rng), information.leader, information.trick,
        information.taken, information.broken, information.first,
    )  # fmt: skip
    return seat, world, rng
