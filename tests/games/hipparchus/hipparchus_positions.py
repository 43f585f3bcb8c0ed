"""Hipparchus positions for the engine's tests: seeded games part played, and the twin of a
game that differs only in what one seat cannot see, replayed through the rules."""

from __future__ import annotations

import random

import pytest

from hipparchusd.games.hipparchus.engine_history import HistoryCheck
from hipparchusd.games.hipparchus.engine_information import HipparchusInformation
from hipparchusd.games.hipparchus.game import HipparchusGame
from hipparchusd.games.hipparchus.model import Deal, Hand, Suit


def random_position(seed: int, moves: int) -> tuple[HipparchusGame, int]:
    """A seeded game after up to ``moves`` random plays, and the seat to move."""
    rng = random.Random(seed)
    game = HipparchusGame(seed=seed, first_leader=seed % 2)
    game.start()
    for _ in range(moves):
        seat = next(iter(game.seats_to_move()))
        legal = game.legal_moves(seat)
        game.play(seat, legal[rng.randrange(len(legal))])
        if game.outcome is not None:
            break
    if game.outcome is not None:  # the match ended: start a new one with fewer plays
        return random_position(seed + 1000, moves // 2)
    return game, next(iter(game.seats_to_move()))


def cards(hand: str) -> tuple[int, ...]:
    return tuple(int(Suit.from_letter(letter)) for letter in hand)


def suits(text: str) -> list[Suit]:
    return [Suit.from_letter(letter) for letter in text]


def twin_of(game: HipparchusGame, seat: int, opponent: tuple[int, ...]) -> HipparchusGame:
    """The game replayed with the opponent's current hand ``opponent`` (cards left to right):
    the seat's own cards and every public play the same, the opponent's dealt hand a witness
    of the engine's history check, the face-down cards what is left. The rules check every
    play of it, so the twin proves the determinization agrees with what the seat saw."""
    record = game.record()
    view = game.view(seat)
    information = HipparchusInformation(view)
    witness = HistoryCheck(information.check.seen, budget=10**9).history(opponent)
    assert witness is not None
    current = record.rounds[-1]
    mine = current.deal.hands[seat]
    rest = [10, 10, 10]
    for card in (*mine.cards, *(Suit(c) for c in witness[0])):
        rest[card] -= 1
    face_down = tuple(Suit(s) for s in range(3) for _ in range(rest[s]))
    theirs = Hand.from_cards(Suit(c) for c in witness[0])
    hands = (mine, theirs) if seat == 0 else (theirs, mine)
    deals = [r.deal for r in record.rounds[:-1]] + [Deal(hands, face_down).validated()]
    twin = HipparchusGame(first_leader=record.first_leader, deals=deals)
    twin.start()
    for old in record.rounds[:-1]:
        for play in old.plays:
            twin.play(next(iter(twin.seats_to_move())), play)
    step = 1
    for play in current.plays:
        mover = next(iter(twin.seats_to_move()))
        if mover == seat:
            twin.play(mover, play)
            continue
        # The opponent's play: the legal one of the same cards that leaves the witness's hand.
        options = [
            p
            for p in twin.legal_moves(mover)
            if (p.count, p.suit) == (play.count, play.suit)
            and cards(str(twin.state.round.hands[mover].without(p))) == witness[step]
        ]
        assert options, "the witness history is not playable"
        twin.play(mover, options[0])
        step += 1
    assert step == len(witness)
    return twin


def hidden_twin(seed: int, moves: int) -> tuple[HipparchusGame, int, HipparchusGame]:
    """:func:`random_position`'s game and seat, and a twin of it (:func:`twin_of`) whose
    hidden cards (the opponent's hand, the face-down cards) differ; the test is skipped when
    no other hidden cards fit the position."""
    game, seat = random_position(seed, moves)
    information = HipparchusInformation(game.view(seat))
    rng = random.Random(seed)
    truth = (game.state.round.hands[1 - seat], game.state.round.face_down)
    for _ in range(50):
        twin = twin_of(game, seat, information.opponent_cards(rng))
        if (twin.state.round.hands[1 - seat], twin.state.round.face_down) != truth:
            return game, seat, twin
    pytest.skip("no other hidden cards fit this position")
