"""Duplicate matches between card-play policies (``kernels/match.py``), with their uncertainty.

The figure reported is, per deal, what A gains over B: the taker's side's score when A plays that
side minus the same when B plays it (equivalently A's net over the two plays of the deal, since
each play's scores sum to zero).  Its mean comes with a standard error and a 95% interval.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from analyzer.baselines import method_id
from analyzer.errors import SizeLimitError
from analyzer.rules import Rules
from analyzer.runs import CHUNK, PIMC_CHUNK, PIMC_ROLLOUTS, PIMC_WORLDS, threads
from analyzer.simulate import rules_flags
from analyzer.simulation.policies import MATCH_POLICY_IDS, POLICIES
from analyzer.simulation.threads import over_rows
from analyzer.stats import Mean
from kernels import match as K
from kernels.pimc import INFER, PIMC_PLAYS, PIMC_WEIGHTED

# Each deal keeps MATCH_SIZE int64 results (32 bytes) plus a float per played deal: 10^8 deals take
# about 4 GB, which a 24 GiB machine holds with room to spare (and long hours of heuristic play).
MAX_DEALS = 100_000_000

# The playing policies, and the search with one of its components over pimc-uniform, to measure each
# one's part (``analyzer.simulation.policies``, whose view this is).
POLICY_IDS = MATCH_POLICY_IDS


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
    variants: dict[str, str]

    def as_dict(self) -> dict:
        return {"a": self.policy_a, "b": self.policy_b, "players": self.players, "mean_diff": self.mean_diff,
                "se": self.se, "ci95": list(self.ci95), "deals": self.deals, "skipped": self.skipped,
                "variants": self.variants}


def run_match(policy_a: str, policy_b: str, deals: int, players: int = 4, seed: int = 0,
              bidding: str = "tarotclub", worlds: int = PIMC_WORLDS, rollouts: int = PIMC_ROLLOUTS,
              jobs: int | None = None, progress: Callable[[int, int | None], None] | None = None,
              rules: Rules | None = None) -> MatchResult:
    """Play ``deals`` deals in duplicate under ``rules`` (FFT at ``players`` players when None); skipped
    (all-pass) deals are counted, not played, whatever the all-pass variant.  The deals go in chunks
    (each deal has its own random stream, so the chunking never changes them), and
    ``progress(done, deals)`` is called after each."""
    rules = rules or Rules(players=players)
    if rules.players != players:
        raise ValueError(f"{players} players under {rules.players}-player rules")
    for name in (policy_a, policy_b):
        if name not in POLICY_IDS:
            raise ValueError(f"unknown policy {name!r} (expected one of: {', '.join(POLICY_IDS)})")
    if not 1 <= deals <= MAX_DEALS:
        raise SizeLimitError(f"--deals {deals}: expected 1 to {MAX_DEALS:,} deals")
    method = method_id(bidding)
    chunk = PIMC_CHUNK if any(POLICIES[p].searches for p in (policy_a, policy_b)) else CHUNK
    # The inference's searches only where asked for: the others' driver compiles the search without it.
    inferring = INFER if {POLICY_IDS[policy_a], POLICY_IDS[policy_b]} & {PIMC_WEIGHTED, PIMC_PLAYS} else None
    diffs = []
    skipped = 0
    with threads(jobs):
        for offset in range(0, deals, chunk):
            out = np.zeros((min(chunk, deals - offset), K.MATCH_SIZE), dtype=np.int64)
            over_rows(K.match_batch, out.shape[0], players, method, POLICY_IDS[policy_a], POLICY_IDS[policy_b],
                      worlds, rollouts, rules_flags(rules), np.uint64(seed), offset, out, inferring)
            played = out[:, K.M_TAKER] >= 0
            diffs.append((out[played, K.M_A_TAKES] - out[played, K.M_B_TAKES]).astype(np.float64))
            skipped += int((~played).sum())
            if progress:
                progress(offset + out.shape[0], deals)
    diff = Mean.of(np.concatenate(diffs))
    return MatchResult(policy_a, policy_b, players, diff.mean, diff.se, diff.ci95(), diff.n, skipped,
                       rules.variants())
