"""The bids made before a seat speaks: read, checked, and the weight they give each simulated deal.

The seats that spoke first are taken to bid by the bidding model (``docs/bidding.md``, TarotClub's count
by default) give or take a normal error of ``noise`` points on their count; a deal drawn with the hand
fixed weighs the probability that its earlier seats make exactly the bids made (``kernels/auction.py``).
Weighted means over such deals are the answers given the auction (importance sampling), for ``bid`` and
for ``odds`` alike.  A searched run plays only deals drawn in proportion to their weights
(``ThinnedDeals``), so that its costly deals count alike.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from analyzer.baselines import method_id
from analyzer.errors import TarotError
from analyzer.rules import Contract, Rules
from analyzer.simulation.threads import over_rows
from kernels.auction import uniform_draws, weighted_deals_batch

# The default error of the earlier bidders around the bidding model, in points of their count: about half
# the gap between two contracts' thresholds (15 points), so a bid says much about a hand but a bid a
# few points off the count is not ruled out.
BID_NOISE = 8.0
# A searched run on weighted deals keeps deal i with probability min(1, w_i / level) and weighs it
# max(w_i, level) (rejection sampling: every weighted mean stays unbiased), so that its costly deals weigh
# nearly alike and each counts nearly as a whole one.  The level is the THINNING_QUANTILE of the weights of
# the first THINNING_SAMPLE deals (over 1% of deals are then kept whatever the auction); the draws come from
# streams of their own (THINNING_SALT), not the deals' or their play's (docs/design.md, "The auction's weights").
THINNING_SAMPLE = 4096
THINNING_QUANTILE = 0.99
THINNING_SALT = 0x7A11CE5D
THINNING_BLOCK = 4096        # deals weighed at a time


def bid_token(bid: Contract | None) -> str:
    """A bid as written on the command line: its contract's token, or "pass"."""
    return "pass" if bid is None else bid.token


def parse_bids(text: str) -> list[Contract | None]:
    bids = []
    for token in [t.strip() for t in text.split(",") if t.strip()]:
        bids.append(None if token.lower() == "pass" else Contract.parse(token))
    return bids


def check_bids(bids: list[Contract | None], seat: int) -> Contract | None:
    """The best earlier bid; raises when the bids are not a legal auction up to ``seat``."""
    if len(bids) != seat:
        raise TarotError(f"seat {seat + 1} speaks after {seat} bid(s), got {len(bids)} in --bids")
    best = None
    for i, b in enumerate(bids):
        if b is not None:
            if best is not None and b <= best:
                raise TarotError(f"bid {i + 1} ({b.token}) does not outbid {best.token}")
            best = b
    return best


def check_noise(noise: float) -> None:
    if not (math.isfinite(noise) and noise >= 0):
        raise TarotError(f"the auction noise must be a number of points, 0 or more, got {noise}")


def earlier_ids(bids: list[Contract | None]) -> np.ndarray:
    """The earlier bids as the kernels take them (0 a pass; one pass when there is none)."""
    return np.array([0 if b is None else int(b) for b in bids] or [0], dtype=np.int64)


@dataclass(frozen=True)
class AuctionWeights:
    """The weights that ``bids`` (made before seat ``seat``, 0-based) give the deals drawn for ``hand``'s
    fixed cards, under ``bidding`` with an error of ``noise`` points."""
    bids: tuple[Contract | None, ...]
    seat: int
    bidding: str = "tarotclub"
    noise: float = BID_NOISE

    def __post_init__(self) -> None:
        check_bids(list(self.bids), self.seat)
        check_noise(self.noise)
        method_id(self.bidding)

    def of(self, fixed: np.ndarray, unseen: np.ndarray, slots: np.ndarray, rules: Rules, seed: int,
           deals: np.ndarray) -> np.ndarray:
        """The weights of the deals of stream indices ``deals`` of ``seed`` (those every driver draws there)."""
        places = np.empty((len(deals), 78), dtype=np.int8)
        weights = np.empty(len(deals))
        over_rows(weighted_deals_batch, len(deals), fixed, unseen, slots, rules.players, self.seat,
                  earlier_ids(list(self.bids)), method_id(self.bidding), float(self.noise), rules.petit_sec == "annul",
                  np.uint64(seed), np.asarray(deals, dtype=np.int64), places, weights)
        return weights

    def unexplained(self, deals: int) -> str:
        """Why a run stops when none of its first ``deals`` deals fits the bids (every weight 0)."""
        return (f"no deal among the first {deals:,} fits the earlier bids under the bidding model (auction noise "
                f"{self.noise:g} points): allow more noise (--auction-noise) or drop the conditioning "
                "(--no-auction-conditioning)")


class ThinnedDeals:
    """The deals of a weighted run drawn in proportion to their weights, for a searched run: deal ``i``
    (stream index, in order) is kept with probability min(1, w_i / ``level``) and weighs max(w_i,
    ``level``) (``THINNING_QUANTILE``).  ``take(n)`` gives the next ``n`` kept deals, so how a run is cut
    into chunks changes nothing.  No level (``None``) when none of the first deals fits the bids: the
    run then plays every deal as drawn, and stops as any run none of whose deals fits (``unexplained``)."""

    def __init__(self, auction: AuctionWeights, fixed: np.ndarray, unseen: np.ndarray, slots: np.ndarray,
                 rules: Rules, seed: int):
        self.auction, self.hand, self.rules, self.seed = auction, (fixed, unseen, slots), rules, seed
        sample = self.weigh(np.arange(THINNING_SAMPLE))
        fitting = sample[sample > 0]
        self.level = float(np.quantile(fitting, THINNING_QUANTILE)) if fitting.size else None
        self.drawn = 0                         # deals weighed so far
        self.kept: list[tuple[np.ndarray, np.ndarray]] = []       # kept deals not yet taken, with weights

    def take(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        """The next ``n`` kept deals' stream indices and weights (every deal, weights as drawn, without a level)."""
        if self.level is None:
            deals = np.arange(self.drawn, self.drawn + n)
            self.drawn += n
            return deals, self.weigh(deals)
        while sum(len(d) for d, _ in self.kept) < n:
            deals = np.arange(self.drawn, self.drawn + THINNING_BLOCK)
            weights = self.weigh(deals)
            draws = np.empty(THINNING_BLOCK)
            over_rows(uniform_draws, THINNING_BLOCK, np.uint64(self.seed ^ THINNING_SALT), self.drawn, draws)
            keep = draws * self.level < weights
            self.kept.append((deals[keep], np.maximum(weights[keep], self.level)))
            self.drawn += THINNING_BLOCK
        deals, weights = (np.concatenate(parts) for parts in zip(*self.kept))
        self.kept = [(deals[n:], weights[n:])]
        return deals[:n], weights[:n]

    def weigh(self, deals: np.ndarray) -> np.ndarray:
        """The weights of the deals of stream indices ``deals``."""
        return self.auction.of(*self.hand, self.rules, self.seed, deals)
