"""Analysing a played deal: every decision of the chosen seats judged in order, and a summary per seat.

Each decision is judged from what its seat knew then (``analyzer.coach.cards`` for cards; the bid,
the call, the discard, the poignée and the chelem by the advice analyses, on deals dealt from the
seat's hand).  Every decision draws from its own seed, derived from the run's seed and the decision's
place in the record, so a report does not depend on which seats are analysed or on the threads.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Callable, Iterable

from analyzer.coach.board import board_extras, luck_and_skill
from analyzer.coach.cards import WORLDS, judge_card
from analyzer.coach.decisions import judge_before_play
from analyzer.coach.standin import stand_in
from analyzer.coach.verdicts import Decision
from analyzer.notation import parse_card
from analyzer.runs import Settings

GOLDEN = 0x9E3779B97F4A7C15


@dataclass(frozen=True)
class SeatSummary:
    seat: int
    judged: int
    points_lost: float
    verdicts: dict[str, int]
    by_phase: dict[str, float]          # points lost per phase
    accuracy: float | None              # 0-100, see ``accuracy``

    def as_dict(self) -> dict:
        return {"judged": self.judged, "points_lost": self.points_lost, "verdicts": dict(self.verdicts),
                "points_lost_by_phase": dict(self.by_phase), "accuracy": self.accuracy}


@dataclass(frozen=True)
class DealReport:
    index: int
    players: int
    decisions: list[Decision]
    policy: str
    worlds: int
    board: dict | None = field(default=None, compare=False)     # ``analyzer.coach.board.board_extras``

    def summary(self) -> dict[int, SeatSummary]:
        seats = sorted({d.seat for d in self.decisions})
        return {s: summarize_seat(s, [d for d in self.decisions if d.seat == s]) for s in seats}

    def as_dict(self) -> dict:
        summary = self.summary()
        out = {"index": self.index, "players": self.players, "policy": self.policy, "worlds": self.worlds,
               "decisions": [d.as_dict() for d in self.decisions],
               "summary": {str(s + 1): v.as_dict() for s, v in summary.items()}}
        if self.board is not None:
            out["table"] = self.board["table"]
            out["curve"] = self.board["curve"]
            out["lines"] = self.board["lines"]
            out["steps"] = self.board["steps"]
            out["classes"] = self.board["classes"]
            out["luck"] = self.board["luck"]
        return out


def accuracy(decisions: Iterable[Decision]) -> float | None:
    """The share (0-100) of the points at stake that the seat kept: over its judged decisions, the sum
    of (choice made − worst alternative) over the sum of (best − worst).  None when nothing was at stake."""
    kept = stake = 0.0
    for d in decisions:
        if not d.judged or d.made_option is None:
            continue
        worst = min(o.score.mean for o in d.options)
        kept += d.made_option.score.mean - worst
        stake += d.best.score.mean - worst
    return 100.0 * kept / stake if stake > 0 else None


def summarize_seat(seat: int, decisions: list[Decision]) -> SeatSummary:
    judged = [d for d in decisions if d.judged]
    verdicts = {"inaccuracy": 0, "mistake": 0, "blunder": 0}
    by_phase: dict[str, float] = {}
    for d in judged:
        if d.verdict:
            verdicts[d.verdict] += 1
        by_phase[d.phase] = by_phase.get(d.phase, 0.0) + d.loss.mean
    return SeatSummary(seat, len(judged), sum(by_phase.values()), verdicts, by_phase, accuracy(judged))


def decision_seed(seed: int, index: int) -> int:
    """The seed of the decision made after ``index`` actions of a record."""
    return (seed * GOLDEN + index * 0xD1B54A32D192ED03 + 1) % 2**63


def analyze_record(record, seats: Iterable[int] | None, settings: Settings, index: int = 0,
                   progress: Callable[[int, int], None] | None = None, with_board: bool = True) -> DealReport:
    """Judge the decisions of ``seats`` (0-based; None: every seat whose hand is known) in ``record``
    (an ``analyzer.records.Record``).  A record with unknown hands is judged on a stand-in layout
    (``analyzer.coach.standin``) from its known seats, without hindsight.  ``with_board``: the replay
    board's figures too (``analyzer.coach.board``: the table, the curves, the lines of the flagged
    cards, luck and skill)."""
    wanted = set(record.known_seats if seats is None else seats)
    original = record
    complete = record.replay.complete
    if not complete:
        for seat in sorted(wanted):
            record = stand_in(record, seat, settings.seed)
    todo = [d for d in record.decisions() if d.seat in wanted]
    out = []
    positions = {}
    for k, d in enumerate(todo):
        game = record.position(d.index)
        own = settings.with_(seed=decision_seed(settings.seed, d.index))
        if d.phase == "card":
            out.append(judge_card(game, parse_card(d.action), own, hindsight=complete))
            if out[-1].judged:
                positions[len(out) - 1] = game
        else:
            out.append(judge_before_play(game, d, own))
        if progress:
            progress(k + 1, len(todo))
    report = DealReport(index, record.players, out, settings.policy, settings.worlds_per_card or WORLDS)
    if with_board:
        board = board_extras(original, record, out, positions, settings)
        board["luck"] = luck_and_skill(original, out, report.summary())
        report = dataclasses.replace(report, board=board)
    return report
