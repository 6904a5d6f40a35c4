"""Wilson intervals and standard errors against known values and their coverage."""

import math

import numpy as np
import pytest

from analyzer.stats import Mean, Proportion, wilson_interval


def test_wilson_known_values():
    # 8 successes in 10, 95%: (0.4902, 0.9433) (Wilson 1927; e.g. Newcombe 1998, table I method 3)
    lo, hi = wilson_interval(8, 10)
    assert lo == pytest.approx(0.4902, abs=1e-4) and hi == pytest.approx(0.9433, abs=1e-4)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_wilson_coverage_is_close_to_95_percent():
    rng = np.random.default_rng(7)
    p, n, trials = 0.3, 200, 4000
    hits = 0
    for k in rng.binomial(n, p, size=trials):
        lo, hi = Proportion(int(k), n).wilson()
        hits += lo <= p <= hi
    # coverage 0.95 +- 4 standard errors of a 4000-trial proportion
    assert abs(hits / trials - 0.95) < 4 * math.sqrt(0.95 * 0.05 / trials)


def test_mean_and_standard_error():
    m = Mean.of(np.array([1.0, 2.0, 3.0, 4.0]))
    assert m.mean == 2.5 and m.n == 4
    assert m.se == pytest.approx(math.sqrt(5 / 3) / 2)
    lo, hi = m.ci95()
    assert lo < 2.5 < hi
