"""Running simulations: the thread count for a call, and chunks until a target precision.

Every chunk draws deals ``offset … offset+n-1`` from the per-deal random streams, so where a run stops
and how it is cut never changes the deals themselves: same seed, same output, whatever the threads.
"""

from __future__ import annotations

import math
import warnings
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Callable, Iterator

import numba
import numpy as np

from analyzer.errors import PrecisionNotReached, TarotError
from analyzer.rules import Contract
from analyzer.stats import Mean, Moments
from analyzer.simulation.policies import MIXED, POLICIES
from analyzer.simulation.policies import PLAY_POLICY_IDS as POLICY_IDS
from kernels.pimc import CHELEM_WORLDS, SEARCH, is_search

PLAY_SEED_SALT = 0x5DEECE66D   # deals given to a playout kernel are played from streams other than their dealing's
CHUNK = 2000            # deals per chunk with the fast policies
PIMC_CHUNK = 100        # with determinized search
# Past its first chunk, a run to a precision plays the deals that its widest interval says it still needs
# (a half-width falls as one over the square root of the deals), rounded up to a CHUNK_STEPS-th of a
# chunk, at most a chunk: whole chunks overshot the precision (docs/design.md, "Running to a precision").
CHUNK_STEPS = 5
# Determinized search: the most worlds drawn per decision (racing stops sooner once one card is clearly best),
# and heuristic rollouts per world and card (docs/design.md, "Determinized search (PIMC)"; docs/journal/matches.md).
PIMC_WORLDS = 128
PIMC_ROLLOUTS = 1
MAX_WORLDS = 4096        # per decision (a 4-player PIMC deal at 4,096 worlds takes minutes)
MAX_ROLLOUTS = 64
MAX_DEALS = 100_000_000   # the most deals one run may simulate (hours of work; memory stays flat)
# The mixed play model (the default): MIXED_SEARCH (pimc-prior) plays the contracts whose odds the heuristic
# misses against deep search, the heuristic the others; MIXED_WORLDS its worlds per decision by player count
# (Prise and Garde, Garde sans and contre), each searched run to MIXED_PRECISION (odds' and bid's:
# ODDS_PRECISION) times the precision asked (docs/design.md, "The default: the heuristic where it agrees, a
# short search where it does not"; how each figure was chosen: docs/journal/calibration.md).
MIXED_SEARCH = "pimc-prior"
# Where a chelem's announcement is the question (``chelem``) or a chelem is in sight (the heuristic takes one,
# ``analyzer.advice.odds.chelem_in_sight``), the mixed model's search of a contract is CHELEM_SEARCH: the taker's
# side draws ``kernels.pimc.CHELEM_WORLDS`` worlds a decision, unraced, until its chelem is lost (with fewer it
# lets slip chelems that deep search takes: docs/journal/calibration.md, "A chelem in sight").
CHELEM_SEARCH = "pimc-chelem"
MIXED_WORLDS: dict[int, tuple[int, int]] = {3: (6, 6), 4: (12, 4), 5: (8, 8)}
MIXED_PRECISION = 2.5
ODDS_PRECISION: dict[int, float] = {3: MIXED_PRECISION, 4: MIXED_PRECISION, 5: 2.25}
# A pass's worlds by player count (None: the heuristic plays the deals where the hand passes).  At 3 players
# the heuristic's defence, when the hand passes and another seat takes, loses more than deep search's, which
# made passing look worse than it is (docs/journal/calibration.md, "The pass at 4 and 5 players").
MIXED_PASS_WORLDS: dict[int, int | None] = {3: 4, 4: None, 5: None}
# A searched run of the mixed model plays its deals by the heuristic too and takes that play as a control
# variate (``analyzer.stats.Moments.controlled``): its mean comes from a heuristic run of its own (another
# seed, so the two are independent) to CONTROL_SHARE of the searched run's precision (docs/design.md, "The
# heuristic's play as a control variate").
CONTROL_SHARE = 0.5
CONTROL_SALT = 0x2545F4914F6CDD1D


