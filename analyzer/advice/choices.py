"""Comparing the taker's alternatives before the first card: which King to call, whether to show a
poignée, whether to announce a chelem.

Each alternative is simulated on the same deals (common random numbers): the hand's holder takes the
contract, makes that choice and leaves the others to the simulated seats; the deal is played by the
chosen policy.  Each alternative gets the taker's expected score, the probability of success and of
a chelem, and its difference with the best alternative on the same deals, all with their
uncertainty.  Runs go until every reported probability's 95% half-width is at most the precision
asked (or a fixed number of deals); a searched run of the mixed model takes the heuristic's play of its
deals as control variate, as ``odds`` and ``bid`` do.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer import cards as C
from analyzer.advice.odds import (CHELEM, FEATURES, MADE, SCORE, chelem_in_sight, contract_features, control_features,
                                  simulate_contract)
from analyzer.errors import TarotError
from analyzer.game import legal_calls
from analyzer.hand import Hand
from analyzer.rules import Contract, Rules
from analyzer.runs import Settings, run_in_chunks
from analyzer.stats import ControlMeans, Mean, Moments, Proportion, WeightedProportion
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

    def features_of(run: Settings, policy: str, offset: int, n: int) -> np.ndarray:
        """The alternatives' features on deals ``offset … offset+n-1`` played by ``policy``."""
        features = np.empty((n, FEATURES * k))
        for i, label in enumerate(labels):
            d = simulate_contract(hand, seat, contract, rules, policy, n, run.seed, offset, worlds=run.worlds,
                                  choices=options[label], search_driver=settings.searches)
            features[:, FEATURES * i:FEATURES * (i + 1)] = contract_features(d, seat)
        return features

    def widest(estimates: Estimates) -> float:
        return max(estimates.share(i, f).half_width for i in range(k) for f in (MADE, CHELEM))

    reference = None
    if settings.controlled:
        control = settings.control_run()
        reference = run_in_chunks(lambda offset, n: features_of(control, "heuristic", offset, n), FEATURES * k,
                                  control, lambda m: widest(Estimates(m, k)), warn=False)
        settings = settings.counting_after(reference.n)

    def simulate(offset: int, n: int) -> np.ndarray:
        own = features_of(settings, settings.policy, offset, n)
        return own if reference is None else np.hstack([own, features_of(settings, "heuristic", offset, n)])

    moments = run_in_chunks(simulate, FEATURES * k * (1 if reference is None else 2), settings,
                            lambda m: widest(Estimates(m, k, reference)))
    estimates = Estimates(moments, k, reference)
    best = max(range(k), key=lambda i: estimates.score({i: 1.0}).mean)
    alternatives = [Alternative(label, estimates.score({i: 1.0}), estimates.share(i, MADE), estimates.share(i, CHELEM),
                                estimates.score({i: 1.0, best: -1.0}) if i != best else Mean(0.0, 0.0, moments.n))
                    for i, label in enumerate(labels)]
    alternatives.sort(key=lambda a: -a.score.mean)
    return Comparison(question, hand, contract, rules.players, seat, moments.n, alternatives,
                      settings.play_model(rules.players), settings.searched_deals(moments.n),
                      0 if reference is None else reference.n)


@dataclass(frozen=True)
class Estimates:
    """The figures of ``k`` alternatives from a run's moments (their features, then, with a control run's
    moments ``reference``, the heuristic's features of the same deals as control variates)."""
    moments: Moments
    k: int
    reference: Moments | None = None

    def score(self, combination: dict[int, float]) -> Mean:
        """A combination of the alternatives' scores ({alternative: coefficient}, e.g. one minus another)."""
        own = {FEATURES * i + SCORE: c for i, c in combination.items()}
        if self.reference is None:
            return self.moments.linear(own)
        return self.moments.controlled(own, *self._controls(combination, SCORE))

    def share(self, i: int, feature: int) -> Proportion | WeightedProportion:
        """Alternative ``i``'s probability of ``feature`` (MADE, CHELEM)."""
        column = FEATURES * i + feature
        if self.reference is None:
            return self.moments.proportion(column)
        return self.moments.controlled_proportion(column, *self._controls({i: 1.0}, feature))

    def _controls(self, combination: dict[int, float], feature: int) -> tuple[list[dict[int, float]], ControlMeans]:
        """The control variates of a combination of the alternatives' ``feature``: the same combination of
        each of the heuristic's ``control_features`` of the same deals, and their means by the control run."""
        features = control_features(feature)
        return ([{FEATURES * (self.k + i) + g: c for i, c in combination.items()} for g in features],
                self.reference.control_means([{FEATURES * i + g: c for i, c in combination.items()} for g in features]))


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


def chelem_options(rules: Rules) -> dict[str, np.ndarray]:
    """Announcing a chelem or not, and under the variant chelem=petit-chelem a petit chelem too."""
    options = {"announce": taker_choices(CH_CHELEM=1), "do not announce": taker_choices(CH_CHELEM=0)}
    if rules.chelem == "petit-chelem":
        options["announce a petit chelem"] = taker_choices(CH_CHELEM=2)
    return options
