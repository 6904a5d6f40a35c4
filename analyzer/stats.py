"""Estimates with their uncertainty: Wilson intervals for probabilities, means with standard errors.

Every number the analyzer reports comes with one of these (never a bare mean).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054


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
        if self.n < 2:
            return Mean(self.mean(i) - self.mean(j), float("nan"), self.n)
        var = self.covariance(i, i) + self.covariance(j, j) - 2 * self.covariance(i, j)
        return Mean(self.mean(i) - self.mean(j), math.sqrt(max(var, 0.0) / self.n), self.n)

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
        var = sum(a * b * self.covariance(i, j) for i, a in v.items() for j, b in v.items())
        return Mean(r, math.sqrt(max(var, 0.0) / self.n) / abs(mu_w), self.n)

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