@dataclass(frozen=True)
class Settings:
    """How a simulation runs, shared by every advice analysis (odds, bid, choices, discard): the card-play policy
    (or the mixed model, which picks one per contract: ``for_contract``) and its PIMC worlds per decision, a
    fixed number of deals or a target precision (the widest 95% half-width of the reported probabilities) with a
    deal limit, the seed, the threads, whether a searched run takes the heuristic's play of its deals as a
    control variate (``control``: set by ``for_contract``, run by ``control_run``), the mixed model's worlds
    per decision for Prise and Garde and for Garde sans and contre (``mixed_worlds``; None: ``MIXED_WORLDS``
    by player count), for ``analyze`` the worlds each card decision is judged on (``worlds_per_card``; None:
    ``analyzer.coach.cards.WORLDS``; ``deals`` is always a number of deals), and an optional progress
    callback ``progress(done, total or None)``.  Checked when built."""

    policy: str = MIXED
    worlds: int = PIMC_WORLDS
    deals: int | None = None
    precision: float = 0.01
    max_deals: int = 200_000
    seed: int = 0
    jobs: int | None = None
    control: bool = False
    mixed_worlds: tuple[int, int] | None = None
    worlds_per_card: int | None = None
    progress: Callable[[int, int | None], None] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.policy not in POLICY_IDS and self.policy != MIXED:
            raise TarotError(f"unknown policy {self.policy!r} (expected one of: {', '.join([MIXED, *POLICY_IDS])})")
        if not 1 <= self.worlds <= MAX_WORLDS:
            raise TarotError(f"worlds must be between 1 and {MAX_WORLDS:,}, got {self.worlds:,}")
        for name in ("deals", "max_deals", "worlds_per_card"):
            value = getattr(self, name)
            if value is not None and not 1 <= value <= MAX_DEALS:
                raise TarotError(f"{name.replace('_', '-')} must be between 1 and {MAX_DEALS:,}, got {value:,}")
        if not (math.isfinite(self.precision) and 0 < self.precision < 1):
            raise TarotError(f"precision must be a number between 0 and 1, got {self.precision}")
        if not 0 <= self.seed < 2**63:
            raise TarotError(f"seed must be between 0 and 2^63-1, got {self.seed}")
        if self.jobs is not None and self.jobs < 1:
            raise TarotError(f"jobs must be at least 1, got {self.jobs}")
        if self.mixed_worlds is not None:
            if self.policy != MIXED:
                raise TarotError(f"mixed worlds are the mixed model's: the policy is {self.policy}")
            if len(self.mixed_worlds) != 2 or not all(1 <= w <= MAX_WORLDS for w in self.mixed_worlds):
                raise TarotError(f"mixed worlds must be two numbers between 1 and {MAX_WORLDS:,}, "
                                 f"got {','.join(map(str, self.mixed_worlds))}")

    @property
    def searches(self) -> bool:
        """Whether the cards are played by determinized search (every deal then is a searched deal; under
        the mixed model, ask ``for_contract``)."""
        return POLICIES[self.policy].searches and self.policy != MIXED

    @property
    def may_search(self) -> bool:
        """Whether some run of these settings searches (under the mixed model, every contract's):
        their command then plays every deal through the batch drivers with the search compiled in, which
        give the same results for the heuristic, so that a first run compiles one driver, not both."""
        return POLICIES[self.policy].searches

    def for_contract(self, contract: Contract | None, players: int, chelem: bool = False,
                     scale: float | None = None) -> "Settings":
        """The settings a run of ``contract`` (None: the hand passes) at ``players`` players plays with:
        these, except under the mixed model, where a contract is searched with its worlds per decision in
        ``mixed_worlds`` (to ``scale`` times the precision asked, by default ``MIXED_PRECISION``; the
        heuristic's play a control variate; by ``CHELEM_SEARCH`` when ``chelem``: the question being a
        chelem's announcement, or a chelem in sight, ``analyzer.advice.odds.chelem_in_sight``), and a pass
        too where ``MIXED_PASS_WORLDS`` gives it worlds, else played by the heuristic."""
        if self.policy != MIXED:
            return self
        worlds = MIXED_PASS_WORLDS[players] if contract is None else \
            (self.mixed_worlds or MIXED_WORLDS[players])[0 if contract.chien_shown else 1]
        if worlds is None:
            return self.with_(policy="heuristic", mixed_worlds=None)
        search = CHELEM_SEARCH if chelem and contract is not None else MIXED_SEARCH
        return self.with_(policy=search, worlds=worlds, control=True, mixed_worlds=None,
                          precision=min(0.5, self.precision * (MIXED_PRECISION if scale is None else scale)))

    @property
    def controlled(self) -> bool:
        """Whether a run of these settings is searched with the heuristic's play as control variate: one
        to a precision (a fixed number of deals asked for plays those deals, and nothing beside them)."""
        return self.control and self.searches and self.deals is None

    def control_run(self) -> "Settings":
        """The run that measures the control variate's mean for a run of these settings: the heuristic, on
        deals of their own (another seed), to ``CONTROL_SHARE`` of this run's precision."""
        return self.with_(policy="heuristic", control=False, deals=None, seed=self.seed ^ CONTROL_SALT,
                          precision=self.precision * CONTROL_SHARE)

    def play_model(self, players: int, chelem: bool = False) -> str:
        """The card play behind the numbers at ``players`` players, in words: the policy, with its worlds
        per decision when it searches (e.g. "heuristic", "pimc, 16 worlds per decision"); the mixed model's
        with its contracts searched by ``CHELEM_SEARCH`` when ``chelem`` (``for_contract``)."""
        if self.policy == MIXED:
            return mixed_play_model(players, self.mixed_worlds, chelem)
        if self.policy == CHELEM_SEARCH:
            return (f"{self.policy}, {self.worlds:,} worlds per decision ({max(self.worlds, CHELEM_WORLDS):,} for the "
                    f"taker's side until its chelem is lost)")
        return f"{self.policy}, {self.worlds:,} worlds per decision" if self.searches else self.policy

    def searched_deals(self, deals: int) -> int:
        """How many of ``deals`` deals were played with search."""
        return deals if self.searches else 0

    def counting_after(self, deals: int) -> "Settings":
        """A copy whose progress counts go on from ``deals`` deals already run: a command running
        several groups in turn (the mixed model's) shows one count rising, not one per group."""
        if self.progress is None or deals == 0:
            return self
        report = self.progress
        return self.with_(progress=lambda done, total: report(deals + done, None if total is None else deals + total))

    def with_(self, **changes) -> "Settings":
        """A copy with some settings changed (e.g. another seed)."""
        return replace(self, **changes)


