"""Comparing the taker's alternatives before the first card: which King to call, whether to show a
poignée, whether to announce a chelem.

Each alternative is simulated on the same deals (common random numbers): the hand's holder takes the
contract, makes that choice and leaves the others to the simulated seats; the deal is played by the
chosen policy.  Each alternative gets the taker's expected score, the probability of success and of
a chelem, and its difference with the best alternative on the same deals, all with their
uncertainty.  Runs go until every reported probability's 95% half-width is at most the precision
asked (or a fixed number of deals); a searched run of the mixed model takes the heuristic's play of its
deals as control variate, as ``odds`` and ``bid`` do: the alternatives are one set of trials of the
simulation core (``analyzer.simulation.trials``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer import cards as C
from analyzer.advice.odds import chelem_in_sight
from analyzer.errors import TarotError
from analyzer.game import legal_calls, lowest_poignee
from analyzer.hand import Hand
from analyzer.rules import Contract, PoigneeLevel, Rules
from analyzer.runs import Settings
from analyzer.simulation.bridge import simulate_contract
from analyzer.simulation.features import CONTRACT, contract_features
from analyzer.simulation.trials import Trials, run_trials
from analyzer.stats import Mean, Proportion, WeightedProportion
from kernels import playout as K

POIGNEE_NAMES = ("simple", "double", "triple")


@dataclass(frozen=True)
class Alternative:
    label: str
    score: Mean                    # the taker's score
    success: Proportion | WeightedProportion     # contract made (weighted: with a control variate)
    chelem: Proportion | WeightedProportion      # the taker's side took every trick
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
    control_deals: int = 0             # the heuristic's deals of the control run (none without one)

    @property
    def best(self) -> Alternative:
        return self.alternatives[0]

    def as_dict(self) -> dict:
        return {"question": self.question, "players": self.players, "seat": self.seat + 1, "hand": str(self.hand),
                "contract": self.contract.token, "play_model": self.play_model, "deals": self.deals,
                "searched_deals": self.searched_deals, "control_deals": self.control_deals,
                "recommendation": self.best.label,
                "alternatives": [a.as_dict() for a in self.alternatives]}


def compare(question: str, hand: Hand, rules: Rules, contract: Contract, options: dict[str, np.ndarray],
            seat: int = 0, settings: Settings = Settings(max_deals=100_000)) -> Comparison:
    """Simulate each labelled set of taker's choices (``kernels.playout`` CH_* arrays) and rank them.  A
    searched run of the mixed model (``Settings.controlled``) plays its deals by the heuristic too, as
    its control variate (``analyzer.stats.Moments.controlled``), whose means a control run measures first
    (every alternative by the heuristic, on deals of its own); where an alternative announces a chelem, by
    the chelem search (``analyzer.runs.CHELEM_SEARCH``), as where a chelem is in sight (``compared_model``)."""
    if not 0 <= seat < rules.players:
        raise TarotError(f"seat {seat + 1} does not exist at {rules.players} players")
    hand.check_size(rules.hand_size, rules.players)
    labels = list(options)
    k = len(labels)
    settings = compared_model(settings, hand, seat, rules, contract, options)
    search_driver = settings.searches

    def features_of(run: Settings, policy: str, offset: int, n: int) -> np.ndarray:
        """The alternatives' features on deals ``offset … offset+n-1`` played by ``policy``."""
        features = np.empty((n, len(CONTRACT) * k))
        for i, label in enumerate(labels):
            d = simulate_contract(hand, seat, contract, rules, policy, n, run.seed, offset, worlds=run.worlds,
                                  choices=options[label], search_driver=search_driver)
            features[:, len(CONTRACT) * i:len(CONTRACT) * (i + 1)] = contract_features(d, seat)
        return features

    def simulator(run: Settings, controlled: bool):
        """The rows of deals (offset, n) played by ``run``'s settings (and by the heuristic, ``controlled``)."""
        def simulate(offset: int, n: int) -> np.ndarray:
            own = features_of(run, run.policy, offset, n)
            return np.hstack([own, features_of(run, "heuristic", offset, n)]) if controlled else own
        return simulate

    def widest(trials: Trials) -> float:
        return max(trials.share(i, f).half_width for i in range(k) for f in ("made", "chelem"))

    trials = run_trials(simulator, list(range(k)), CONTRACT, settings, widest)
    best = max(range(k), key=lambda i: trials.combination({i: 1.0}, "score").mean)
    alternatives = [Alternative(label, trials.combination({i: 1.0}, "score"), trials.share(i, "made"),
                                trials.share(i, "chelem"),
                                trials.difference(i, best, "score") if i != best else Mean(0.0, 0.0, trials.n))
                    for i, label in enumerate(labels)]
    alternatives.sort(key=lambda a: -a.score.mean)
    return Comparison(question, hand, contract, rules.players, seat, trials.n, alternatives,
                      settings.play_model(rules.players), settings.searched_deals(trials.n),
                      0 if trials.reference is None else trials.reference.n)


