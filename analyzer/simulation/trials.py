"""Trials: k alternatives played on common deals, and what they tell.

Every advice analysis compares alternatives (contracts, bid options, the taker's choices) on the same
simulated deals (common random numbers: their differences are measured far more precisely than each
alone).  A run keeps, per deal, one feature vector (``analyzer.simulation.features``) per alternative, in
blocks side by side (``Layout``); optionally each deal's weight (deals weighted by the bids made before
the seat, every feature times it: the figures are then weighted means, ``analyzer.stats.Moments.ratio``);
and, for a searched run with a control variate, the heuristic's play of the same deals in blocks after
the alternatives' own, whose means a control run of its own measures (``reference``): each figure then
takes that play as its control variate (``analyzer.stats.Moments.controlled``).  ``Trials`` turns the
run's moments into estimates: an alternative's mean or probability, a combination of the alternatives
(a paired difference), each from the deals that every alternative in it was played on (``Stopped``).
``run_trials`` runs the control run first, then the trials, each to its precision.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Callable, Iterable

import numpy as np

from analyzer.runs import Settings, run_in_chunks
from analyzer.simulation.features import Features
from analyzer.stats import ControlMeans, Mean, Moments, Proportion, WeightedProportion

FIRST, LAST = "first", "last"     # where a run keeps each deal's weight: before or after the features


@dataclass(frozen=True)
class Layout:
    """The columns of a run's rows: ``blocks`` blocks of ``features`` (the alternatives', then the
    heuristic's of the controlled ones), and each deal's weight ``weight`` (FIRST, LAST or None: no weight)."""
    features: Features
    blocks: int
    weight: str | None = None

    @property
    def width(self) -> int:
        return len(self.features) * self.blocks + (self.weight is not None)

    @property
    def weight_column(self) -> int | None:
        """The column of the deals' weights (None: unweighted)."""
        if self.weight is None:
            return None
        return 0 if self.weight == FIRST else len(self.features) * self.blocks

    def column(self, block: int, feature: str) -> int:
        """The column of ``block``'s ``feature``."""
        return (self.weight == FIRST) + len(self.features) * block + self.features.index(feature)

    def block(self, block: int) -> slice:
        """The columns of ``block``'s features (for a caller filling a row of features)."""
        start = self.column(block, self.features.names[0])
        return slice(start, start + len(self.features))


class Stopped:
    """The alternatives of a run on the same deals that stopped being played, each with the run's moments
    when it stopped: its figures, and any combination that takes it in, are measured on those deals (the
    run's first ones), the combinations on the deals that every alternative in them was played on."""

    def __init__(self) -> None:
        self._at: dict[int, Moments] = {}

    def __contains__(self, alternative: int) -> bool:
        return alternative in self._at

    def stop(self, alternative: int, moments: Moments) -> None:
        """Stop ``alternative`` at the run's ``moments`` so far (one copy for the alternatives stopped together)."""
        together = next((m for m in self._at.values() if m.n == moments.n), None)
        self._at[alternative] = together if together is not None else copy.deepcopy(moments)

    def moments(self, alternatives: Iterable[int], moments: Moments) -> Moments:
        """The moments that ``alternatives`` were all played on: the run's ``moments``, or the earliest stop's."""
        return min((self._at[i] for i in alternatives if i in self._at), key=lambda m: m.n, default=moments)


