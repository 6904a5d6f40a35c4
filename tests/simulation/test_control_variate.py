"""The heuristic's play as control variate of a search (``Moments.controlled``): the estimate keeps its
expectation, its standard error is right (z-scores of unit variance over many runs, fixed seeds), and
it narrows as the two plays agree; then in odds and bid, the control columns are the heuristic's play of
the searched deals themselves."""

import math

import numpy as np
import pytest

from analyzer.advice.bid import bid_advice
from analyzer.advice.choices import call_options, compare
from analyzer.advice.odds import contract_odds, group_run, summary
from analyzer.hand import Hand
from analyzer.rules import Contract, Rules
from analyzer.runs import MIXED_SEARCH, MIXED_WORLDS, Settings
from analyzer.simulation.bridge import simulate_contract
from analyzer.simulation.features import contract_features
from analyzer.stats import ControlMeans, Mean, Moments

RUNS = 600          # replications of a synthetic run
AGREE = 0.8         # the share of deals where the search's outcome is the heuristic's


def synthetic(rng: np.random.Generator, n: int, weighted: bool) -> np.ndarray:
    """``n`` deals of (search made, heuristic made[, weight]): the heuristic makes it with probability
    0.4, the search agrees on AGREE of the deals and makes it with probability 0.5 on the others; a
    weighted deal weighs an exponential draw, larger where the heuristic makes it (so the weighted
    mean is not the plain one)."""
    x = rng.random(n) < 0.4
    y = np.where(rng.random(n) < AGREE, x, rng.random(n) < 0.5)
    if not weighted:
        return np.column_stack([y, x]).astype(float)
    w = rng.exponential(1.0, n) * np.where(x, 2.0, 1.0)
    return np.column_stack([w * y, w * x, w])


def expected(weighted: bool) -> float:
    """The search's (weighted) probability of success in ``synthetic``: E[w y] / E[w]."""
    share = {True: (2.0, 1.0), False: (1.0, 1.0)}[weighted]     # mean weight where x, where not x
    made = 0.4 * share[0] * (AGREE + (1 - AGREE) * 0.5) + 0.6 * share[1] * (1 - AGREE) * 0.5
    return made / (0.4 * share[0] + 0.6 * share[1])


def reference_mean(rng: np.random.Generator, n: int, weighted: bool) -> ControlMeans:
    """The control's mean from an independent run of ``n`` deals."""
    m = Moments(3 if weighted else 2)
    m.add(synthetic(rng, n, weighted))
    return m.control_means([{1: 1.0}], 2 if weighted else None)


@pytest.mark.parametrize("weighted", [False, True])
def test_the_controlled_estimate_keeps_its_expectation_and_its_standard_error_is_right(weighted):
    rng = np.random.default_rng(11)
    truth, weight = expected(weighted), (2 if weighted else None)
    z, narrower = [], []
    for _ in range(RUNS):
        m = Moments(3 if weighted else 2)
        m.add(synthetic(rng, 300, weighted))
        got = m.controlled({0: 1.0}, [{1: 1.0}], reference_mean(rng, 3000, weighted), weight)
        plain = m.ratio({0: 1.0}, 2) if weighted else m.summary(0)
        z.append((got.mean - truth) / got.se)
        narrower.append(got.se / plain.se)
    z = np.array(z)
    # the mean of RUNS unit-variance z-scores is within 4 / sqrt(RUNS) of 0; their variance within 15%
    # (its standard error over 600 runs is about 6%)
    assert abs(z.mean()) < 4 / math.sqrt(RUNS)
    assert 0.85 < z.var() < 1.15
    # the plays agree on 80% of the deals (rho about 0.8): the error falls to about sqrt(1 - rho^2) of
    # the plain estimate's, with the reference's own share on top
    assert 0.5 < np.mean(narrower) < 0.75


def test_a_controlled_proportion_counts_the_deals_its_variance_is_worth():
    rng = np.random.default_rng(3)
    m = Moments(2)
    m.add(synthetic(rng, 500, False))
    reference = reference_mean(rng, 5000, False)
    share = m.controlled_proportion(0, [{1: 1.0}], reference)
    got, plain = m.controlled({0: 1.0}, [{1: 1.0}], reference), m.summary(0)
    assert share.p == got.mean and share.se == got.se
    assert share.n_eff == pytest.approx(500 * (plain.se / got.se) ** 2)
    assert share.half_width < m.proportion(0).half_width


def test_equal_weights_give_the_unweighted_estimate_and_no_agreement_gives_the_plain_one():
    rng = np.random.default_rng(5)
    rows = synthetic(rng, 400, False)
    plain, weighted = Moments(2), Moments(3)
    plain.add(rows)
    weighted.add(np.column_stack([rows, np.ones(len(rows))]))
    reference = ControlMeans(np.array([0.41]), np.array([[0.004 ** 2]]))
    a, b = plain.controlled({0: 1.0}, [{1: 1.0}], reference), weighted.controlled({0: 1.0}, [{1: 1.0}], reference, 2)
    assert a.mean == pytest.approx(b.mean) and a.se == pytest.approx(b.se)
    # a control that does not vary leaves the plain estimate, whatever the reference says
    flat = Moments(2)
    flat.add(np.column_stack([rows[:, 0], np.zeros(len(rows))]))
    assert flat.controlled({0: 1.0}, [{1: 1.0}], ControlMeans(np.array([0.9]), np.array([[1e-4]]))) == flat.summary(0)


