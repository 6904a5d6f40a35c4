"""The simulation core's pieces without the kernels: the one policy registry and its views, the columns of
a run's rows (``Layout``), and ``Trials``' estimates as the ``Moments`` estimators give them."""

import numpy as np
import pytest

from analyzer.quality.match import POLICY_IDS as MATCH_IDS
from analyzer.runs import POLICY_IDS as RUN_IDS
from analyzer.runs import Settings
from analyzer.simulate import POLICIES as FAST_IDS
from analyzer.simulation.features import CONTRACT, OPTION
from analyzer.simulation.policies import MIXED, POLICIES, advice_choices, kernel_id, play_choices
from analyzer.simulation.trials import FIRST, LAST, Layout, Trials
from analyzer.stats import Moments
from kernels.pimc import is_search


def test_every_list_of_policies_is_a_view_of_the_registry():
    assert advice_choices() == [MIXED, "heuristic", "pimc", "random"]
    assert play_choices() == ["heuristic", "pimc", "random"]
    assert set(FAST_IDS) == {"random", "heuristic"}
    assert RUN_IDS.items() <= MATCH_IDS.items() and set(MATCH_IDS) == set(POLICIES) - {MIXED}
    for name, policy in POLICIES.items():
        if policy.kernel is not None:
            assert kernel_id(name) == policy.kernel and is_search(policy.kernel) == policy.searches, name
    for name in [MIXED, *RUN_IDS]:
        Settings(policy=name)                               # every run policy is a setting
    with pytest.raises(ValueError, match="unknown policy"):
        kernel_id(MIXED)                                    # the mixed model picks one per contract


def test_the_columns_are_those_of_the_three_former_layouts():
    k = 3
    odds = Layout(CONTRACT, 2 * k, LAST)                    # contracts, their heuristic play, the weight
    assert [odds.column(i, "made") for i in range(2 * k)] == [8 * i + 1 for i in range(2 * k)]
    assert odds.weight_column == 8 * k * 2 and odds.width == 8 * k * 2 + 1
    bid = Layout(OPTION, k, FIRST)                          # the weight, then the options
    assert bid.weight_column == 0 and [bid.column(i, "won") for i in range(k)] == [1 + 4 * i + 1 for i in range(k)]
    assert bid.block(2) == slice(9, 13) and bid.width == 1 + 4 * k
    plain = Layout(CONTRACT, k)
    assert plain.weight_column is None and plain.width == 8 * k


def moments_of(rows: np.ndarray) -> Moments:
    m = Moments(rows.shape[1])
    m.add(rows)
    return m


def test_trials_call_the_estimators_the_analyses_called():
    rng = np.random.default_rng(5)
    k, n = 2, 400
    plain = rng.integers(0, 2, size=(n, len(CONTRACT) * k)).astype(float)
    trials = Trials([0, 1], Layout(CONTRACT, k), moments_of(plain))
    m = trials.moments
    made, score = CONTRACT.index("made"), CONTRACT.index("score")
    assert trials.mean(1, "score") == m.summary(8 + score)
    assert trials.combination({1: 1.0}, "score") == m.linear({8 + score: 1.0})
    assert trials.difference(0, 1, "score") == m.linear({score: 1.0, 8 + score: -1.0})
    assert trials.share(0, "made") == m.proportion(made)

    weights = rng.uniform(0.5, 1.5, size=n)
    weighted = Trials([0, 1], Layout(CONTRACT, k, LAST), moments_of(np.column_stack([plain * weights[:, None],
                                                                                     weights])))
    w = weighted.moments
    assert weighted.mean(0, "score") == w.ratio({score: 1.0}, 16)
    assert weighted.share(1, "made") == w.weighted_proportion(8 + made, 16)
    assert weighted.effective_n() == w.effective_n(16)

    heuristic = np.where(rng.random(plain.shape) < 0.8, plain, 1 - plain)         # agrees on most deals
    reference = Trials([0, 1], Layout(CONTRACT, k), moments_of(rng.integers(0, 2, size=(n, 8 * k)).astype(float)))
    controlled = Trials([0, 1], Layout(CONTRACT, 2 * k), moments_of(np.hstack([plain, heuristic])), [0, 1], reference)
    c = controlled.moments
    features = CONTRACT.control_features("made")
    means = reference.moments.control_means([{8 + CONTRACT.index(f): 1.0} for f in features])
    expected = c.controlled_proportion(8 + made, [{24 + CONTRACT.index(f): 1.0} for f in features], means)
    assert controlled.share(1, "made") == expected
