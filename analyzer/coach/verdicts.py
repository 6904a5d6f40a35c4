"""Judging one decision: its alternatives' values, the loss of the choice made, and a verdict.

An alternative's value is the judged seat's expected final score (its own seat score) when it makes
that choice, estimated on worlds dealt from what it knew, every alternative on the same worlds.  The
loss of the choice made is the best alternative's value minus its value, deal by deal on the same
worlds, with its standard error.  A verdict is given only when the loss is beyond noise (more than
twice its standard error) and at least a threshold in points (``THRESHOLDS``; docs/coaching.md says
how they were chosen).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from analyzer.stats import Mean, Proportion

# Points of the seat's own score lost, at least, for each verdict (the worst that applies is given).
THRESHOLDS = (("blunder", 60.0), ("mistake", 25.0), ("inaccuracy", 8.0))
NOISE_SE = 2.0          # a loss counts only when it is more than this many standard errors


@dataclass(frozen=True)
class Option:
    """One alternative of a decision, valued on the decision's worlds."""

    choice: str
    score: Mean                 # the seat's expected final score
    made: Proportion | None     # the contract made (the taker's side won); None when not measured
    vs_best: Mean               # score minus the best alternative's, world by world

    def as_dict(self) -> dict:
        return {"choice": self.choice, "expected_score": self.score.mean, "se": self.score.se,
                "p_made": None if self.made is None else self.made.p, "vs_best": self.vs_best.mean, "vs_best_se": self.vs_best.se}


@dataclass(frozen=True)
class Decision:
    """One decision of one seat, judged (``options`` best first) or not (a forced choice)."""

    seat: int                   # 0-based
    phase: str                  # bid, call, discard, poignee, misere, chelem, card
    trick: int | None           # 1-based during play, None before
    played: str
    options: list[Option] = field(default_factory=list)
    hindsight_best: str | None = None
    note: str = ""
    effective_worlds: float | None = None    # Kish's effective number of the card decision's weighted worlds

    @property
    def judged(self) -> bool:
        return len(self.options) > 1

    @property
    def best(self) -> Option | None:
        return self.options[0] if self.options else None

    @property
    def made_option(self) -> Option | None:
        return next((o for o in self.options if o.choice == self.played), None)

    @property
    def loss(self) -> Mean:
        """The best alternative's value minus the choice made's (0 when not judged)."""
        made = self.made_option
        if not self.judged or made is None:
            return Mean(0.0, 0.0, 0)
        return Mean(0.0 - made.vs_best.mean, made.vs_best.se, made.vs_best.n)

    @property
    def p_made_change(self) -> float | None:
        """The change in the probability that the contract is made: choice made minus best."""
        made = self.made_option
        if not self.judged or made is None or made.made is None:
            return None
        return made.made.p - self.best.made.p

    @property
    def verdict(self) -> str | None:
        return verdict(self.loss)

    def as_dict(self) -> dict:
        loss = self.loss
        return {"seat": self.seat + 1, "phase": self.phase, "trick": self.trick, "played": self.played,
                "judged": self.judged, "best": self.best.choice if self.best else self.played,
                "loss": loss.mean, "loss_se": loss.se, "p_made_change": self.p_made_change,
                "verdict": self.verdict, "hindsight_best": self.hindsight_best, "note": self.note,
                "alternatives": [o.as_dict() for o in self.options], "effective_worlds": self.effective_worlds}


def verdict(loss: Mean) -> str | None:
    """``blunder``, ``mistake``, ``inaccuracy`` or None for a loss with its standard error."""
    if loss.n < 2 or not loss.mean > NOISE_SE * loss.se:
        return None
    for name, threshold in THRESHOLDS:
        if loss.mean >= threshold:
            return name
    return None
