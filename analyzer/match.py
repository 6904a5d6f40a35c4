"""Duplicate matches between card-play policies (``kernels/match.py``), with their uncertainty.

The figure reported is, per deal, what A gains over B: the taker's side's score when A plays that
side minus the same when B plays it (equivalently A's net over the two plays of the deal, since
each play's scores sum to zero).  Its mean comes with a standard error and a 95% interval.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.runs import PIMC_ROLLOUTS, PIMC_WORLDS, threads
from analyzer.stats import Mean
from kernels import match as K
from kernels.bidding import CHAVEY, TAROTCLUB
from kernels.pimc import PIMC_UNIFORM
from kernels.playout import HEURISTIC, PIMC, RANDOM

POLICY_IDS = {"random": RANDOM, "heuristic": HEURISTIC, "pimc": PIMC, "pimc-uniform": PIMC_UNIFORM}
METHOD_IDS = {"chavey": CHAVEY, "tarotclub": TAROTCLUB}


@dataclass(frozen=True)
class MatchResult:
    policy_a: str
    policy_b: str
    players: int
    mean_diff: float
    se: float
    ci95: tuple[float, float]
    deals: int
    skipped: int

    def as_dict(self) -> dict:
        return {"a": self.policy_a, "b": self.policy_b, "players": self.players, "mean_diff": self.mean_diff,
                "se": self.se, "ci95": list(self.ci95), "deals": self.deals, "skipped": self.skipped}


def run_match(policy_a: str, policy_b: str, deals: int, players: int = 4, seed: int = 0,
              bidding: str = "tarotclub", worlds: int = PIMC_WORLDS, rollouts: int = PIMC_ROLLOUTS,
              jobs: int | None = None) -> MatchResult:
    """Play ``deals`` deals in duplicate; skipped (all-pass) deals are counted, not played."""
    for name in (policy_a, policy_b):
        if name not in POLICY_IDS:
            raise ValueError(f"unknown policy {name!r} (expected one of: {', '.join(POLICY_IDS)})")
    if bidding not in METHOD_IDS:
        raise ValueError(f"unknown bidding method {bidding!r} (expected one of: {', '.join(METHOD_IDS)})")
    out = np.zeros((deals, K.MATCH_SIZE), dtype=np.int64)
    with threads(jobs):
        K.match_batch(players, METHOD_IDS[bidding], POLICY_IDS[policy_a], POLICY_IDS[policy_b], worlds, rollouts,
                      0, 0, np.uint64(seed), 0, out)
    played = out[:, K.M_TAKER] >= 0
    diff = Mean.of((out[played, K.M_A_TAKES] - out[played, K.M_B_TAKES]).astype(np.float64))
    return MatchResult(policy_a, policy_b, players, diff.mean, diff.se, diff.ci95(), int(played.sum()),
                       int((~played).sum()))
