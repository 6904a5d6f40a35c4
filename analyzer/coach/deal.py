"""Analysing a played deal: every decision of the chosen seats judged in order, and a summary per seat.

Each decision is judged from what its seat knew then (``analyzer.coach.cards`` for cards; the bid,
the call, the discard, the poignée and the chelem by the advice analyses, on deals dealt from the
seat's hand).  Every decision draws from its own seed, derived from the run's seed and the decision's
place in the record, so a report does not depend on which seats are analysed or on the threads.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Callable, Iterable

from analyzer import cards as C
from analyzer.coach import reasons as R
from analyzer.coach.auction_reading import AuctionReading, reading_of
from analyzer.coach.board import board_extras, finish_line, line_seed, luck_and_skill
from analyzer.coach.cards import WORLDS, judge_card
from analyzer.coach.decisions import judge_before_play
from analyzer.coach.standin import stand_in
from analyzer.coach.verdicts import Decision, bid_scale, contract_scale, is_open
from analyzer.errors import TarotError
from analyzer.game import Game
from analyzer.notation import parse_card
from analyzer.runs import MIXED, Settings

GOLDEN = 0x9E3779B97F4A7C15
ACCURACY_SCALE = 5.0        # contract points of mean loss per judged decision that take accuracy to 100/e


@dataclass(frozen=True)
class SeatSummary:
    seat: int
    judged: int
    points_lost: float
    verdicts: dict[str, int]
    by_phase: dict[str, float]          # points lost per phase (own score)
    accuracy: float | None              # 0-100, see ``accuracy``
    lost: float = 0.0                   # contract points lost
    lost_by_phase: dict[str, float] = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {"judged": self.judged, "points_lost": self.points_lost, "verdicts": dict(self.verdicts),
                "points_lost_by_phase": dict(self.by_phase), "contract_points_lost": self.lost,
                "contract_points_lost_by_phase": dict(self.lost_by_phase), "accuracy": self.accuracy}


@dataclass(frozen=True)
class DealReport:
    index: int
    players: int
    decisions: list[Decision]
    policy: str
    worlds: int
    board: dict | None = field(default=None, compare=False)     # ``analyzer.coach.board.board_extras``
    reading: AuctionReading = AuctionReading()                  # how the recorded bids were read

    def summary(self) -> dict[int, SeatSummary]:
        seats = sorted({d.seat for d in self.decisions})
        return {s: summarize_seat(s, [d for d in self.decisions if d.seat == s]) for s in seats}

    def as_dict(self) -> dict:
        summary = self.summary()
        out = {"index": self.index, "players": self.players, "policy": self.policy, "worlds": self.worlds,
               "auction_read": {"bidding": self.reading.bidding, "noise": self.reading.noise},
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
    """100 × exp(−mean loss / ``ACCURACY_SCALE``): the mean, over the seat's judged decisions, of the
    contract points each lost (docs/coaching.md).  100 when nothing was lost; one blunder among twenty
    good cards takes it far down.  None when no decision was judged."""
    losses = [max(d.loss.mean, 0.0) for d in decisions if d.judged and d.made_option is not None]
    if not losses:
        return None
    return 100.0 * math.exp(-sum(losses) / len(losses) / ACCURACY_SCALE)


def summarize_seat(seat: int, decisions: list[Decision]) -> SeatSummary:
    judged = [d for d in decisions if d.judged]
    verdicts = {"inaccuracy": 0, "mistake": 0, "blunder": 0}
    by_phase: dict[str, float] = {}
    lost_by_phase: dict[str, float] = {}
    for d in judged:
        if d.verdict:
            verdicts[d.verdict] += 1
        by_phase[d.phase] = by_phase.get(d.phase, 0.0) + d.loss_score.mean
        lost_by_phase[d.phase] = lost_by_phase.get(d.phase, 0.0) + d.loss.mean
    return SeatSummary(seat, len(judged), sum(by_phase.values()), verdicts, by_phase, accuracy(judged),
                       sum(lost_by_phase.values()), lost_by_phase)


def scaled(d: Decision, game: Game, final: Game) -> Decision:
    """``d`` with its ``scale``: a bid's from its alternatives, any other's from the contract and the
    seat's share (the sides as the deal ended: the taker's share at 5 players depends on the call)."""
    if not d.judged:
        return d
    if d.phase == "bid" or final.contract is None:
        scale = bid_scale(game.rules.players, d.options, d.played)
    else:
        alone = game.rules.players == 5 and final.partner is None
        scale = contract_scale(game.rules.players, final.contract, d.seat, final.taker, final.partner, alone,
                               game.rules)
    return dataclasses.replace(d, scale=scale)


def named(d: Decision, game: Game, final: Game, line: Game | None) -> Decision:
    """``d`` with the facts that make its verdict (``analyzer.coach.reasons``); unchanged when not flagged."""
    if not d.verdict:
        return d
    best = d.best.choice
    if d.phase == "card":
        found = R.card_reasons(d.seat, d.trick - 1, final, line)
    elif d.phase == "bid":
        found = R.bid_reasons(d.played, best)
    elif d.phase == "discard":
        found = R.discard_reasons(game.deal.hands[d.seat].mask | game.deal.chien.mask, d.played, best)
    else:
        found = R.choice_reasons(d.phase, d.played, best)
    return dataclasses.replace(d, reasons=tuple(found))


def judge_decision(game: Game, decision, settings: Settings, final: Game,
                   reading: AuctionReading = AuctionReading()) -> Decision:
    """A decision before the play, in contract points: under the mixed model the heuristic's screen
    (``settings.deals`` deals, ``DEALS`` when None), and where the screen leaves it open (``is_open``) the
    advice commands' own run: the mixed model to its precision, or on ``settings.deals`` deals when
    they are set (``analyze --deals``: the size of every simulation of the analysis)."""
    mixed = settings.policy == MIXED
    screen = settings.with_(policy="heuristic") if mixed else settings
    judged = dataclasses.replace(scaled(judge_before_play(game, decision, screen, reading=reading), game, final),
                                 judged_by=screen.policy)
    if not mixed or not is_open(judged):
        return judged
    bounded = settings.deals is not None
    again = scaled(judge_before_play(game, decision, settings, to_precision=not bounded, reading=reading), game, final)
    return dataclasses.replace(again, judged_by=MIXED) if again.judged else judged


def decision_seed(seed: int, index: int) -> int:
    """The seed of the decision made after ``index`` actions of a record."""
    return (seed * GOLDEN + index * 0xD1B54A32D192ED03 + 1) % 2**63


def to_judge(record, seats: Iterable[int] | None, phases: Iterable[str] | None = None,
             tricks: Iterable[int] | None = None) -> list:
    """The decisions of ``record`` that ``analyze_record`` judges, in order: those of ``seats``
    (0-based; None: every seat whose hand is known), of ``phases`` when given (``card``, ``bid``,
    ...), and with ``tricks`` (1-based) only the cards played in those tricks."""
    wanted = set(record.known_seats if seats is None else seats)
    phases = None if phases is None else set(phases)
    tricks = None if tricks is None else set(tricks)
    out, cards = [], 0
    for d in record.decisions():
        trick = cards // record.players + 1 if d.phase == "card" else None
        cards += d.phase == "card"
        if d.seat not in wanted or (phases is not None and d.phase not in phases):
            continue
        if tricks is not None and trick not in tricks:
            continue
        out.append(d)
    return out


def analyze_record(record, seats: Iterable[int] | None, settings: Settings, index: int = 0,
                   progress: Callable[[int, int], None] | None = None, with_board: bool = True,
                   noise: float | None = None, phases: Iterable[str] | None = None,
                   tricks: Iterable[int] | None = None) -> DealReport:
    """Judge the decisions of ``seats`` (0-based; None: every seat whose hand is known) in ``record``
    (an ``analyzer.records.Record``), only those of ``phases`` when given (``card``, ``bid``, ...)
    and with ``tricks`` (1-based) only the cards of those tricks (``to_judge``; the others then have
    no decisions in the report: each decision is judged on its own seed, so the same either way).
    A record with unknown hands is judged on a stand-in layout
    (``analyzer.coach.standin``) from its known seats, without hindsight.  ``with_board``: the replay
    board's figures too (``analyzer.coach.board``: the table, the curves, the lines of the flagged
    cards, luck and skill).  The bids are read as ``reading_of(record, noise)`` says: by the model that bid
    them, exactly, for a record it bid (its ``Bidding`` tag), else by ``bid``'s model with its error;
    ``noise`` points of error when given."""
    wanted = set(record.known_seats if seats is None else seats)
    reading = reading_of(record, noise)
    original = record
    complete = record.replay.complete
    if not complete:
        for seat in sorted(wanted):
            record = stand_in(record, seat, settings.seed)
    todo = to_judge(record, wanted, phases, tricks)
    out = []
    positions = {}
    finished = {}
    final = record.game
    for k, d in enumerate(todo):
        game = record.position(d.index)
        own = settings.with_(seed=decision_seed(settings.seed, d.index))
        if d.phase == "card":
            judged = scaled(judge_card(game, parse_card(d.action), own, hindsight=complete,
                                       is_open=lambda screened: is_open(scaled(screened, game, final)), reading=reading),
                            game, final)
            if judged.judged:
                positions[len(out)] = game
            line = None
            if judged.verdict and complete:
                try:
                    finished[len(out)] = finish_line(game, C.TOKENS.index(judged.best.choice), settings,
                                                     line_seed(settings, len(out)))
                    line = finished[len(out)][0]
                except TarotError:
                    line = None
            out.append(named(judged, game, final, line))
        else:
            out.append(named(judge_decision(game, d, own, final, reading), game, final, None))
        if progress:
            progress(k + 1, len(todo))
    report = DealReport(index, record.players, out, settings.policy, settings.worlds_per_card or WORLDS,
                        reading=reading)
    if with_board:
        board = board_extras(original, record, out, positions, settings, finished)
        board["luck"] = luck_and_skill(original, out, report.summary())
        report = dataclasses.replace(report, board=board)
    return report
