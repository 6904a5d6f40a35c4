"""Bid advice conditioned on the earlier bids by weighting: the bidding model with an error on the count
(kernels/auction.py), the weighted estimator and its standard error (analyzer/stats.py Moments.ratio), and
the advice for auctions the exact model never makes."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.advice.bid import bid_advice
from analyzer.baselines import METHODS, baseline_bid
from analyzer.hand import Hand
from analyzer.rules import Contract, Rules
from analyzer.runs import Settings
from analyzer.sampling import sample_deals
from analyzer.simulation.bridge import fixed_hand
from analyzer.stats import Moments, Proportion
from cli.main import main
from analyzer.simulation.threads import over_rows
from kernels.auction import weighted_deals_batch
from kernels.bidding import bid_probability
from kernels.bidding import CHAVEY, TAROTCLUB
from tests.support.hands import FFT_HAND

METHOD_IDS = {"chavey": CHAVEY, "tarotclub": TAROTCLUB}
STRONG = FFT_HAND


def _hands(players: int, n: int, seed: int) -> list[int]:
    places = sample_deals(players, n, seed)
    return [sum(1 << c for c in range(78) if places[i, c] == s) for i in range(n) for s in range(players)]


def _p(mask: int, method: str, players: int, best: int, bid: int, noise: float) -> float:
    return bid_probability(np.uint64(mask & ((1 << 56) - 1)), np.uint64(mask >> 56), METHOD_IDS[method], players,
                           best, bid, noise)


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("method", METHODS)
def test_no_noise_is_exactly_the_bidding_model(players, method):
    for mask in _hands(players, 60, seed=players):
        for best in range(5):
            model = baseline_bid(mask, method, players, None if best == 0 else Contract(best))
            wanted = 0 if model is None else int(model)
            for bid in range(5):
                assert _p(mask, method, players, best, bid, 0.0) == (1.0 if bid == wanted else 0.0)


@pytest.mark.parametrize("noise", [0.5, 3.0, 8.0, 30.0])
@pytest.mark.parametrize("method", METHODS)
def test_bid_probabilities_add_up_to_one_over_the_legal_bids(method, noise):
    for mask in _hands(4, 40, seed=7):
        for best in range(5):
            probs = [_p(mask, method, 4, best, bid, noise) for bid in range(5)]
            assert all(p >= 0 for p in probs)
            assert all(probs[bid] == 0 for bid in range(1, best + 1))      # no bid at or under the best
            assert sum(probs) == pytest.approx(1.0, abs=1e-12)


def test_a_little_noise_is_close_to_the_model_and_much_noise_tells_little():
    for mask in _hands(4, 40, seed=8):
        wanted = baseline_bid(mask, "tarotclub", 4, None)
        wanted = 0 if wanted is None else int(wanted)
        assert _p(mask, "tarotclub", 4, 0, wanted, 0.05) > 0.99
        assert 0.01 < _p(mask, "tarotclub", 4, 0, 0, 1000.0) < 0.99


def test_no_noise_weights_keep_exactly_the_deals_the_model_explains():
    hand = Hand.parse(STRONG)
    fixed, unseen, slots = fixed_hand(hand, 2, 4)
    n = 3000
    out = np.empty((n, 78), dtype=np.int8)
    weights = np.empty(n)
    over_rows(weighted_deals_batch, n, fixed, unseen, slots, 4, 2, np.array([0, 1]), TAROTCLUB, 0.0, True,
              np.uint64(3), np.arange(n), out, weights)
    for i in range(0, n, 10):
        masks = [sum(1 << c for c in range(78) if out[i, c] == s) for s in range(2)]
        first = baseline_bid(masks[0], "tarotclub", 4, None)
        second = baseline_bid(masks[1], "tarotclub", 4, first)
        assert weights[i] == (1.0 if (first, second) == (None, Contract.PRISE) else 0.0)


# --- the weighted estimator -----------------------------------------------------------------------

def test_ratio_is_the_weighted_mean_with_the_delta_method_error():
    rng = np.random.default_rng(5)
    w = rng.exponential(size=1000)
    y = rng.normal(3.0, 2.0, size=1000) + w
    z = (rng.random(1000) < 0.3).astype(float)
    moments = Moments(4)
    for part in np.array_split(np.column_stack([w, w * y, w * z, w * (y - z)]), 7):
        moments.add(part)
    r = np.sum(w * y) / np.sum(w)
    n = w.size
    se = np.sqrt(np.sum(w ** 2 * (y - r) ** 2) / (n - 1) * n) / np.sum(w)
    got = moments.ratio({1: 1.0}, 0)
    assert got.mean == pytest.approx(r, rel=1e-12) and got.se == pytest.approx(se, rel=1e-9) and got.n == n
    diff = moments.ratio({1: 1.0, 2: -1.0}, 0)
    assert diff.mean == pytest.approx(np.sum(w * (y - z)) / np.sum(w), rel=1e-12)
    assert diff.se == pytest.approx(moments.ratio({3: 1.0}, 0).se, rel=1e-9)
    assert moments.effective_n(0) == pytest.approx(np.sum(w) ** 2 / np.sum(w ** 2), rel=1e-9)


def test_equal_weights_give_the_plain_mean_and_proportion():
    rng = np.random.default_rng(6)
    y = rng.normal(size=500)
    won = (rng.random(500) < 0.4).astype(float)
    moments = Moments(3)
    moments.add(np.column_stack([np.ones(500), y, won]))
    assert moments.ratio({1: 1.0}, 0).mean == pytest.approx(y.mean())
    assert moments.ratio({1: 1.0}, 0).se == pytest.approx(y.std(ddof=1) / np.sqrt(500))
    assert moments.effective_n(0) == 500
    weighted = moments.weighted_proportion(2, 0)
    plain = Proportion(int(won.sum()), 500)
    assert weighted.p == pytest.approx(plain.p) and weighted.wilson() == pytest.approx(plain.wilson())


def test_weighted_intervals_cover_the_target_mean():
    # Proposal: x uniform on (0, 1); weights 2x make the target density 2x, whose mean is 2/3.  Over 400
    # runs of 300 draws, the 95% interval (mean ± 1.96 se) must cover 2/3 in 95% of them: binomial sd
    # 1.1%, tolerance ±3.3% (3 sd).
    rng = np.random.default_rng(2024)
    covered = 0
    for _ in range(400):
        x = rng.random(300)
        moments = Moments(2)
        moments.add(np.column_stack([2 * x, 2 * x * x]))
        low, high = moments.ratio({1: 1.0}, 0).ci95()
        covered += low <= 2 / 3 <= high
    assert abs(covered / 400 - 0.95) < 0.033


# --- advice for any legal auction -----------------------------------------------------------------

@pytest.mark.parametrize("seat,bids", [(2, "garde"), (3, "pass,garde"), (2, "garde-sans")])
def test_realistic_auctions_get_advice(seat, bids):
    # advice, and deals weighted unequally by the earlier bids: a few deals show both
    result = CliRunner().invoke(main, ["bid", STRONG, "--seat", str(seat), "--bids", bids, "--deals", "80",
                                       "--quiet", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["recommendation"] in [o["bid"] for o in data["options"]]
    assert 0 < data["effective_deals"] < data["deals"] == 80
    assert data["auction_noise"] == 8.0


def test_no_noise_and_an_auction_the_model_never_makes_is_one_clear_line():
    result = CliRunner().invoke(main, ["bid", STRONG, "--seat", "2", "--bids", "garde", "--deals", "300",
                                       "--auction-noise", "0"])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "--auction-noise" in result.output


def test_no_earlier_bid_weighs_nothing():
    advice = bid_advice(Hand.parse(STRONG), Rules(), 0, [], Settings(deals=30, seed=3))
    assert advice.effective_deals == advice.deals == 30 and advice.noise == 0.0
    unweighted = bid_advice(Hand.parse(STRONG), Rules(), 1, [None], Settings(deals=30, seed=3), condition=False)
    assert unweighted.effective_deals == 30


def test_weighting_moves_the_advice_the_way_the_bids_say():
    # A Garde from seat 1 says that seat 1 is strong, so taking above it (Garde contre) is worth less than
    # when the bid is ignored.
    hand = Hand.parse(STRONG)
    settings = Settings(policy="heuristic", deals=10000, seed=11)
    weighted = bid_advice(hand, Rules(), 1, [Contract.GARDE], settings)
    free = bid_advice(hand, Rules(), 1, [Contract.GARDE], settings, condition=False)
    w = {o.token: o.score for o in weighted.options}
    f = {o.token: o.score for o in free.options}
    gap = f["garde-contre"].mean - w["garde-contre"].mean
    assert gap > 3 * np.hypot(f["garde-contre"].se, w["garde-contre"].se)
