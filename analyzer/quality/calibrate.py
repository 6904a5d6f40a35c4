"""Default advice against deep search: how far the fast answers of ``odds`` and ``bid`` are from PIMC.

Random hands for seat 1 are dealt by the sampler (``analyzer.sampling.random_hands``; petit sec
excluded unless the rules play it), reproducibly from a seed, under the FFT rules or the variants
given.  Each hand is analysed by the very functions behind the commands, twice: with the settings
under test (by default the commands' own, ``Settings()``: the mixed play model, precision 0.01, seed 0,
exactly what ``tarot-analyzer odds HAND`` and ``bid HAND`` print; or another play model and
precision, to see what a setting would buy) and with deep search (PIMC, ``worlds`` per decision, a
fixed number of deals, seed ``DEEP_SEED``).  The deep run plays other deals than the default one, so
the two estimates are independent and the standard error of their difference is √(se₁² + se₂²).

Per hand: each contract's probability of success (``odds``) under both with its standard error, the gap
(default minus deep), and the two recommendations (``bid``: the option of highest expected score, pass
included).  A recommendation agrees when it is the deep one, or when in the deep run the default's
choice scores within one standard error of the deep one's (their difference on the same deals).  The
summary gives per contract the mean gap (a bias of the play model shows there), the mean and worst
absolute gap, and the gaps' spread beyond their noise (√(mean gap² − mean se²), 0 when noise explains
them all: what a run with few deep deals can say about gaps it cannot resolve hand by hand); the share
of hands whose every gap is within ±3 pp, next to the share the noise alone allows (the chance of
it, averaged over the hands, were the default's expectation deep search's), the share whose every
gap is within two standard errors of the difference (what noise alone explains), the shares of
agreeing recommendations, and the mean seconds per command.

A deep run of its own deals judges a gap only to its noise (2.9 pp at 300 deals near even odds).  With a
paired measure (``analyzer.quality.paired``) each contract's bias, the tested model's play against deep
search's on the same deals, is known far more closely; with the biases' spread from hand to hand and
each answer's own standard error, it gives the share of hands whose every answer falls within ±3 pp of
deep search's expectation, the share the target asks for, with bounds from below
(``Calibration.paired_summary``).

A run of many hands takes hours: with a record (a file of JSON lines, the settings first, then a
line per hand as it ends) it can stop and go on, or grow, without checking a hand twice.
"""

from __future__ import annotations

import math
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, replace
from multiprocessing import get_context
from pathlib import Path
from typing import Callable, Iterator

from analyzer.advice.bid import BidAdvice, bid_advice
from analyzer.advice.odds import ContractOdds, OddsResult, contract_odds
from analyzer.errors import SizeLimitError, TarotError
from analyzer.hand import Hand
from analyzer.quality import paired as paired_measure
from analyzer.quality import run_record
from analyzer.quality.paired import Bias, measure_biases
from analyzer.quality.run_record import (RecordError, append_check, first_difference, open_record, plain,
                                        record_lock)
from analyzer.rules import Contract, Rules
from analyzer.runs import MAX_DEALS, MIXED_WORLDS, Settings
from analyzer.sampling import random_hands
from analyzer.stats import Z95, Z95_ONE_SIDED, Mean, normal_within

DEEP_SEED = 1            # the deep runs' seeds derive from it (``hand_seed``), the tested runs' from their own
KIND = "calibrate"       # a calibrate record's settings key (``analyzer.quality.run_record``)
STREAMS = "per hand"     # a record's deal streams: each hand's runs seeded apart (earlier records: "shared")
DEEP_WORLDS = 16
DEEP_DEALS = 200
TOLERANCE = 0.03         # the target: every probability within ±3 percentage points of deep search
NOISE_SES = 2.0          # a gap within two standard errors of the difference is what noise explains
MAX_HANDS = 100_000      # each hand costs about a minute of deep search: more is refused


