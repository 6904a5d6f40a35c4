"""Estimates with their uncertainty: Wilson intervals for probabilities, means with standard errors.

Every number the analyzer reports comes with one of these (never a bare mean).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054
Z95_ONE_SIDED = 1.6448536269514722     # a one-sided 95% bound lies this many standard errors out


@dataclass(frozen=True)
class Proportion:
    successes: int
    n: int

    @property
    def p(self) -> float:
        return self.successes / self.n if self.n else float("nan")

    def wilson(self, z: float = Z95) -> tuple[float, float]:
        """Wilson score interval (default 95%)."""
        return wilson_interval(self.successes, self.n, z)

    @property
    def half_width(self) -> float:
        lo, hi = self.wilson()
        return (hi - lo) / 2


@dataclass(frozen=True)
class WeightedProportion:
    """A proportion estimated from weighted deals (importance weights): ``p``, its standard error, and
    the effective number of deals (Kish's) that its Wilson interval is computed on; with equal weights
    it is the plain proportion and its interval."""

    p: float
    se: float
    n_eff: float

    def wilson(self, z: float = Z95) -> tuple[float, float]:
        return wilson_interval(self.p * self.n_eff, self.n_eff, z)

    @property
    def half_width(self) -> float:
        lo, hi = self.wilson()
        return (hi - lo) / 2


@dataclass(frozen=True)
class Mean:
    mean: float
    se: float
    n: int

    @classmethod
    def of(cls, values: np.ndarray) -> "Mean":
        values = np.asarray(values, dtype=np.float64)
        n = values.size
        if n == 0:
            return cls(float("nan"), float("nan"), 0)
        se = float(values.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan")
        return cls(float(values.mean()), se, n)

    def ci95(self) -> tuple[float, float]:
        return self.mean - Z95 * self.se, self.mean + Z95 * self.se


def normal_within(mean: float, sd: float, bound: float) -> float:
    """The chance that a normal variable of ``mean`` and standard deviation ``sd`` lies within ±``bound``
    (with ``sd`` 0, whether ``mean`` does)."""
    if sd <= 0:
        return float(abs(mean) <= bound)
    scale = sd * math.sqrt(2)
    return 0.5 * (math.erf((bound - mean) / scale) - math.erf((-bound - mean) / scale))


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


class Moments:
    """Running first and second moments of a fixed set of per-deal features, so a long simulation keeps a
    few numbers instead of every result row (memory stays flat whatever the deal count).

    ``add`` takes a chunk of rows (deals x features).  Means, standard errors, proportions and the
    standard error of the difference of two features on the same deals (common random numbers) come
    out as if every row had been kept.  The data are shifted by the first chunk's means before the
    squares are summed, so the variances do not lose precision to large means.
    """

    def __init__(self, features: int):
        self.n = 0
        self._shift = np.zeros(features)
        self._sum = np.zeros(features)
        self._cross = np.zeros((features, features))

    def add(self, rows: np.ndarray) -> None:
        x = np.asarray(rows, dtype=np.float64)
        if x.ndim != 2 or x.shape[1] != self._sum.size:
            raise ValueError(f"expected rows of {self._sum.size} features, got shape {x.shape}")
        if not x.shape[0]:
            return
        if self.n == 0:
            self._shift = x.mean(axis=0)
        x = x - self._shift
        self.n += x.shape[0]
        self._sum += x.sum(axis=0)
        self._cross += x.T @ x

    def mean(self, i: int) -> float:
        return float(self._shift[i] + self._sum[i] / self.n) if self.n else float("nan")

    def covariance(self, i: int, j: int) -> float:
        """The sample covariance (ddof 1) of features ``i`` and ``j``; NaN under two rows."""
        if self.n < 2:
            return float("nan")
        return float((self._cross[i, j] - self._sum[i] * self._sum[j] / self.n) / (self.n - 1))

    def summary(self, i: int) -> Mean:
        """The mean of feature ``i`` with its standard error."""
        var = self.covariance(i, i)
        return Mean(self.mean(i), math.sqrt(max(var, 0.0) / self.n) if self.n > 1 else float("nan"), self.n)

    def difference(self, i: int, j: int) -> Mean:
        """Feature ``i`` minus feature ``j``, deal by deal, with its standard error."""
        return self.linear({i: 1.0, j: -1.0})

    def linear(self, combination: dict[int, float]) -> Mean:
        """The mean of a combination of features ({feature: coefficient}), deal by deal, with its standard
        error."""
        mean = sum(c * self.mean(i) for i, c in combination.items())
        if self.n < 2:
            return Mean(mean, float("nan"), self.n)
        return Mean(mean, math.sqrt(max(self._combined(combination, combination), 0.0) / self.n), self.n)

    def ratio(self, numerator: dict[int, float], weight: int) -> Mean:
        """The weighted mean sum(w y) / sum(w), where feature ``weight`` is each deal's weight w and the
        features of ``numerator`` ({feature: coefficient}) add up to each deal's w y (e.g. {i: 1, j: -1}
        for the difference of two weighted features).  Its standard error is the delta method's (the
        ratio estimator of importance sampling); ``n`` is the number of deals."""
        mu_w = self.mean(weight)
        r = sum(c * self.mean(i) for i, c in numerator.items()) / mu_w if mu_w else float("nan")
        if self.n < 2 or not mu_w:
            return Mean(r, float("nan"), self.n)
        v = dict(numerator)
        v[weight] = v.get(weight, 0.0) - r
        var = self._combined(v, v)
        return Mean(r, math.sqrt(max(var, 0.0) / self.n) / abs(mu_w), self.n)

    def controlled(self, numerator: dict[int, float], control: dict[int, float], reference: Mean,
                   weight: int | None = None) -> Mean:
        """The mean of the combination ``numerator`` ({feature: coefficient}; with feature ``weight`` each
        deal's weight w and the features times w, the weighted mean sum(w y) / sum(w), as ``ratio``) with
        the combination ``control`` of other features of the same deals as its control variate:
        ``reference`` is the control's mean measured by a run independent of this one, and the estimate
        is the numerator's mean less beta times (the control's mean here minus ``reference``), beta the
        coefficient that minimizes the variance (the regression of the one on the other, these deals').
        Its variance: the residual's over these deals plus beta^2 times the reference's.  Where the two
        agree deal by deal (the heuristic's play of a deal and the search's), most of the noise goes:
        1 - rho^2 of the numerator's variance is left, and the reference's, which a long cheap run
        keeps small.  ``n`` is the number of deals here."""
        mu_w = self.mean(weight) if weight is not None else 1.0
        if not self.n or not mu_w:
            return Mean(float("nan"), float("nan"), self.n)
        ry = sum(c * self.mean(i) for i, c in numerator.items()) / mu_w
        rx = sum(c * self.mean(i) for i, c in control.items()) / mu_w
        if self.n < 2:                    # one deal tells no coefficient: the plain estimate
            return Mean(ry, float("nan"), self.n)
        u, v = dict(numerator), dict(control)
        if weight is not None:            # the ratio estimator's linearization (delta method), as ``ratio``
            u[weight] = u.get(weight, 0.0) - ry
            v[weight] = v.get(weight, 0.0) - rx
        cuu, cuv, cvv = self._combined(u, u), self._combined(u, v), self._combined(v, v)
        beta = cuv / cvv if cvv > 0 else 0.0
        residual = max(cuu - 2 * beta * cuv + beta * beta * cvv, 0.0) / (self.n * mu_w * mu_w)
        spread = (beta * reference.se) ** 2 if beta else 0.0       # no control: the reference plays no part
        return Mean(ry - beta * (rx - reference.mean), math.sqrt(residual + spread), self.n)

    def controlled_proportion(self, i: int, x: int, reference: Mean, weight: int | None = None) -> WeightedProportion:
        """Feature ``i``, a 0/1 indicator (times the weight in feature ``weight``, when there is one), with
        feature ``x`` of the same deals as its control variate (``controlled``), as a proportion: its
        effective number of deals is the count (Kish's, when weighted) that would give the plain
        estimate this variance, on which its Wilson interval is computed."""
        estimate = self.controlled({i: 1.0}, {x: 1.0}, reference, weight)
        plain = self.summary(i) if weight is None else self.ratio({i: 1.0}, weight)
        count = self.n if weight is None else self.effective_n(weight)
        if estimate.se > 0 and plain.se > 0:
            count *= (plain.se / estimate.se) ** 2
        return WeightedProportion(min(1.0, max(0.0, estimate.mean)), estimate.se, count)

    def _combined(self, a: dict[int, float], b: dict[int, float]) -> float:
        """The covariance of two linear combinations of the features ({feature: coefficient})."""
        return sum(x * y * self.covariance(i, j) for i, x in a.items() for j, y in b.items())

    def effective_n(self, weight: int) -> float:
        """Kish's effective number of deals of the weights in feature ``weight``: n mean(w)^2 / mean(w^2)
        (n when the weights are equal)."""
        mu = self.mean(weight)
        if not self.n or not mu:
            return 0.0
        second = mu * mu + (self.covariance(weight, weight) * (self.n - 1) / self.n if self.n > 1 else 0.0)
        return self.n * mu * mu / second

    def weighted_proportion(self, i: int, weight: int) -> WeightedProportion:
        """Feature ``i``, a weighted 0/1 indicator (w y), as a weighted proportion."""
        r = self.ratio({i: 1.0}, weight)
        return WeightedProportion(r.mean, r.se, self.effective_n(weight))

    def proportion(self, i: int) -> Proportion:
        """Feature ``i``, a 0/1 indicator, as a proportion."""
        return Proportion(int(round(self.mean(i) * self.n)) if self.n else 0, self.n)
