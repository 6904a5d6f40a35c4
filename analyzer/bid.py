"""Bid advice: the value of passing and of every legal bid from the hand's seat, given the bids so far.

Deals are drawn with the hand fixed and, unless turned off, conditioned on the earlier bids: the
earlier seats bid by the bidding model (``analyzer/baselines.py``, TarotClub's count by default), and
only deals where the model makes exactly the bids that were made are kept.  For each option the later
seats bid by the model as well, the deal is played by the chosen policy from the actual taker's point
of view (the hand may end up defending) or thrown in when everybody passed.  Every option is valued
on the same deals, so their differences are measured precisely.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from analyzer.errors import TarotError
from analyzer.hand import Hand
from analyzer.match import METHOD_IDS, POLICY_IDS
from analyzer.odds import fixed_hand
from analyzer.rules import Contract, Rules
from analyzer.runs import PIMC_WORLDS, run_in_chunks
from analyzer.simulate import rules_flags
from analyzer.stats import Mean, Proportion
from kernels import auction as K


@dataclass(frozen=True)
class BidOption:
    bid: Contract | None              # None: pass
    score: Mean                       # the hand's score
    success: Proportion               # the hand's side wins the deal (a thrown-in deal is no success)

    @property
    def token(self) -> str:
        return "pass" if self.bid is None else self.bid.token

    def as_dict(self) -> dict:
        return {"bid": self.token, "expected_score": self.score.mean, "se": self.score.se, "n": self.score.n,
                "p_success": self.success.p, "ci95": list(self.success.wilson())}


@dataclass(frozen=True)
class BidAdvice:
    players: int
    seat: int
    hand: Hand
    earlier: tuple[Contract | None, ...]
    options: list[BidOption]
    margin: Mean                      # best option minus the runner-up, on the same deals
    acceptance: float                 # deals kept / drawn when conditioning on the earlier bids
    deals: int

    @property
    def recommendation(self) -> BidOption:
        return max(self.options, key=lambda o: o.score.mean)

    def reason(self) -> str:
        best = self.recommendation
        others = sorted((o for o in self.options if o is not best), key=lambda o: -o.score.mean)
        if not others:
            return f"{best.token} is the only option."
        second = others[0]
        text = (f"{best.token} beats {second.token} by {self.margin.mean:+.1f} ± {self.margin.se:.1f} points per deal")
        if best.bid is not None:
            return text + f"; taking {best.token}, this hand's side wins {best.success.p:.0%} of the deals."
        takes = [o for o in self.options if o.bid is not None]
        top = max(takes, key=lambda o: o.success.p)
        return text + f"; even at {top.token} this hand's side would win only {top.success.p:.0%} of the deals."

    def as_dict(self) -> dict:
        return {"players": self.players, "seat": self.seat + 1, "hand": str(self.hand),
                "bids": ["pass" if b is None else b.token for b in self.earlier],
                "recommendation": self.recommendation.token, "reason": self.reason(),
                "margin": self.margin.mean, "margin_se": self.margin.se, "acceptance": self.acceptance,
                "deals": self.deals, "options": [o.as_dict() for o in self.options]}


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


def bid_advice(hand: Hand, rules: Rules, seat: int = 0, bids: list[Contract | None] = (), policy: str = "heuristic",
               deals: int | None = None, precision: float = 0.01, max_deals: int = 200_000, seed: int = 0,
               jobs: int | None = None, bidding: str = "tarotclub", condition: bool = True,
               progress: Callable[[int, int | None], None] | None = None, worlds: int = PIMC_WORLDS) -> BidAdvice:
    if not 0 <= seat < rules.players:
        raise TarotError(f"seat {seat + 1} does not exist at {rules.players} players")
    hand.check_size(rules.hand_size, rules.players)
    best = check_bids(list(bids), seat)
    options: list[Contract | None] = [None] + [c for c in Contract if best is None or c > best]
    fixed, unseen, slots = fixed_hand(hand, seat, rules.players)
    earlier = np.array([0 if b is None else int(b) for b in bids] or [0], dtype=np.int64)
    policies = np.full(rules.players, POLICY_IDS[policy], dtype=np.int64)
    flags = rules_flags(rules)

    def simulate(offset: int, n: int) -> dict:
        rows = {}
        for o in options:
            out = np.zeros((n, K.BID_SIZE), dtype=np.int64)
            K.bid_batch(fixed, unseen, slots, rules.players, seat, earlier, condition and seat > 0,
                        0 if o is None else int(o), METHOD_IDS[bidding], policies, worlds, np.uint64(seed),
                        offset, True, flags, out)
            if (out[:, K.B_TRIES] < 0).any():
                raise TarotError("the earlier bids are too unlikely under the bidding model to condition on "
                                 "them (try --no-auction-conditioning)")
            rows[o] = out
        return rows

    data = run_in_chunks(simulate, deals, max_deals, precision,
                         lambda rows: max(_option(o, r).success.half_width for o, r in rows.items()), policy, jobs,
                         progress)
    done = data[None].shape[0]
    result = [_option(o, data[o]) for o in options]
    ranked = sorted(range(len(options)), key=lambda j: -result[j].score.mean)
    if len(options) > 1:
        margin = Mean.of((data[options[ranked[0]]][:, K.B_SCORE] - data[options[ranked[1]]][:, K.B_SCORE]) / 2)
    else:
        margin = Mean(0.0, 0.0, done)
    tries = data[options[0]][:, K.B_TRIES]
    return BidAdvice(rules.players, seat, hand, tuple(bids), result, margin, float(len(tries) / tries.sum()), done)


def _option(option: Contract | None, rows: np.ndarray) -> BidOption:
    return BidOption(option, Mean.of(rows[:, K.B_SCORE] / 2),                  # half-points to points
                     Proportion(int((rows[:, K.B_WON] == 1).sum()), rows.shape[0]))