def hand_seed(base: int, index: int) -> int:
    """The seed of hand ``index``'s run in a calibration seeded ``base``: a SplitMix64 mix of the two,
    so that each hand's deals are streams of their own, unrelated to another hand's or another base's
    (a seed below 2^63, as every command takes)."""
    z = (base * 0x9E3779B97F4A7C15 + index + 1) % 2**64
    for shift, factor in ((30, 0xBF58476D1CE4E5B9), (27, 0x94D049BB133111EB)):
        z = ((z ^ (z >> shift)) * factor) % 2**64
    return (z ^ (z >> 31)) >> 1


@dataclass(frozen=True)
class Estimate:
    """A probability with its standard error, taken as the 95% Wilson half-width over 1.96: the binomial
    √(p(1−p)/n) away from 0 and 1, and not zero at them (0 successes in 200 deals is not a certainty)."""
    p: float
    se: float

    @classmethod
    def of(cls, odds: ContractOdds) -> "Estimate":
        return cls(odds.success.p, odds.success.half_width / Z95)


@dataclass(frozen=True)
class Gap:
    """One contract's probability of success by default and by deep search, and their difference."""
    contract: Contract
    default: Estimate
    deep: Estimate

    @property
    def gap(self) -> float:
        return self.default.p - self.deep.p

    @property
    def se(self) -> float:
        return math.hypot(self.default.se, self.deep.se)

    def tolerance_chance(self, default_only: bool = False) -> float:
        """The chance that this gap would be within the tolerance if the default's expectation were deep
        search's (the gap then normal around 0 with its standard error; ``default_only``: with the
        default's own standard error alone, deep search's value taken as exact)."""
        return normal_within(0.0, self.default.se if default_only else self.se, TOLERANCE)

    def as_dict(self) -> dict:
        return {"contract": self.contract.token, "p_default": self.default.p, "se_default": self.default.se,
                "p_deep": self.deep.p, "se_deep": self.deep.se, "gap": self.gap, "gap_se": self.se}


