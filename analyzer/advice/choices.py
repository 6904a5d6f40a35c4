"""Comparing the taker's alternatives before the first card: which King to call, whether to show a
poignée, whether to announce a chelem.

Each alternative is simulated on the same deals (common random numbers): the hand's holder takes the
contract, makes that choice and leaves the others to the simulated seats; the deal is played by the
chosen policy.  Each alternative gets the taker's expected score, the probability of success and of
a chelem, and its difference with the best alternative on the same deals, all with their
uncertainty.  Runs go until every reported probability's 95% half-width is at most the precision
asked (or a fixed number of deals).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer import cards as C
from analyzer.advice.odds import simulate_contract
from analyzer.errors import TarotError
from analyzer.game import legal_calls
from analyzer.hand import Hand
from analyzer.rules import Contract, Rules
from analyzer.runs import Settings, run_in_chunks
from analyzer.stats import Mean, Moments, Proportion
from kernels import playout as K

POIGNEE_NAMES = ("simple", "double", "triple")


@dataclass(frozen=True)
class Alternative:
    label: str
    score: Mean                    # the taker's score
    success: Proportion            # contract made
    chelem: Proportion             # the taker's side took every trick
    vs_best: Mean                  # score minus the best alternative's, on the same deals

    def as_dict(self) -> dict:
        return {"choice": self.label, "expected_score": self.score.mean, "se": self.score.se, "n": self.score.n,
                "p_success": self.success.p, "ci95": list(self.success.wilson()), "p_chelem": self.chelem.p,
                "chelem_ci95": list(self.chelem.wilson()), "vs_best": self.vs_best.mean, "vs_best_se": self.vs_best.se}


@dataclass(frozen=True)
class Comparison:
    question: str
    hand: Hand
    contract: Contract
    players: int
    seat: int
    deals: int
    alternatives: list[Alternative]
    play_model: str = "heuristic"      # the card play behind the numbers (``Settings.play_model``)
    searched_deals: int = 0            # deals played with search

    @property
    def best(self) -> Alternative:
        return self.alternatives[0]

    def as_dict(self) -> dict:
        return {"question": self.question, "players": self.players, "seat": self.seat + 1, "hand": str(self.hand),
                "contract": self.contract.token, "play_model": self.play_model, "deals": self.deals,
                "searched_deals": self.searched_deals, "recommendation": self.best.label,
                "alternatives": [a.as_dict() for a in self.alternatives]}


# Per deal and alternative, the features kept (running moments): the taker's score, made, chelem.
SCORE, MADE, CHELEM = range(3)
FEATURES = 3


def compare(question: str, hand: Hand, rules: Rules, contract: Contract, options: dict[str, np.ndarray],
            seat: int = 0, settings: Settings = Settings(max_deals=100_000)) -> Comparison:
    """Simulate each labelled set of taker's choices (``kernels.playout`` CH_* arrays) and rank them."""
    if not 0 <= seat < rules.players:
        raise TarotError(f"seat {seat + 1} does not exist at {rules.players} players")
    hand.check_size(rules.hand_size, rules.players)
    labels = list(options)
    settings = settings.for_contract(contract, rules.players)

    def simulate(offset: int, n: int) -> np.ndarray:
        features = np.empty((n, FEATURES * len(labels)))
        for i, label in enumerate(labels):
            d = simulate_contract(hand, seat, contract, rules, settings.policy, n, settings.seed, offset,
                                  worlds=settings.worlds, choices=options[label])
            features[:, FEATURES * i + SCORE] = d[:, seat]
            features[:, FEATURES * i + MADE] = d[:, K.R_MADE]
            features[:, FEATURES * i + CHELEM] = np.isin(d[:, K.R_CHELEM], (1, 2, 5))
        return features

    def widest(m: Moments) -> float:
        return max(m.proportion(FEATURES * i + f).half_width for i in range(len(labels)) for f in (MADE, CHELEM))

    moments = run_in_chunks(simulate, FEATURES * len(labels), settings, widest)
    best = max(range(len(labels)), key=lambda i: moments.mean(FEATURES * i + SCORE))
    alternatives = [Alternative(label, moments.summary(FEATURES * i + SCORE), moments.proportion(FEATURES * i + MADE),
                                moments.proportion(FEATURES * i + CHELEM),
                                moments.difference(FEATURES * i + SCORE, FEATURES * best + SCORE))
                    for i, label in enumerate(labels)]
    alternatives.sort(key=lambda a: -a.score.mean)
    return Comparison(question, hand, contract, rules.players, seat, moments.n, alternatives,
                      settings.play_model(rules.players), settings.searched_deals(moments.n))


def _choices(**given: int) -> np.ndarray:
    choices = K.auto_choices()
    for name, value in given.items():
        choices[getattr(K, name)] = value
    return choices


def call_options(hand: Hand) -> dict[str, np.ndarray]:
    """5 players: one alternative per card the taker may call."""
    return {C.TOKENS[card]: _choices(CH_CALLED=card) for card in legal_calls(hand.mask)}


def poignee_options(hand: Hand, rules: Rules) -> dict[str, np.ndarray]:
    """Not showing, and showing each level the hand's trumps allow (the lowest trumps, the Excuse only
    as the last stand-in)."""
    options = {"no poignée": _choices(CH_POIGNEE=-1)}
    for level, need in enumerate(rules.poignee_thresholds):
        if hand.trumps() >= need:
            options[f"{POIGNEE_NAMES[level]} ({need} trumps)"] = _choices(CH_POIGNEE=level)
    return options


def chelem_options(rules: Rules) -> dict[str, np.ndarray]:
    """Announcing a chelem or not, and under the variant chelem=petit-chelem a petit chelem too."""
    options = {"announce": _choices(CH_CHELEM=1), "do not announce": _choices(CH_CHELEM=0)}
    if rules.chelem == "petit-chelem":
        options["announce a petit chelem"] = _choices(CH_CHELEM=2)
    return options
