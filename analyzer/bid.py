"""Bid advice: the value of passing and of every legal bid from the hand's seat, given the bids so far.

Deals are drawn with the hand fixed and, unless turned off, conditioned on the earlier bids by
weighting: the earlier seats are taken to bid by the bidding model (``docs/bidding.md``, TarotClub's
count by default) give or take a normal error of ``noise`` points on their count, and each deal
weighs the probability that its earlier seats make exactly the bids that were made
(``kernels/auction.py``).  Every figure is a weighted mean (importance sampling; its standard error by
the delta method), so any legal auction gets advice: an unlikely one just leaves fewer effective deals
(Kish's count, reported).  For each option the later seats bid by the model, the deal is played by the
chosen policy from the actual taker's point of view (the hand may end up defending), or thrown in when
everybody passed (played out as a Goulash under ``all-pass=goulash``, so that ``pass`` is worth the
Goulash's expected score).  Every option is valued on the same deals, so their differences are
measured precisely.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from analyzer.errors import TarotError
from analyzer.hand import Hand
from analyzer.baselines import method_id
from analyzer.odds import fixed_hand
from analyzer.rules import Contract, Rules
from analyzer.runs import POLICY_IDS, Settings, run_in_chunks, searching
from analyzer.simulate import rules_flags
from analyzer.stats import Mean, WeightedProportion
from kernels import auction as K


@dataclass(frozen=True)
class BidOption:
    bid: Contract | None              # None: pass
    score: Mean                       # the hand's score
    success: WeightedProportion       # the hand's side wins the deal (a thrown-in deal is no success)
    vs_best: Mean                     # score minus the best option's, on the same deals

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
    effective_deals: float            # Kish's effective number of deals of the weights (= deals unweighted)
    deals: int
    noise: float = 0.0                # the earlier bidders' error around the model, in points (when weighted)
    play_model: str = "heuristic"     # the card play behind the numbers (``Settings.play_model``)
    searched_deals: int = 0           # deals played with search

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
                "margin": self.margin.mean, "margin_se": self.margin.se, "play_model": self.play_model,
                "deals": self.deals, "searched_deals": self.searched_deals,
                "effective_deals": self.effective_deals, "auction_noise": self.noise,
                "options": [o.as_dict() for o in self.options]}


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


# Per deal, the features kept (running moments): the deal's weight given the earlier bids, then per
# option the hand's score and whether its side won, each times the weight.
WEIGHT = 0
SCORE, WON = range(2)
PER_OPTION = 2
# The default error of the earlier bidders around the bidding model, in points of their count: about half
# the gap between two contracts' thresholds (15 points), so a bid says much about a hand but a bid a
# few points off the count is not ruled out.
BID_NOISE = 8.0


def bid_advice(hand: Hand, rules: Rules, seat: int = 0, bids: list[Contract | None] = (),
               settings: Settings = Settings(), bidding: str = "tarotclub", condition: bool = True,
               noise: float = BID_NOISE) -> BidAdvice:
    """The value of passing and of each legal bid for ``hand`` at ``seat`` (0-based) after ``bids``;
    with ``condition``, the deals are weighted by the earlier bids (the bidders' count off by a normal
    error of ``noise`` points; 0: exactly the model, which can leave no deal)."""
    if not 0 <= seat < rules.players:
        raise TarotError(f"seat {seat + 1} does not exist at {rules.players} players")
    if not (math.isfinite(noise) and noise >= 0):
        raise TarotError(f"the auction noise must be a number of points, 0 or more, got {noise}")
    hand.check_size(rules.hand_size, rules.players)
    best = check_bids(list(bids), seat)
    options: list[Contract | None] = [None] + [c for c in Contract if best is None or c > best]
    fixed, unseen, slots = fixed_hand(hand, seat, rules.players)
    earlier = np.array([0 if b is None else int(b) for b in bids] or [0], dtype=np.int64)
    policies = np.full(rules.players, POLICY_IDS[settings.policy], dtype=np.int64)
    batch = K.bid_batch if searching(policies) else K.bid_batch_no_search
    flags = rules_flags(rules)
    weighted = condition and seat > 0
    total_weight = [0.0]

    def simulate(offset: int, n: int) -> np.ndarray:
        features = np.empty((n, 1 + PER_OPTION * len(options)))
        weights = np.empty(n)
        for i, o in enumerate(options):
            out = np.zeros((n, K.BID_SIZE), dtype=np.int64)
            batch(fixed, unseen, slots, rules.players, seat, earlier, weighted, 0 if o is None else int(o),
                  method_id(bidding), float(noise), policies, settings.worlds, np.uint64(settings.seed), offset, True,
                  flags, out, weights)
            features[:, 1 + PER_OPTION * i + SCORE] = weights * out[:, K.B_SCORE] / 2      # half-points to points
            features[:, 1 + PER_OPTION * i + WON] = weights * (out[:, K.B_WON] == 1)
        features[:, WEIGHT] = weights            # the same deals, so the same weights, for every option
        total_weight[0] += weights.sum()
        if total_weight[0] <= 0:
            raise TarotError(f"no deal among the first {offset + n:,} fits the earlier bids under the bidding model "
                             f"(auction noise {noise:g} points): allow more noise (--auction-noise) or drop the "
                             "conditioning (--no-auction-conditioning)")
        return features

    def column(i: int, feature: int) -> int:
        return 1 + PER_OPTION * i + feature

    moments = run_in_chunks(simulate, 1 + PER_OPTION * len(options), settings,
                            lambda m: max(m.weighted_proportion(column(i, WON), WEIGHT).half_width
                                          for i in range(len(options))))
    scores = [moments.ratio({column(i, SCORE): 1.0}, WEIGHT) for i in range(len(options))]
    ranked = sorted(range(len(options)), key=lambda j: -scores[j].mean)
    result = [BidOption(o, scores[i], moments.weighted_proportion(column(i, WON), WEIGHT),
                        moments.ratio({column(i, SCORE): 1.0, column(ranked[0], SCORE): -1.0}, WEIGHT))
              for i, o in enumerate(options)]
    if len(options) > 1:
        margin = moments.ratio({column(ranked[0], SCORE): 1.0, column(ranked[1], SCORE): -1.0}, WEIGHT)
    else:
        margin = Mean(0.0, 0.0, moments.n)
    return BidAdvice(rules.players, seat, hand, tuple(bids), result, margin, moments.effective_n(WEIGHT), moments.n,
                     float(noise) if weighted else 0.0, settings.play_model, settings.searched_deals(moments.n))