@dataclass(frozen=True)
class HandCheck:
    """One hand's answers under both settings, as far as the comparison needs them: the deals behind
    each, each contract's two probabilities (``gaps``), the two recommendations, the deep run's score
    of every bid option against its own best (so that any recommendation can be costed there), the
    seconds each command took, and the two runs' seeds (``odds HAND --seed S`` gives the default
    answer again).  What a record line holds (``as_dict``/``from_dict``); its deep half serves other
    settings under test (``against``)."""
    hand: Hand
    deals_default: int
    deals_deep: int
    gaps: tuple[Gap, ...]
    recommendation_default: str
    recommendation_deep: str
    deep_options: dict[str, tuple[float, float]]   # each bid's deep score minus the deep best's, ± se
    seconds: dict[str, float]                      # "odds default", "odds deep", "bid default", "bid deep"
    seed_default: int | None          # None: an earlier record's, whose settings line names none
    seed_deep: int | None
    biases: tuple[Bias, ...] = ()     # with --paired: each contract's bias against deep search, same deals

    @classmethod
    def of(cls, hand: Hand, default: OddsResult, deep: OddsResult, default_bid: BidAdvice, deep_bid: BidAdvice,
           seconds: dict[str, float], seeds: tuple[int, int]) -> "HandCheck":
        return cls(hand, default.deals, deep.deals,
                   tuple(Gap(d.contract, Estimate.of(d), Estimate.of(s)) for d, s in zip(default.contracts,
                                                                                        deep.contracts)),
                   default_bid.recommendation.token, deep_bid.recommendation.token,
                   {o.token: (o.vs_best.mean, o.vs_best.se) for o in deep_bid.options}, seconds, *seeds)

    def against(self, default: OddsResult, default_bid: BidAdvice, seconds: dict[str, float],
                seed: int) -> "HandCheck":
        """This check's deep answers set against other answers under test (``seconds`` and ``seed``: theirs)."""
        if [d.contract for d in default.contracts] != [g.contract for g in self.gaps]:
            raise RecordError("the deep answers are for other contracts than the answers under test")
        return replace(self, deals_default=default.deals,
                       gaps=tuple(Gap(g.contract, Estimate.of(d), g.deep) for d, g in zip(default.contracts,
                                                                                         self.gaps)),
                       recommendation_default=default_bid.recommendation.token, seed_default=seed, biases=(),
                       seconds={**seconds, **{k: v for k, v in self.seconds.items() if k.endswith(" deep")}})

    @property
    def deep_cost(self) -> tuple[float, float]:
        """The deep run's score of the default's recommendation minus its own best's, ± se."""
        return self.deep_options[self.recommendation_default]

    @property
    def within_tolerance(self) -> bool:
        return all(abs(g.gap) <= TOLERANCE for g in self.gaps)

    def tolerance_chance(self, default_only: bool = False) -> float:
        """The chance that every gap would be within the tolerance if the default's expectation were
        deep search's: each gap then normal around 0 with its standard error, the contracts' gaps
        independent but for Garde's, which is Prise's (the same deals, played alike: the same numbers
        by the heuristic, all but the same by the search).  The share of hands within ±3 pp that the
        runs' noise alone allows; ``default_only``: the default's own noise alone (deep search's
        value taken as exact), what its precision allows however many deep deals."""
        return math.prod(g.tolerance_chance(default_only) for g in self.gaps if g.contract != Contract.GARDE)

    def within_tolerance_at_least(self) -> float:
        """With the biases measured (``paired``): the chance that every probability the tested settings
        answer is within the tolerance of deep search's expectation, each contract's answer normal around
        deep search's plus its measured bias, with the answer's standard error, independent but for
        Garde's, which is Prise's.  The measured bias has noise of its own, so this chance is on average
        that of an answer with both noises: lower than the answer's own while the bias is within the
        tolerance, a bound from below (``Calibration.paired_summary`` gives the estimate)."""
        se = {g.contract: g.default.se for g in self.gaps}
        return math.prod(normal_within(b.mean, se[b.contract], TOLERANCE) for b in self.biases
                         if b.contract != Contract.GARDE)

    @property
    def within_noise(self) -> bool:
        return all(abs(g.gap) <= NOISE_SES * g.se for g in self.gaps)

    @property
    def same_recommendation(self) -> bool:
        return self.recommendation_default == self.recommendation_deep

    @property
    def recommendation_agrees(self) -> bool:
        cost, se = self.deep_cost
        return self.same_recommendation or abs(cost) <= se

    def as_dict(self) -> dict:
        cost, se = self.deep_cost
        return {"hand": str(self.hand), "deals_default": self.deals_default, "deals_deep": self.deals_deep,
                "contracts": [g.as_dict() for g in self.gaps],
                "within_3pp": self.within_tolerance, "within_2se": self.within_noise,
                "recommendation_default": self.recommendation_default,
                "recommendation_deep": self.recommendation_deep,
                "same_recommendation": self.same_recommendation, "deep_score_difference": cost,
                "deep_score_difference_se": se, "recommendation_agrees": self.recommendation_agrees,
                "deep_options": {token: {"vs_best": m, "se": e} for token, (m, e) in self.deep_options.items()},
                "seconds": dict(self.seconds), "seed_default": self.seed_default, "seed_deep": self.seed_deep,
                **({"paired": [b.as_dict() for b in self.biases],
                    "within_3pp_at_least": self.within_tolerance_at_least()} if self.biases else {})}

    @classmethod
    def from_dict(cls, data: dict, seeds: tuple[int | None, int | None]) -> "HandCheck":
        """The check ``as_dict`` wrote (the fields derived from the others are computed again; the seeds,
        which records written before each hand had its own do not hold, are then ``seeds``)."""
        gaps = tuple(Gap(Contract.parse(g["contract"]), Estimate(g["p_default"], g["se_default"]),
                         Estimate(g["p_deep"], g["se_deep"])) for g in data["contracts"])
        return cls(Hand.parse(data["hand"]), data["deals_default"], data["deals_deep"], gaps,
                   data["recommendation_default"], data["recommendation_deep"],
                   {token: (o["vs_best"], o["se"]) for token, o in data["deep_options"].items()},
                   dict(data["seconds"]), data.get("seed_default", seeds[0]), data.get("seed_deep", seeds[1]),
                   tuple(Bias.from_dict(b) for b in data.get("paired", ())))


