"""The taker's choices against deep search: the default answers of ``call``, ``poignee``, ``chelem`` and
``discard``, set against PIMC's play of the same alternatives on the same deals.

Each of those commands compares alternatives on common deals (``analyzer.advice.choices``,
``analyzer.advice.discard``): a King to call, a poignée to show or not, a chelem to announce or not, a
discard.  For random hands of a seat (of the kind each question is asked about: any hand for ``call``
at 5 players, hands holding a simple poignée for ``poignee``, a triple one's trumps and Kings for
``chelem``, a hand and its chien for ``discard``), the command is run with its defaults, then every
alternative it reported (``discard``: its ``DISCARDS`` best) is played on deals 0 … ``deals``−1 of the
hand's own stream twice: by the play model the command used for it (``Settings.for_contract``;
``discard``'s candidates by ``search_stage``'s, which ranks them) and by deep search (``pimc``, 16
worlds per decision). On the same deals the two plays differ on few of them, so what the command's
model misses of deep search's expectation, each reported probability's bias, is known closely, as
``analyzer.quality.paired`` measures it for ``odds``. From the biases (pooled over hands and
alternatives: their mean and their spread beyond noise) and each answer's own standard error comes the
share of hands whose every reported probability is expected within ±3 pp of deep search's expectation.
The alternatives' answers come from the same deals, so their errors move together: the share is
computed with their correlation, measured on the paired deals (the command's model's outcomes less the
part its control variate, the heuristic's play of the same deals, takes out), and as if they were
independent (a bound from below). Deep search's scores of the alternatives, on those deals, say which
it would recommend: the command agrees when it picks the same, or one whose deep score is within one
standard error of the deep choice's (their difference on the same deals). ``discard`` reports no
probability: only its recommendation is judged, among the candidates it ranked first (a discard deep
search would prefer outside them is not seen).

That test has a reach of its own (``Reach``): where alternatives are worth nearly the same (two
discards that differ by a small card), the deep choice is the best of noisy scores, and even a choice
that knew deep search's expectations would fall beyond one standard error of it on some draws of the
paired deals.  Each hand says how often such a choice passes (its deals resampled: an estimate from
above, the sample's gaps being wider than the true ones), and how often deep search's own choice on
half of the deals passes on the other half, beside the command's choice there (a chooser as strong as
the judge, on the same footing as the command).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

import kernels.playout as K
from analyzer import cards as C
from analyzer.advice.choices import (Comparison, call_options, chelem_options, compare, compared_model,
                                     poignee_options, taker_choices)
from analyzer.advice.discard import DEALS as DISCARD_DEALS
from analyzer.advice.discard import best_discards, discard_model, discard_play, search_stage
from analyzer.errors import SizeLimitError, TarotError
from analyzer.hand import Hand
from analyzer.notation import format_cards
from analyzer.quality.calibrate import DEEP_WORLDS, MAX_HANDS, NOISE_SES, TOLERANCE, bias_summary, hand_seed
from analyzer.quality.paired import DEEP_POLICY, Bias
from analyzer.quality.run_record import RecordError, append_check, open_record, record_lock
from analyzer.rules import Contract, Rules
from analyzer.runs import Settings, threads
from analyzer.sampling import sample_deals
from analyzer.simulation.bridge import simulate_contract
from analyzer.simulation.features import CHELEM_OUTCOMES
from analyzer.stats import Z95, Mean, normal_within

QUESTIONS = ("call", "poignee", "chelem", "discard")
CONTRACTS = {"call": Contract.GARDE, "poignee": Contract.GARDE, "chelem": Contract.GARDE_SANS,
             "discard": Contract.GARDE}          # each command's default contract
SEED = 3            # the paired plays' seeds derive from it (``hand_seed``), apart from the commands' own
DEALS = 400         # paired deals a hand, each alternative played on all of them by both models
DISCARDS = 5        # discard: the command's best candidates that deep search plays
DRAWS = 20_000      # normal draws a hand for the chance that its correlated answers are all within
MAX_PAIRED_DEALS = 100_000      # each alternative's plays are kept deal by deal until the hand's check ends
RESAMPLES = 400     # the test's reach: draws of a hand's paired deals (resamples, and splits in halves)
DRAWN_SCORES = 2_000_000        # scores a batch of those draws holds at once (16 MB an array)
TRUMPS = 22         # the trumps and the Excuse, which a poignée counts
KIND = "calibrate-choices"      # a record's settings key (``analyzer.quality.run_record``)


@dataclass(frozen=True)
class Answer:
    """One alternative as the command answered it: its probabilities of success and of a chelem with their
    standard errors (the 95% half-width over 1.96; none for a discard), and its expected score."""
    label: str
    score: float
    success: tuple[float, float] | None
    chelem: tuple[float, float] | None


@dataclass(frozen=True)
class AlternativeCheck:
    """One alternative: the command's answer, its probabilities' biases (the command's model minus deep
    search, on the same deals), and deep search's score on those deals."""
    answer: Answer
    success_bias: Bias
    chelem_bias: Bias
    deep_score: Mean

    def as_dict(self) -> dict:
        a = self.answer
        return {"choice": a.label, "score_default": a.score,
                **({"p_default": a.success[0], "se_default": a.success[1], "p_chelem_default": a.chelem[0],
                    "se_chelem_default": a.chelem[1]} if a.success else {}),
                "success_bias": self.success_bias.mean, "success_bias_se": self.success_bias.se,
                "chelem_bias": self.chelem_bias.mean, "chelem_bias_se": self.chelem_bias.se,
                "score_deep": self.deep_score.mean, "score_deep_se": self.deep_score.se}


