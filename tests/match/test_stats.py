"""The match statistics: the Elo interval against its method's formula (the posterior under a
uniform Dirichlet prior) on small samples, and, for large ones and the SPRT, against published
values: fastchess's own tests of its Elo and SPRT computations (app/tests/elo_test.cpp and
sprt_test.cpp, logistic model); identities the formulas must meet."""

from __future__ import annotations

import math

import pytest

from hipparchusd.match.stats import (
    Z95,
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


def _elo(score: float) -> float:
    return -400 * math.log10(1 / score - 1)


@pytest.mark.parametrize(
    ("counts", "mean", "variance"),
    [
        # 20 games, every pair split (a win and a loss): the pairs' own variance is zero, but
        # the posterior's is not. Pseudo-counts c = (1, 1, 11, 1, 1) over the pair scores
        # (0, 1/4, 1/2, 3/4, 1), C = 15: m = 1/2, sum a^2 c / C = (1/16 + 11/4 + 9/16 + 1) / 15
        # = 7/24, v = (7/24 - 1/4) / 16 = 1/384.
        (Pentanomial(0, 0, 10, 0, 0, 0), 1 / 2, 1 / 384),
        # 4 games, both pairs split: c = (1, 1, 3, 1, 1), C = 7: sum a^2 c / C = 19/56,
        # v = (19/56 - 1/4) / 8 = 5/448: fewer games, a wider interval.
        (Pentanomial(0, 0, 2, 0, 0, 0), 1 / 2, 5 / 448),
        # 10 games won in 5 pairs: c = (1, 1, 1, 1, 6), C = 10: m = (1/4 + 1/2 + 3/4 + 6) / 10
        # = 3/4, sum a^2 c / C = (1/16 + 1/4 + 9/16 + 6) / 10 = 11/16, v = (11/16 - 9/16) / 11.
        (Pentanomial(0, 0, 0, 0, 0, 5), 3 / 4, 1 / 88),
        # 3 wins, 1 loss, 2 draws, no pairs: c = (2, 3, 4) over (0, 1/2, 1), C = 9:
        # m = (3/2 + 4) / 9 = 11/18, sum a^2 c / C = (3/4 + 4) / 9 = 19/36,
        # v = (19/36 - 121/324) / 10 = (171 - 121) / 3240 = 5/324.
        (Trinomial(3, 1, 2), 11 / 18, 5 / 324),
    ],
)
def test_the_interval_is_the_posteriors_under_a_uniform_prior(
    counts: Trinomial | Pentanomial, mean: float, variance: float
) -> None:
    estimate = counts.estimate()
    spread = Z95 * math.sqrt(variance)
    assert estimate.expected == pytest.approx(mean)
    assert (estimate.score_low, estimate.score_high) == pytest.approx(
        (mean - spread, mean + spread)
    )
    assert estimate.elo == pytest.approx(_elo(mean))
    assert (estimate.elo_low, estimate.elo_high) == pytest.approx(
        (_elo(mean - spread), _elo(mean + spread))
    )
    assert estimate.error == pytest.approx((_elo(mean + spread) - _elo(mean - spread)) / 2)
    # The likelihood of superiority: P(s > 1/2) under the posterior's normal approximation.
    los = 0.5 * (1 + math.erf((mean - 0.5) / math.sqrt(2 * variance)))
    assert estimate.los == pytest.approx(los)
    assert 0 < estimate.error < math.inf


def test_a_clean_sweep_bounds_one_side_only() -> None:
    # 10 games won, no pairs: c = (1, 1, 11) over (0, 1/2, 1), C = 13: m = 23/26,
    # sum a^2 c / C = 45/52, v = (45/52 - 529/676) / 14 = 1/169: sd 1/13, and m + 1.96/13 > 1.
    estimate = Trinomial(10, 0, 0).estimate()
    assert estimate.score == 1.0
    assert estimate.expected == pytest.approx(23 / 26)
    assert estimate.score_high == 1.0 and estimate.elo_high == math.inf
    assert estimate.score_low == pytest.approx(23 / 26 - Z95 / 13)
    assert estimate.elo_low == pytest.approx(_elo(23 / 26 - Z95 / 13))
    assert math.isfinite(estimate.elo) and estimate.error == math.inf
    # And the mirror image for 10 games lost.
    lost = Trinomial(0, 10, 0).estimate()
    assert lost.elo_low == -math.inf and lost.elo_high == pytest.approx(-estimate.elo_low)


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
def test_with_many_games_the_prior_fades_to_fastchess_figures(
    counts: Trinomial | Pentanomial, elo: float, error: float, los: float
) -> None:
    # fastchess's normal interval from the sample's own variance; the prior's 3 or 5
    # pseudo-counts among hundreds move the figures by less than an Elo point.
    estimate = counts.estimate()
    assert estimate.elo == pytest.approx(elo, abs=1.0)
    assert estimate.error == pytest.approx(error, abs=0.3)
    assert estimate.los == pytest.approx(los, abs=0.001)
    assert estimate.elo_low < estimate.elo < estimate.elo_high


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