@dataclass(frozen=True)
class Calibration:
    rules: Rules
    seed: int
    default: Settings
    deep: Settings
    hands: list[HandCheck]
    deep_from: str | None = None       # the record the deep answers were taken from, if any
    deep_streams: str = STREAMS        # "shared": that record's deep runs had one seed for every hand
    paired: int | None = None          # the most deals of each contract's paired measure (None: not measured)
    biases_from: str | None = None     # the record the paired biases were taken from, if any

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def tests_the_defaults(self) -> bool:
        """Whether the settings under test are the commands' own defaults (threads apart)."""
        return self.default == Settings(jobs=self.default.jobs)

    def contract_gaps(self, contract: Contract) -> list[Gap]:
        return [g for h in self.hands for g in h.gaps if g.contract == contract]

    def share(self, test: Callable[[HandCheck], bool]) -> float:
        return sum(map(test, self.hands)) / len(self.hands)

    def seconds(self, command: str) -> float:
        """The mean seconds per hand of one command ("odds default", "bid deep" …)."""
        return sum(h.seconds[command] for h in self.hands) / len(self.hands)

    def summary(self) -> dict:
        return {
            "gaps": {c.token: gap_summary(self.contract_gaps(c)) for c in Contract},
            "share_within_3pp": self.share(lambda h: h.within_tolerance),
            "share_within_3pp_if_unbiased": sum(h.tolerance_chance() for h in self.hands) / len(self.hands),
            "share_within_3pp_default_noise": sum(h.tolerance_chance(True) for h in self.hands) / len(self.hands),
            "share_within_2se": self.share(lambda h: h.within_noise),
            "share_same_recommendation": self.share(lambda h: h.same_recommendation),
            "share_recommendation_agrees": self.share(lambda h: h.recommendation_agrees),
            "seconds_per_command": {key: self.seconds(key) for key in self.hands[0].seconds},
            **(self.paired_summary() if self.paired else {}),
        }

    def paired_summary(self) -> dict:
        """The paired measure over the hands: each contract's biases (``bias_summary``), and the share of
        hands whose every answer is within the tolerance of deep search's expectation.  Estimated with
        the biases' spread: each contract's true bias, hand to hand, normal with the biases' mean and
        their spread beyond noise, each answer normal around it with its own standard error, the share
        the mean over the hands of the chance that all are within (Garde counted with Prise once); at
        the spread's upper 95% bound, a lower bound; and, without that model, the mean of the hands'
        ``within_tolerance_at_least``, a bound from below as long as the biases are within the tolerance.
        """
        biases = {c.token: bias_summary([b for h in self.hands for b in h.biases if b.contract == c])
                  for c in Contract}

        def share(spread: str) -> float:
            return sum(math.prod(normal_within(biases[g.contract.token]["mean"],
                                               math.hypot(g.default.se, biases[g.contract.token][spread]), TOLERANCE)
                                 for g in h.gaps if g.contract != Contract.GARDE) for h in self.hands) / len(self.hands)

        return {"biases": biases, "share_within_3pp_expected": share("spread"),
                "share_within_3pp_expected_low": share("spread_upper"),
                "share_within_3pp_at_least": sum(h.within_tolerance_at_least() for h in self.hands) / len(self.hands)}

    def as_dict(self) -> dict:
        return {"players": self.players, "seat": 1, "hands": len(self.hands), "seed": self.seed,
                "default": {"play_model": self.default.play_model(self.players), "precision": self.default.precision,
                            "max_deals": self.default.max_deals, "seed": self.default.seed, "streams": STREAMS,
                            "commands_defaults": self.tests_the_defaults},
                "deep": {"play_model": self.deep.play_model(self.players), "worlds": self.deep.worlds,
                         "deals": self.deep.deals, "seed": self.deep.seed, "streams": self.deep_streams,
                         "taken_from": self.deep_from},
                **({"paired": {**paired_settings(self.paired),
                               **({"taken_from": self.biases_from} if self.biases_from else {})}}
                   if self.paired else {}),
                "summary": self.summary(), "per_hand": [h.as_dict() for h in self.hands],
                "variants": self.rules.variants()}


