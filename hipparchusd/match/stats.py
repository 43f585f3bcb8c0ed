"""The statistics of a match between two players (issue 18's match runner):

- the score (wins plus half the draws, per game) and its Elo difference
  ``-400 log10(1/score - 1)``, with a 95% interval that reflects the sample however small it
  is: the posterior of the expected score under a uniform Dirichlet prior over the outcomes of
  a game (:class:`Trinomial`) or, for duplicate deals played in pairs with the seats swapped, of
  a pair (:class:`Pentanomial`, whose variance leaves out the luck of the deal shared by a pair);
  see :func:`posterior`. With many games it is the normal interval of cutechess and fastchess;
  with few it stays wide, where the sample's own variance may be zero (every pair split);
- the generalised sequential probability ratio test (:class:`Sprt`): the log-likelihood ratio
  of "the Elo difference is ``elo1``" against "it is ``elo0``" in the logistic model, with the
  maximum-likelihood distributions of Michel Van den Bergh's "Comments on Normalized Elo"
  (proposition 1.1), stopping when it leaves ``[ln(beta/(1-alpha)), ln((1-beta)/alpha)]``.

Pure functions of counts; no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs

#: The 97.5th percentile of the standard normal distribution (two-sided 95%).
Z95 = 1.959963984540054

#: What an empty category counts as in the SPRT's likelihoods (as fastchess: a zero would make
#: the maximum-likelihood distribution degenerate).
EMPTY = 1e-3


#: The prior's pseudo-count of each outcome (of a game, or of a pair): the uniform Dirichlet prior
#: of Bayes and Laplace, as if one game (or pair) of each kind had been played besides those
#: played.
PRIOR = 1.0


def elo_from_score(score: float) -> float:
    """The Elo difference for an expected score (0 < score < 1); infinite at 0 and 1."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    """The expected score for an Elo difference (the logistic curve)."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


@attrs.frozen
class Estimate:
    """What the games say of the first player against the second.

    ``score`` is the score the games gave (per game, 0 to 1); ``expected`` the posterior mean of
    the expected score and ``score_low``..``score_high`` its 95% interval (clipped to 0..1);
    ``elo`` and ``elo_low``..``elo_high`` the same as Elo differences, an end infinite where
    the interval reaches a score of 0 or 1 (then it bounds one side only); ``error`` half the
    interval's width in Elo (the ``+/-`` of cutechess and fastchess; infinite when an end is);
    ``los`` the likelihood of superiority (the posterior probability that the first player is
    the stronger)."""

    score: float
    expected: float
    score_low: float
    score_high: float
    elo: float
    elo_low: float
    elo_high: float
    error: float
    los: float


def posterior(scores: Sequence[float], counts: Sequence[float], observed: float) -> Estimate:
    """The estimate from ``counts`` of outcomes worth ``scores`` (per game, 0 to 1) whose
    observed mean score is ``observed``.

    The method: the outcomes' probabilities ``p`` get the Dirichlet prior of parameters
    :data:`PRIOR`, so their posterior is Dirichlet with ``c_i = counts_i + PRIOR`` (Gelman et
    al., *Bayesian Data Analysis*, 3rd ed., section 3.4); the expected score ``s = sum a_i p_i``
    (``a`` the ``scores``) then has the posterior mean ``m = sum a_i c_i / C`` and variance
    ``v = (sum a_i^2 c_i / C - m^2) / (C + 1)``, ``C = sum c_i`` (the moments of the Dirichlet
    distribution, ibid. appendix A), and the interval is ``m -/+ 1.96 sqrt(v)`` (its normal
    approximation), clipped to 0..1. The prior keeps ``v`` above zero and the interval wide
    while the games are few, whatever they were; its weight fades as they grow.
    """
    pseudo = [count + PRIOR for count in counts]
    total = sum(pseudo)
    mean = sum(a * c for a, c in zip(scores, pseudo, strict=True)) / total
    second = sum(a * a * c for a, c in zip(scores, pseudo, strict=True)) / total
    variance = (second - mean * mean) / (total + 1.0)
    spread = Z95 * math.sqrt(variance)
    low, high = max(0.0, mean - spread), min(1.0, mean + spread)
    elo_low, elo_high = elo_from_score(low), elo_from_score(high)
    los = 0.5 * (1.0 + math.erf((mean - 0.5) / math.sqrt(2.0 * variance)))
    return Estimate(
        observed,
        mean,
        low,
        high,
        elo_from_score(mean),
        elo_low,
        elo_high,
        (elo_high - elo_low) / 2,
        los,
    )


def _mean(values: Sequence[float], weights: Sequence[float]) -> float:
    return sum(v * w for v, w in zip(values, weights, strict=True)) / sum(weights)


@attrs.frozen
class Trinomial:
    """Games counted as the first player's wins, losses and draws.

    Raises:
        ValueError: a negative count.
    """

    wins: int
    losses: int
    draws: int

    def __attrs_post_init__(self) -> None:
        if min(self.wins, self.losses, self.draws) < 0:
            raise ValueError("counts cannot be negative")

    @property
    def games(self) -> int:
        """The games counted."""
        return self.wins + self.losses + self.draws

    def estimate(self) -> Estimate:
        """The score and Elo difference with their 95% intervals, each game an outcome
        (:func:`posterior`).

        Raises:
            ValueError: no games.
        """
        if not self.games:
            raise ValueError("no games to estimate from")
        scores, counts = self.categories()
        return posterior(scores, counts, _mean(scores, counts))

    def categories(self) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """The scores (0, 1/2, 1) and their counts, for :meth:`Sprt.llr`."""
        return (0.0, 0.5, 1.0), (self.losses, self.draws, self.wins)


