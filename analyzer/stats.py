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


@dataclass(frozen=True)
class ControlMeans:
    """The means of control variates measured by a run independent of the one they control
    (``Moments.control_means``), with the covariance matrix of those means."""
    mean: np.ndarray
    covariance: np.ndarray


def regression(cvv: np.ndarray, cuv: np.ndarray) -> tuple[np.ndarray, int]:
    """The coefficients of the least-squares regression of a variable on others, from their covariances
    (``cvv`` among the others, ``cuv`` with the variable), and the count of the others that tell something
    (the rank): a variable that does not vary gets 0; collinear ones share (the least-norm solution)."""
    beta = np.zeros(cuv.size)
    scale = np.sqrt(np.clip(np.diag(cvv), 0.0, None))
    live = scale > 1e-12 * max(1.0, scale.max(initial=0.0))
    if not live.any():
        return beta, 0
    s = scale[live]
    solution, _, rank, _ = np.linalg.lstsq(cvv[np.ix_(live, live)] / np.outer(s, s), cuv[live] / s, rcond=1e-9)
    beta[live] = solution / s
    return beta, int(rank)


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
        v = self._linearized(numerator, r, weight)
        var = self._combined(v, v)
        return Mean(r, math.sqrt(max(var, 0.0) / self.n) / abs(mu_w), self.n)

    def control_means(self, controls: list[dict[int, float]], weight: int | None = None) -> ControlMeans:
        """The means of the combinations ``controls`` ({feature: coefficient} each; with feature ``weight``
        each deal's weight and the features times it, weighted means, as ``ratio``) and the covariance of
        those means, for a run that takes them as control variates (``controlled``)."""
        mu_w = self.mean(weight) if weight is not None else 1.0
        means = self._means(controls) / mu_w
        if self.n < 2 or not mu_w:
            return ControlMeans(means, np.full((len(controls), len(controls)), np.nan))
        rows = self._vectors([self._linearized(v, m, weight) for v, m in zip(controls, means)])
        return ControlMeans(means, rows @ self.covariance_matrix() @ rows.T / (self.n * mu_w * mu_w))

    def controlled(self, numerator: dict[int, float], controls: list[dict[int, float]], reference: ControlMeans,
                   weight: int | None = None) -> Mean:
        """The mean of the combination ``numerator`` ({feature: coefficient}; with feature ``weight`` each
        deal's weight w and the features times w, the weighted mean sum(w y) / sum(w), as ``ratio``) with
        the combinations ``controls`` of other features of the same deals as its control variates:
        ``reference`` holds their means measured by a run independent of this one (``control_means``), and
        the estimate is the numerator's mean less beta . (the controls' means here minus the reference's),
        beta the coefficients that minimize the variance (the regression of the one on the others, these
        deals').  Its variance: the residual's over these deals (on n - 1 - k degrees of freedom, k the
        controls that tell something: ``regression``'s rank) plus beta' (the reference's covariance) beta.
        Where they agree deal by deal (the heuristic's play of a deal and the search's), most of the noise
        goes: 1 - R^2 of the numerator's variance is left, and the reference's, which a long cheap run keeps
        small.  A control that does not vary on these deals plays no part.  ``n`` is the number of deals
        here."""
        mu_w = self.mean(weight) if weight is not None else 1.0
        if not self.n or not mu_w:
            return Mean(float("nan"), float("nan"), self.n)
        ry = float(self._means([numerator])[0]) / mu_w
        rx = self._means(controls) / mu_w
        if self.n < 2:                    # one deal tells no coefficient: the plain estimate
            return Mean(ry, float("nan"), self.n)
        u = self._vectors([self._linearized(numerator, ry, weight)])[0]
        v = self._vectors([self._linearized(c, x, weight) for c, x in zip(controls, rx)])
        covariance = self.covariance_matrix()
        cuu, cuv, cvv = u @ covariance @ u, v @ covariance @ u, v @ covariance @ v.T
        beta, fitted = regression(cvv, cuv)
        if self.n - 1 - fitted <= 0:      # too few deals to fit them: the plain estimate
            beta, fitted = np.zeros_like(beta), 0
        left = max(cuu - 2 * beta @ cuv + beta @ cvv @ beta, 0.0) * (self.n - 1) / (self.n - 1 - fitted)
        spread = float(beta @ reference.covariance @ beta) if fitted else 0.0   # no control: no reference's part
        return Mean(float(ry - beta @ (rx - reference.mean)),
                    math.sqrt(max(left / (self.n * mu_w * mu_w) + spread, 0.0)), self.n)

    def controlled_proportion(self, i: int, controls: list[dict[int, float]], reference: ControlMeans,
                              weight: int | None = None) -> WeightedProportion:
        """Feature ``i``, a 0/1 indicator (times the weight in feature ``weight``, when there is one), with
        the combinations ``controls`` of features of the same deals as its control variates
        (``controlled``), as a proportion: its effective number of deals is the count (Kish's, when
        weighted) that would give the plain estimate this variance, on which its Wilson interval is
        computed."""
        estimate = self.controlled({i: 1.0}, controls, reference, weight)
        plain = self.summary(i) if weight is None else self.ratio({i: 1.0}, weight)
        count = self.n if weight is None else self.effective_n(weight)
        if estimate.se > 0 and plain.se > 0:
            count *= (plain.se / estimate.se) ** 2
        return WeightedProportion(min(1.0, max(0.0, estimate.mean)), estimate.se, count)

    def covariance_matrix(self) -> np.ndarray:
        """The sample covariances (ddof 1) of every pair of features."""
        return (self._cross - np.outer(self._sum, self._sum) / self.n) / (self.n - 1)

    def _means(self, combinations: list[dict[int, float]]) -> np.ndarray:
        """The means of linear combinations of the features ({feature: coefficient})."""
        return np.array([sum(c * self.mean(i) for i, c in v.items()) for v in combinations])

    def _vectors(self, combinations: list[dict[int, float]]) -> np.ndarray:
        """Linear combinations of the features ({feature: coefficient}) as rows of coefficients."""
        rows = np.zeros((len(combinations), self._sum.size))
        for k, combination in enumerate(combinations):
            for i, c in combination.items():
                rows[k, i] += c
        return rows

    @staticmethod
    def _linearized(combination: dict[int, float], mean: float, weight: int | None) -> dict[int, float]:
        """A weighted mean's linearization (the delta method's, as ``ratio``): the combination less its
        mean times the weight."""
        if weight is None:
            return combination
        out = dict(combination)
        out[weight] = out.get(weight, 0.0) - mean
        return out

    def _combined(self, a: dict[int, float], b: dict[int, float]) -> float:
        """The covariance of two linear combinations of the features ({feature: coefficient})."""
        va, vb = self._vectors([a, b])
        return float(va @ self.covariance_matrix() @ vb)

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
