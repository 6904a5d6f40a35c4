"""How the simulated bid advice compares with the published point-count methods.

On random hands (first seat to speak, 4 players by default), the advice (``analyzer/advice/bid.py``) and the
two methods of docs/bidding.md each choose a bid.  The choices are then scored on fresh deals
(an independent seed, so the advice is not judged on the very deals it chose from), the other seats
being the same for everybody (duplicate): per hand, the score of the advice's bid minus the score of
each method's bid.  Reported: the agreement table and the mean gain per deal with its standard error.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable

import numpy as np

from analyzer.advice.bid import bid_advice
from analyzer.baselines import METHODS, baseline_contract
from analyzer.errors import SizeLimitError
from analyzer.rules import Rules
from analyzer.runs import Settings
from analyzer.sampling import random_hands
from analyzer.stats import Mean


@dataclass(frozen=True)
class BiddingCheck:
    hands: int
    agreement: dict[str, Counter]          # method -> Counter of (advice bid, method bid)
    gain: dict[str, Mean]                  # method -> advice's score minus the method's, per deal
    variants: dict[str, str]

    def as_dict(self) -> dict:
        return {"hands": self.hands, "variants": self.variants,
                "agreement": {m: {f"{a}|{b}": n for (a, b), n in sorted(c.items())} for m, c in self.agreement.items()},
                "gain": {m: {"mean": g.mean, "se": g.se, "n": g.n} for m, g in self.gain.items()}}


# The hands are dealt at once (78 bytes each) and each is then simulated twice: 10^6 hands take 78 MB
# and, at 1000 deals per option, days of work; more is refused rather than a MemoryError.
MAX_HANDS = 1_000_000


def check_bidding(hands: int = 1000, players: int = 4, deals: int = 1000, seed: int = 0,
                  policy: str = "heuristic", jobs: int | None = None,
                  progress: Callable[[int, int | None], None] | None = None,
                  rules: Rules | None = None) -> BiddingCheck:
    """Compare on ``hands`` random hands (``jobs`` threads) under ``rules`` (FFT at ``players`` players
    when None); ``progress(done, hands)`` after each hand."""
    if not 1 <= hands <= MAX_HANDS:
        raise SizeLimitError(f"--hands {hands}: expected 1 to {MAX_HANDS:,} hands")
    rules = rules or Rules(players=players)
    agreement = {m: Counter() for m in METHODS}
    gains = {m: [] for m in METHODS}
    for i, hand in enumerate(random_hands(rules, hands, seed)):
        choose = bid_advice(hand, rules, 0, [], Settings(policy, deals=deals, seed=seed + 1 + i, jobs=jobs))
        score = bid_advice(hand, rules, 0, [], Settings(policy, deals=deals, seed=seed + 1_000_003 + i, jobs=jobs))
        value = {o.token: o.score.mean for o in score.options}
        mine = choose.recommendation.token
        for method in METHODS:
            theirs = baseline_contract(hand.mask, method, rules.players)
            token = "pass" if theirs is None else theirs.token
            agreement[method][(mine, token)] += 1
            gains[method].append(value[mine] - value[token])
        if progress:
            progress(i + 1, hands)
    return BiddingCheck(hands, agreement, {m: Mean.of(np.array(g)) for m, g in gains.items()}, rules.variants())