def gap_summary(gaps: list[Gap]) -> dict:
    """One contract's gaps over the hands: their mean, mean and worst absolute value, their spread
    beyond noise, √(max(0, mean gap² − mean se²)) (the root mean square of the true gaps, estimated), and
    the share within the tolerance next to the share the runs' noise alone allows: which contract a
    shortfall of the hands' shares comes from."""
    n = len(gaps)
    excess = sum(g.gap ** 2 - g.se ** 2 for g in gaps) / n
    return {**_magnitudes([g.gap for g in gaps]), "spread_beyond_noise": math.sqrt(max(excess, 0.0)),
            "within_3pp": sum(abs(g.gap) <= TOLERANCE for g in gaps) / n,
            "within_3pp_if_unbiased": sum(g.tolerance_chance() for g in gaps) / n}


def bias_summary(biases: list[Bias]) -> dict:
    """One contract's paired biases over the hands: their mean, mean and worst absolute value, their
    mean standard error and mean deals, and their spread beyond noise about their mean (the standard
    deviation of the true biases, hand to hand, estimated: √max(0, variance of the biases − mean se²))
    with its upper 95% bound (one-sided, from the standard error of the hands' squared deviations minus
    their se²; from one hand, no spread and an infinite bound)."""
    n = len(biases)
    sizes = _magnitudes([b.mean for b in biases])
    spread, upper = math.nan, math.inf
    if n > 1:
        excess = Mean.of([(b.mean - sizes["mean"]) ** 2 * n / (n - 1) - b.se ** 2 for b in biases])
        spread = math.sqrt(max(excess.mean, 0.0))
        upper = math.sqrt(max(excess.mean + Z95_ONE_SIDED * excess.se, 0.0))
    return {**sizes, "spread": spread, "spread_upper": upper,
            "mean_se": sum(b.se for b in biases) / n, "mean_deals": sum(b.deals for b in biases) / n}


def _magnitudes(values: list[float]) -> dict:
    """The mean of ``values``, and the mean and worst of their absolute values."""
    return {"mean": sum(values) / len(values), "mean_abs": sum(map(abs, values)) / len(values),
            "worst_abs": max(map(abs, values))}


def paired_settings(most: int) -> dict:
    """The paired measure's settings, as the record and the JSON state them."""
    return {"most_deals": most, "step": paired_measure.STEP, "stop_at_se_ratio": paired_measure.RATIO,
            "seed": paired_measure.SEED, "deep_policy": paired_measure.DEEP_POLICY}


def _timed(call: Callable[[], object]) -> tuple[object, float]:
    start = time.perf_counter()
    result = call()
    return result, time.perf_counter() - start


def check_hand(hand: Hand, rules: Rules, default: Settings, deep: Settings,
               reference: HandCheck | None = None, pairing: tuple[int, int] | None = None) -> HandCheck:
    """One hand through ``odds`` and ``bid`` (seat 1, no earlier bid) under both settings (the hand's
    own seeds in them), or under the default's alone against the deep answers of ``reference`` (a
    check of the same hand); with ``pairing`` (the most deals, the seed), each contract's bias measured
    too (``analyzer.quality.paired``)."""
    check = _answers(hand, rules, default, deep, reference)
    if pairing is None:
        return check
    most, seed = pairing
    biases, seconds = _timed(lambda: measure_biases(hand, rules, default, deep.worlds, most, seed,
                                                    {g.contract: g.default.se for g in check.gaps}))
    return replace(check, biases=biases, seconds={**check.seconds, "paired": seconds})