@dataclass(frozen=True)
class Trials:
    """Alternatives ``ids`` (in block order) on the same deals: the run's ``moments`` in ``layout``; the
    alternatives of ``controls`` have the heuristic's play of those deals in the blocks after the
    alternatives' own (in ``controls``' order), as control variates whose means the control run's trials
    ``reference`` measured (every alternative by the heuristic, on deals of its own); those of ``stopped``
    were played on the run's first deals only."""
    ids: list[int]
    layout: Layout
    moments: Moments
    controls: list[int] = ()
    reference: "Trials | None" = None
    stopped: Stopped = field(default_factory=Stopped)

    @property
    def n(self) -> int:
        return self.moments.n

    def column(self, i: int, feature: str) -> int:
        """The column of alternative ``i``'s own ``feature``."""
        return self.layout.column(self.ids.index(i), feature)

    def mean(self, i: int, feature: str) -> Mean:
        """Alternative ``i``'s mean ``feature`` (alone: unweighted and without control, its plain summary)."""
        if self.layout.weight is None and not self._controlled({i: 1.0}):
            return self._moments([i]).summary(self.column(i, feature))
        return self.combination({i: 1.0}, feature)

    def combination(self, combination: dict[int, float], feature: str) -> Mean:
        """A combination of the alternatives' ``feature`` ({alternative: coefficient}, e.g. one minus
        another: a paired difference), on the deals that every alternative in it was played on."""
        own = {self.column(i, feature): c for i, c in combination.items()}
        moments = self._moments(combination)
        weight = self.layout.weight_column
        if self._controlled(combination):
            return moments.controlled(own, *self._controls(combination, feature), weight)
        return moments.linear(own) if weight is None else moments.ratio(own, weight)

    def difference(self, i: int, j: int, feature: str) -> Mean:
        """Alternative ``i``'s ``feature`` minus ``j``'s, on the same deals."""
        return self.combination({i: 1.0, j: -1.0}, feature)

    def share(self, i: int, feature: str) -> Proportion | WeightedProportion:
        """Alternative ``i``'s probability of ``feature`` (a 0/1 feature)."""
        own = self.column(i, feature)
        moments = self._moments([i])
        weight = self.layout.weight_column
        if self._controlled({i: 1.0}):
            return moments.controlled_proportion(own, *self._controls({i: 1.0}, feature), weight)
        return moments.proportion(own) if weight is None else moments.weighted_proportion(own, weight)

    def effective_n(self) -> float:
        """Kish's effective number of the weighted deals (the deals, unweighted)."""
        weight = self.layout.weight_column
        return self.moments.n if weight is None else self.moments.effective_n(weight)

    def _moments(self, alternatives: Iterable[int]) -> Moments:
        return self.stopped.moments(alternatives, self.moments)

    def _controlled(self, combination: dict[int, float]) -> bool:
        return self.reference is not None and any(i in self.controls for i in combination)

    def _controls(self, combination: dict[int, float], feature: str) -> tuple[list[dict[int, float]], ControlMeans]:
        """The control variates of a combination of the alternatives' ``feature``: the same combination of
        each of the heuristic's ``control_features`` of the same deals (an alternative without control, its
        own play: the heuristic's), and their means by the control run."""
        features = self.layout.features.control_features(feature)
        reference = self.reference
        return ([self._control(combination, f) for f in features],
                reference.moments.control_means([{reference.column(i, f): c for i, c in combination.items()}
                                                 for f in features], reference.layout.weight_column))

    def _control(self, combination: dict[int, float], feature: str) -> dict[int, float]:
        """The heuristic's play of a combination: a controlled alternative's heuristic block, another's own."""
        return {self._control_column(i, feature): c for i, c in combination.items()}

    def _control_column(self, i: int, feature: str) -> int:
        if i not in self.controls:
            return self.column(i, feature)
        return self.layout.column(len(self.ids) + self.controls.index(i), feature)


def run_trials(simulator: Callable[[Settings, bool], Callable[[int, int], np.ndarray]], ids: list[int],
               features: Features, settings: Settings, widest: Callable[[Trials], float], weight: str | None = None,
               about: str = "", warn: bool = True) -> Trials:
    """The trials of alternatives ``ids`` on the same deals, until ``widest(trials)`` is within the
    settings' precision, or their fixed number of deals (``analyzer.runs.run_in_chunks``; a precision not
    reached warns, naming ``about``, unless not to ``warn``).  ``simulator(run, controlled)`` gives the
    function of (offset, n) that plays deals offset … offset+n−1 by ``run``'s settings and returns their
    rows in the trials' ``Layout``: every alternative's features side by side (times the deal's weight,
    in its column, given a ``weight`` position) and, when ``controlled``, the heuristic's features of the
    same deals after them.  A searched run with a control variate (``Settings.controlled``) first runs the
    control run (the heuristic on deals of its own, ``Settings.control_run``, not ``controlled``)."""
    reference = None
    if settings.controlled:
        reference = run_trials(simulator, ids, features, settings.control_run(), widest, weight, warn=False)
        settings = settings.counting_after(reference.n)
    controls = list(ids) if reference is not None else []
    layout = Layout(features, len(ids) + len(controls), weight)
    moments = run_in_chunks(simulator(settings, reference is not None), layout.width, settings,
                            lambda m: widest(Trials(ids, layout, m, controls, reference)), about, warn)
    return Trials(ids, layout, moments, controls, reference)