def mixed_play_model(players: int, worlds: tuple[int, int] | None = None, chelem: bool = False) -> str:
    """The mixed model at ``players`` players (its worlds per decision ``worlds``, else ``MIXED_WORLDS``) in
    words, e.g. "heuristic for a pass, pimc-prior (4 worlds per decision) for every contract"; with its
    contracts searched by ``CHELEM_SEARCH`` when ``chelem`` (a chelem in sight)."""
    taking, other = worlds or MIXED_WORLDS[players]
    passing = MIXED_PASS_WORLDS[players]
    search = CHELEM_SEARCH if chelem else MIXED_SEARCH
    sight = (f"; a chelem in sight, the taker's side searches at least {CHELEM_WORLDS} worlds a decision until its "
             "chelem is lost") if chelem else ""
    if taking == other == passing and not chelem:
        return f"{MIXED_SEARCH} ({other} worlds per decision) for a pass and every contract"
    pass_words = "heuristic for a pass" if passing is None else \
        f"{MIXED_SEARCH} ({passing} worlds per decision) for a pass"
    if taking == other:
        return f"{pass_words}, {search} ({other} worlds per decision) for every contract{sight}"
    return (f"{pass_words}, {search} for prise and garde ({taking} worlds per decision) "
            f"and for garde sans and garde contre ({other}){sight}")


