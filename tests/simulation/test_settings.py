"""Simulation settings (one checked object) and running moments (flat memory, same answers as keeping
every row)."""

import math

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.errors import TarotError
from analyzer.runs import MAX_DEALS, Settings, next_chunk, run_in_chunks
from analyzer.stats import Mean, Moments
from cli.main import main
from tests.support.hands import FFT_HAND

HAND = FFT_HAND


def test_moments_in_chunks_equal_the_statistics_of_every_row():
    rng = np.random.default_rng(3)
    rows = np.column_stack([rng.normal(250, 80, 5000), rng.integers(0, 2, 5000), rng.normal(-240, 80, 5000)])
    rows[:, 2] += 0.9 * rows[:, 0]                       # correlated with the first feature
    moments = Moments(3)
    for part in np.array_split(rows, [7, 1000, 1001, 3500]):
        moments.add(part)
    assert moments.n == 5000
    for i in range(3):
        exact = Mean.of(rows[:, i])
        got = moments.summary(i)
        assert got.mean == pytest.approx(exact.mean, rel=1e-12)
        assert got.se == pytest.approx(exact.se, rel=1e-9)
    paired = Mean.of(rows[:, 0] - rows[:, 2])
    assert moments.difference(0, 2).mean == pytest.approx(paired.mean, rel=1e-12)
    assert moments.difference(0, 2).se == pytest.approx(paired.se, rel=1e-9)
    assert moments.proportion(1).successes == int(rows[:, 1].sum())


def test_moments_of_one_row_have_no_standard_error():
    moments = Moments(2)
    moments.add(np.array([[3.0, 1.0]]))
    assert moments.summary(0).mean == 3.0 and math.isnan(moments.summary(0).se)
    assert math.isnan(moments.difference(0, 1).se)


def test_run_in_chunks_keeps_moments_not_rows():
    calls = []

    def simulate(offset, n):
        calls.append((offset, n))
        return np.arange(offset, offset + n, dtype=np.float64)[:, None]

    moments = run_in_chunks(simulate, 1, Settings(deals=4500), lambda m: 1.0)
    assert calls == [(0, 2000), (2000, 2000), (4000, 500)]
    assert moments.n == 4500 and moments.mean(0) == pytest.approx(2249.5)


def test_a_run_to_a_precision_plays_after_its_first_chunk_the_deals_it_still_needs():
    """A width falling as one over the square root of the deals: 2,000 deals first, then what the width
    says is missing, in steps of a fifth of a chunk, never more than a chunk; it stops at the first
    count whose width is within the precision."""
    calls = []

    def simulate(offset, n):
        calls.append((offset, n))
        return np.zeros((n, 1))

    def width(m: Moments) -> float:
        return 0.5 / math.sqrt(m.n)                                  # within 0.01 from 2,500 deals

    moments = run_in_chunks(simulate, 1, Settings(precision=0.01), width)
    assert calls == [(0, 2000), (2000, 800)] and moments.n == 2800
    calls.clear()
    assert run_in_chunks(simulate, 1, Settings(precision=0.005), width).n == 10_000    # 2,000 at a time
    assert [n for _, n in calls] == [2000] * 5
    assert next_chunk(100, 900, 0.0262, 0.025) == 100 and next_chunk(100, 1000, 0.0251, 0.025) == 20
    assert next_chunk(100, 0, float("inf"), 0.025) == 100 and next_chunk(100, 500, float("nan"), 0.025) == 100


@pytest.mark.parametrize("changes,word", [
    ({"precision": float("nan")}, "precision"), ({"precision": 0.0}, "precision"),
    ({"deals": 0}, "deals"), ({"deals": MAX_DEALS + 1}, "deals"), ({"max_deals": 10**12}, "max-deals"),
    ({"policy": "minimax"}, "policy"), ({"worlds": 0}, "worlds"), ({"worlds": 10**12}, "worlds"), ({"seed": -1}, "seed"), ({"jobs": 0}, "jobs"),
])
def test_settings_refuse_impossible_values_by_name(changes, word):
    with pytest.raises(TarotError, match=word):
        Settings(**changes)


def test_settings_copies_change_one_field():
    base = Settings(deals=100, seed=4)
    other = base.with_(seed=5)
    assert (other.deals, other.seed, base.seed) == (100, 5, 4)


@pytest.mark.parametrize("args,option", [
    (["--precision", "nan"], "--precision"),
    (["--deals", str(10**12)], "--deals"),
    (["--max-deals", str(10**12)], "--max-deals"),
])
def test_odds_refuses_a_nan_precision_and_huge_deal_counts_in_one_line(args, option):
    result = CliRunner().invoke(main, ["odds", HAND, *args], standalone_mode=True)
    assert result.exit_code == 2
    assert option in result.output and "Traceback" not in result.output


def test_discard_bounds_its_deals():
    result = CliRunner().invoke(main, ["discard", HAND, "--chien", "2S 3S 4S 5S 6S 8S", "--deals", str(10**12)])
    assert result.exit_code == 2 and "--deals" in result.output
