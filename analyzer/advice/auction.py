"""The bids made before a seat speaks: read, checked, and the weight they give each simulated deal.

The seats that spoke first are taken to bid by the bidding model (``docs/bidding.md``, TarotClub's count
by default) give or take a normal error of ``noise`` points on their count; a deal drawn with the hand
fixed weighs the probability that its earlier seats make exactly the bids made (``kernels/auction.py``).
Weighted means over such deals are the answers given the auction (importance sampling), for ``bid`` and
for ``odds`` alike.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from analyzer.baselines import method_id
from analyzer.errors import TarotError
from analyzer.rules import Contract, Rules
from kernels.auction import weighted_deals_batch

# The default error of the earlier bidders around the bidding model, in points of their count: about half
# the gap between two contracts' thresholds (15 points), so a bid says much about a hand but a bid a
# few points off the count is not ruled out.
BID_NOISE = 8.0


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

    def of(self, fixed: np.ndarray, unseen: np.ndarray, slots: np.ndarray, rules: Rules, seed: int, offset: int,
           n: int) -> np.ndarray:
        """The weights of deals ``offset … offset+n-1`` of ``seed`` (the deals every driver draws there)."""
        places = np.empty((n, 78), dtype=np.int8)
        weights = np.empty(n)
        weighted_deals_batch(fixed, unseen, slots, rules.players, self.seat, earlier_ids(list(self.bids)),
                             method_id(self.bidding), float(self.noise), rules.petit_sec == "annul", np.uint64(seed),
                             offset, places, weights)
        return weights

    def unexplained(self, deals: int) -> str:
        """Why a run stops when none of its first ``deals`` deals fits the bids (every weight 0)."""
        return (f"no deal among the first {deals:,} fits the earlier bids under the bidding model (auction noise "
                f"{self.noise:g} points): allow more noise (--auction-noise) or drop the conditioning "
                "(--no-auction-conditioning)")
