"""The batch drivers compiled without the search (``searching`` ``None``: the heuristic defaults', which do
not compile it) give exactly the results of the same drivers with it (``SEARCH``) when no policy searches,
and ``searching`` tells the two apart by the policies.  Checked for the drivers of ``odds`` and ``bid``,
whose search versions the suite compiles anyway; ``discard_deals`` and ``record_batch`` share the same
construction (their twins are checked by the commands' own tests: every simulated record is replayed
by the reference engine).  A driver's rows do not depend on the threads or on how the rows are cut into
ranges (``analyzer.simulation.threads``)."""

import numpy as np
import pytest

from analyzer.baselines import method_id
from analyzer.hand import Hand
from analyzer.rules import Rules
from analyzer.runs import searching, threads
from analyzer.simulate import rules_flags
from analyzer.simulation.bridge import fixed_hand
from analyzer.simulation.threads import over_rows
from kernels import auction, batch
from kernels import playout as K
from kernels.pimc import PIMC_FIXED, PIMC_PRIOR, PIMC_UNIFORM, SEARCH
from tests.support.hands import FFT_HAND

HAND = Hand.parse(FFT_HAND)
FLAGS = rules_flags(Rules(players=4))


def test_searching_reads_the_policies():
    assert not searching(np.array([K.HEURISTIC] * 4))
    assert not searching(np.array([K.RANDOM, K.HEURISTIC, K.NOISY]))
    for search in (K.PIMC, PIMC_UNIFORM, PIMC_FIXED, PIMC_PRIOR):
        assert searching(np.array([K.HEURISTIC, search, K.HEURISTIC]))


def advice_rows(policy, search, cut=None):
    """300 deals of HAND's Garde through ``advice_deals``, on the threads (``cut``: in those ranges instead)."""
    fixed, unseen, slots = fixed_hand(HAND, 1, 4)
    policies = np.full(4, policy, dtype=np.int64)
    results = np.zeros((300, K.RESULT_SIZE), dtype=np.int64)
    args = (fixed, unseen, slots, 4, 1, K.GARDE, K.auto_choices(), policies, 8, np.uint64(5), np.arange(7, 307), True,
            FLAGS, results, -1, np.empty((0, K.RESULT_SIZE), dtype=np.int64), search)
    if cut is None:
        over_rows(batch.advice_deals, 300, *args)
    else:
        for lo, hi in zip(cut, cut[1:]):
            batch.advice_deals(lo, hi, *args)
    return results


@pytest.mark.parametrize("policy", [K.HEURISTIC, K.RANDOM])
def test_advice_drivers_agree(policy):
    out = [advice_rows(policy, search) for search in (SEARCH, None)]
    assert np.array_equal(*out) and out[0][:, 1].any()


def test_rows_do_not_depend_on_the_threads_or_the_ranges():
    with threads(1):
        alone = advice_rows(K.HEURISTIC, None)
    with threads(2):
        shared = advice_rows(K.HEURISTIC, None)
    assert np.array_equal(alone, shared)
    assert np.array_equal(alone, advice_rows(K.HEURISTIC, None, cut=[0, 1, 2, 77, 150, 151, 300]))


def test_bid_drivers_agree():
    fixed, unseen, slots = fixed_hand(HAND, 2, 4)
    policies = np.full(4, K.HEURISTIC, dtype=np.int64)
    earlier = np.array([0, 1], dtype=np.int64)
    out = []
    for search in (SEARCH, None):
        rows = np.zeros((300, auction.BID_SIZE), dtype=np.int64)
        weights = np.empty(300)
        over_rows(auction.bid_deals, 300, fixed, unseen, slots, 4, 2, earlier, True, 2, method_id("tarotclub"), 8.0,
                  policies, 8, np.uint64(3), np.arange(300), True, FLAGS, rows, weights, -1,
                  np.empty((0, auction.BID_SIZE), dtype=np.int64), search)
        out.append((rows, weights))
    assert np.array_equal(out[0][0], out[1][0]) and np.array_equal(out[0][1], out[1][1])
    assert (out[0][0][:, auction.B_WON] >= 0).any()
