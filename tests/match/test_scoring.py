"""A match's figures from its games (hipparchusd.match.scoring): each game scored for the first
player (a winning seat held alone wins, otherwise a draw), a deal's two rotations counted as one
pentanomial pair, an incomplete pair counted per game only, and the win rates shared."""

from __future__ import annotations

import pytest

from hipparchusd.match.config import GameResult
from hipparchusd.match.scoring import counts, per_player

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