def _answers(hand: Hand, rules: Rules, default: Settings, deep: Settings,
             reference: HandCheck | None) -> HandCheck:
    seconds = {}
    answers = {}
    for name, settings in (("default", default), ("deep", deep))[:1 if reference else 2]:
        answers["odds", name], seconds[f"odds {name}"] = _timed(lambda: contract_odds(hand, rules, 0, settings))
        answers["bid", name], seconds[f"bid {name}"] = _timed(lambda: bid_advice(hand, rules, 0, [], settings))
    if reference:
        return reference.against(answers["odds", "default"], answers["bid", "default"], seconds, default.seed)
    return HandCheck.of(hand, answers["odds", "default"], answers["odds", "deep"], answers["bid", "default"],
                        answers["bid", "deep"], seconds, (default.seed, deep.seed))


def calibrate(players: int, hands: int, seed: int = 0, worlds: int = DEEP_WORLDS, deals: int = DEEP_DEALS,
              jobs: int | None = None, progress: Callable[[int, int | None], None] | None = None,
              rules: Rules | None = None, tested: Settings | None = None, record: str | Path | None = None,
              resume: bool = False, workers: int = 1, deep_from: str | Path | None = None,
              paired: int | None = None, biases_from: str | Path | None = None) -> Calibration:
    """The answers of ``tested`` (the commands' defaults when None; its threads are ``jobs``) against deep
    answers on ``hands`` random hands of seat 1 under ``rules`` (FFT at ``players`` players when None);
    ``progress(done, hands)`` after each hand.  With ``record``, each hand's check is written there as
    it ends (JSON lines, after a line of the settings), and ``resume`` takes the hands a record already
    holds instead of checking them again: a long run can stop and go on (hand i is the same whatever
    ``hands``, so a record also grows a run).  ``workers`` > 1 checks that many hands at once, each in
    a process of its own (the same checks; see ``checked``).  ``deep_from`` names a record whose deep
    answers are taken instead of searching again (its deep settings then replace ``worlds`` and
    ``deals``): any settings can be set against one long deep run in the time of their own.  ``paired``
    (deals): each contract's bias is measured too, on at most that many deals played by the tested
    model and by deep search alike (``analyzer.quality.paired``); or ``biases_from`` names a record whose
    paired biases are taken instead (``paired_biases``: the same hands and play model), so that other
    answers of that model (another precision) are judged by them in the time of the answers alone.
    Hand i's runs are seeded ``hand_seed(tested seed, i)``, ``hand_seed(DEEP_SEED, i)`` and
    ``hand_seed(paired_measure.SEED, i)``."""
    if not 1 <= hands <= MAX_HANDS:
        raise SizeLimitError(f"--hands {hands}: expected 1 to {MAX_HANDS:,} hands")
    if workers < 1:
        raise TarotError(f"--workers {workers}: expected at least 1")
    if paired is not None and not 1 <= paired <= MAX_DEALS:
        raise SizeLimitError(f"--paired {paired}: expected 1 to {MAX_DEALS:,} deals")
    if paired is not None and biases_from:
        raise TarotError(f"--paired measures the biases that --biases-from {biases_from} takes: ask for one")
    rules = rules or Rules(players=players)
    if workers > 1 and jobs is None:
        jobs = 1                    # a thread per worker: the workers share the cores
    default = (tested or Settings()).with_(jobs=jobs)
    if default.mixed_worlds == MIXED_WORLDS[rules.players]:
        default = default.with_(mixed_worlds=None)        # the defaults, named: a record of the defaults
    reference, streams = {}, STREAMS
    if deep_from:
        (worlds, deals, streams), reference = deep_answers(Path(deep_from), rules, seed, hands)
    deep = Settings(policy="pimc", worlds=worlds, deals=deals, seed=DEEP_SEED, jobs=jobs)
    taken: dict[int, HandCheck] = {}
    if biases_from:
        paired, taken = paired_biases(Path(biases_from), rules, seed, hands, default)
    with record_lock(Path(record) if record else None, KIND):
        measured = None if biases_from else paired
        held = open_record(Path(record), record_settings(rules, seed, default, deep, streams, measured),
                           resume, _hand_check) if record else {}
        checks: dict[int, HandCheck] = {}
        pending = []
        for i, hand in enumerate(random_hands(rules, hands, seed)):
            for name, kept in ((record, held), (deep_from, reference), (biases_from, taken)):
                if i in kept and kept[i].hand != hand:
                    raise RecordError(f"{name}: hand {i + 1} is not the one seed {seed} deals ({kept[i].hand}): "
                                      "the record was written by another version; use another")
            if i in held:
                checks[i] = held[i]
            else:
                pending.append((i, hand, default.with_(seed=hand_seed(default.seed, i)),
                                deep.with_(seed=hand_seed(DEEP_SEED, i)), reference.get(i),
                                (measured, hand_seed(paired_measure.SEED, i)) if measured else None))
        if progress and checks:
            progress(len(checks), hands)
        for i, check in checked(pending, rules, workers):
            if record:
                append_check(Path(record), i, check.as_dict())
            checks[i] = check
            if progress:
                progress(len(checks), hands)
    if biases_from:
        checks = {i: replace(check, biases=taken[i].biases) for i, check in checks.items()}
    return Calibration(rules, seed, default, deep, [checks[i] for i in range(hands)],
                       str(deep_from) if deep_from else None, streams, paired,
                       str(biases_from) if biases_from else None)


