"""The engine on Hipparchus (issue 18): it sees only its seat's information, its
determinizations agree with everything the seat saw, and every level plays legally."""

from __future__ import annotations

import random

import attrs
import pytest

from hipparchusd.engine.analysis import analyze
from hipparchusd.engine.types import Analysis, Level
from hipparchusd.games.hipparchus import engine
from hipparchusd.games.hipparchus.engine import (
    ADAPTER,
    HipparchusInformation,
    HipparchusPosition,
    match_chance,
    predecessors,
)
from hipparchusd.games.hipparchus.game import HipparchusGame
from hipparchusd.games.hipparchus.model import Deal, Hand, Suit
from hipparchusd.games.hipparchus.notation import format_play
from hipparchusd.jsondata import JSON


def _random_position(seed: int, moves: int) -> tuple[HipparchusGame, int]:
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
        return _random_position(seed + 1000, moves // 2)
    return game, next(iter(game.seats_to_move()))


def _cards(hand: str) -> tuple[int, ...]:
    return tuple(int(Suit.from_letter(letter)) for letter in hand)


def _twin(game: HipparchusGame, seat: int, opponent: tuple[int, ...]) -> HipparchusGame:
    """The game replayed with the opponent's current hand ``opponent`` (cards left to right):
    the seat's own cards and every public play the same, the opponent's dealt hand a witness
    of the engine's history check, the face-down cards what is left. The rules check every
    play of it, so the twin proves the determinization agrees with what the seat saw."""
    record = game.record()
    view = game.view(seat)
    information = HipparchusInformation(view)
    witness = engine.HistoryCheck(information.check.seen, budget=10**9).history(opponent)
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
            and _cards(str(twin.state.round.hands[mover].without(p))) == witness[step]
        ]
        assert options, "the witness history is not playable"
        twin.play(mover, options[0])
        step += 1
    assert step == len(witness)
    return twin


def _comparable(analysis: Analysis) -> Analysis:
    return attrs.evolve(analysis, elapsed_ms=0.0)


POSITIONS = [(seed, moves) for seed in range(12) for moves in (0, 1, 6, 13, 20, 27)]


@pytest.mark.parametrize(("seed", "moves"), POSITIONS)
def test_determinizations_agree_with_the_view(seed: int, moves: int) -> None:
    """Every sampled opponent hand has a history the rules accept that gives the seat exactly
    the view it has (own hand, sizes, won and set-aside cards, every public play and trick
    winner): the follow inferences (H5) included."""
    game, seat = _random_position(seed, moves)
    view = game.view(seat)
    information = HipparchusInformation(view)
    rng = random.Random(seed)
    for _ in range(4):
        opponent = information.opponent_cards(rng)
        assert len(opponent) == view.hand_sizes[1 - seat]
        twin = _twin(game, seat, opponent)
        assert twin.view(seat) == view
        assert _cards(str(twin.state.round.hands[1 - seat])) == opponent


def test_predecessors_put_a_play_back_as_the_rules_allow() -> None:
    """Undoing a play: the cards go back as part of a clump that could give them (H2); a follow
    in another suit needs a hand with no lead-suit play of another count (H5)."""
    sun, moon = int(Suit.SUN), int(Suit.MOON)
    # 1 Moon followed a lead of 1 Sun: only lone Suns before it.
    assert predecessors(_cards("SSE"), (1, moon, 1, sun)) == [_cards("SMSE")]
    assert predecessors(_cards("SSSE"), (1, moon, 1, sun)) == []
    # 2 Suns (following 1 Sun): from a clump of exactly 2, or of 4 or more; never of 3.
    assert predecessors(_cards("SM"), (2, sun, 1, sun)) == [_cards("SMSS")]
    assert predecessors(_cards("SSM"), (2, sun, 0, -1)) == [_cards("SSSSM"), _cards("SSMSS")]
    assert len(predecessors(_cards("MEM"), (2, sun, 1, sun))) == 4