def compared_model(settings: Settings, hand: Hand, seat: int, rules: Rules, contract: Contract,
                   options: dict[str, np.ndarray]) -> Settings:
    """The settings ``compare`` plays the alternatives ``options`` of ``contract`` with (``Settings.for_contract``):
    under the mixed model by the chelem search where an alternative announces a chelem or a chelem is in sight
    (``analyzer.advice.odds.chelem_in_sight``)."""
    chelem = announces_chelem(options) or chelem_in_sight(hand, seat, rules, settings)
    return settings.for_contract(contract, rules.players, chelem=chelem)


def announces_chelem(options: dict[str, np.ndarray]) -> bool:
    """Whether one of the alternatives announces a chelem: the question is then the chelem's, which the
    mixed model searches with ``analyzer.runs.CHELEM_SEARCH``."""
    return any(choices[K.CH_CHELEM] > 0 for choices in options.values())


def taker_choices(**given: int) -> np.ndarray:
    """The taker's choices array (``kernels.playout`` CH_* names), automatic but for those ``given``."""
    choices = K.auto_choices()
    for name, value in given.items():
        choices[getattr(K, name)] = value
    return choices


def call_options(hand: Hand) -> dict[str, np.ndarray]:
    """5 players: one alternative per card the taker may call."""
    return {C.TOKENS[card]: taker_choices(CH_CALLED=card) for card in legal_calls(hand.mask)}


def poignee_options(hand: Hand, rules: Rules) -> dict[str, np.ndarray]:
    """Not showing, and showing each level the hand's trumps allow (the lowest trumps, the Excuse only
    as the last stand-in)."""
    options = {"no poignée": taker_choices(CH_POIGNEE=-1)}
    for level, need in enumerate(rules.poignee_thresholds):
        if hand.trumps() >= need:
            options[f"{POIGNEE_NAMES[level]} ({need} trumps)"] = taker_choices(CH_POIGNEE=level)
    return options


def poignees_shown(hand: Hand, rules: Rules) -> dict[str, int]:
    """Each poignée the hand's trumps allow, by name: the trumps it shows (the lowest, the Excuse only as
    the last stand-in), a mask."""
    return {POIGNEE_NAMES[level]: lowest_poignee(hand.mask, PoigneeLevel(level), rules)
            for level, need in enumerate(rules.poignee_thresholds) if hand.trumps() >= need}


def chelem_options(rules: Rules) -> dict[str, np.ndarray]:
    """Announcing a chelem or not, and under the variant chelem=petit-chelem a petit chelem too."""
    options = {"announce": taker_choices(CH_CHELEM=1), "do not announce": taker_choices(CH_CHELEM=0)}
    if rules.chelem == "petit-chelem":
        options["announce a petit chelem"] = taker_choices(CH_CHELEM=2)
    return options