def margins(rng: np.random.Generator, n: int) -> np.ndarray:
    """``n`` deals of (search made, heuristic made, heuristic margin): the heuristic's margin is normal
    around 0; the search makes it where that margin plus its own normal error is at least 0 (so with
    probability 1/2), more often the wider the heuristic's margin, which its made alone does not say."""
    margin = rng.normal(0.0, 20.0, n)
    return np.column_stack([margin + rng.normal(0.0, 10.0, n) >= 0, margin >= 0, margin]).astype(float)


def test_several_controls_keep_the_expectation_get_the_error_right_and_narrow_it_further():
    rng = np.random.default_rng(17)
    z, ratio = [], []
    for _ in range(RUNS):
        m, r = Moments(3), Moments(3)
        m.add(margins(rng, 300))
        r.add(margins(rng, 3000))
        both = m.controlled({0: 1.0}, [{1: 1.0}, {2: 1.0}], r.control_means([{1: 1.0}, {2: 1.0}]))
        made = m.controlled({0: 1.0}, [{1: 1.0}], r.control_means([{1: 1.0}]))
        z.append((both.mean - 0.5) / both.se)
        ratio.append((both.se / made.se) ** 2)
    z = np.array(z)
    assert abs(z.mean()) < 4 / math.sqrt(RUNS)          # as the one control's test above
    assert 0.85 < z.var() < 1.15
    # made alone leaves about 0.50 of the search's variance, made and the margin together 0.44 (computed on
    # a million deals): the variance falls by about an eighth more, as the heuristic's margin does in play
    assert 0.8 < np.mean(ratio) < 0.95


def test_several_controls_are_the_least_squares_regression_on_them():
    rng = np.random.default_rng(23)
    rows = margins(rng, 200)
    m, r = Moments(3), Moments(3)
    m.add(rows)
    r.add(margins(rng, 1000))
    reference = r.control_means([{1: 1.0}, {2: 1.0}])
    got = m.controlled({0: 1.0}, [{1: 1.0}, {2: 1.0}], reference)
    x = np.column_stack([np.ones(200), rows[:, 1:]])
    beta, *_ = np.linalg.lstsq(x, rows[:, 0], rcond=None)
    residual = rows[:, 0] - x @ beta
    want = rows[:, 0].mean() - beta[1:] @ (rows[:, 1:].mean(axis=0) - reference.mean)
    se = math.sqrt(residual @ residual / (200 - 3) / 200 + beta[1:] @ reference.covariance @ beta[1:])
    assert got.mean == pytest.approx(want) and got.se == pytest.approx(se) and got.n == 200
    # the reference: the control run's means, the covariance of those means
    assert reference.mean == pytest.approx(np.array([r.mean(1), r.mean(2)]))
    assert reference.covariance == pytest.approx(r.covariance_matrix()[1:, 1:] / 1000)
    # a control twice (collinear) or one that does not vary tells nothing more
    twice = m.controlled({0: 1.0}, [{1: 1.0}, {2: 1.0}, {2: 2.0}], r.control_means([{1: 1.0}, {2: 1.0}, {2: 2.0}]))
    assert twice.mean == pytest.approx(got.mean) and twice.se == pytest.approx(got.se)
    flat = Moments(4)
    flat.add(np.column_stack([rows, np.full(200, 3.0)]))
    still = flat.controlled({0: 1.0}, [{1: 1.0}, {2: 1.0}, {3: 1.0}],
                            ControlMeans(np.append(reference.mean, 9.0), np.pad(reference.covariance, (0, 1))))
    assert still.mean == pytest.approx(got.mean) and still.se == pytest.approx(got.se)


HAND_5 = Hand.parse("21 18 13 7 2 JS 7S 1S 9H 5H 3H 10D QC JC 4C")      # 5 players: Garde sans and contre searched


def test_the_control_columns_are_the_heuristic_s_play_of_the_searched_deals():
    rules, contracts = Rules(5), [Contract.GARDE_SANS, Contract.GARDE_CONTRE]
    run = Settings(precision=0.05, seed=8).for_contract(Contract.GARDE_SANS, 5)
    assert run.controlled
    group = group_run(HAND_5, rules, 0, contracts, run)
    n = group.n
    for k, contract in enumerate(contracts):
        rows = simulate_contract(HAND_5, 0, contract, rules, "heuristic", n, run.seed, worlds=run.worlds,
                                 search_driver=True)
        made = contract_features(rows, 0)[:, 1]
        column = group.layout.column(len(contracts) + k, "made")      # the heuristic's block of contract k
        assert group.moments.mean(column) == pytest.approx(made.mean(), abs=1e-12)
        searched = group.column(k, "made")
        assert group.moments.covariance(searched, column) > 0.3 * math.sqrt(
            group.moments.covariance(searched, searched) * group.moments.covariance(column, column))
    assert group.reference.n > n      # the control run: the heuristic on deals of its own, to a finer precision