def checked(pending: list[tuple[int, Hand, Settings, Settings, HandCheck | None, tuple[int, int] | None]],
            rules: Rules, workers: int) -> Iterator[tuple[int, HandCheck]]:
    """Each pending (index, hand, default and deep settings, reference, pairing) with its check, in this
    process one after the other (``workers`` 1), or in ``workers`` processes of their own, ``workers``
    hands at a time, as each ends.  A hand's check does not depend on where it ran (each run's deals
    come from its seed, whatever the threads), but its seconds do: a worker's are those of its own
    threads on a machine the others share."""
    if workers == 1 or len(pending) <= 1:
        for i, hand, default, deep, reference, pairing in pending:
            yield i, check_hand(hand, rules, default, deep, reference, pairing)
        return
    # spawn, not fork: a forked child would inherit Numba's thread pool in whatever state it is
    with ProcessPoolExecutor(min(workers, len(pending)), mp_context=get_context("spawn")) as pool:
        futures = {pool.submit(check_hand, hand, rules, default, deep, reference, pairing): i
                   for i, hand, default, deep, reference, pairing in pending}
        try:
            for future in as_completed(futures):
                yield futures[future], future.result()
        finally:
            for future in futures:          # a failure or a stop: the hands not started are dropped
                future.cancel()


def deep_answers(path: Path, rules: Rules, seed: int,
                 hands: int) -> tuple[tuple[int, int, str], dict[int, HandCheck]]:
    """The deep settings (worlds, deals, streams) and the checks of a record to take deep answers from
    (``taken_record``).  A record written before each hand's runs had seeds of their own is taken too,
    its streams "shared" (said with its answers)."""
    held, checks = taken_record(path, rules, seed, hands, ("deep answers", "deep answer"), lambda check: True)
    deep = held.get("deep") if isinstance(held.get("deep"), dict) else {}
    if not all(isinstance(deep.get(key), int) for key in ("worlds", "deals")):
        raise RecordError(f"{path}: its settings line names no deep worlds and deals")
    if deep.get("seed") != DEEP_SEED:
        raise RecordError(f"{path}: its deep runs used seed {deep.get('seed')}, this version's are {DEEP_SEED}")
    return (deep["worlds"], deep["deals"], held.get("streams", "shared")), checks


