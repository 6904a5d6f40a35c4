"""The play model under test against deep search on the same deals: each contract's bias, measured closely.

A calibration's deep run plays deals of its own, so a default's gap to it carries the deep run's noise
(2.9 pp at 300 deals near even odds), wider than the differences between play models; showing that 95%
of the hands fall within ±3 pp that way takes some 2,500 deep deals a hand.  Played on the same deals,
the two models' outcomes differ on few of them (Prise: 8% at 4 players, 17% at 5, with the mixed
model's search against 16 worlds), so the difference of their probabilities of
success (the tested model's bias: what its expectation misses of deep search's) is measured far more
closely.  The default's answer is its model's expectation plus its own noise, whose standard error the
answer reports, so with the biases it says how often that answer falls within ±3 pp of deep search's
expectation (``analyzer.quality.calibrate``): the share of hands the target asks for, with most of the
deep run's noise taken out instead of allowed for.

Each contract is played on deals 0, 1, … of the hand's stream (``hand_seed``-seeded by the
calibration) by the tested model (``Settings.for_contract``: the mixed model's worlds, or the
policy tested) and by deep search (``pimc`` with the deep worlds), ``STEP`` deals a round, until the
bias's standard error is at most ``RATIO`` times the default's (its noise then a small part of the
check's) or the deals asked for are played.  Garde is Prise's play scored again (they are played
alike), so the two are measured on the same plays.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

import kernels.playout as K
from analyzer.advice.odds import chelem_in_sight, garde_beside
from analyzer.hand import Hand
from analyzer.rules import Contract, Rules
from analyzer.runs import Settings, threads
from analyzer.simulation.bridge import simulate_contract
from analyzer.stats import Mean, Moments

SEED = 2          # the paired runs' seeds derive from it (``hand_seed``), apart from the tested and deep runs'
STEP = 250        # deals a round
RATIO = 0.5       # a contract stops once its bias's se is at most this times the default's se
DEEP_POLICY = "pimc"


@dataclass(frozen=True)
class Bias:
    """One contract's probability of success by the tested model minus deep search's, on the same deals
    (``mean`` ± ``se``; the se not below 1/``deals``, as if one deal in ``deals`` had differed where none
    did), and those deals' count."""
    contract: Contract
    mean: float
    se: float
    deals: int

    def as_dict(self) -> dict:
        return {"contract": self.contract.token, "bias": self.mean, "se": self.se, "deals": self.deals}

    @classmethod
    def of(cls, contract: Contract, difference: Mean) -> "Bias":
        """The bias whose deal-by-deal differences have the mean ``difference`` (its se floored at 1/n,
        1 when it cannot be told: one deal)."""
        se = difference.se if difference.n > 1 and math.isfinite(difference.se) else 1.0
        return cls(contract, difference.mean, max(se, 1.0 / difference.n), difference.n)

    @classmethod
    def from_dict(cls, data: dict) -> "Bias":
        return cls(Contract.parse(data["contract"]), data["bias"], data["se"], data["deals"])


def measure_biases(hand: Hand, rules: Rules, tested: Settings, deep_worlds: int, most: int, seed: int,
                   default_se: dict[Contract, float]) -> tuple[Bias, ...]:
    """Each contract's bias for ``hand`` (seat 1 takes, no earlier bid): the tested settings' play
    (``tested.for_contract``, a chelem in sight as ``odds`` sees it) against ``pimc`` with ``deep_worlds`` on
    the same deals of stream ``seed``, ``STEP`` a round, until the se is at most ``RATIO`` times the
    contract's ``default_se`` (Prise's for Prise and Garde, played together) or ``most`` deals are played;
    threads: ``tested.jobs``."""
    biases = {}
    sight = chelem_in_sight(hand, 0, rules, tested)
    with threads(tested.jobs):
        for contract in Contract:
            if contract is Contract.GARDE:
                continue
            also = garde_beside(contract, list(Contract))
            model = tested.for_contract(contract, rules.players, chelem=sight)
            moments = Moments(2)
            while moments.n < most:
                n = min(STEP, most - moments.n)
                made = [_made(hand, rules, contract, also, policy, worlds, n, seed, moments.n)
                        for policy, worlds in ((model.policy, model.worlds), (DEEP_POLICY, deep_worlds))]
                moments.add(made[0] - made[1])
                if _bias(contract, moments, 0).se <= RATIO * default_se[contract]:
                    break
            biases[contract] = _bias(contract, moments, 0)
            if also is not None:
                biases[also] = _bias(also, moments, 1)
    return tuple(biases[c] for c in Contract)


def _made(hand: Hand, rules: Rules, contract: Contract, also: Contract | None, policy: str, worlds: int, n: int,
          seed: int, offset: int) -> np.ndarray:
    """Made (1) or not (0) of deals ``offset … offset+n-1``, one row a deal: ``contract``'s, and ``also``'s
    scoring of the same play beside it when there is one (else ``contract``'s again)."""
    also_rows = np.zeros((n, K.RESULT_SIZE), dtype=np.int64) if also is not None else None
    rows = simulate_contract(hand, 0, contract, rules, policy, n, seed, offset, worlds, search_driver=True,
                             also=also, also_rows=also_rows)
    second = also_rows if also_rows is not None else rows
    return np.stack([rows[:, K.R_MADE], second[:, K.R_MADE]], axis=1).astype(np.float64)


def _bias(contract: Contract, moments: Moments, column: int) -> Bias:
    return Bias.of(contract, moments.summary(column))