@attrs.frozen
class Pentanomial:
    """Pairs of games (one deal, the seats swapped) counted by the first player's total over
    the pair: ``ll`` (two losses), ``ld`` (a loss and a draw), ``wl`` (a win and a loss),
    ``dd`` (two draws), ``wd`` (a win and a draw), ``ww`` (two wins).

    Raises:
        ValueError: a negative count.
    """

    ll: int
    ld: int
    wl: int
    dd: int
    wd: int
    ww: int

    def __attrs_post_init__(self) -> None:
        if min(self.ll, self.ld, self.wl, self.dd, self.wd, self.ww) < 0:
            raise ValueError("counts cannot be negative")

    @property
    def pairs(self) -> int:
        """The pairs counted."""
        return self.ll + self.ld + self.wl + self.dd + self.wd + self.ww

    def categories(self) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """The pair scores per game (0, 1/4, 1/2, 3/4, 1) and their counts (a win and a loss
        score as two draws), for :meth:`Sprt.llr`."""
        return (0.0, 0.25, 0.5, 0.75, 1.0), (self.ll, self.ld, self.wl + self.dd, self.wd, self.ww)

    def estimate(self) -> Estimate:
        """The score per game and Elo difference with their 95% intervals, each pair an
        outcome (:func:`posterior`).

        Raises:
            ValueError: no pairs.
        """
        if not self.pairs:
            raise ValueError("no pairs to estimate from")
        scores, counts = self.categories()
        return posterior(scores, counts, _mean(scores, counts))


def _mle(scores: Sequence[float], probs: Sequence[float], s: float) -> list[float]:
    """The distribution over ``scores`` closest to the empirical ``probs`` (maximum likelihood)
    whose expected score is ``s``: ``p_i = probs_i / (1 + theta (a_i - s))``, ``theta`` the root
    of ``sum probs_i (a_i - s) / (1 + theta (a_i - s)) = 0`` (found by bisection)."""

    def f(theta: float) -> float:
        return sum(
            p * (a - s) / (1.0 + theta * (a - s)) for a, p in zip(scores, probs, strict=True)
        )

    # Every 1 + theta (a_i - s) stays positive strictly between these bounds.
    low = -1.0 / (max(scores) - s)
    high = -1.0 / (min(scores) - s)
    # f decreases in theta from +inf at ``low`` to -inf at ``high``.
    for _ in range(200):
        middle = (low + high) / 2.0
        if f(middle) > 0:
            low = middle
        else:
            high = middle
    theta = (low + high) / 2.0
    return [p / (1.0 + theta * (a - s)) for a, p in zip(scores, probs, strict=True)]


@attrs.frozen
class Sprt:
    """A sequential probability ratio test of H0 "the Elo difference is ``elo0``" against H1
    "it is ``elo1``" with error rates ``alpha`` (accepting H1 when H0 holds) and ``beta``
    (accepting H0 when H1 holds), in the logistic Elo model.

    Raises:
        ValueError: ``elo0 >= elo1``, or an error rate outside (0, 1), or ``alpha + beta >= 1``.
    """

    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05

    def __attrs_post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError("elo0 must be less than elo1")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0 < value < 1:
                raise ValueError(f"{name} must be between 0 and 1, not {value}")
        if self.alpha + self.beta >= 1:
            raise ValueError("alpha + beta must be less than 1")

    @property
    def lower(self) -> float:
        """Below this log-likelihood ratio, H0 is accepted: ``ln(beta / (1 - alpha))``."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """Above this log-likelihood ratio, H1 is accepted: ``ln((1 - beta) / alpha)``."""
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, counts: Trinomial | Pentanomial) -> float:
        """The log-likelihood ratio of H1 against H0 given ``counts`` (0 with no games)."""
        scores, raw = counts.categories()
        if not sum(raw):
            return 0.0
        regular = [count if count else EMPTY for count in raw]
        total = sum(regular)
        probs = [count / total for count in regular]
        p0 = _mle(scores, probs, score_from_elo(self.elo0))
        p1 = _mle(scores, probs, score_from_elo(self.elo1))
        return total * sum(
            p * (math.log(b) - math.log(a)) for p, a, b in zip(probs, p0, p1, strict=True)
        )

    def decision(self, llr: float) -> str | None:
        """``"H1"`` (the difference is at least ``elo1``: stop), ``"H0"`` (at most ``elo0``:
        stop), or ``None`` (play on)."""
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None

    @classmethod
    def parse(cls, words: Sequence[str]) -> Sprt:
        """From ``elo0=0 elo1=20 alpha=0.05 beta=0.05`` words (any omitted keeps its default).

        Raises:
            ValueError: an unknown key, a value that is not a number, or as the constructor.
        """
        values: dict[str, float] = {}
        for word in words:
            key, equals, text = word.partition("=")
            if not equals or key not in ("elo0", "elo1", "alpha", "beta"):
                raise ValueError(f"{word!r}: expected elo0=, elo1=, alpha= or beta=")
            try:
                values[key] = float(text)
            except ValueError:
                raise ValueError(f"{word!r}: {text!r} is not a number") from None
        return cls(**values)
