"""Judging one decision: its alternatives' values, the loss of the choice made, and a verdict.

An alternative's value is the judged seat's expected final score (its own seat score) when it makes
that choice, estimated on worlds dealt from what it knew, every alternative on the same worlds.  The
loss of the choice made is the best alternative's value minus its value, deal by deal on the same
worlds, with its standard error: ``loss_score`` in the seat's own score, ``loss`` in **contract
points**, the own-score loss divided by the decision's ``scale`` (the seat's share of the score times
the contract's multiplier, ``contract_scale``), the same unit for every seat and contract.  A verdict
is given only when the loss is beyond noise (more than twice its standard error) and at least a
threshold in contract points (``THRESHOLDS``; docs/coaching.md says how they were chosen); for a card,
the loss against the best card picked on the other half of the worlds counts instead where it is smaller
(``Decision.loss``, ``held_out_loss``): the best of close cards owes part of its lead to its luck on
the worlds that picked it.
Alternatives within noise of the best (``best_group``) are equal: a choice among them is never flagged.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from analyzer.coach.reasons import LABELS, SERIOUS
from analyzer.errors import RulesError
from analyzer.rules import Contract, Rules
from analyzer.scoring import seat_shares
from analyzer.stats import Mean, Proportion

# Contract points lost, at least, for each verdict (the worst that applies is given); docs/coaching.md
# gives the measured distributions they come from.
THRESHOLDS = (("blunder", 15.0), ("mistake", 10.0), ("inaccuracy", 4.5))
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
    scale: float = 1.0          # own-score points per contract point (``contract_scale``)
    reasons: tuple[str, ...] = ()       # ``analyzer.coach.reasons`` identifiers, for a flagged decision
    effective_worlds: float | None = None    # Kish's effective number of the card decision's weighted worlds
    judged_by: str = ""         # the play model that valued the alternatives (a policy's name)
    held_out: Mean | None = None    # the held-out loss in the seat's own score (card decisions: ``held_out_loss``)

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
    def plain_loss_score(self) -> Mean:
        """The best alternative's value minus the choice made's, in the seat's own score, the best picked
        and valued on the same worlds (0 when not judged)."""
        made = self.made_option
        if not self.judged or made is None:
            return Mean(0.0, 0.0, 0)
        return Mean(0.0 - made.vs_best.mean, made.vs_best.se, made.vs_best.n)

    @property
    def loss_score(self) -> Mean:
        """The loss in the seat's own score: the plain loss (``plain_loss_score``), or the held-out loss
        (``held_out``, 0 where negative: the card played did at least as well) where that is smaller;
        the verdict is taken on it."""
        plain = self.plain_loss_score
        if self.held_out is None or not self.judged or self.made_option is None:
            return plain
        held = Mean(max(self.held_out.mean, 0.0), self.held_out.se, self.held_out.n)
        return held if held.mean < plain.mean else plain

    @property
    def loss(self) -> Mean:
        """The loss in contract points: ``loss_score`` divided by ``scale``."""
        return self._points(self.loss_score)

    @property
    def plain_loss(self) -> Mean:
        """``plain_loss_score`` in contract points."""
        return self._points(self.plain_loss_score)

    @property
    def held_out_loss(self) -> Mean | None:
        """The loss in contract points against the best card picked on the other half of the worlds
        (``analyzer.coach.cards.held_out_picks``), for card decisions: the loss a lucky best cannot inflate."""
        if self.held_out is None or not self.judged:
            return None
        return self._points(self.held_out)

    def _points(self, own: Mean) -> Mean:
        return Mean(own.mean / self.scale, own.se / self.scale, own.n)

    @property
    def best_group(self) -> list[str]:
        """The alternatives equal to the best within noise, best first (``equal_to_best``)."""
        return [o.choice for o in self.options if equal_to_best(o)]

    @property
    def p_made_change(self) -> float | None:
        """The change in the probability that the contract is made: choice made minus best."""
        made = self.made_option
        if not self.judged or made is None or made.made is None:
            return None
        return made.made.p - self.best.made.p

    @property
    def verdict(self) -> str | None:
        """The verdict (``verdict``) of the loss (``loss``: the held-out loss where that is the smaller);
        a flagged decision whose facts (``reasons``) include a serious one
        (``analyzer.coach.reasons.SERIOUS``: an oudler or an honour lost, the contract turned) is at least
        a mistake.  None for a choice equal to the best within noise."""
        made = self.made_option
        if made is None or equal_to_best(made):
            return None
        found = verdict(self.loss)
        if found == "inaccuracy" and SERIOUS.intersection(self.reasons):
            return "mistake"
        return found

    def as_dict(self) -> dict:
        loss, own = self.loss, self.loss_score
        return {"seat": self.seat + 1, "phase": self.phase, "trick": self.trick, "played": self.played,
                "judged": self.judged, "best": self.best.choice if self.best else self.played,
                "best_group": self.best_group if self.judged else [self.played],
                "loss": loss.mean, "loss_se": loss.se, "loss_score": own.mean, "loss_score_se": own.se,
                "plain_loss": self.plain_loss.mean, "plain_loss_se": self.plain_loss.se,
                "held_out_loss": None if self.held_out_loss is None else self.held_out_loss.mean,
                "held_out_loss_se": None if self.held_out_loss is None else self.held_out_loss.se,
                "scale": self.scale, "p_made_change": self.p_made_change,
                "verdict": self.verdict, "reasons": list(self.reasons),
                "reason_labels": [LABELS[r] for r in self.reasons],
                "hindsight_best": self.hindsight_best, "note": self.note,
                "alternatives": [o.as_dict() for o in self.options], "effective_worlds": self.effective_worlds,
                "judged_by": self.judged_by or None}


def is_open(decision: Decision) -> bool:
    """Whether a decision's verdict is open on its values: it has one, or its noise cannot rule one
    out (the loss plus ``NOISE_SE`` standard errors reaches the lowest threshold).  The mixed judge values
    such a card again by the search (``analyzer.coach.cards``)."""
    if not decision.judged:
        return False
    loss = decision.plain_loss
    return decision.verdict is not None or loss.mean + NOISE_SE * loss.se >= THRESHOLDS[-1][1]


def equal_to_best(option: Option) -> bool:
    """Whether ``option`` is worth the best alternative's value within noise: exactly equal, or its
    difference from the best, world by world, within ``NOISE_SE`` standard errors."""
    gap = -option.vs_best.mean
    return gap <= 0 or gap <= NOISE_SE * option.vs_best.se


def contract_scale(players: int, contract: Contract, seat: int, taker: int, partner: int | None,
                   alone: bool = False, rules: Rules | None = None) -> float:
    """Own-score points per contract point: the seat's share of the score (the taker's 3 at 4 players,
    a defender's 1, ...) times the contract's multiplier."""
    taker_share, partner_share, _ = seat_shares(players, alone, rules or Rules(players=players))
    if seat == taker:
        share = taker_share
    elif partner is not None and seat == partner and partner_share is not None:
        share = partner_share
    else:
        share = 1
    return float(share * contract.multiplier)


def bid_scale(players: int, options: list[Option], played: str) -> float:
    """A bid has no contract yet: the seat's share as taker (with a partner at 5 players) times the
    multiplier of the higher contract of the two compared, the best bid and the bid made (a pass
    counts as a Prise)."""
    def mult(token: str) -> int:
        try:
            return Contract.parse(token.removesuffix(" + chelem")).multiplier
        except RulesError:
            return 1                                    # pass
    best = options[0].choice if options else played
    return contract_scale(players, Contract.PRISE, 0, 0, None) * max(mult(best), mult(played))


def verdict(loss: Mean) -> str | None:
    """``blunder``, ``mistake``, ``inaccuracy`` or None for a loss with its standard error."""
    if loss.n < 2 or not loss.mean > NOISE_SE * loss.se:
        return None
    for name, threshold in THRESHOLDS:
        if loss.mean >= threshold:
            return name
    return None
