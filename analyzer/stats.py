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