@dataclass(frozen=True)
class Reach:
    """What the recommendation test lets through on one hand, from deep search's scores of its alternatives
    on the paired deals (``recommendation_reach``): ``known``, the chances that a choice knowing deep search's
    expectations is deep search's choice, within one and within ``NOISE_SES`` standard errors of it,
    the paired deals resampled; ``halves``, the chances that deep search's choice on half of the deals,
    and the command's choice, are within one standard error of deep search's choice on the other half."""
    known: tuple[float, float, float]
    halves: tuple[float, float]

    def as_dict(self) -> dict:
        return {"known": list(self.known), "halves": list(self.halves)}

    @classmethod
    def from_dict(cls, data: dict) -> "Reach":
        return cls(tuple(data["known"]), tuple(data["halves"]))


def recommendation_reach(deep: np.ndarray, chosen: int, seed: int, resamples: int = RESAMPLES) -> Reach | None:
    """The recommendation test's reach on a hand (``Reach``): ``deep`` holds deep search's score of each
    alternative (a column) on each paired deal (a row), ``chosen`` is the command's column.  Each draw
    applies ``ChoiceCheck.within_ses``' test; None with fewer than 4 deals (no halves)."""
    n, k = deep.shape
    if n < 4:
        return None
    rng = np.random.default_rng(seed)
    known = int(deep.mean(axis=0).argmax())
    counts = np.zeros(5)
    batch = max(1, DRAWN_SCORES // (n * k))
    for start in range(0, resamples, batch):
        size = min(batch, resamples - start)
        sample = deep[rng.integers(0, n, (size, n))]
        counts[:3] += _passes(sample, _best(sample), np.full(size, known), (1.0, NOISE_SES)).sum(axis=1)
        order = rng.random((size, n)).argsort(axis=1)
        first, other = deep[order[:, :n // 2]], deep[order[:, n // 2:]]
        judged = _best(other)                       # one judge for both choices on the half
        counts[3] += _passes(other, judged, _best(first), (1.0,))[1].sum()
        counts[4] += _passes(other, judged, np.full(size, chosen), (1.0,))[1].sum()
    shares = [float(c / resamples) for c in counts]
    return Reach(tuple(shares[:3]), tuple(shares[3:]))


def _best(draws: np.ndarray) -> np.ndarray:
    """Per draw (draws x deals x alternatives, deep search's scores), the alternative of best mean."""
    return draws.mean(axis=1).argmax(axis=1)


def _passes(judge: np.ndarray, best: np.ndarray, choice: np.ndarray, ses: tuple[float, ...]) -> np.ndarray:
    """Per draw (``judge``: draws x deals x alternatives, deep search's scores; ``best``: its ``_best``),
    whether ``choice`` is the draw's best (row 0), and whether it is that or within each of ``ses``
    standard errors of it (a row each: ``ChoiceCheck.within_ses``)."""
    rows = np.arange(len(judge))
    cost = judge[rows, :, choice] - judge[rows, :, best]
    se = cost.std(axis=1, ddof=1) / math.sqrt(judge.shape[1])
    same = choice == best
    return np.array([same, *(same | (-cost.mean(axis=1) <= k * se) for k in ses)])


@dataclass(frozen=True)
class ChoiceCheck:
    """One hand: the command's alternatives checked, best first as it ranked them, deep search's choice
    and what the command's choice costs in deep search's play (its score minus the deep choice's, on the
    same deals), the seconds of the command and of the paired plays, and the correlation of its
    answers' errors."""
    hand: Hand
    chien: Hand | None
    alternatives: tuple[AlternativeCheck, ...]
    deep_choice: str
    cost: Mean
    seconds: dict[str, float]
    correlation: np.ndarray        # of the success answers' errors (``error_correlation``), in the same order
    reach: Reach | None = None         # the recommendation test's (None: a record written before it)

    @property
    def choice(self) -> str:
        return self.alternatives[0].answer.label

    @property
    def same_recommendation(self) -> bool:
        return self.choice == self.deep_choice

    @property
    def recommendation_agrees(self) -> bool:
        return self.within_ses(1.0)

    def within_ses(self, ses: float) -> bool:
        """Whether the command's choice is deep search's, or scores within ``ses`` standard errors of it in
        deep search's play: near-equal alternatives (two Kings alike) are told apart by the paired deals'
        noise, and the deep choice, the best of noisy scores, is flattered by it."""
        return self.same_recommendation or -self.cost.mean <= ses * self.cost.se

    @property
    def reports_probabilities(self) -> bool:
        return self.alternatives[0].answer.success is not None

    def within_tolerance_chance(self, success_bias: tuple[float, float], chelem_bias: tuple[float, float],
                                correlated: bool = True, seed: int = 0) -> float:
        """The chance that every probability the command reported falls within the tolerance of deep
        search's expectation: each one's true bias normal (mean, spread) on its own, its answer normal
        around it with its standard error.  The success answers' errors correlated as ``correlation``
        says (``DRAWS`` normal draws from ``seed``), or (``correlated`` false) taken as independent: a
        product, the bound from below that Šidák's inequality gives for centred errors.  The chelem
        answers' taken as independent."""
        se = np.array([a.answer.success[1] for a in self.alternatives])
        mean, spread = success_bias
        if correlated:
            values, vectors = np.linalg.eigh(self.correlation)
            root = vectors * np.sqrt(np.clip(values, 0.0, None))
            rng = np.random.default_rng(seed)
            errors = (rng.standard_normal((DRAWS, len(se))) @ root.T * se + mean
                      + spread * rng.standard_normal((DRAWS, len(se))))
            success = float(np.mean(np.all(np.abs(errors) <= TOLERANCE, axis=1)))
        else:
            success = math.prod(normal_within(mean, math.hypot(s, spread), TOLERANCE) for s in se)
        return success * math.prod(normal_within(chelem_bias[0], math.hypot(a.answer.chelem[1], chelem_bias[1]),
                                                 TOLERANCE) for a in self.alternatives)

    def as_dict(self, digits: int | None = 4) -> dict:
        """The check's fields, the correlation rounded to ``digits`` (None: as it is, for a record)."""
        correlation = self.correlation if digits is None else np.round(self.correlation, digits)
        return {"hand": str(self.hand), **({"chien": str(self.chien)} if self.chien else {}),
                "recommendation_default": self.choice, "recommendation_deep": self.deep_choice,
                "cost_in_deep_play": self.cost.mean, "cost_se": self.cost.se,
                "recommendation_agrees": self.recommendation_agrees, "seconds": self.seconds,
                "alternatives": [a.as_dict() for a in self.alternatives],
                "error_correlation": correlation.tolist(),
                **({"recommendation_reach": self.reach.as_dict()} if self.reach else {})}

    @classmethod
    def from_dict(cls, data: dict, contract: Contract, deals: int) -> "ChoiceCheck":
        """The check ``as_dict`` wrote, its biases and deep scores measured on ``deals`` deals of ``contract``."""
        def answer(a: dict) -> Answer:
            probabilities = "p_default" in a
            return Answer(a["choice"], a["score_default"], (a["p_default"], a["se_default"]) if probabilities else None,
                          (a["p_chelem_default"], a["se_chelem_default"]) if probabilities else None)

        alternatives = tuple(AlternativeCheck(answer(a), Bias(contract, a["success_bias"], a["success_bias_se"], deals),
                                              Bias(contract, a["chelem_bias"], a["chelem_bias_se"], deals),
                                              Mean(a["score_deep"], a["score_deep_se"], deals))
                             for a in data["alternatives"])
        return cls(Hand.parse(data["hand"]), Hand.parse(data["chien"]) if "chien" in data else None, alternatives,
                   data["recommendation_deep"], Mean(data["cost_in_deep_play"], data["cost_se"], deals),
                   dict(data["seconds"]), np.array(data["error_correlation"], dtype=float),
                   Reach.from_dict(data["recommendation_reach"]) if "recommendation_reach" in data else None)


@dataclass(frozen=True)
class ChoicesCalibration:
    question: str
    rules: Rules
    seed: int
    deals: int
    deep_worlds: int
    play_model: str
    hands: list[ChoiceCheck]
    seat: int = 0

    @property
    def contract(self) -> Contract:
        return CONTRACTS[self.question]

    def biases(self, feature: str) -> list[Bias]:
        """Every alternative's bias of one probability ("success", "chelem") over the hands."""
        return [getattr(a, f"{feature}_bias") for h in self.hands for a in h.alternatives]

    def share(self, test: Callable[[ChoiceCheck], bool]) -> float:
        return sum(map(test, self.hands)) / len(self.hands)

    def summary(self) -> dict:
        costs = [max(0.0, -h.cost.mean) for h in self.hands]       # what each choice loses
        out = {"share_same_recommendation": self.share(lambda h: h.same_recommendation),
               "share_recommendation_agrees": self.share(lambda h: h.recommendation_agrees),
               "share_recommendation_within_2se": self.share(lambda h: h.within_ses(NOISE_SES)),
               "cost_mean": sum(costs) / len(costs), "cost_worst": max(costs),
               "seconds": {key: {"mean": sum(h.seconds[key] for h in self.hands) / len(self.hands),
                                 "worst": max(h.seconds[key] for h in self.hands)} for key in self.hands[0].seconds}}
        if all(h.reach for h in self.hands):
            known = np.mean([h.reach.known for h in self.hands], axis=0).tolist()
            halves = np.mean([h.reach.halves for h in self.hands], axis=0).tolist()
            out["recommendation_reach"] = {"known": dict(zip(("same", "within_1se", "within_2se"), known)),
                                           "halves": dict(zip(("deep_within_1se", "default_within_1se"), halves))}
        if self.hands[0].reports_probabilities:
            biases = {feature: bias_summary(self.biases(feature)) for feature in ("success", "chelem")}
            out.update(biases=biases, share_within_3pp_expected=self._expected_share(biases, "spread"),
                       share_within_3pp_expected_low=self._expected_share(biases, "spread_upper"),
                       share_within_3pp_independent=self._expected_share(biases, "spread", correlated=False))
        return out

    def _expected_share(self, biases: dict, spread: str, correlated: bool = True) -> float:
        """The share of hands whose every reported probability is expected within the tolerance of deep
        search's expectation (``ChoiceCheck.within_tolerance_chance``), each probability's true bias
        normal with the pooled biases' mean and ``spread`` (beyond noise, or its 95% bound)."""
        def law(feature: str) -> tuple[float, float]:
            b = biases[feature]
            return b["mean"], b[spread] if math.isfinite(b[spread]) else 0.0

        return sum(h.within_tolerance_chance(law("success"), law("chelem"), correlated, seed=i)
                   for i, h in enumerate(self.hands)) / len(self.hands)

    def as_dict(self) -> dict:
        return {"question": self.question, "players": self.rules.players, "seat": self.seat + 1,
                "contract": self.contract.token, "hands": len(self.hands), "seed": self.seed,
                "default": {"play_model": self.play_model},
                "deep": {"policy": DEEP_POLICY, "worlds": self.deep_worlds, "paired_deals": self.deals, "seed": SEED},
                "summary": self.summary(), "per_hand": [h.as_dict() for h in self.hands],
                "variants": self.rules.variants()}


def hands_for(question: str, rules: Rules, n: int, seed: int, seat: int = 0) -> list[tuple[Hand, Hand | None]]:
    """The ``n`` hands (with the chien for ``discard``) a question is checked on, reproducibly from ``seed``:
    ``seat``'s hands of random deals for ``call`` (5 players only) and ``discard``, for ``poignee`` hands
    holding at least a simple poignée's trumps, for ``chelem`` a triple's and nothing but Kings beside
    them (hands that may take every trick; uniform over such hands)."""
    if question == "call" and rules.players != 5:
        raise TarotError(f"call: a King is called at 5 players, not {rules.players}")
    if not 0 <= seat < rules.players:
        raise TarotError(f"seat {seat + 1} does not exist at {rules.players} players")
    if question in ("call", "discard"):
        places = sample_deals(rules.players, n, seed, exclude_petit_sec=rules.petit_sec == "annul")
        return [(Hand(C.mask_of(map(int, np.flatnonzero(places[i] == seat)))),
                 Hand(C.mask_of(map(int, np.flatnonzero(places[i] == rules.players))))
                 if question == "discard" else None) for i in range(n)]
    if question == "poignee":
        return [(hand, None) for hand in trump_rich_hands(rules.hand_size, rules.poignee_thresholds[0], n, seed)]
    return [(hand, None) for hand in trump_rich_hands(rules.hand_size, rules.poignee_thresholds[2], n, seed,
                                                      np.array(C.KINGS))]


def trump_rich_hands(size: int, least: int, n: int, seed: int, others: np.ndarray | None = None) -> list[Hand]:
    """``n`` hands of ``size`` cards drawn uniformly among those holding at least ``least`` trumps (the
    Excuse counted) and their other cards among ``others`` (every suit card when None): the count k
    drawn in proportion to C(22, k)·C(len(others), size − k), the trumps and the other cards then
    uniformly.  Exact, where dealing until such a hand comes would take some 200 deals a hand at 4
    players for a simple poignée, 100,000 for a double and 40 million for a triple."""
    rng = np.random.default_rng(seed)
    others = np.arange(C.FIRST_TRUMP) if others is None else others
    counts = np.arange(max(least, size - len(others)), min(TRUMPS, size) + 1)
    weights = np.array([math.comb(TRUMPS, k) * math.comb(len(others), size - k) for k in counts], dtype=float)
    trumps = np.arange(C.FIRST_TRUMP, C.N_CARDS)
    hands = []
    for k in rng.choice(counts, size=n, p=weights / weights.sum()):
        chosen = np.concatenate([rng.choice(trumps, k, replace=False), rng.choice(others, size - k, replace=False)])
        hands.append(Hand(C.mask_of(map(int, chosen))))
    return hands


def check_choices(question: str, hand: Hand, chien: Hand | None, rules: Rules, tested: Settings, deals: int,
                  deep_worlds: int, seed: int, seat: int = 0) -> ChoiceCheck:
    """One hand of ``seat``, its taker: the command's answer under ``tested`` (its seed in it), then each
    alternative it reported played on deals 0 … ``deals``−1 of stream ``seed`` by its model and by deep
    search; threads: ``tested.jobs``."""
    contract = CONTRACTS[question]
    start = time.perf_counter()
    if question == "discard":
        ranked = best_discards(hand.mask, chien.mask, contract, rules, seat, tested.with_(deals=tested.deals or
                                                                                          DISCARD_DEALS), DISCARDS)
        answers = [Answer(format_cards(c.discard), c.score.mean, None, None) for c in ranked]
        options = {a.label: _discard_choices(c.discard) for a, c in zip(answers, ranked)}
        model = search_stage(tested, contract, rules.players) or discard_play(tested, contract)
    else:
        options = {"call": lambda: call_options(hand), "poignee": lambda: poignee_options(hand, rules),
                   "chelem": lambda: chelem_options(rules)}[question]()
        comparison = compare(question, hand, rules, contract, options, seat, tested)
        answers = _answers(comparison)
        model = compared_model(tested, hand, seat, rules, contract, options)
    seconds = {"default": time.perf_counter() - start}
    start = time.perf_counter()
    extra = {rules.players: chien.mask} if chien else None
    plays = [(model.policy, model.worlds), (DEEP_POLICY, deep_worlds)]
    if model.controlled:
        plays.append(("heuristic", model.worlds))        # the answer's control variate, for its errors' correlation
    features = {}
    with threads(tested.jobs):
        for a in answers:
            features[a.label] = [_outcomes(hand, seat, rules, contract, policy, worlds, options[a.label], extra, deals,
                                           seed) for policy, worlds in plays]
    seconds["paired"] = time.perf_counter() - start
    deep_scores = {label: f[1][:, 0] for label, f in features.items()}
    deep_choice = max(deep_scores, key=lambda label: deep_scores[label].mean())
    def bias(label: str, column: int) -> Bias:
        """The command's model's mean of one column minus deep search's, on the same deals."""
        return Bias.of(contract, Mean.of(features[label][0][:, column] - features[label][1][:, column]))

    checks = tuple(AlternativeCheck(a, bias(a.label, 1), bias(a.label, 2), Mean.of(deep_scores[a.label]))
                   for a in answers)
    cost = Mean.of(deep_scores[answers[0].label] - deep_scores[deep_choice])
    correlation = error_correlation([f[0][:, 1] for f in features.values()],
                                    [f[2][:, 1] for f in features.values()] if model.controlled else None)
    reach = recommendation_reach(np.stack([deep_scores[a.label] for a in answers], axis=1), 0, seed)
    return ChoiceCheck(hand, chien, checks, deep_choice, cost, seconds, correlation, reach)


def error_correlation(made: list[np.ndarray], controls: list[np.ndarray] | None) -> np.ndarray:
    """The correlation, alternative to alternative, of the errors of the command's probabilities of success,
    from its model's outcomes on the paired deals (``made``, one array an alternative): the alternatives
    are played on the same deals, so their errors move together.  With ``controls`` (the heuristic's
    outcomes of the same deals, the answers' control variates), of the residuals y − βx that remain
    once each is controlled.  An alternative whose residual does not vary is uncorrelated with the others."""
    residuals = []
    for i, y in enumerate(made):
        r = y.astype(float)
        if controls is not None and controls[i].var() > 0:
            x = controls[i]
            r = r - np.mean((y - y.mean()) * (x - x.mean())) / x.var() * x
        residuals.append(r - r.mean())
    m = np.array(residuals)
    sd = np.sqrt((m * m).mean(axis=1))
    out = np.eye(len(made))
    for i in range(len(made)):
        for j in range(i + 1, len(made)):
            if sd[i] > 0 and sd[j] > 0:
                out[i, j] = out[j, i] = float((m[i] * m[j]).mean() / (sd[i] * sd[j]))
    return out


def _answers(comparison: Comparison) -> list[Answer]:
    return [Answer(a.label, a.score.mean, (a.success.p, a.success.half_width / Z95),
                   (a.chelem.p, a.chelem.half_width / Z95)) for a in comparison.alternatives]


def _discard_choices(discard: int) -> np.ndarray:
    return taker_choices(CH_DISCARD=1, CH_DISCARD_S=discard & C.SUIT_BITS, CH_DISCARD_T=discard >> C.FIRST_TRUMP)


def _outcomes(hand: Hand, seat: int, rules: Rules, contract: Contract, policy: str, worlds: int, choices: np.ndarray,
              extra: dict[int, int] | None, deals: int, seed: int) -> np.ndarray:
    """Per deal: the taker's score, made (1 or 0), chelem (the taker's side took every trick)."""
    rows = simulate_contract(hand, seat, contract, rules, policy, deals, seed, 0, worlds, choices=choices,
                             fixed_extra=extra, search_driver=True)
    chelem = np.isin(rows[:, K.R_CHELEM], CHELEM_OUTCOMES)
    return np.stack([rows[:, seat], rows[:, K.R_MADE], chelem], axis=1).astype(float)


def calibrate_choices(question: str, rules: Rules, hands: int, seed: int = 0, deals: int = DEALS,
                      deep_worlds: int = DEEP_WORLDS, jobs: int | None = None,
                      progress: Callable[[int, int], None] | None = None, seat: int = 0,
                      record: str | Path | None = None, resume: bool = False) -> ChoicesCalibration:
    """``question``'s default answers on ``hands`` hands of ``seat`` (``hands_for``, dealt from ``seed``)
    against deep search with ``deep_worlds``, on ``deals`` paired deals a hand; ``progress(done, hands)``
    after each.  With ``record``, each hand's check is written there as it ends, and ``resume`` takes
    the hands a record of the same settings holds instead of checking them again
    (``analyzer.quality.run_record``; the same ``hands`` too: a question's hands are drawn together, the
    first of a run of 10 not those of a run of 20).
    Hand i's command runs seeded ``hand_seed(0, i)`` (the commands' default seed, mixed per hand), its
    paired plays ``hand_seed(SEED, i)``."""
    if question not in QUESTIONS:
        raise TarotError(f"{question}: expected one of {', '.join(QUESTIONS)}")
    if not 1 <= hands <= MAX_HANDS:
        raise SizeLimitError(f"--hands {hands}: expected 1 to {MAX_HANDS:,} hands")
    if not 2 <= deals <= MAX_PAIRED_DEALS:
        raise SizeLimitError(f"--deals {deals}: expected 2 to {MAX_PAIRED_DEALS:,} deals")
    tested = Settings(jobs=jobs)
    if question == "discard":
        tested = tested.with_(deals=DISCARD_DEALS)
    contract = CONTRACTS[question]
    path = Path(record) if record else None
    settings = record_settings(question, rules, hands, seed, deals, deep_worlds, seat, tested)
    checks = []
    with record_lock(path, KIND):
        held = open_record(path, settings, resume, lambda _, entry: ChoiceCheck.from_dict(entry, contract, deals)) \
            if path else {}
        for i, (hand, chien) in enumerate(hands_for(question, rules, hands, seed, seat)):
            if i in held:
                if (held[i].hand, held[i].chien) != (hand, chien):
                    raise RecordError(f"{path}: hand {i + 1} is not the one seed {seed} deals ({held[i].hand}): the "
                                      "record was written by another version; use another")
                checks.append(held[i])
            else:
                checks.append(check_choices(question, hand, chien, rules, tested.with_(seed=hand_seed(tested.seed, i)),
                                            deals, deep_worlds, hand_seed(SEED, i), seat))
                if path:
                    append_check(path, i, checks[-1].as_dict(digits=None))
            if progress:
                progress(i + 1, hands)
    if question == "discard":
        model = discard_model(tested, contract, rules.players)
    elif question == "chelem":          # the chelem search plays the contract
        model = tested.for_contract(contract, rules.players, chelem=True).play_model(rules.players)
    else:
        model = tested.play_model(rules.players)
    return ChoicesCalibration(question, rules, seed, deals, deep_worlds, model, checks, seat)


def record_settings(question: str, rules: Rules, hands: int, seed: int, deals: int, deep_worlds: int, seat: int,
                    tested: Settings) -> dict:
    """What a calibrate-choices record's hands depend on: its first line, which a resumed run must match."""
    return {KIND: {"question": question, "players": rules.players, "seat": seat + 1, "hands": hands, "seed": seed,
                   "variants": rules.variants(), "deals": deals, "deep_worlds": deep_worlds, "paired_seed": SEED,
                   "tested": {"policy": tested.policy, "precision": tested.precision, "deals": tested.deals,
                              "max_deals": tested.max_deals}}}
