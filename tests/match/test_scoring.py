"""A match's figures from its games (hipparchusd.match.scoring): each game scored for the first
player (a winning seat held alone wins, otherwise a draw), a deal's two rotations counted as one
pentanomial pair, an incomplete pair counted per game only, and the win rates shared; the
report's Elo interval on small samples, bounded on one side after a clean sweep."""

from __future__ import annotations

import math

import pytest

from hipparchusd.match.config import GameResult, Player
from hipparchusd.match.scoring import counts, describe, per_player, report
from hipparchusd.match.stats import Z95

SWAPPED = (1, 0)  # rotation 1: seat 0 holds player 1


def _game(deal: int, rotation: int, winners: tuple[int, ...]) -> GameResult:
    players = (0, 1) if rotation == 0 else SWAPPED
    scores = tuple(1 if seat in winners else 0 for seat in range(2))
    return GameResult(deal, rotation, players, winners, scores, None, f"g{deal}-{rotation}")


RESULTS = [
    _game(0, 0, (0,)),  # deal 0: the first player wins both (seat 0, then seat 1): ww
    _game(0, 1, (1,)),
    _game(1, 0, (0,)),  # deal 1: a win, then the second player wins: wl
    _game(1, 1, (0,)),
    _game(2, 0, ()),  # deal 2: won by neither, twice: dd
    _game(2, 1, ()),
    _game(3, 0, (1,)),  # deal 3: a loss, then both seats win (a draw): ld
    _game(3, 1, (0, 1)),
    _game(4, 0, (0,)),  # deal 4: its second rotation not played: a win, and no pair
]


def test_games_and_pairs_are_counted_for_the_first_player() -> None:
    tri, penta = counts(RESULTS)
    assert (tri.wins, tri.losses, tri.draws) == (4, 2, 3)
    assert (penta.ll, penta.ld, penta.wl, penta.dd, penta.wd, penta.ww) == (0, 1, 1, 1, 0, 1)
    assert penta.pairs == 4


def test_a_shared_win_counts_as_a_share() -> None:
    first, second = per_player(RESULTS, 2)
    assert first["games"] == second["games"] == 9
    # Player 0: deal 0 twice, deal 1 once, half of deal 3's shared win, deal 4.
    assert first["win_rate"] == pytest.approx(4.5 / 9)
    # Player 1: deal 1's second game, deal 3's first, half of deal 3's shared win.
    assert second["win_rate"] == pytest.approx(2.5 / 9)
    assert first["points_per_hand"] is None  # no hands in these games


def _elo_text(score: float) -> str:
    return f"{-400 * math.log10(1 / score - 1) + 0.0:+.1f}"


PLAYERS = (Player.parse("random"), Player.parse("heuristic"))


@pytest.mark.parametrize("pairs", [2, 10])
def test_pairs_that_all_split_still_give_an_interval_as_wide_as_the_sample_is_small(
    pairs: int,
) -> None:
    # Each deal won by the seat that holds it (the first player wins rotation 0, loses 1).
    results = [_game(deal, rotation, (0,)) for deal in range(pairs) for rotation in (0, 1)]
    # The posterior's variance for n split pairs (pseudo-counts 1, 1, n + 1, 1, 1 over the
    # pair scores 0, 1/4, 1/2, 3/4, 1): ((n + 1)/4 + 1/16 + 9/16 + 1) / (n + 5) - 1/4, over
    # n + 6; 1/384 for 10 pairs, 5/448 for 2.
    variance = (((pairs + 1) / 4 + 26 / 16) / (pairs + 5) - 1 / 4) / (pairs + 6)
    high = 0.5 + Z95 * math.sqrt(variance)
    line = report(results, PLAYERS, None).splitlines()[3]
    low_text, high_text = _elo_text(1 - high), _elo_text(high)
    assert line == f"p0 vs p1: score 0.500, Elo +0.0 [{low_text}, {high_text}] (95%), LOS 50.0%"
    assert float(high_text) > (70 if pairs == 10 else 150)


def test_a_clean_sweep_gives_a_one_sided_bound_not_infinity() -> None:
    # Ten deals played once each, all won by the first player: no pairs, ten games.
    results = [_game(deal, 0, (0,)) for deal in range(10)]
    # Pseudo-counts 1, 1, 11 over 0, 1/2, 1: posterior mean 23/26, standard deviation 1/13,
    # so the interval's top passes 1 and only its bottom bounds the difference.
    line = report(results, PLAYERS, None).splitlines()[3]
    expected = f"Elo {_elo_text(23 / 26)}, at least {_elo_text(23 / 26 - Z95 / 13)} (95%)"
    assert line.startswith(f"p0 vs p1: score 1.000, {expected}, LOS ")
    assert "inf" not in report(results, PLAYERS, None)
    assert "≥" in describe(results, 2, None) and "inf" not in describe(results, 2, None)