def test_controlled_odds_and_bids_agree_with_the_plain_search_within_noise():
    """The same searched contracts, estimated with and without the control variate (independent seeds):
    every probability and score within 4 standard errors of the difference, and the controlled ones by
    fewer searched deals (the point of it).  The plain search runs Garde sans and contre alone, the
    contracts compared (``odds`` would run them as one group, to the same precision)."""
    rules = Rules(5)
    mixed = contract_odds(HAND_5, rules, 0, Settings(precision=0.02, seed=1))
    compared = [Contract.GARDE_SANS, Contract.GARDE_CONTRE]
    plain = group_run(HAND_5, rules, 0, compared, Settings(policy=MIXED_SEARCH, worlds=MIXED_WORLDS[5][1],
                                                           precision=0.04, seed=2), search_driver=True)
    searched = list(zip([a for a in mixed.contracts if a.contract in compared], summary(compared, plain)))
    assert [(a.contract, b.contract) for a, b in searched] == [(c, c) for c in compared]
    for a, b in searched:
        assert abs(a.success.p - b.success.p) < 4 * math.hypot(a.success.se, plain_se(b.success))
        assert abs(a.score.mean - b.score.mean) < 4 * math.hypot(a.score.se, b.score.se)
    assert mixed.control_deals > 0 and mixed.searched_deals < plain.n
    advice = bid_advice(HAND_5, rules, 0, [], Settings(precision=0.02, seed=1))
    assert advice.control_deals > 0
    by = {o.bid: o for o in advice.options}
    for a, b in searched:
        option = by[a.contract]
        assert abs(option.success.p - b.success.p) < 4 * math.hypot(option.success.se, plain_se(b.success))


def plain_se(share) -> float:
    """The standard error of a plain proportion."""
    return math.sqrt(share.p * (1 - share.p) / share.n)


def test_a_controlled_bid_after_earlier_bids_agrees_with_the_plain_search_within_noise():
    """Weighted deals (seat 2 after a pass), the searched ones drawn by their weights: the controlled
    options against a plain search of every option, within 4 standard errors of their difference."""
    rules = Rules(5)
    mixed = bid_advice(HAND_5, rules, 1, [None], Settings(precision=0.03, seed=3))
    plain = bid_advice(HAND_5, rules, 1, [None], Settings(policy=MIXED_SEARCH, worlds=MIXED_WORLDS[5][0],
                                                          precision=0.06, seed=4))
    assert mixed.control_deals > 0 and plain.control_deals == 0
    for a, b in zip(mixed.options, plain.options):
        if a.bid is None:
            continue            # a pass: the heuristic's under the mixed model, the search's in the plain run
        assert abs(a.success.p - b.success.p) < 4 * math.hypot(a.success.se, b.success.se)
        assert abs(a.score.mean - b.score.mean) < 4 * math.hypot(a.score.se, b.score.se)


def test_the_taker_s_choices_take_the_control_variate_too():
    """`call` at 5 players (Prise searched): each alternative controlled by the heuristic's play of the
    same deals, against a plain search of the same alternatives within noise."""
    hand, rules = Hand.parse("20 17 15 12 9 6 1 KS 10S 4S QH 6H KD 5D 2C"), Rules(5)
    mixed = compare("call", hand, rules, Contract.PRISE, call_options(hand), settings=Settings(precision=0.04, seed=2))
    plain = compare("call", hand, rules, Contract.PRISE, call_options(hand),
                    settings=Settings(policy=MIXED_SEARCH, worlds=MIXED_WORLDS[5][0], precision=0.08, seed=3))
    assert mixed.control_deals > mixed.deals > 0 and plain.control_deals == 0
    theirs = {a.label: a for a in plain.alternatives}
    for a in mixed.alternatives:
        b = theirs[a.label]
        assert abs(a.success.p - b.success.p) < 4 * math.hypot(a.success.se, plain_se(b.success))
        assert abs(a.score.mean - b.score.mean) < 4 * math.hypot(a.score.se, b.score.se)
    best = mixed.best
    assert best.vs_best == Mean(0.0, 0.0, mixed.deals)
    assert all(a.vs_best.mean == pytest.approx(a.score.mean - best.score.mean, abs=4 * a.vs_best.se + 1e-9)
               for a in mixed.alternatives)


def test_a_linear_combination_s_error_is_that_of_its_deal_by_deal_values():
    rng = np.random.default_rng(2)
    rows = rng.normal(size=(50, 3)) + np.array([1.0, 2.0, 3.0])
    m = Moments(3)
    m.add(rows)
    values = rows @ np.array([2.0, -1.0, 0.5])
    got, want = m.linear({0: 2.0, 1: -1.0, 2: 0.5}), Mean.of(values)
    assert got.mean == pytest.approx(want.mean) and got.se == pytest.approx(want.se) and got.n == 50
    assert m.difference(0, 2).se == pytest.approx(Mean.of(rows[:, 0] - rows[:, 2]).se)
