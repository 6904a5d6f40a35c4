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

A run of many hands takes hours: with a record (a file of JSON lines, the settings first, then a
line per hand as it ends) it can stop and go on, or grow, without checking a hand twice.
"""

from __future__ import annotations

import json
import math
import os
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from analyzer.bid import BidAdvice, bid_advice
from analyzer.errors import SizeLimitError, TarotError
from analyzer.hand import Hand
from analyzer.odds import ContractOdds, OddsResult, contract_odds
from analyzer.rules import Contract, Rules
from analyzer.runs import Settings
from analyzer.sampling import random_hands
from analyzer.stats import Z95

DEEP_SEED = 1            # the deep runs' deals: other streams than the default runs' (seed 0)
DEEP_WORLDS = 16
DEEP_DEALS = 200
TOLERANCE = 0.03         # the target: every probability within ±3 percentage points of deep search
NOISE_SES = 2.0          # a gap within two standard errors of the difference is what noise explains
MAX_HANDS = 100_000      # each hand costs about a minute of deep search: more is refused


class CalibrateError(TarotError):
    """A record that cannot be used or written (the message names the file and what to do)."""


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

    def as_dict(self) -> dict:
        return {"contract": self.contract.token, "p_default": self.default.p, "se_default": self.default.se,
                "p_deep": self.deep.p, "se_deep": self.deep.se, "gap": self.gap, "gap_se": self.se}


@dataclass(frozen=True)
class HandCheck:
    """One hand's answers under both settings, as far as the comparison needs them: the deals behind
    each, each contract's two probabilities (``gaps``), the two recommendations, the deep run's score
    of the default's recommendation against its own best, and the seconds each command took.  What a
    record line holds (``as_dict``/``from_dict``)."""
    hand: Hand
    deals_default: int
    deals_deep: int
    gaps: tuple[Gap, ...]
    recommendation_default: str
    recommendation_deep: str
    deep_cost: tuple[float, float]     # the deep run's score of the default's choice minus its best, ± se
    seconds: dict[str, float]          # "odds default", "odds deep", "bid default", "bid deep"

    @classmethod
    def of(cls, hand: Hand, default: OddsResult, deep: OddsResult, default_bid: BidAdvice, deep_bid: BidAdvice,
           seconds: dict[str, float]) -> "HandCheck":
        chosen = default_bid.recommendation.token
        option = next(o for o in deep_bid.options if o.token == chosen)
        return cls(hand, default.deals, deep.deals,
                   tuple(Gap(d.contract, Estimate.of(d), Estimate.of(s)) for d, s in zip(default.contracts,
                                                                                        deep.contracts)),
                   chosen, deep_bid.recommendation.token, (option.vs_best.mean, option.vs_best.se), seconds)

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
        chance = 1.0
        for g in self.gaps:
            se = g.default.se if default_only else g.se
            if g.contract != Contract.GARDE and se > 0:
                chance *= math.erf(TOLERANCE / (se * math.sqrt(2)))
        return chance

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
                "seconds": dict(self.seconds)}

    @classmethod
    def from_dict(cls, data: dict) -> "HandCheck":
        """The check ``as_dict`` wrote (the fields derived from the others are computed again)."""
        gaps = tuple(Gap(Contract.parse(g["contract"]), Estimate(g["p_default"], g["se_default"]),
                         Estimate(g["p_deep"], g["se_deep"])) for g in data["contracts"])
        return cls(Hand.parse(data["hand"]), data["deals_default"], data["deals_deep"], gaps,
                   data["recommendation_default"], data["recommendation_deep"],
                   (data["deep_score_difference"], data["deep_score_difference_se"]), dict(data["seconds"]))


@dataclass(frozen=True)
class Calibration:
    rules: Rules
    seed: int
    default: Settings
    deep: Settings
    hands: list[HandCheck]

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
        }

    def as_dict(self) -> dict:
        return {"players": self.players, "seat": 1, "hands": len(self.hands), "seed": self.seed,
                "default": {"play_model": self.default.play_model, "precision": self.default.precision,
                            "max_deals": self.default.max_deals, "seed": self.default.seed,
                            "commands_defaults": self.tests_the_defaults},
                "deep": {"play_model": self.deep.play_model, "worlds": self.deep.worlds,
                         "deals": self.deep.deals, "seed": self.deep.seed},
                "summary": self.summary(), "per_hand": [h.as_dict() for h in self.hands],
                "variants": self.rules.variants()}


def gap_summary(gaps: list[Gap]) -> dict:
    """One contract's gaps over the hands: their mean, mean and worst absolute value, and their spread
    beyond noise, √(max(0, mean gap² − mean se²)) (the root mean square of the true gaps, estimated)."""
    n = len(gaps)
    excess = sum(g.gap ** 2 - g.se ** 2 for g in gaps) / n
    return {"mean": sum(g.gap for g in gaps) / n, "mean_abs": sum(abs(g.gap) for g in gaps) / n,
            "worst_abs": max(abs(g.gap) for g in gaps), "spread_beyond_noise": math.sqrt(max(excess, 0.0))}


def _timed(call: Callable[[], object]) -> tuple[object, float]:
    start = time.perf_counter()
    result = call()
    return result, time.perf_counter() - start


def check_hand(hand: Hand, rules: Rules, default: Settings, deep: Settings) -> HandCheck:
    """One hand through ``odds`` and ``bid`` (seat 1, no earlier bid) under both settings."""
    seconds = {}
    answers = {}
    for name, settings in (("default", default), ("deep", deep)):
        answers["odds", name], seconds[f"odds {name}"] = _timed(lambda: contract_odds(hand, rules, 0, settings))
        answers["bid", name], seconds[f"bid {name}"] = _timed(lambda: bid_advice(hand, rules, 0, [], settings))
    return HandCheck.of(hand, answers["odds", "default"], answers["odds", "deep"], answers["bid", "default"],
                        answers["bid", "deep"], seconds)


def calibrate(players: int, hands: int, seed: int = 0, worlds: int = DEEP_WORLDS, deals: int = DEEP_DEALS,
              jobs: int | None = None, progress: Callable[[int, int | None], None] | None = None,
              rules: Rules | None = None, tested: Settings | None = None, record: str | Path | None = None,
              resume: bool = False) -> Calibration:
    """The answers of ``tested`` (the commands' defaults when None; its jobs are ``jobs``) against deep
    answers on ``hands`` random hands of seat 1 under ``rules`` (FFT at ``players`` players when None);
    ``progress(done, hands)`` after each hand.  With ``record``, each hand's check is written there as
    it ends (JSON lines, after a line of the settings), and ``resume`` takes the hands a record already
    holds instead of checking them again: a long run can stop and go on (hand i is the same whatever
    ``hands``, so a record also grows a run)."""
    if not 1 <= hands <= MAX_HANDS:
        raise SizeLimitError(f"--hands {hands}: expected 1 to {MAX_HANDS:,} hands")
    rules = rules or Rules(players=players)
    default = (tested or Settings()).with_(jobs=jobs)
    deep = Settings(policy="pimc", worlds=worlds, deals=deals, seed=DEEP_SEED, jobs=jobs)
    checks = []
    with record_lock(Path(record) if record else None):
        held = open_record(Path(record), record_settings(rules, seed, default, deep), resume) if record else {}
        for i, hand in enumerate(random_hands(rules, hands, seed)):
            if i in held:
                if held[i].hand != hand:
                    raise CalibrateError(f"{record}: hand {i + 1} is not the one seed {seed} deals ({held[i].hand}): "
                                         "the record was written by another version; use another --record")
                check = held[i]
            else:
                check = check_hand(hand, rules, default, deep)
                if record:
                    append_check(Path(record), i, check)
            checks.append(check)
            if progress:
                progress(i + 1, hands)
    return Calibration(rules, seed, default, deep, checks)


@contextmanager
def record_lock(path: Path | None) -> Iterator[None]:
    """Hold the record (when there is one) for this run: a second run on the same file is refused
    instead of writing its lines between this one's (an advisory lock, where the system has them)."""
    if path is None:
        yield
        return
    try:
        import fcntl
    except ImportError:                       # not a POSIX system: no lock
        yield
        return
    try:
        handle = path.open("a", encoding="utf-8")
    except OSError as exc:
        raise CalibrateError(f"{path}: cannot write it ({exc.strerror})") from None
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise CalibrateError(f"{path} is in use by another calibrate run") from None
        yield


def record_settings(rules: Rules, seed: int, default: Settings, deep: Settings) -> dict:
    """What a record's hands depend on: its first line, which a resumed run must match."""
    return {"calibrate": {"players": rules.players, "seed": seed, "variants": rules.variants(),
                          "tested": {"policy": default.policy, "worlds": default.worlds,
                                     "precision": default.precision, "max_deals": default.max_deals,
                                     "seed": default.seed},
                          "deep": {"worlds": deep.worlds, "deals": deep.deals, "seed": deep.seed}}}


def open_record(path: Path, settings: dict, resume: bool) -> dict[int, HandCheck]:
    """The hands a record holds, by index (none for a new record, whose settings line is written).  A
    last line cut short (a run stopped while writing it) is dropped from the file; anything else
    amiss is refused, naming the file."""
    if path.exists() and path.stat().st_size > 0:
        if not resume:
            raise CalibrateError(f"{path} already holds a record: go on with it with --resume, or name another "
                                 "--record")
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CalibrateError(f"{path}: cannot read it ({exc})") from None
        whole, _, cut = text.rpartition("\n")
        lines = whole.split("\n") if whole else []
        try:
            held = json.loads(lines[0]) if lines else None
        except ValueError:
            held = None
        if not isinstance(held, dict) or not isinstance(held.get("calibrate"), dict):
            raise CalibrateError(f"{path} is not a calibrate record (its first line is not one's settings): "
                                 "name another --record")
        if held != settings:
            differs = _first_difference(held["calibrate"], settings["calibrate"])
            raise CalibrateError(f"{path} was written with other settings ({differs}): use another --record")
        if cut:                                   # stopped while writing its last line: drop it
            with path.open("w", encoding="utf-8") as handle:
                handle.write(whole + "\n")
        checks = {}
        for number, line in enumerate(lines[1:], 2):
            try:
                entry = json.loads(line)
                checks[entry["index"]] = HandCheck.from_dict(entry)
            except (ValueError, KeyError, TypeError):
                raise CalibrateError(f"{path}: line {number} is damaged; remove it to check that hand again") from None
        return checks
    try:
        with path.open("w", encoding="utf-8") as handle:
            handle.write(json.dumps(settings) + "\n")
    except OSError as exc:
        raise CalibrateError(f"{path}: cannot write it ({exc.strerror})") from None
    return {}


def _first_difference(held, wanted, where: str = "") -> str:
    """The first setting where ``held`` and ``wanted`` differ, as "deep.worlds 16, here 64"."""
    if isinstance(held, dict) and isinstance(wanted, dict):
        for key in [*wanted, *(k for k in held if k not in wanted)]:
            if held.get(key) != wanted.get(key):
                return _first_difference(held.get(key), wanted.get(key), f"{where}.{key}" if where else key)
    return f"{where or 'settings'} {held}, here {wanted}"


def append_check(path: Path, index: int, check: HandCheck) -> None:
    """Write hand ``index``'s check at the end of the record, to disk before the next hand starts."""
    try:
        with path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps({"index": index, **check.as_dict()}) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as exc:
        raise CalibrateError(f"{path}: cannot write it ({exc.strerror})") from None
