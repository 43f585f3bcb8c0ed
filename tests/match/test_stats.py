"""The match statistics against published values: fastchess's own tests of its Elo and SPRT
computations (app/tests/elo_test.cpp and sprt_test.cpp, logistic model), and identities the
formulas must meet."""

from __future__ import annotations

import math

import pytest

from hipparchusd.match.stats import (
    Pentanomial,
    Sprt,
    Trinomial,
    elo_from_score,
    score_from_elo,
)


def test_elo_and_score_are_inverse_logistic() -> None:
    assert elo_from_score(0.5) == 0
    # 10 to 1 odds: 400 Elo (the definition of the Elo scale).
    assert elo_from_score(10 / 11) == pytest.approx(400)
    assert score_from_elo(-400) == pytest.approx(1 / 11)
    for elo in (-250.0, -3.0, 0.0, 17.5, 600.0):
        assert elo_from_score(score_from_elo(elo)) == pytest.approx(elo)
    assert elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf


@pytest.mark.parametrize(
    ("counts", "elo", "error", "los"),
    [
        # fastchess EloWDL 2: 136 wins, 96 losses, 111 draws.
        (Trinomial(136, 96, 111), 40.70, 30.43, 0.9960),
        # fastchess EloPentanomial 1 and 2 (ll, ld, wl, dd, wd, ww).
        (Pentanomial(34, 54, 31, 32, 64, 75), 55.58, 27.65, 1.0000),
        (Pentanomial(332, 433, 457, 41, 333, 334), -8.64, 10.33, 0.0505),
    ],
)
def test_elo_and_interval_match_fastchess(
    counts: Trinomial | Pentanomial, elo: float, error: float, los: float
) -> None:
    estimate = counts.estimate()
    assert estimate.elo == pytest.approx(elo, abs=0.01)
    assert estimate.error == pytest.approx(error, abs=0.01)
    assert estimate.los == pytest.approx(los, abs=0.00005)
    assert estimate.elo_low < estimate.elo < estimate.elo_high


def test_a_trinomial_interval_is_the_normal_one() -> None:
    # 60 wins and 40 losses: score 0.6, per-game variance 0.24, standard error 0.049.
    estimate = Trinomial(60, 40, 0).estimate()
    assert estimate.score == pytest.approx(0.6)
    half = 1.959963984540054 * math.sqrt(0.24 / 100)
    assert (estimate.score_low, estimate.score_high) == pytest.approx((0.6 - half, 0.6 + half))
    assert estimate.elo_low == pytest.approx(elo_from_score(0.6 - half))


@pytest.mark.parametrize(
    ("counts", "elo0", "elo1", "llr"),
    [
        # fastchess "logistic trinomial 1" and "2": Stats(wins, losses, draws).
        (Trinomial(21404, 21184, 40708), 0.5, 2.5, -1.57),
        (Trinomial(57433, 57030, 106593), 0.0, 2.0, -2.59),
        # fastchess "logistic pentanomial 1" and "2": Stats(ll, ld, wl, dd, wd, ww).
        (Pentanomial(223, 9863, 20279, 1000, 10037, 246), 0.5, 2.5, -3.07),
        (Pentanomial(871, 26175, 55003, 980, 26678, 821), 0.0, 2.0, -4.98),
    ],
)
def test_sprt_llr_matches_fastchess(
    counts: Trinomial | Pentanomial, elo0: float, elo1: float, llr: float
) -> None:
    sprt = Sprt(elo0=elo0, elo1=elo1, alpha=0.05, beta=0.05)
    assert sprt.llr(counts) == pytest.approx(llr, rel=0.01)


def test_sprt_bounds_and_decisions() -> None:
    sprt = Sprt.parse(["elo0=0", "elo1=20", "alpha=0.05", "beta=0.05"])
    # Wald's bounds: ln(0.05/0.95) and ln(0.95/0.05) = -+2.944.
    assert sprt.lower == pytest.approx(-2.944, abs=0.001)
    assert sprt.upper == pytest.approx(2.944, abs=0.001)
    assert sprt.llr(Trinomial(0, 0, 0)) == 0
    assert sprt.decision(sprt.llr(Trinomial(300, 100, 0))) == "H1"
    assert sprt.decision(sprt.llr(Trinomial(100, 300, 0))) == "H0"
    assert sprt.decision(sprt.llr(Trinomial(5, 5, 0))) is None
    # Evenly matched: the evidence leans to H0 (elo0 = 0) as games accumulate.
    assert sprt.llr(Trinomial(500, 500, 0)) < sprt.llr(Trinomial(50, 50, 0)) < 0


@pytest.mark.parametrize(
    "words",
    [["elo0=5", "elo1=5"], ["alpha=0"], ["beta=1.5"], ["gamma=1"], ["elo1=x"], ["alpha=0.6"]],
)
def test_bad_sprt_parameters_are_refused(words: list[str]) -> None:
    with pytest.raises(ValueError):
        Sprt.parse([*words, "beta=0.5"] if words == ["alpha=0.6"] else words)