def test_a_follow_in_another_suit_rules_out_lead_suit_plays() -> None:
    """Seat 0 led 1 Sun and seat 1 followed with another suit: in every determinization the
    opponent's dealt hand (its hand before that follow) held only lone Suns (H5)."""
    deal = Deal(
        (
            Hand.from_cards(_suits("SMEMEMESMEMESS")),
            Hand.from_cards(_suits("SESEMSEMEMSESM")),
        ),
        tuple(_suits("SM")),
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


def _suits(text: str) -> list[Suit]:
    return [Suit.from_letter(letter) for letter in text]


@pytest.mark.parametrize(("seed", "moves"), [(1, 0), (2, 5), (3, 12), (4, 19), (5, 24)])
def test_the_search_sees_only_its_seats_information(seed: int, moves: int) -> None:
    """Two games that differ only in cards the seat cannot see (the opponent's hand and its
    order, the face-down cards), searched with the same seed and playouts, answer the same."""
    game, seat = _random_position(seed, moves)
    information = HipparchusInformation(game.view(seat))
    rng = random.Random(seed)
    truth = (game.state.round.hands[1 - seat], game.state.round.face_down)
    for _ in range(50):
        twin = _twin(game, seat, information.opponent_cards(rng))
        if (twin.state.round.hands[1 - seat], twin.state.round.face_down) != truth:
            break
    else:
        pytest.skip("no other hidden cards fit this position")
    level = Level.parse("ismcts:300")
    assert twin.view_data(seat) == game.view_data(seat)
    one = analyze(ADAPTER, game.view_data(seat), level, seed=99)
    two = analyze(ADAPTER, twin.view_data(seat), level, seed=99)
    assert _comparable(one) == _comparable(two)
    assert one.playouts == 300


@pytest.mark.parametrize("text", ["random", "heuristic", "ismcts:200", "ismcts:30ms"])
@pytest.mark.parametrize(("seed", "moves"), [(21, 0), (22, 3), (23, 10), (24, 17), (25, 26)])
def test_every_level_plays_a_legal_move(text: str, seed: int, moves: int) -> None:
    game, seat = _random_position(seed, moves)
    legal = {format_play(p) for p in game.legal_moves(seat)}
    analysis = analyze(ADAPTER, game.view_data(seat), Level.parse(text), seed=seed)
    assert analysis.best in legal
    assert analysis.moves[0].move == analysis.best
    assert {m.move for m in analysis.moves} <= legal
    for stats in analysis.moves:
        assert 0.0 <= stats.value <= 1.0
        assert stats.match_value is not None and 0.0 <= stats.match_value <= 1.0
    if text.startswith("ismcts"):
        if not text.endswith("ms"):  # a time budget on a loaded machine may expand fewer
            assert {m.move for m in analysis.moves} == legal
        assert sum(m.visits for m in analysis.moves) == analysis.playouts
        assert [m.visits for m in analysis.moves] == sorted(
            (m.visits for m in analysis.moves), reverse=True
        )


def test_a_playouts_budget_is_deterministic() -> None:
    game, seat = _random_position(31, 8)
    level = Level.parse("ismcts:250")
    one = analyze(ADAPTER, game.view_data(seat), level, seed=5)
    two = analyze(ADAPTER, game.view_data(seat), level, seed=5)
    assert _comparable(one) == _comparable(two)


def test_progress_and_stop() -> None:
    game, seat = _random_position(32, 2)
    seen: list[Analysis] = []
    calls = 0

    def stop() -> bool:
        nonlocal calls
        calls += 1
        return calls > 3

    analysis = analyze(
        ADAPTER,
        game.view_data(seat),
        Level.parse("ismcts:100000"),
        seed=1,
        on_progress=seen.append,
        interval_ms=1,
        should_stop=stop,
    )
    assert analysis.playouts < 100000
    assert seen and all(a.playouts <= analysis.playouts for a in seen)


def test_match_chance_counts_rounds_to_two() -> None:
    assert match_chance((0, 0), 0, 0.5) == 0.5
    assert match_chance((1, 0), 0, 1.0) == 1.0
    assert match_chance((0, 1), 0, 0.0) == 0.0
    assert match_chance((1, 1), 1, 0.3) == pytest.approx(0.3)
    assert match_chance((0, 0), 0, 1.0) == 0.75  # then an even chance in two more rounds


def test_analyze_refuses_what_it_cannot_search() -> None:
    game, seat = _random_position(40, 3)
    level = Level.parse("random")
    with pytest.raises(ValueError, match="need not move"):
        analyze(ADAPTER, game.view_data(1 - seat), level, seed=0)
    with pytest.raises(ValueError, match="spectator"):
        analyze(ADAPTER, game.view_data(None), level, seed=0)
    bad: JSON = {"seat": 0}
    with pytest.raises(ValueError):
        analyze(ADAPTER, bad, level, seed=0)
    with pytest.raises(ValueError, match="interval"):
        analyze(ADAPTER, game.view_data(seat), level, seed=0, interval_ms=0)
    assert isinstance(HipparchusPosition(game.view_data(seat)), HipparchusPosition)


@pytest.mark.parametrize(("seed", "moves"), [(51, 20), (53, 22), (53, 26)])
def test_listed_determinizations_agree_too(
    seed: int, moves: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When rejection is given up at once, the sampler lists every opponent hand that fits:
    those agree with the view just the same."""
    monkeypatch.setattr(engine, "REJECTION_TRIES", 0)
    game, seat = _random_position(seed, moves)
    view = game.view(seat)
    information = HipparchusInformation(view)
    rng = random.Random(seed)
    for _ in range(4):
        twin = _twin(game, seat, information.opponent_cards(rng))
        assert twin.view(seat) == view
    assert information._listed is not None  # these positions have few enough hands to list


def test_a_history_search_over_budget_counts_as_no_fit() -> None:
    """The sampler stays sound when a search is cut short: no witness, no hand."""
    game, seat = _random_position(60, 9)
    information = HipparchusInformation(game.view(seat))
    seen = information.check.seen
    assert len(seen) >= 2
    hand = information.opponent_cards(random.Random(1))
    assert engine.HistoryCheck(seen).history(hand) is not None
    assert engine.HistoryCheck(seen, budget=1).history(hand) is None


@pytest.mark.parametrize(
    ("seed", "moves", "tries"), [(51, 20, 0), (53, 26, 0), (61, 12, 300), (65, 4, 300)]
)
def test_the_sampler_searches_harder_when_the_budget_passes_over_every_hand(
    seed: int, moves: int, tries: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a budget too small for any witness, listing and rejection both raise it until
    hands fit, and those hands agree with the view."""
    monkeypatch.setattr(engine, "HISTORY_BUDGET", 1)
    monkeypatch.setattr(engine, "REJECTION_TRIES", tries or engine.REJECTION_TRIES)
    if not tries:
        monkeypatch.setattr(engine, "REJECTION_TRIES", 0)
    game, seat = _random_position(seed, moves)
    view = game.view(seat)
    information = HipparchusInformation(view)
    assert len(information.check.seen) >= 2
    rng = random.Random(seed)
    for _ in range(3):
        twin = _twin(game, seat, information.opponent_cards(rng))
        assert twin.view(seat) == view
    assert information.check.budget > 1