def paired_biases(path: Path, rules: Rules, seed: int, hands: int,
                  default: Settings) -> tuple[int, dict[int, HandCheck]]:
    """The paired measure's most deals and the checks of a record to take each hand's biases from
    (``taken_record``): a ``--paired`` record whose play model (policy, worlds) is ``default``'s (a bias
    is the model's, whatever the precision)."""
    model = {"tested": {"policy": default.policy, "worlds": default.worlds,
                        "mixed_worlds": _mixed_worlds(default).get("mixed_worlds")}}
    held, checks = taken_record(path, rules, seed, hands, ("biases", "biases"), lambda check: bool(check.biases),
                                model)
    most = (held.get("paired") if isinstance(held.get("paired"), dict) else {}).get("most_deals")
    if not isinstance(most, int):
        raise RecordError(f"{path} holds no paired biases (a record of calibrate --paired has them)")
    return most, checks


def taken_record(path: Path, rules: Rules, seed: int, hands: int, what: tuple[str, str],
                 holds: Callable[[HandCheck], bool], also: dict | None = None) -> tuple[dict, dict[int, HandCheck]]:
    """The settings line and the checks of a record another run takes figures from (``what``: their name,
    then for one hand): its players, variants and seed (and the settings ``also`` names, as the line
    nests them) must be the run's, and each of its first ``hands`` hands must be held and ``holds`` them;
    else a ``RecordError`` naming what differs."""
    if not path.is_file():
        raise RecordError(f"{path}: no such record")
    settings, checks, _ = read_record(path)
    held = settings[KIND]
    wanted = plain({"players": rules.players, "variants": rules.variants(), "seed": seed,
                    **{f"{group}.{name}": v for group, named in (also or {}).items() for name, v in named.items()}})
    for key, value in wanted.items():
        part, _, name = key.rpartition(".")
        within = held if not part else held.get(part) if isinstance(held.get(part), dict) else {}
        got = within.get(name)
        if got != value:
            raise RecordError(f"{path} holds {what[0]} for {first_difference(got, value, key)}")
    missing = next((i for i in range(hands) if i not in checks or not holds(checks[i])), None)
    if missing is not None:
        raise RecordError(f"{path} holds no {what[1]} for hand {missing + 1}: ask for --hands {missing} at most"
                          if missing else f"{path} holds no {what[1]} for hand 1")
    return held, checks


def record_settings(rules: Rules, seed: int, default: Settings, deep: Settings, streams: str = STREAMS,
                    paired: int | None = None) -> dict:
    """What a record's hands depend on: its first line, which a resumed run must match (``streams``: its
    deep answers', "shared" where they come from an earlier record that had one seed for every hand;
    ``paired``: the paired measure's most deals, stated only where it is measured)."""
    return {KIND: {"players": rules.players, "seed": seed, "variants": rules.variants(), "streams": streams,
                   "tested": {"policy": default.policy, "worlds": default.worlds,
                              "precision": default.precision, "max_deals": default.max_deals,
                              "seed": default.seed, **_mixed_worlds(default)},
                   "deep": {"worlds": deep.worlds, "deals": deep.deals, "seed": deep.seed},
                   **({"paired": paired_settings(paired)} if paired else {})}}


def _mixed_worlds(settings: Settings) -> dict:
    """The mixed model's worlds as a record states them: only where they are not the defaults (a record
    of the defaults names none, so that the records made before the setting existed go on)."""
    return {} if settings.mixed_worlds is None else {"mixed_worlds": list(settings.mixed_worlds)}


def read_record(path: Path) -> tuple[dict, dict[int, HandCheck], str | None]:
    """A calibrate record's settings line, its checks by hand index, and its text without a last line cut
    short, if there is one (``analyzer.quality.run_record.read_record``)."""
    return run_record.read_record(path, KIND, _hand_check)


def _hand_check(run: dict, entry: dict) -> HandCheck:
    """A hand's check from its record line; the seeds of a record written before each hand had its own are
    the run's."""
    seeds = tuple((run.get(part) if isinstance(run.get(part), dict) else {}).get("seed") for part in ("tested", "deep"))
    return HandCheck.from_dict(entry, seeds)
