"""A searched run on weighted deals plays deals drawn in proportion to their weights
(analyzer.advice.auction.ThinnedDeals): deal i kept with probability min(1, w_i / level), weighing
max(w_i, level).  Checked statistically against the weighted means of every deal, the keeping rule bin
by bin, the kept deals' near-equal weights, and chunking."""

import numpy as np
import pytest

from analyzer import cards as C
from analyzer.advice.auction import THINNING_SAMPLE, AuctionWeights, ThinnedDeals, parse_bids
from analyzer.advice.bid import bid_advice
from analyzer.hand import Hand
from analyzer.rules import Rules
from analyzer.runs import Settings
from analyzer.simulation.bridge import fixed_hand
from analyzer.simulation.threads import over_rows
from kernels.auction import weighted_deals_batch
from kernels.bidding import TAROTCLUB
from tests.support.hands import FFT_HAND

RULES = Rules(players=4)
HAND = Hand.parse("20 19 18 17 3 2 KS QS JS 10S 9S 8S 7S 1H KD 4D 3D 2D")     # the README's example hand
SEAT = 3
BIDS = "pass,pass,prise"
SEED = 11


def thinned() -> ThinnedDeals:
    return ThinnedDeals(AuctionWeights(tuple(parse_bids(BIDS)), SEAT), *fixed_hand(HAND, SEAT, 4), RULES, SEED)


def deals_of(indices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The card places and weights of the deals of stream indices ``indices``."""
    fixed, unseen, slots = fixed_hand(HAND, SEAT, 4)
    places = np.empty((len(indices), 78), dtype=np.int8)
    weights = np.empty(len(indices))
    over_rows(weighted_deals_batch, len(indices), fixed, unseen, slots, 4, SEAT, np.array([0, 0, 1]), TAROTCLUB, 8.0,
              True, np.uint64(SEED), indices.astype(np.int64), places, weights)
    return places, weights


def weighted_mean(y: np.ndarray, w: np.ndarray) -> tuple[float, float]:
    """The weighted mean and its delta-method standard error."""
    r = (w * y).sum() / w.sum()
    return r, float(np.sqrt((w ** 2 * (y - r) ** 2).sum()) / w.sum())


def test_kept_deals_give_the_weighted_means_of_every_deal():
    # The first seat's passing and the third's Prise say where the top trumps lie: the share of deals
    # where seat 1 holds the 21, and where seat 3 does, each against 200,000 deals weighted in full.
    # Tolerance: 4 standard errors of the difference (both estimates' errors).
    places, weights = deals_of(np.arange(200_000))
    kept, kept_weights = thinned().take(20_000)
    kept_places, _ = deals_of(kept)
    for seat in (0, 2):
        full = weighted_mean((places[:, C.TWENTY_ONE] == seat).astype(float), weights)
        thin = weighted_mean((kept_places[:, C.TWENTY_ONE] == seat).astype(float), kept_weights)
        assert abs(full[0] - thin[0]) < 4 * np.hypot(full[1], thin[1])
    plain_share = weights.mean()
    assert 0.05 < plain_share < 0.5                                  # the bids tell a lot: a real test


def test_a_deal_is_kept_with_probability_its_weight_over_the_level():
    # Over the deals drawn for 20,000 kept, bin by w / level: the kept share of each bin is the mean of
    # min(1, w / level) there, within 4 binomial standard errors.
    deals = thinned()
    kept, _ = deals.take(20_000)
    drawn = np.arange(kept[-1] + 1)
    _, weights = deals_of(drawn)
    ratio = weights / deals.level
    was_kept = np.isin(drawn, kept)
    edges = [0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0, np.inf]
    for low, high in zip(edges, edges[1:]):
        inside = (ratio >= low) & (ratio < high)
        if inside.sum() < 200:
            continue
        expected = np.minimum(ratio[inside], 1).mean()
        se = np.sqrt(expected * (1 - expected) / inside.sum()) + 1e-9
        assert abs(was_kept[inside].mean() - expected) <= 4 * se + 1e-12, (low, high)
    assert (was_kept[ratio >= 1]).all()


def test_kept_deals_weigh_nearly_alike():
    deals = thinned()
    _, weights = deals_of(np.arange(THINNING_SAMPLE))
    _, kept_weights = deals.take(5000)
    assert deals.level == pytest.approx(np.quantile(weights, 0.99))
    assert (kept_weights >= deals.level).all()
    kish = kept_weights.sum() ** 2 / (kept_weights ** 2).sum() / kept_weights.size
    plain = weights.sum() ** 2 / (weights ** 2).sum() / weights.size
    assert kish > 0.98 and plain < 0.6


def test_how_a_run_is_cut_changes_nothing():
    whole = thinned().take(500)
    parts = thinned()
    cut = [parts.take(n) for n in (1, 99, 250, 150)]
    assert np.array_equal(whole[0], np.concatenate([d for d, _ in cut]))
    assert np.array_equal(whole[1], np.concatenate([w for _, w in cut]))
    assert np.all(np.diff(whole[0]) > 0)


def test_no_fitting_deal_plays_every_deal_as_drawn():
    # No noise, and a Garde from the first seat, whose count the cards this hand leaves never reach under
    # the model: no deal of the sample fits, so there is no level and the run plays every deal as drawn
    # (and stops as such a run does, ``AuctionWeights.unexplained``).
    strong = Hand.parse(FFT_HAND)
    auction = AuctionWeights(tuple(parse_bids("garde")), 1, noise=0.0)
    deals = ThinnedDeals(auction, *fixed_hand(strong, 1, 4), RULES, 3)
    assert deals.level is None
    first, weights = deals.take(100)
    assert np.array_equal(first, np.arange(100)) and (weights == 0).all()
    assert np.array_equal(deals.take(50)[0], np.arange(100, 150))


def test_a_searched_bid_after_earlier_bids_plays_the_kept_deals():
    # pimc-prior with one world on 40 deals: the run plays 40 kept deals, which weigh nearly alike, and
    # the same ones with one thread or two.
    settings = Settings(policy="pimc-prior", worlds=1, deals=40, seed=SEED)
    one = bid_advice(HAND, RULES, SEAT, parse_bids(BIDS), settings.with_(jobs=1))
    two = bid_advice(HAND, RULES, SEAT, parse_bids(BIDS), settings.with_(jobs=2))
    assert one.searched_deals == one.deals == 40
    assert one.effective_deals > 39          # weighing nearly alike
    assert [o.score for o in one.options] == [o.score for o in two.options]