def searching(policies: np.ndarray) -> bool:
    """Whether some seat of ``policies`` (policy ids) decides by search: the batch drivers are then
    run with the search compiled in, else without it (``kernels.pimc.play_deal``)."""
    return any(is_search(int(p)) for p in policies)


def search_arg(policies, always: bool = False):
    """A batch driver's ``searching`` argument for ``policies``: ``SEARCH`` (the driver compiled with the
    search) when some seat searches or ``always``, else ``None`` (``kernels.pimc.play_deal``)."""
    return SEARCH if always or searching(policies) else None


@contextmanager
def threads(jobs: int | None) -> Iterator[None]:
    """Use ``jobs`` threads (all when None) inside the block, and restore the count after."""
    previous = numba.get_num_threads()
    try:
        if jobs:
            numba.set_num_threads(max(1, min(jobs, numba.config.NUMBA_NUM_THREADS)))
        yield
    finally:
        numba.set_num_threads(previous)


def next_chunk(chunk: int, n: int, width: float, precision: float) -> int:
    """The deals a run to ``precision`` plays next, ``n`` played and its widest half-width ``width``: those
    that half-widths falling as one over the square root of the deals say it still needs, rounded up to a
    ``CHUNK_STEPS``-th of ``chunk``, at most ``chunk`` (a whole one first, to tell the spread)."""
    step = max(1, chunk // CHUNK_STEPS)
    if not n or not math.isfinite(width):
        return chunk
    needed = n * ((width / precision) ** 2 - 1)
    return min(chunk, step * max(1, math.ceil(needed / step)))


def run_in_chunks(simulate: Callable[[int, int], np.ndarray], features: int, settings: "Settings",
                  widest: Callable[[Moments], float], about: str = "", warn: bool = True) -> Moments:
    """Call ``simulate(offset, n)`` (one row of ``features`` per deal) chunk after chunk and keep their
    running moments: ``settings.deals`` deals, or (``deals`` None) until ``widest(moments) <=
    settings.precision`` or ``settings.max_deals``; stopping at ``max_deals`` first warns
    ``PrecisionNotReached`` (unless not to ``warn``: a control run, whose shortfall the figures it
    controls carry), naming what the run was ``about`` (e.g. the contracts it plays, where a command
    runs several to precisions of their own); past the first chunk, chunks of the deals still needed
    (``next_chunk``)."""
    chunk = PIMC_CHUNK if settings.searches else CHUNK
    deals = settings.deals
    target = deals if deals is not None else settings.max_deals
    moments = Moments(features)
    width = float("inf")
    with threads(settings.jobs):
        while moments.n < target:
            n = chunk if deals is not None else next_chunk(chunk, moments.n, width, settings.precision)
            moments.add(simulate(moments.n, min(n, target - moments.n)))
            if settings.progress:
                settings.progress(moments.n, deals)
            if deals is None:
                width = widest(moments)
                if width <= settings.precision:
                    break
        else:
            if deals is None and warn:
                warnings.warn(f"{about + ': ' if about else ''}"
                              f"precision ±{settings.precision:g} not reached in {moments.n:,} deals (the limit): "
                              f"the widest 95% interval is ±{width:.3f}", PrecisionNotReached, stacklevel=2)
    return moments


# A searched run of options on the same deals (``bid``'s) stops playing an option whose score is behind
# the best one's by more than this many standard errors of their difference, once its figures are within
# the precision asked (``analyzer.simulation.trials.Stopped``).  Not ``compare``'s alternatives, where it
# cost agreement with deep search (docs/journal/calibration.md, "Options clearly behind").
BEHIND_Z = 4.0


def clearly_behind(difference: Mean, z: float = BEHIND_Z) -> bool:
    """Whether ``difference`` (the best option's score minus another's, on the same deals) is beyond
    ``z`` standard errors."""
    return difference.mean > z * difference.se

