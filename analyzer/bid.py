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

import numpy as np

from analyzer.errors import TarotError
from analyzer.hand import Hand
from analyzer.match import METHOD_IDS
from analyzer.odds import fixed_hand
from analyzer.rules import Contract, Rules
from analyzer.runs import POLICY_IDS, Settings, run_in_chunks
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


# Per deal and option, the features kept (running moments): the hand's score, whether its side won,
# and how many deals were drawn to find one that matches the earlier bids.
SCORE, WON, TRIES = range(3)
FEATURES = 3


def bid_advice(hand: Hand, rules: Rules, seat: int = 0, bids: list[Contract | None] = (),
               settings: Settings = Settings(), bidding: str = "tarotclub", condition: bool = True) -> BidAdvice:
    if rules.all_pass != "redeal":
        raise TarotError("bid advice simulates all-pass deals as thrown in (variant all-pass=redeal)")
    if not 0 <= seat < rules.players:
        raise TarotError(f"seat {seat + 1} does not exist at {rules.players} players")
    hand.check_size(rules.hand_size, rules.players)
    best = check_bids(list(bids), seat)
    options: list[Contract | None] = [None] + [c for c in Contract if best is None or c > best]
    fixed, unseen, slots = fixed_hand(hand, seat, rules.players)
    earlier = np.array([0 if b is None else int(b) for b in bids] or [0], dtype=np.int64)
    policies = np.full(rules.players, POLICY_IDS[settings.policy], dtype=np.int64)
    pab_flat, poignee_values = rules_flags(rules)

    def simulate(offset: int, n: int) -> np.ndarray:
        features = np.empty((n, FEATURES * len(options)))
        for i, o in enumerate(options):
            out = np.zeros((n, K.BID_SIZE), dtype=np.int64)
            K.bid_batch(fixed, unseen, slots, rules.players, seat, earlier, condition and seat > 0,
                        0 if o is None else int(o), METHOD_IDS[bidding], policies, settings.worlds,
                        np.uint64(settings.seed), offset, True, pab_flat, poignee_values, out)
            if (out[:, K.B_TRIES] < 0).any():
                raise TarotError("the earlier bids are too unlikely under the bidding model to condition on "
                                 "them (try --no-auction-conditioning)")
            features[:, FEATURES * i + SCORE] = out[:, K.B_SCORE]
            features[:, FEATURES * i + WON] = out[:, K.B_WON] == 1
            features[:, FEATURES * i + TRIES] = out[:, K.B_TRIES]
        return features

    moments = run_in_chunks(simulate, FEATURES * len(options), settings,
                            lambda m: max(m.proportion(FEATURES * i + WON).half_width for i in range(len(options))))
    result = [BidOption(o, moments.summary(FEATURES * i + SCORE), moments.proportion(FEATURES * i + WON))
              for i, o in enumerate(options)]
    ranked = sorted(range(len(options)), key=lambda j: -result[j].score.mean)
    if len(options) > 1:
        margin = moments.difference(FEATURES * ranked[0] + SCORE, FEATURES * ranked[1] + SCORE)
    else:
        margin = Mean(0.0, 0.0, moments.n)
    acceptance = 1 / moments.mean(TRIES)          # deals kept / deals drawn (the same for every option)
    return BidAdvice(rules.players, seat, hand, tuple(bids), result, margin, acceptance, moments.n)

